// The change an event carries, applied to the progress a page holds (src/web/tracker/changes.ts),
// equals a progress read after the write, for every kind of change; the event's tag is the one
// that read answers with, one version after the page's; an open tracker (the store) follows a
// burst of writes from the events alone, re-reading only after a gap in their numbers; and a
// change redraws the rows it changed, not all of them.
import { afterEach, describe, expect, test } from 'bun:test'
import type { ChangeDelta } from '../../../src/modules/events/feed'
import type { Completion, QuestRow } from '../../../src/web/api'
import type { ChangeEvent } from '../../../src/web/live'
import { applyChange, tagParts } from '../../../src/web/tracker/changes'
import { rowKey } from '../../../src/web/tracker/model'
import { createTrackerStore } from '../../../src/web/tracker/store'
import { insertCharacter, ok, testApp } from '../../helpers'

type Setup = Awaited<ReturnType<typeof setup>>

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const cookie = await t.signIn('alice')
  const character = insertCharacter(t.db, 'alice', { givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 10 }] })
  const me = t.plugin(token).characters({ id: character.id })
  return { t, token, cookie, character, me }
}

/** The website's progress read (of one life, or the current one) and its ETag. */
async function read(s: Setup, life?: number) {
  const answer = await s.t
    .web(s.cookie)
    .characters({ id: s.character.id })
    .progress.get(life ? { query: { life } } : {})
  return { progress: ok(answer), tag: answer.response.headers.get('etag') as string }
}

/** Opens the character's event stream; `next()` resolves with the next event's data. */
async function stream(s: Setup) {
  // Raw: an event stream is read as text.
  const response = await s.t.request('GET', `/api/characters/${s.character.id}/events`, { cookie: s.cookie })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  return {
    async next(): Promise<ChangeEvent> {
      for (;;) {
        const match = /event: change\ndata: (.*)\n\n/.exec(text)
        if (match) {
          text = text.slice((match.index ?? 0) + match[0].length)
          return JSON.parse(match[1] as string) as ChangeEvent
        }
        const chunk = await reader.read()
        if (chunk.done) throw new Error('the stream ended')
        text += decoder.decode(chunk.value)
      }
    },
    close: () => reader.cancel(),
  }
}

/**
 * `write`'s event applied to the read before it, against the read after it: equal, with the
 * event's tag that read's, one version on. `life`: the life the page shows (default current).
 */
async function expectEventEqualsRead(
  s: Setup,
  write: () => Promise<unknown>,
  delta: ChangeDelta['kind'],
  life?: number,
) {
  const before = await read(s, life)
  const events = await stream(s)
  await write()
  const event = await events.next()
  await events.close()
  const after = await read(s, life)
  expect(event.delta?.kind).toBe(delta)
  expect(applyChange(before.progress, event.delta as ChangeDelta)).toEqual(after.progress)
  expect(event.tag).toBe(after.tag)
  const [held, next] = [tagParts(before.tag), tagParts(event.tag)]
  expect(next).toEqual({ prefix: held?.prefix as string, version: (held?.version as number) + 1 })
  return { before, after, event }
}

/** Completions on three quests, two settings of one, at distinct times. */
async function withHistory(s: Setup) {
  for (const [name, setting] of [
    ['The Pit', 'elite'],
    ['The Pit', 'hard'],
    ['Tangleroot', 'normal'],
    ['Delera', 'reaper'],
  ] as const) {
    ok(await s.me.completions.post({ name, setting }), 201)
    s.t.clock.advance(60_000)
  }
}

