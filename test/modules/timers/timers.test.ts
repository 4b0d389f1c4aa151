// GET /characters/{id}/timers and GET /characters/timers (issue 41 section 2): raid lockouts and
// runs this week from the runs the server keeps, at times the test controls, on a fresh database
// whose catalog is the one that ships (the wiki's list: no group size), on both APIs.
import { beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { catalogState, quests } from '../../../src/db/schema'
import { silentLogger } from '../../../src/logger'
import { fillFromSnapshot } from '../../../src/modules/catalog/snapshot'
import { raidLockoutsByCharacter, timersOf } from '../../../src/modules/timers/service'
import { insertCharacter, ok, refused, testApp } from '../../helpers'

const H = 3_600_000
let t: ReturnType<typeof testApp>
let alice: string
let brom: { id: number }
let start: number

/** Logs a run: 201 for a new completion, 200 for another run of a stored one. */
async function log(name: string, difficulty: string, setting: string, completedAt: string, id = brom.id) {
  const answer = await t.plugin(alice).characters({ id }).completions.post({ name, difficulty, setting, completedAt })
  expect([200, 201]).toContain(answer.status)
  return answer.data
}

const timers = async () => ok(await t.plugin(alice).characters({ id: brom.id }).timers.get())
const at = (hoursFromStart: number) => new Date(start + hoursFromStart * H).toISOString()

beforeEach(async () => {
  t = testApp()
  fillFromSnapshot({ db: t.db, logger: silentLogger })
  alice = await t.userWithToken('alice')
  brom = insertCharacter(t.db, 'alice', { givenName: 'Brom' })
  start = t.clock.now().getTime()
})

describe('raid lockouts', () => {
  test('a raid of the shipped catalog locks for 66 hours after its run, then it is ready', async () => {
    await log('The Shroud', 'Heroic', 'elite', at(0))
    const answer = await timers()
    expect(answer).toEqual({
      character: { id: brom.id, name: 'Brom' },
      at: at(0),
      rules: { raidTimerHours: 66, ransackTimerHours: 168, normalLootLootings: 8 },
      raids: [{ name: 'The Shroud', lastRunAt: at(0), readyAt: at(66) }],
      quests: [
        {
          name: 'The Shroud',
          difficulty: 'Heroic',
          runsThisWeek: 1,
          windowStartedAt: at(0),
          resetsAt: at(168),
          ransackLikely: false,
        },
      ],
    })
    t.clock.advance(66 * H - 1)
    expect((await timers()).raids).toHaveLength(1)
    t.clock.advance(1)
    expect((await timers()).raids).toEqual([])
  })

  test('per raid: the latest run of any tier or setting; a quest that is no raid never locks', async () => {
    await log('The Vault of Night', 'Heroic', 'hard', at(-10))
    await log('The Vault of Night', 'Epic', 'elite', at(-2))
    await log('The Pit', 'Heroic', 'elite', at(-1))
    expect((await timers()).raids).toEqual([{ name: 'The Vault of Night', lastRunAt: at(-2), readyAt: at(64) }])
  })

  test("the legendary Shroud (The Codex and the Shroud) is a raid of its own; Tempest's Spine has no timer", async () => {
    for (const [name, difficulty, hours] of [
      ['The Codex and the Shroud', 'Legendary', -5],
      ["Tempest's Spine", 'Heroic', -1],
      ['the shroud', 'Heroic', -3],
    ] as const) {
      await log(name, difficulty, 'normal', at(hours))
    }
    // "the shroud" was stored in the catalog's spelling.
    expect((await timers()).raids).toEqual([
      { name: 'The Codex and the Shroud', lastRunAt: at(-5), readyAt: at(61) },
      { name: 'The Shroud', lastRunAt: at(-3), readyAt: at(63) },
    ])
  })

  test('a run of an earlier life still locks: a reincarnation does not reset the raid timer', async () => {
    const me = t.plugin(alice).characters({ id: brom.id })
    ok(await me.lives.get())
    await log('The Shroud', 'Heroic', 'elite', at(0))
    t.clock.advance(H)
    ok(await me.lives.reincarnate.post({}))
    expect((await timers()).raids.map((r) => r.name)).toEqual(['The Shroud'])
    expect(ok(await me.progress.get()).completions).toEqual([])
  })

  test('a ticked box in the tracker is a run at that time (the website)', async () => {
    const cookie = await t.signIn('alice')
    ok(
      await t
        .web(cookie)
        .characters({ id: brom.id })
        .completions.post({ name: 'Hound of Xoriat', difficulty: 'Heroic', setting: 'elite', completedAt: at(0) }),
      201,
    )
    const answer = ok(await t.web(cookie).characters({ id: brom.id }).timers.get())
    expect(answer.raids).toEqual([{ name: 'Hound of Xoriat', lastRunAt: at(0), readyAt: at(66) }])
  })

  test("a source's group size decides: a quest it calls a raid locks, one it does not never does", async () => {
    t.db.update(quests).set({ groupSize: 'Raid' }).where(eq(quests.name, 'The Pit')).run()
    t.db.update(quests).set({ groupSize: 'Party' }).where(eq(quests.name, 'The Shroud')).run()
    // The catalog's index is rebuilt when its state row says it changed (a sync does this).
    t.db
      .update(catalogState)
      .set({ syncedAt: at(-1) })
      .run()
    for (const [name, hours] of [
      ['The Pit', -1],
      ['The Shroud', -2],
    ] as const) {
      await log(name, 'Heroic', 'elite', at(hours))
    }
    expect((await timers()).raids.map((r) => r.name)).toEqual(['The Pit'])
  })
})

describe('runs this week (chest ransack)', () => {
  test('counted per quest and tier over every setting: from the 8th the next is likely ransacked', async () => {
    const settings = ['casual', 'normal', 'hard', 'elite', 'reaper', 'elite', 'hard', 'normal', 'elite']
    for (const [i, setting] of settings.entries()) {
      await log('The Pit', 'Heroic', setting, at(i - 9))
      const week = (await timers()).quests.find((q) => q.name === 'The Pit')
      expect([week?.runsThisWeek, week?.ransackLikely]).toEqual([i + 1, i + 1 >= 8])
    }
    const week = (await timers()).quests[0]
    expect(week).toEqual({
      name: 'The Pit',
      difficulty: 'Heroic',
      runsThisWeek: 9,
      windowStartedAt: at(-9),
      resetsAt: at(159),
      ransackLikely: true,
    })
  })

  test('the window is the first run’s: at 168 hours it ends, and the next run begins another', async () => {
    for (const hours of [0, 1, 2]) {
      await log('Kobold Assault', 'Heroic', 'elite', at(hours))
    }
    t.clock.advance(167 * H)
    expect((await timers()).quests.map((q) => [q.name, q.runsThisWeek])).toEqual([['Kobold Assault', 3]])
    t.clock.advance(H)
    expect((await timers()).quests).toEqual([])
    // A run at 170 h: the runs at 1 and 2 h were the old window's, not the last 168 hours'.
    t.clock.advance(2 * H)
    await log('Kobold Assault', 'Heroic', 'elite', at(170))
    expect((await timers()).quests.map((q) => [q.runsThisWeek, q.windowStartedAt, q.resetsAt])).toEqual([
      [1, at(170), at(338)],
    ])
  })

  test('a run sent again with the same time (the game client re-sends) is one run', async () => {
    for (let i = 0; i < 3; i++) {
      await log('Kobold Assault', 'Heroic', 'elite', at(-1))
    }
    expect((await timers()).quests.map((q) => q.runsThisWeek)).toEqual([1])
  })
})

describe('access and the overview of every character', () => {
  test("another account's character is 404, a non-integer id 400, no credential 401", async () => {
    const bob = await t.userWithToken('bob')
    refused(await t.plugin(bob).characters({ id: brom.id }).timers.get(), 404)
    refused(await t.plugin(alice).characters({ id: 'x' }).timers.get(), 400)
    expect((await t.request('GET', `/api/plugin/characters/${brom.id}/timers`)).status).toBe(401)
    expect((await t.request('GET', '/api/characters/timers')).status).toBe(401)
  })

  test('GET /characters/timers: each of the account\u2019s characters, and nobody else\u2019s', async () => {
    const ria = insertCharacter(t.db, 'alice', { givenName: 'Ria', surname: 'Vale' })
    const bob = await t.userWithToken('bob')
    insertCharacter(t.db, 'bob', { givenName: 'Bobby' })
    await log('The Shroud', 'Heroic', 'elite', at(-6), ria.id)
    const all = ok(await t.plugin(alice).characters.timers.get())
    expect(all.at).toBe(at(0))
    expect(all.characters.map((c) => [c.id, c.name, c.raids.map((r) => r.readyAt), c.quests.length])).toEqual([
      [brom.id, 'Brom', [], 0],
      [ria.id, 'Ria Vale', [at(60)], 1],
    ])
    expect(ok(await t.plugin(bob).characters.timers.get()).characters.map((c) => c.name)).toEqual(['Bobby'])
  })
})

test('/info announces the raid timers', async () => {
  expect(ok(await t.plugin(alice).info.get()).features).toMatchObject({ raidTimers: true })
})

describe('raidLockoutsByCharacter (for the alts grid)', () => {
  test('each character asked for, with its raids on lockout and when each ends, as its own timers say', async () => {
    const ria = insertCharacter(t.db, 'alice', { givenName: 'Ria' })
    const idle = insertCharacter(t.db, 'alice', { givenName: 'Idle' })
    await log('The Shroud', 'Heroic', 'elite', at(-100))
    await log('The Shroud', 'Epic', 'hard', at(-10))
    await log('Hound of Xoriat', 'Heroic', 'elite', at(-67))
    await log('The Pit', 'Heroic', 'elite', at(-1))
    await log('The Vault of Night', 'Heroic', 'normal', at(-65), ria.id)
    await log('The Shroud', 'Heroic', 'reaper', at(-30), ria.id)
    const now = t.clock.now()
    const byCharacter = raidLockoutsByCharacter(t.db, [ria.id, brom.id, idle.id, 987654], now)
    expect([...byCharacter.keys()]).toEqual([ria.id, brom.id, idle.id, 987654])
    expect(byCharacter.get(brom.id)).toEqual([{ name: 'The Shroud', lastRunAt: at(-10), readyAt: at(56) }])
    expect(byCharacter.get(ria.id)).toEqual([
      { name: 'The Vault of Night', lastRunAt: at(-65), readyAt: at(1) },
      { name: 'The Shroud', lastRunAt: at(-30), readyAt: at(36) },
    ])
    expect(byCharacter.get(idle.id)).toEqual([])
    expect(byCharacter.get(987654)).toEqual([])
    for (const id of [brom.id, ria.id]) expect(byCharacter.get(id)).toEqual(timersOf(t.db, id, now).raids)
    // At the hour the Vault ends, it is gone.
    const later = new Date(start + H)
    expect(
      raidLockoutsByCharacter(t.db, [ria.id], later)
        .get(ria.id)
        ?.map((r) => r.name),
    ).toEqual(['The Shroud'])
    expect(raidLockoutsByCharacter(t.db, [], now).size).toBe(0)
  })
})
