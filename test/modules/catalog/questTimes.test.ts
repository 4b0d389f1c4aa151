// Issue 23 part 1 over HTTP: every run kept beside its completion (a re-sent run is the same run),
// the server's quest times served with the catalog from the runs of enough accounts (one vote
// each, rounded: issue 39), kept current from the runs that changed, and an account's opt-out;
// part 3's lives of completions.
import { describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { openDatabase } from '../../../src/db/client'
import { migrate } from '../../../src/db/migrate'
import { migrations } from '../../../src/db/migrations'
import { completions, questTimes, questTimesDirty, runs } from '../../../src/db/schema'
import {
  backlogWaitMs,
  MAX_QUEST_TIMES_RUNS_PER_REFRESH,
  QUEST_TIMES_REFRESH_MS,
  questTimesByRemake,
  questTimesVersion,
  refreshQuestTimes,
} from '../../../src/modules/catalog/questTimes'
import { RUNS_COUNTED_PER_CHARACTER } from '../../../src/rules/quests/runs'
import { loadCatalog } from '../../catalogFixture'
import { readRows, SMALL_JSON } from '../../catalogFixtures'
import { insertCharacter, ok, refused, testApp } from '../../helpers'

async function setup() {
  const t = testApp()
  loadCatalog(t.db, await readRows(SMALL_JSON))
  const alice = await t.userWithToken('alice')
  const bob = await t.userWithToken('bob')
  const carol = await t.userWithToken('carol')
  const brom = insertCharacter(t.db, 'alice', { givenName: 'Brom' })
  const vesna = insertCharacter(t.db, 'alice', { givenName: 'Vesna' })
  const bobbin = insertCharacter(t.db, 'bob', { givenName: 'Bobbin' })
  const carl = insertCharacter(t.db, 'carol', { givenName: 'Carl' })
  const post = (token: string, id: number, body: Record<string, unknown>) =>
    t
      .plugin(token)
      .characters({ id })
      .completions.post(body as never)
  const runsOf = (characterId: number) =>
    t.db
      .select({ completedAt: runs.completedAt, durationSeconds: runs.durationSeconds, xpEarned: runs.xpEarned })
      .from(runs)
      .innerJoin(completions, eq(completions.id, runs.completionId))
      .where(eq(completions.characterId, characterId))
      .orderBy(asc(runs.completedAt))
      .all()
  /** The catalog row's server times, once the refresh interval has passed. */
  const timesOf = async (name: string, difficulty: string) => {
    t.clock.advance(QUEST_TIMES_REFRESH_MS)
    const body = ok(await t.plugin(alice).quests.get())
    return body.quests.find((q) => q.name === name && q.difficulty === difficulty)?.times
  }
  return { ...t, alice, bob, carol, brom, vesna, bobbin, carl, post, runsOf, timesOf }
}

const crypt = (completedAt: string, durationSeconds?: number | null, xpEarned?: number | null) => ({
  name: 'Crypt',
  difficulty: 'Heroic',
  setting: 'elite',
  completedAt,
  ...(durationSeconds === undefined ? {} : { durationSeconds }),
  ...(xpEarned === undefined ? {} : { xpEarned }),
})

describe('runs', () => {
  test("every run is kept: a second elite run no longer overwrites the first one's time", async () => {
    const t = await setup()
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T10:00:00Z', 600, 3000)), 201)
    const second = ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T11:00:00Z', 900, 3100)))
    expect(second.completion).toMatchObject({ completedAt: '2026-11-20T11:00:00.000Z', durationSeconds: 900 })
    expect(t.runsOf(t.brom.id)).toEqual([
      { completedAt: '2026-11-20T10:00:00.000Z', durationSeconds: 600, xpEarned: 3000 },
      { completedAt: '2026-11-20T11:00:00.000Z', durationSeconds: 900, xpEarned: 3100 },
    ])
    expect(t.db.select({ runs: completions.runs }).from(completions).all()).toEqual([{ runs: 2 }])
  })

  test('a re-sent post (same completedAt) is the same run: not a second, its figures updated', async () => {
    const t = await setup()
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T10:00:00Z', 600)), 201)
    // The plugin re-sends what it could not deliver, here with the XP it learned since.
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T10:00:00Z', undefined, 3000)))
    expect(t.runsOf(t.brom.id)).toEqual([
      { completedAt: '2026-11-20T10:00:00.000Z', durationSeconds: 600, xpEarned: 3000 },
    ])
    expect(t.db.select({ runs: completions.runs }).from(completions).all()).toEqual([{ runs: 1 }])
  })

  test('an earlier run arriving late counts, but the completion keeps the latest run', async () => {
    const t = await setup()
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T11:00:00Z', 900, 3100)), 201)
    const late = ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T10:00:00Z', 600, 3000)))
    expect(late.completion).toMatchObject({
      completedAt: '2026-11-20T11:00:00.000Z',
      durationSeconds: 900,
      xpEarned: 3100,
    })
    expect(t.runsOf(t.brom.id)).toHaveLength(2)
  })

  test('deleting a completion takes its runs with it', async () => {
    const t = await setup()
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T10:00:00Z', 600)), 201)
    ok(
      await t.plugin(t.alice).characters({ id: t.brom.id }).completions.delete({ name: 'Crypt', difficulty: 'Heroic' }),
    )
    expect(t.db.select().from(runs).all()).toEqual([])
  })
})

describe("the server's quest times on /quests and /api/quests", () => {
  // Brom (alice) 600 s, Bobbin (bob) 900 s, Carl (carol) 1200 s, each 3000 XP: the accounts'
  // medians 600, 900, 1200 s -> 900 s; 300, 200 and 150 XP/min -> 200.
  async function threeAccounts() {
    const t = await setup()
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T10:00:00Z', 600, 3000)), 201)
    ok(await t.post(t.bob, t.bobbin.id, crypt('2026-11-20T11:00:00Z', 900, 3000)), 201)
    ok(await t.post(t.carol, t.carl.id, crypt('2026-11-20T12:00:00Z', 1200, 3000)), 201)
    return t
  }

  test('runs of 3 accounts: the median run and median XP per minute, on both catalogs', async () => {
    const t = await threeAccounts()
    const expected = [{ setting: 'elite', runs: 3, medianDurationSeconds: 900, medianXpPerMinute: 200 }]
    expect(await t.timesOf('Crypt', 'Heroic')).toEqual(expected)
    const website = ok(await t.api.quests.get())
    expect(website.quests.find((q) => q.name === 'Crypt' && q.difficulty === 'Heroic')?.times).toEqual(expected)
    // Other remakes of the name are rows of their own, with no runs.
    expect(await t.timesOf('Crypt', 'Epic')).toEqual([])
  })

  test('runs of fewer accounts show nothing, however many runs and characters', async () => {
    const t = await setup()
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T10:00:00Z', 600, 3000)), 201)
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T11:00:00Z', 900, 3000)))
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T12:00:00Z', 1200, 3000)))
    ok(await t.post(t.alice, t.vesna.id, crypt('2026-11-20T13:00:00Z', 1500, 3000)), 201)
    expect(await t.timesOf('Crypt', 'Heroic')).toEqual([])
    ok(await t.post(t.bob, t.bobbin.id, crypt('2026-11-20T14:00:00Z', 1800, 3000)), 201)
    expect(await t.timesOf('Crypt', 'Heroic')).toEqual([])
    // A third account: alice's median (900 + 1200) / 2 = 1050 s, bob's 1800, carol's 2100 -> 1800 s.
    ok(await t.post(t.carol, t.carl.id, crypt('2026-11-20T15:00:00Z', 2100, 3000)), 201)
    expect(await t.timesOf('Crypt', 'Heroic')).toMatchObject([{ runs: 6, medianDurationSeconds: 1800 }])
  })

  test("one account's 1 s and 7 day runs beside another's single run do not show that run (issue 39)", async () => {
    const t = await setup()
    // The victim: one run of 1234 s for 4321 XP (210.1 XP/min).
    ok(await t.post(t.bob, t.bobbin.id, crypt('2026-11-20T10:00:00Z', 1234, 4321)), 201)
    // One account, one character: a run of 1 s and one of 7 days. Three runs by two characters
    // made a figure, and the median of the three was the victim's run, exact.
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T11:00:00Z', 1, 100)), 201)
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T12:00:00Z', 604_800, 100)))
    expect(await t.timesOf('Crypt', 'Heroic')).toEqual([])
    // A third account makes a figure. Its run of 600 s (200 XP/min) is shorter than the victim's
    // and the attacker's vote (its median, 3.5 days) longer, so the median of the three votes is the
    // victim's run still, but only in whole minutes (1234 s -> 21 min) and to two figures (210.1 ->
    // 210), on every catalog ...
    ok(await t.post(t.carol, t.carl.id, crypt('2026-11-20T13:00:00Z', 600, 2000)), 201)
    const shown = [{ setting: 'elite', runs: 4, medianDurationSeconds: 1260, medianXpPerMinute: 210 }]
    expect(await t.timesOf('Crypt', 'Heroic')).toEqual(shown)
    const website = ok(await t.api.quests.get())
    expect(website.quests.find((q) => q.name === 'Crypt' && q.difficulty === 'Heroic')?.times).toEqual(shown)
    // ... and what to run next and the party planner rank with the same rounded figure.
    const dave = await t.userWithToken('dave')
    const dan = insertCharacter(t.db, 'dave', {
      givenName: 'Dan',
      classes: [{ name: 'Fighter', levels: 9 }],
      targetDifficulty: 'elite',
    })
    const next = ok(await t.plugin(dave).characters({ id: dan.id }).next.get())
    expect(next.quests.find((q) => q.name === 'Crypt')).toMatchObject({ minutesFrom: 'server', expectedMinutes: 21 })
  })

  test("one account's ten 60 s runs do not outvote five accounts' 1300 s, on the catalog or in /next (issue 39)", async () => {
    const t = await setup()
    // Five accounts ran it in 1300 s; each adds a character to the party planner's group below.
    const group = ok(await t.web(await t.signIn('alice')).groups.post({ name: 'Guild' }), 201)
    for (let i = 1; i <= 5; i++) {
      const token = await t.userWithToken(`player${i}`)
      const character = insertCharacter(t.db, `player${i}`, { givenName: `P${i}` })
      ok(await t.post(token, character.id, crypt('2026-11-20T10:00:00Z', 1300, 3000)), 201)
    }
    // One account, ten runs of 60 s: the median of every run was 60 s.
    for (let i = 0; i < 10; i++) {
      ok(await t.post(t.alice, t.brom.id, crypt(`2026-11-20T1${i}:30:00Z`, 60, 3000)), i === 0 ? 201 : 200)
    }
    // One vote each: 60, 1300 x 5 -> 1300 s, shown as 22 minutes.
    expect(await t.timesOf('Crypt', 'Heroic')).toMatchObject([{ medianDurationSeconds: 1320 }])
    // What to run next for a character of another account ranks with it.
    const fighter = insertCharacter(t.db, 'bob', {
      givenName: 'Fighter',
      classes: [{ name: 'Fighter', levels: 9 }],
      targetDifficulty: 'elite',
    })
    const next = ok(await t.plugin(t.bob).characters({ id: fighter.id }).next.get())
    expect(next.quests.find((q) => q.name === 'Crypt')).toMatchObject({ minutesFrom: 'server', expectedMinutes: 22 })
    // And so does the party planner.
    const ash = insertCharacter(t.db, 'alice', { givenName: 'Ash', classes: [{ name: 'Fighter', levels: 9 }] })
    const web = t.web(await t.signIn('alice'))
    ok(await web.groups({ id: group.id }).characters({ characterId: ash.id }).put())
    const plan = ok(
      await web.groups({ id: group.id }).party.get({ query: { characters: String(ash.id), setting: 'elite' } }),
    )
    expect(plan.quests.find((q) => q.name === 'Crypt' && q.difficulty === 'Heroic')?.time).toEqual({
      medianSeconds: 1320,
      runs: 15,
    })
  })

  test(`a character's latest ${RUNS_COUNTED_PER_CHARACTER} runs of a quest and setting count, not its older ones`, async () => {
    const t = await threeAccounts()
    // Brom's runs: twelve of 3000 s the day before (delivered late), his 600 s run, nine more of 600 s.
    for (let i = 0; i < 12; i++) {
      ok(await t.post(t.alice, t.brom.id, crypt(`2026-11-19T${String(i + 10).padStart(2, '0')}:00:00Z`, 3000, 3000)))
    }
    for (let i = 0; i < 9; i++) {
      ok(await t.post(t.alice, t.brom.id, crypt(`2026-11-21T1${i}:00:00Z`, 600, 3000)))
    }
    // His latest ten are 600 s: alice's vote 600 s (of all 22 runs it was 3000 s), bob's 900, carol's
    // 1200 -> 900 s, over 10 + 1 + 1 runs.
    expect(await t.timesOf('Crypt', 'Heroic')).toMatchObject([
      { runs: RUNS_COUNTED_PER_CHARACTER + 2, medianDurationSeconds: 900 },
    ])
  })

  test('a figure stored before accounts were counted (an upgraded database) is not served; it is computed again', async () => {
    // The schema before migration 0010, as the server before issue 39 left it: Crypt's figure is
    // one account's three runs.
    const before = migrations.findIndex((migration) => migration.tag === '0010_quest_times_accounts')
    expect(before).toBeGreaterThan(0)
    const db = openDatabase(':memory:', { migrations: migrations.slice(0, before) })
    const sqlite = db.$client
    sqlite.run(`insert into users (id, username, password_hash, created_at) values (1, 'alice', 'x', '2026-11-20')`)
    sqlite.run(`insert into characters (id, user_id, given_name, share_token, created_at, updated_at)
      values (1, 1, 'Brom', 'share', '2026-11-20', '2026-11-20')`)
    sqlite.run(`insert into completions (id, character_id, name, difficulty, setting, completed_at, runs, updated_at)
      values (1, 1, 'Crypt', 'Heroic', 'elite', '2026-11-20T10:00:00.000Z', 3, '2026-11-20')`)
    for (const [n, seconds] of [600, 1234, 1800].entries()) {
      sqlite.run(`insert into runs (completion_id, completed_at, duration_seconds, xp_earned)
        values (1, '2026-11-20T1${n}:00:00.000Z', ${seconds}, 3000)`)
    }
    sqlite.run(`delete from quest_times_dirty`)
    sqlite.run(`insert into quest_times (name, difficulty, setting, timed_runs, timed_characters, median_duration_seconds,
      xp_runs, xp_characters, median_xp_per_minute, updated_at)
      values ('Crypt', 'Heroic', 'elite', 3, 2, 1234, 3, 2, 145.9, '2026-11-20')`)
    migrate(db)
    // Marked to be computed again, and not served meanwhile.
    expect(db.select().from(questTimesDirty).all()).toEqual([{ name: 'Crypt', difficulty: 'Heroic', setting: 'elite' }])
    const t = testApp({}, { db })
    loadCatalog(t.db, await readRows(SMALL_JSON))
    // Before the refresh reaches it (a community's backlog takes a while), the old figure is not served.
    sqlite.run(`delete from quest_times_dirty`)
    expect(questTimesByRemake(t.db, t.clock).size).toBe(0)
    // Computed again: one account, no figure; the row counts it.
    sqlite.run(`insert into quest_times_dirty values ('Crypt', 'Heroic', 'elite')`)
    t.clock.advance(QUEST_TIMES_REFRESH_MS)
    expect(refreshQuestTimes(t.db, t.clock)).toBe(true)
    expect(questTimesByRemake(t.db, t.clock).size).toBe(0)
    expect(t.db.select().from(questTimes).all()).toMatchObject([
      { timedRuns: 3, timedCharacters: 1, timedAccounts: 1, medianDurationSeconds: null },
    ])
  })

  test('kept current from what changed: a new run moves the figure, the ETag changes with it', async () => {
    const t = await threeAccounts()
    expect(await t.timesOf('Crypt', 'Heroic')).toMatchObject([{ medianDurationSeconds: 900 }])
    const first = await t.api.quests.get()
    const etag = first.response.headers.get('etag') as string
    // Nothing marked once recomputed: no run is read again until one changes.
    expect(t.db.select().from(questTimesDirty).all()).toEqual([])
    ok(await t.post(t.bob, t.bobbin.id, crypt('2026-11-20T13:00:00Z', 1500, 3000)))
    expect(t.db.select().from(questTimesDirty).all()).toEqual([
      { name: 'Crypt', difficulty: 'Heroic', setting: 'elite' },
    ])
    // Within the refresh interval the figure stands (at most 10 s behind) ...
    const early = ok(await t.api.quests.get())
    expect(early.quests.find((q) => q.name === 'Crypt' && q.difficulty === 'Heroic')?.times[0]?.runs).toBe(3)
    // ... then it moves: bob's median (900 + 1500) / 2 = 1200; 600, 1200, 1200 -> 1200 s.
    expect(await t.timesOf('Crypt', 'Heroic')).toMatchObject([{ runs: 4, medianDurationSeconds: 1200 }])
    const again = await t.api.quests.get({ headers: { 'if-none-match': etag } })
    expect(again.status).toBe(200)
    expect(again.response.headers.get('etag')).not.toBe(etag)
  })

  test('a deleted character takes its runs out of the figures', async () => {
    const t = await threeAccounts()
    expect(await t.timesOf('Crypt', 'Heroic')).toHaveLength(1)
    ok(await t.plugin(t.bob).characters({ id: t.bobbin.id }).delete())
    expect(await t.timesOf('Crypt', 'Heroic')).toEqual([])
  })

  test('an account that opts out is not counted; opting in again counts it', async () => {
    const t = await threeAccounts()
    const bobWeb = t.web(await t.signIn('bob'))
    expect(ok(await bobWeb.account.settings.get())).toEqual({ shareQuestTimes: true })
    expect(ok(await bobWeb.account.settings.put({ shareQuestTimes: false }))).toEqual({ shareQuestTimes: false })
    // Without Bobbin's run: runs of two accounts, nothing to show.
    expect(await t.timesOf('Crypt', 'Heroic')).toEqual([])
    ok(await bobWeb.account.settings.put({ shareQuestTimes: true }))
    expect(await t.timesOf('Crypt', 'Heroic')).toMatchObject([{ runs: 3, medianDurationSeconds: 900 }])
  })

  test("the settings are the signed-in account's, cookie only; a wrong type is 400", async () => {
    const t = await setup()
    refused(await t.api.account.settings.put({ shareQuestTimes: false }), 401)
    const response = await t.json('PUT', '/api/account/settings', {
      cookie: await t.signIn('alice'),
      body: { shareQuestTimes: 'no' },
    })
    expect(response.status).toBe(400)
  })
})

describe('lives of completions', () => {
  async function reincarnated() {
    const t = await setup()
    const me = t.plugin(t.alice).characters({ id: t.brom.id })
    ok(await me.lives.get())
    t.clock.advance(60_000)
    ok(
      await t.post(t.alice, t.brom.id, { name: 'Crypt', difficulty: 'Heroic', setting: 'elite', durationSeconds: 600 }),
      201,
    )
    t.clock.advance(60_000)
    ok(await me.lives.reincarnate.post({}))
    t.clock.advance(60_000)
    return { ...t, me }
  }

  test('after a reincarnation the tracker starts over; the earlier life is there on demand', async () => {
    const t = await reincarnated()
    const now = ok(await t.me.progress.get())
    expect(now.completions).toEqual([])
    expect(now.life).toEqual({ index: 2, current: true, count: 2, questLife: 2, questLives: [1, 2] })
    const before = ok(await t.me.progress.get({ query: { life: 1 } }))
    expect(before.completions.map((c) => c.name)).toEqual(['Crypt'])
    expect(before.life).toEqual({ index: 1, current: false, count: 2, questLife: 1, questLives: [1, 2] })
    // The same quest in the new life is a completion of its own: 201, not an update.
    ok(await t.post(t.alice, t.brom.id, { name: 'Crypt', difficulty: 'Heroic', setting: 'elite' }), 201)
    expect(
      t.db.select({ life: completions.lifeIndex }).from(completions).orderBy(asc(completions.lifeIndex)).all(),
    ).toEqual([{ life: 1 }, { life: 2 }])
    // The characters list counts this life's quests: Crypt once.
    const { characters } = ok(await t.plugin(t.alice).characters.get())
    expect(characters.find((c) => c.id === t.brom.id)?.questsDone).toBe(1)
  })

  test('a run re-sent after the reincarnation goes to the life it was run in', async () => {
    const t = await reincarnated()
    // Run at 12:01:30, during life 1 (12:00 to 12:02), delivered now.
    ok(await t.post(t.alice, t.brom.id, { name: 'Bell Tower', completedAt: '2026-11-21T12:01:30Z' }), 201)
    expect(ok(await t.me.progress.get()).completions).toEqual([])
    expect(
      ok(await t.me.progress.get({ query: { life: 1 } }))
        .completions.map((c) => c.name)
        .sort(),
    ).toEqual(['Bell Tower', 'Crypt'])
  })

  test("unticking and a tracker's whole set change the current life only", async () => {
    const t = await reincarnated()
    ok(await t.me.completions.delete({ name: 'Crypt', difficulty: 'Heroic' }))
    ok(await t.me.progress.put({ completions: [] }))
    expect(ok(await t.me.progress.get({ query: { life: 1 } })).completions).toHaveLength(1)
  })

  test("a life the character never had is 404; another account's character is 404; a bad life is 400", async () => {
    const t = await reincarnated()
    refused(await t.me.progress.get({ query: { life: 3 } }), 404)
    refused(
      await t
        .plugin(t.bob)
        .characters({ id: t.brom.id })
        .progress.get({ query: { life: 1 } }),
      404,
    )
    const bad = await t.json('GET', `/api/plugin/characters/${t.brom.id}/progress?life=0`, { token: t.alice })
    expect(bad.status).toBe(400)
  })
})

describe('the refresh of the quest times is bounded by the runs it reads', () => {
  test('a backlog of marked quests is recomputed a share at a time, the rest a moment later, until none is left', async () => {
    const t = await setup()
    // 12 remakes marked, each with 1,000 runs (by three characters), each more than one refresh
    // reads. Written straight into the tables: posting them would take minutes.
    const sqlite = t.db.$client
    const characters = [t.brom.id, t.vesna.id, t.bobbin.id]
    sqlite.transaction(() => {
      for (let key = 0; key < 12; key++) {
        const ids = characters.map(
          (characterId) =>
            sqlite
              .query<{ id: number }, [number, string]>(
                `insert into completions (character_id, name, difficulty, setting, completed_at, runs, updated_at)
                 values (?, ?, 'Heroic', 'elite', '2026-11-20T10:00:00.000Z', 1, '2026-11-20T10:00:00.000Z') returning id`,
              )
              .get(characterId, `Quest ${key}`)?.id as number,
        )
        for (let n = 0; n < 1000; n++) {
          const completedAt = new Date(Date.parse('2026-11-01T00:00:00Z') + n * 60_000).toISOString()
          sqlite
            .query('insert into runs (completion_id, completed_at, duration_seconds) values (?, ?, 600)')
            .run(ids[n % 3] as number, completedAt)
        }
      }
    })()
    const marked = () => t.db.select().from(questTimesDirty).all().length
    expect(marked()).toBe(12)
    expect(refreshQuestTimes(t.db, t.clock, true)).toBe(true)
    const served = questTimesVersion(t.db)
    // Quests are read until MAX_QUEST_TIMES_RUNS_PER_REFRESH runs have been: one of 1,000 here.
    expect(MAX_QUEST_TIMES_RUNS_PER_REFRESH).toBeLessThan(1000)
    expect(marked()).toBe(11)
    // A backlog is taken up as soon as QUEST_TIMES_RUNS_PER_SECOND allows after the 1,000 runs
    // read (half a second), not at the next ten seconds.
    const wait = backlogWaitMs(1000)
    expect(wait).toBe(500)
    t.clock.advance(wait - 1)
    expect(refreshQuestTimes(t.db, t.clock)).toBe(false)
    t.clock.advance(1)
    expect(refreshQuestTimes(t.db, t.clock)).toBe(true)
    expect(marked()).toBe(10)
    // Until it is caught up, the figures served (and the catalog's ETag) stay as they were.
    expect(questTimesVersion(t.db)).toBe(served)
    for (let i = 0; i < 10; i++) {
      t.clock.advance(wait)
      refreshQuestTimes(t.db, t.clock)
    }
    expect(marked()).toBe(0)
    expect(questTimesVersion(t.db)).not.toBe(served)
    // With nothing left over, the next waits the whole interval again.
    t.clock.advance(wait)
    ok(await t.post(t.alice, t.brom.id, crypt('2026-11-20T12:00:00Z', 600)), 201)
    expect(refreshQuestTimes(t.db, t.clock)).toBe(false)
  })
})