describe('an event applied to the page equals a re-read', () => {
  test('a new completion goes first', async () => {
    const s = await setup()
    await withHistory(s)
    const { after } = await expectEventEqualsRead(
      s,
      () => s.me.completions.post({ name: 'Gwylan', setting: 'hard' }),
      'upsert',
    )
    expect(after.progress.completions[0]?.name).toBe('Gwylan')
    expect(after.progress.completedQuests).toContain('Gwylan')
  })

  test('a completion logged again moves to the top with its new figures; the quests done stay', async () => {
    const s = await setup()
    await withHistory(s)
    const { after } = await expectEventEqualsRead(
      s,
      () => s.me.completions.post({ name: 'The Pit', setting: 'elite', xpEarned: 1234 }),
      'upsert',
    )
    expect(after.progress.completions[0]).toMatchObject({ name: 'The Pit', setting: 'elite', xpEarned: 1234 })
  })

  test('a backdated run lands between the others; an older re-sent run changes nothing', async () => {
    const s = await setup()
    await withHistory(s)
    const between = new Date(Date.parse('2026-11-21T12:01:30.000Z')).toISOString()
    const { after } = await expectEventEqualsRead(
      s,
      () => s.me.completions.post({ name: 'Gwylan', setting: 'elite', completedAt: between }),
      'upsert',
    )
    expect(after.progress.completions.map((c) => c.name)).toEqual([
      'Delera',
      'Tangleroot',
      'Gwylan',
      'The Pit',
      'The Pit',
    ])
    await expectEventEqualsRead(
      s,
      () => s.me.completions.post({ name: 'Delera', setting: 'reaper', completedAt: '2026-11-20T00:00:00.000Z' }),
      'upsert',
    )
  })

  test('at the same time as another, the later row goes first, as the read orders them', async () => {
    const s = await setup()
    ok(await s.me.completions.post({ name: 'The Pit', setting: 'elite' }), 201)
    ok(await s.me.completions.post({ name: 'Tangleroot', setting: 'elite' }), 201)
    await expectEventEqualsRead(s, () => s.me.completions.post({ name: 'Delera', setting: 'elite' }), 'upsert')
    await expectEventEqualsRead(s, () => s.me.completions.post({ name: 'The Pit', setting: 'elite' }), 'upsert')
  })

  test('an untick: the name stays while another setting has it, and goes with its last', async () => {
    const s = await setup()
    await withHistory(s)
    const first = await expectEventEqualsRead(
      s,
      () => s.me.completions.delete({ name: 'The Pit', setting: 'hard' }),
      'remove',
    )
    expect(first.after.progress.completedQuests).toContain('The Pit')
    const last = await expectEventEqualsRead(
      s,
      () => s.me.completions.delete({ name: 'The Pit', setting: 'elite' }),
      'remove',
    )
    expect(last.after.progress.completedQuests).not.toContain('The Pit')
    await expectEventEqualsRead(s, () => s.me.completions.delete({ name: 'Delera', allSettings: true }), 'remove')
    // Nothing to untick still moves the version on, with an empty change.
    await expectEventEqualsRead(s, () => s.me.completions.delete({ name: 'Nowhere', setting: 'elite' }), 'remove')
  })

  test("the character's own fields: profile, tracker fields, a login, the live snapshot and the plan", async () => {
    const s = await setup()
    await withHistory(s)
    const writes: [string, () => Promise<unknown>][] = [
      ['profile', () => s.me.patch({ givenName: 'Regdar', classes: [{ name: 'Fighter', levels: 14 }] })],
      ['progress', () => s.me.progress.put({ targetDifficulty: 'elite', levelBand: 2, packState: { Vale: false } })],
      ['level', () => s.me.progress.put({ characterLevel: 12 })],
      ['login', () => s.me.login.post({})],
      [
        'live',
        () =>
          s.me.live.put({
            build: { level: 3, levels: [{ class: 'Rogue' }, { class: 'Fighter' }, { class: 'Rogue' }] },
          }),
      ],
      ['plan', () => s.me.build.put({ build: { notes: 'plan' } })],
    ]
    for (const [label, write] of writes) {
      const { before, after } = await expectEventEqualsRead(s, write, 'head')
      if (label !== 'login')
        expect({ label, changed: after.progress !== before.progress }).toEqual({ label, changed: true })
    }
  })

  test('a run of an earlier life changes that life, not the current one', async () => {
    const s = await setup()
    ok(await s.me.lives.get()) // life 1 opens now
    ok(await s.me.completions.post({ name: 'The Pit', setting: 'elite' }), 201)
    s.t.clock.advance(3_600_000)
    ok(await s.me.lives.reincarnate.post({}))
    ok(await s.me.completions.post({ name: 'Tangleroot', setting: 'elite' }), 201)
    const inLifeOne = () =>
      s.me.completions.post({ name: 'Delera', setting: 'hard', completedAt: '2026-11-21T12:30:00.000Z' })
    const current = await expectEventEqualsRead(s, inLifeOne, 'upsert')
    expect(current.event.delta).toMatchObject({ kind: 'upsert', life: 1 })
    expect(current.after.progress).toEqual(current.before.progress)
    const earlier = await expectEventEqualsRead(
      s,
      () => s.me.completions.post({ name: 'Gwylan', setting: 'hard', completedAt: '2026-11-21T12:40:00.000Z' }),
      'upsert',
      1,
    )
    expect(earlier.after.progress.completions.map((c) => c.name)).toEqual(['Gwylan', 'Delera', 'The Pit'])
  })
})

describe('an open tracker follows the events', () => {
  const realFetch = globalThis.fetch
  afterEach(() => {
    globalThis.fetch = realFetch
  })

  /**
   * The store of the tracker page, its requests going to the test app with the session; counts
   * progress reads. `hold` may keep a request from the server until the promise it gives settles.
   */
  async function openTracker(s: Setup, hold: (request: Request) => Promise<void> | undefined = () => undefined) {
    const reads = { progress: 0 }
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      request.headers.set('cookie', s.cookie)
      if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/progress')) reads.progress++
      await hold(request)
      return s.t.app.handle(request)
    }) as typeof fetch
    const character = ok(await s.t.web(s.cookie).characters({ id: s.character.id }).get())
    const { progress, tag } = await read(s)
    const store = createTrackerStore({ character, progress, tag, quests: [], save: true })
    store.liveMode.value = 'push'
    return { store, reads }
  }

  test('a burst of writes from the game is followed without one re-read, and equals a read', async () => {
    const s = await setup()
    await withHistory(s)
    const { store, reads } = await openTracker(s)
    const events = await stream(s)
    ok(await s.me.completions.post({ name: 'Gwylan', setting: 'elite' }), 201)
    ok(await s.me.completions.delete({ name: 'Tangleroot', setting: 'normal' }))
    ok(await s.me.progress.put({ levelBand: 4 }))
    ok(await s.me.login.post({}))
    for (let i = 0; i < 4; i++) expect(store.applyEvent(await events.next())).toBe(true)
    await events.close()
    expect(reads.progress).toBe(0)
    expect(store.progress.value).toEqual((await read(s)).progress)
  })

  test("the page's own tick is confirmed by its event, not by a read", async () => {
    const s = await setup()
    await withHistory(s)
    const { store, reads } = await openTracker(s)
    const events = await stream(s)
    const row = { name: 'Gwylan', difficulty: 'Heroic' } as Parameters<typeof store.toggleSetting>[0]
    store.toggleSetting(row, 'hard', true)
    expect(store.applyEvent(await events.next())).toBe(true)
    await Bun.sleep(10) // the write's answer
    await events.close()
    expect(reads.progress).toBe(0)
    expect(store.progress.value).toEqual((await read(s)).progress)
  })

  test('a tick is followed by the model, not counted again, and what the server holds moves once: at its event', async () => {
    const s = await setup()
    await withHistory(s)
    const { store } = await openTracker(s)
    const events = await stream(s)
    expect(store.tally.value.made).toBe('counted')
    const stored = store.stored.value
    const row = { name: 'Gwylan', difficulty: 'Heroic' } as Parameters<typeof store.toggleSetting>[0]
    store.toggleSetting(row, 'hard', true)
    // The page's own change: on the page at once, followed; nothing stored yet (what to run next waits).
    expect(store.tally.value.made).toBe('followed')
    expect(store.stored.value).toBe(stored)
    expect(store.applyEvent(await events.next())).toBe(true)
    expect(store.tally.value.made).toBe('followed')
    expect(store.stored.value).toBe(stored + 1)
    await Bun.sleep(10) // the write's answer
    await events.close()
    expect(store.index.value.get('Gwylan')?.map((c) => c.setting)).toContain('hard')
  })

  test("an undo stays on the page when the untick's own event arrives after it, and no longer once the server has it", async () => {
    const s = await setup()
    await withHistory(s)
    ok(await s.me.completions.post({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite', xpEarned: 3100 }), 201)
    const { store } = await openTracker(s)
    const events = await stream(s)
    const row = { name: 'The Pit', difficulty: 'Heroic' } as Parameters<typeof store.toggleSetting>[0]
    const elite = () =>
      (store.index.value.get('The Pit') ?? []).filter((c) => c.setting === 'elite').map((c) => c.difficulty)
    expect(elite().sort()).toEqual(['Heroic', 'Unknown'])
    store.toggleSetting(row, 'elite', false)
    expect(elite()).toEqual([])
    // The deletes' answers, one after the other: the offer.
    for (let i = 0; i < 100 && store.undo.offers.value[0]?.removed.length !== 2; i++) await Bun.sleep(5)
    const [offer] = store.undo.offers.value
    expect(offer?.removed).toHaveLength(2)
    // Undone at once; the untick's own event (sent before the restore) comes only now.
    store.undo.undo(offer as NonNullable<typeof offer>)
    expect(elite().sort()).toEqual(['Heroic', 'Unknown'])
    for (let i = 0; i < 2; i++) expect(store.applyEvent(await events.next())).toBe(true)
    expect(elite().sort()).toEqual(['Heroic', 'Unknown'])
    await Bun.sleep(20) // the restore's answer, and the re-read after it
    expect(store.progress.value).toEqual((await read(s)).progress)
    // The server has them now: the game's untick of the Heroic one takes it off, the page follows.
    // The restore's own event: already held, by the re-read after its answer.
    expect(store.applyEvent(await events.next())).toBe(true)
    ok(await s.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    expect(store.applyEvent(await events.next())).toBe(true)
    await events.close()
    expect(elite()).toEqual(['Unknown'])
    expect(store.progress.value).toEqual((await read(s)).progress)
  })

  test("the event of the page's own earlier write leaves a later change still unanswered on the page", async () => {
    const s = await setup()
    await withHistory(s)
    // The second filter change is held from the server until the test lets it go.
    let puts = 0
    const secondArrived = Promise.withResolvers<void>()
    const released = Promise.withResolvers<void>()
    const { store } = await openTracker(s, (request) => {
      if (request.method !== 'PUT' || ++puts !== 2) return undefined
      secondArrived.resolve()
      return released.promise
    })
    const events = await stream(s)
    store.setVersionFlag('heroic', 'no')
    store.setVersionFlag('heroic', 'any')
    await secondArrived.promise
    // The first change's event: the server's state before the second, which the page keeps.
    expect(store.applyEvent(await events.next())).toBe(true)
    expect(store.progress.value.versionFilter).toEqual({ heroic: 'any', epic: 'any', legendary: 'any' })
    // A change made now builds on what the page shows, not on that event.
    store.setVersionFlag('epic', 'yes')
    released.resolve()
    const want = { heroic: 'any', epic: 'yes', legendary: 'any' } as const
    for (let i = 0; i < 100 && (await read(s)).progress.versionFilter.epic !== 'yes'; i++) await Bun.sleep(5)
    await Bun.sleep(10) // the last write's answer
    await events.close()
    expect((await read(s)).progress.versionFilter).toEqual(want)
    expect(store.progress.value.versionFilter).toEqual(want)
  })

  test('a gap in the numbers (a change while the stream was away) is a re-read, and then they go on', async () => {
    const s = await setup()
    await withHistory(s)
    const { store, reads } = await openTracker(s)
    ok(await s.me.completions.post({ name: 'Gwylan', setting: 'elite' }), 201) // never seen by the page
    const events = await stream(s)
    ok(await s.me.completions.post({ name: 'Delera', setting: 'hard' }), 201)
    expect(store.applyEvent(await events.next())).toBe(false)
    await store.refresh()
    expect(reads.progress).toBe(1)
    ok(await s.me.completions.post({ name: 'The Pit', setting: 'normal' }), 201)
    expect(store.applyEvent(await events.next())).toBe(true)
    await events.close()
    expect(reads.progress).toBe(1)
    expect(store.progress.value).toEqual((await read(s)).progress)
  })

  test('a change the event does not carry (a reincarnation) is a re-read', async () => {
    const s = await setup()
    await withHistory(s)
    const { store } = await openTracker(s)
    const events = await stream(s)
    ok(await s.me.lives.reincarnate.post({}))
    expect(store.applyEvent(await events.next())).toBe(false)
    await events.close()
  })
})

describe("the tracker's rows after a change", () => {
  test('a tick gives a new log to its own remake only: every other row keeps its object, so it is not drawn again', async () => {
    const s = await setup()
    await withHistory(s)
    const quests = ['The Pit', 'Tangleroot', 'Delera', 'Gwylan'].flatMap((name) =>
      ['Heroic', 'Epic'].map((difficulty) => ({
        name,
        difficulty,
        level: 5,
        soloXP: null,
        normalXP: 100,
        hardXP: 110,
        eliteXP: 120,
        duration: 'Short',
        pack: 'Free',
        patron: 'The Coin Lords',
        favor: 3,
        questId: null,
        groupSize: null,
        freeToVip: null,
        times: [],
      })),
    ) as QuestRow[]
    const { progress } = await read(s)
    const store = createTrackerStore({
      character: ok(await s.t.web(s.cookie).characters({ id: s.character.id }).get()),
      progress,
      quests,
      save: false,
    })
    const before = new Map(store.logs.value)
    store.progress.value = applyChange(store.progress.value, {
      kind: 'upsert',
      life: 1,
      completion: {
        ...(progress.completions[0] as Completion),
        name: 'The Pit',
        difficulty: 'Heroic',
        setting: 'normal',
      },
      position: 0,
    })
    const after = store.logs.value
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
    for (const [key, log] of after) {
      const changed = key === rowKey({ name: 'The Pit', difficulty: 'Heroic' })
      expect({ key, same: log === before.get(key) }).toEqual({ key, same: !changed })
    }
    // The history's The Pit was logged without a tier (it ticks every tier); the new one is Heroic's own.
    const pit = after.get(rowKey({ name: 'The Pit', difficulty: 'Heroic' }))
    expect({ own: [...(pit?.own ?? [])], viaUnknown: [...(pit?.viaUnknown ?? [])].sort() }).toEqual({
      own: ['normal'],
      viaUnknown: ['elite', 'hard'],
    })
  })
})
