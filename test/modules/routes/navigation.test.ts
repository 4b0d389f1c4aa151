// GET /navigation over HTTP, on one route that mixes every case: an exact completion, another
// setting of the step's remake, Unknown-remake completions (exact and other setting), a
// completion of a different remake, and no completion at all — in both match modes.
import { describe, expect, test } from 'bun:test'
import type { Treaty } from '@elysiajs/eden'
import { completions } from '../../../src/db/schema'
import type { Difficulty, Setting } from '../../../src/rules/quests/completion'
import { type Client, insertCharacter, ok, refused, type TestApp, testApp } from '../../helpers'

type Navigation = Treaty.Data<Client['plugin']['navigation']['get']>
type NavStep = Navigation['steps'][number]
type NavQuery = Parameters<Client['plugin']['navigation']['get']>[0]['query']

// Typed as the steps answer them, so a step's expected answer can spread its quest.
const QUESTS: Pick<NavStep, 'name' | 'difficulty' | 'setting'>[] = [
  { name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }, // 1 exact (+ an Unknown-remake run)
  { name: 'Tangleroot Gorge', difficulty: 'Heroic', setting: 'hard' }, // 2 other settings only
  { name: 'Kobold Assault', difficulty: 'Epic', setting: 'elite' }, // 3 Unknown remake, exact setting
  { name: 'Stormcleave Outpost', difficulty: 'Legendary', setting: 'reaper' }, // 4 Unknown remake, other setting
  { name: "Delera's Tomb", difficulty: 'Heroic', setting: 'elite' }, // 5 nothing logged
  { name: 'Sharn Syndicate', difficulty: 'Epic', setting: 'elite' }, // 6 only another remake logged
]
const ROUTE = { name: 'Mixed', quests: QUESTS }

type Row = {
  name: string
  difficulty: Difficulty
  setting: Setting
  completedAt: string
  durationSeconds?: number | null
}

const LOGGED: Row[] = [
  {
    name: 'The Pit',
    difficulty: 'Heroic',
    setting: 'elite',
    completedAt: '2026-11-01T10:00:00.000Z',
    durationSeconds: 600,
  },
  // Later, but an Unknown remake: the exact remake is the better match.
  {
    name: 'The Pit',
    difficulty: 'Unknown',
    setting: 'elite',
    completedAt: '2026-11-02T10:00:00.000Z',
    durationSeconds: 500,
  },
  {
    name: 'Tangleroot Gorge',
    difficulty: 'Heroic',
    setting: 'normal',
    completedAt: '2026-11-03T10:00:00.000Z',
    durationSeconds: 900,
  },
  // Later again, but Unknown remake and not the step's setting either.
  {
    name: 'Tangleroot Gorge',
    difficulty: 'Unknown',
    setting: 'reaper',
    completedAt: '2026-11-04T10:00:00.000Z',
    durationSeconds: 1200,
  },
  // Names compare without regard to case.
  {
    name: 'kobold assault',
    difficulty: 'Unknown',
    setting: 'elite',
    completedAt: '2026-11-05T10:00:00.000Z',
    durationSeconds: null,
  },
  {
    name: 'Stormcleave Outpost',
    difficulty: 'Unknown',
    setting: 'hard',
    completedAt: '2026-11-06T10:00:00.000Z',
    durationSeconds: 1500,
  },
  {
    name: 'Sharn Syndicate',
    difficulty: 'Heroic',
    setting: 'elite',
    completedAt: '2026-11-07T10:00:00.000Z',
    durationSeconds: 700,
  },
  // Not on the route.
  {
    name: 'Redemption',
    difficulty: 'Epic',
    setting: 'elite',
    completedAt: '2026-11-08T10:00:00.000Z',
    durationSeconds: 800,
  },
]

function log(t: TestApp, characterId: number, rows: Row[]) {
  for (const row of rows) {
    t.db
      .insert(completions)
      .values({ characterId, durationSeconds: null, updatedAt: row.completedAt, ...row })
      .run()
  }
}

async function setup() {
  const t = testApp()
  const alice = await t.userWithToken('alice')
  const bob = await t.userWithToken('bob')
  const hero = insertCharacter(t.db, 'alice', { givenName: 'Aria', surname: 'Stormwind', targetDifficulty: 'elite' })
  const created = ok(await t.plugin(bob).routes.post(ROUTE), 201)
  log(t, hero.id, LOGGED)
  return { t, alice, bob, hero, routeId: created.id }
}

const nav = (t: TestApp, token: string, query: NavQuery) => t.plugin(token).navigation.get({ query })

describe('GET /navigation on a mixed route', () => {
  test('match=setting (the default): only the exact setting completes a step', async () => {
    const { t, alice, hero, routeId } = await setup()
    for (const query of [
      { characterId: hero.id, routeId },
      { characterId: hero.id, routeId, match: 'setting' as const },
    ]) {
      const body = ok(await nav(t, alice, query))
      expect(body.character).toEqual({ id: hero.id, name: 'Aria Stormwind', targetDifficulty: 'elite' })
      expect(body.route).toEqual({ id: routeId, name: 'Mixed' })
      expect(body.match).toBe('setting')
      expect(body.steps).toEqual([
        {
          ...ROUTE.quests[0],
          position: 1,
          completed: true,
          settingCompleted: true,
          remakeCompleted: true,
          settingsLogged: ['elite'],
          // The exact remake beats the later Unknown-remake run.
          completedAt: '2026-11-01T10:00:00.000Z',
          durationSeconds: 600,
        },
        {
          ...ROUTE.quests[1],
          position: 2,
          completed: false,
          settingCompleted: false,
          remakeCompleted: true,
          settingsLogged: ['normal', 'reaper'],
          completedAt: null,
          durationSeconds: null,
        },
        {
          ...ROUTE.quests[2],
          position: 3,
          completed: true,
          settingCompleted: true,
          remakeCompleted: true,
          settingsLogged: ['elite'],
          completedAt: '2026-11-05T10:00:00.000Z',
          durationSeconds: null,
        },
        {
          ...ROUTE.quests[3],
          position: 4,
          completed: false,
          settingCompleted: false,
          remakeCompleted: true,
          settingsLogged: ['hard'],
          completedAt: null,
          durationSeconds: null,
        },
        {
          ...ROUTE.quests[4],
          position: 5,
          completed: false,
          settingCompleted: false,
          remakeCompleted: false,
          settingsLogged: [],
          completedAt: null,
          durationSeconds: null,
        },
        {
          ...ROUTE.quests[5],
          position: 6,
          completed: false,
          settingCompleted: false,
          remakeCompleted: false,
          settingsLogged: [],
          completedAt: null,
          durationSeconds: null,
        },
      ])
      expect(body.nextQuest).toEqual({ position: 2, ...ROUTE.quests[1], completed: false })
      expect(body.progress).toEqual({ completed: 2, total: 6, remaining: 4, finished: false })
    }
  })

  test('match=remake: any logged setting of the remake (or of an Unknown remake) completes a step', async () => {
    const { t, alice, hero, routeId } = await setup()
    const body = ok(await nav(t, alice, { characterId: hero.id, routeId, match: 'remake' }))
    expect(body.match).toBe('remake')
    const pick = (s: NavStep) => [s.completed, s.settingCompleted, s.remakeCompleted, s.completedAt, s.durationSeconds]
    expect(body.steps.map(pick)).toEqual([
      [true, true, true, '2026-11-01T10:00:00.000Z', 600],
      // No exact setting: the known remake (normal) beats the later Unknown-remake reaper run.
      [true, false, true, '2026-11-03T10:00:00.000Z', 900],
      [true, true, true, '2026-11-05T10:00:00.000Z', null],
      [true, false, true, '2026-11-06T10:00:00.000Z', 1500],
      [false, false, false, null, null],
      [false, false, false, null, null],
    ])
    expect(body.steps.map((s) => s.settingsLogged)).toEqual([
      ['elite'],
      ['normal', 'reaper'],
      ['elite'],
      ['hard'],
      [],
      [],
    ])
    expect(body.nextQuest).toEqual({ position: 5, ...ROUTE.quests[4], completed: false })
    expect(body.progress).toEqual({ completed: 4, total: 6, remaining: 2, finished: false })
  })

  test('a finished route: nextQuest is the last step with completed true, finished, remaining 0 — per mode', async () => {
    const { t, alice, hero, routeId } = await setup()
    log(t, hero.id, [
      { name: 'Tangleroot Gorge', difficulty: 'Heroic', setting: 'casual', completedAt: '2026-11-10T10:00:00.000Z' },
      { name: "Delera's Tomb", difficulty: 'Unknown', setting: 'unknown', completedAt: '2026-11-10T11:00:00.000Z' },
      { name: 'Sharn Syndicate', difficulty: 'Epic', setting: 'hard', completedAt: '2026-11-10T12:00:00.000Z' },
    ])
    const remake = ok(await nav(t, alice, { characterId: hero.id, routeId, match: 'remake' }))
    expect(remake.nextQuest).toEqual({ position: 6, ...ROUTE.quests[5], completed: true })
    expect(remake.progress).toEqual({ completed: 6, total: 6, remaining: 0, finished: true })
    // An `unknown` setting counts only in remake mode: in setting mode step 5 is still open.
    expect(remake.steps[4]?.settingsLogged).toEqual(['unknown'])
    const setting = ok(await nav(t, alice, { characterId: hero.id, routeId }))
    expect(setting.progress).toEqual({ completed: 2, total: 6, remaining: 4, finished: false })
    expect(setting.steps[4]).toMatchObject({ completed: false, settingCompleted: false, remakeCompleted: true })
    expect(setting.nextQuest?.position).toBe(2)
  })

  test('the best exact completion is the latest one when remake and setting tie', async () => {
    const { t, alice, hero, routeId } = await setup()
    log(t, hero.id, [
      {
        name: 'Kobold Assault',
        difficulty: 'Epic',
        setting: 'elite',
        completedAt: '2026-10-01T10:00:00.000Z',
        durationSeconds: 42,
      },
    ])
    const body = ok(await nav(t, alice, { characterId: hero.id, routeId }))
    // The exact-remake run wins over the Unknown one even though it is older.
    expect(body.steps[2]).toMatchObject({ completedAt: '2026-10-01T10:00:00.000Z', durationSeconds: 42 })
  })

  test("another character's completions do not count", async () => {
    const { t, alice, routeId } = await setup()
    const alt = insertCharacter(t.db, 'alice', { givenName: 'Alt' })
    const body = ok(await nav(t, alice, { characterId: alt.id, routeId, match: 'remake' }))
    expect(body.character).toEqual({ id: alt.id, name: 'Alt', targetDifficulty: 'any' })
    expect(body.steps.every((s) => !s.completed && !s.remakeCompleted && s.settingsLogged.length === 0)).toBe(true)
    expect(body.nextQuest?.position).toBe(1)
    expect(body.progress).toEqual({ completed: 0, total: 6, remaining: 6, finished: false })
  })

  test('names compare without regard to case beyond ASCII too (a quest the catalog does not know yet)', async () => {
    const t = testApp()
    const alice = await t.userWithToken('alice')
    const hero = insertCharacter(t.db, 'alice', { givenName: 'Aria' })
    const route = { name: 'Accents', quests: [{ name: 'Éclat de Lune', setting: 'elite' }] }
    const created = ok(await t.plugin(alice).routes.post(route), 201)
    log(t, hero.id, [
      { name: 'éclat de lune', difficulty: 'Heroic', setting: 'elite', completedAt: '2026-11-01T10:00:00.000Z' },
    ])
    const body = ok(await nav(t, alice, { characterId: hero.id, routeId: created.id }))
    expect(body.steps[0]).toMatchObject({ completed: true, settingCompleted: true, settingsLogged: ['elite'] })
    expect(body.progress).toEqual({ completed: 1, total: 1, remaining: 0, finished: true })
  })

  test('navigation reads only: nothing is written', async () => {
    const { t, alice, hero, routeId } = await setup()
    const before = t.db.select().from(completions).all()
    ok(await nav(t, alice, { characterId: hero.id, routeId, match: 'remake' }))
    expect(t.db.select().from(completions).all()).toEqual(before)
  })
})

describe('GET /navigation errors', () => {
  test('missing or non-integer ids: 400 naming the parameter', async () => {
    const { t, alice, hero, routeId } = await setup()
    // Raw: a missing id, or one that is not a number, is not a query the types allow.
    const cases: [string, RegExp][] = [
      [`routeId=${routeId}`, /"characterId" is required/],
      [`characterId=${hero.id}`, /"routeId" is required/],
      ['', /required/],
      [`characterId=abc&routeId=${routeId}`, /"characterId"/],
      [`characterId=${hero.id}&routeId=x`, /"routeId"/],
      [`characterId=${hero.id}&routeId=`, /"routeId"/],
    ]
    for (const [query, message] of cases) {
      const res = await t.json<{ error: string }>('GET', `/api/plugin/navigation?${query}`, { token: alice })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
    }
    expect(refused(await nav(t, alice, { characterId: 1.5, routeId }), 400).error).toMatch(/"characterId"/)
  })

  test('a bad match: 400', async () => {
    const { t, alice, hero, routeId } = await setup()
    // Raw: match is setting or remake in the types.
    for (const match of ['exact', 'Remake', '']) {
      const res = await t.json<{ error: string }>(
        'GET',
        `/api/plugin/navigation?characterId=${hero.id}&routeId=${routeId}&match=${match}`,
        { token: alice },
      )
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(/"match"/)
    }
  })

  test("an unknown route or someone else's character: 404; no token: 401", async () => {
    const { t, alice, bob, hero, routeId } = await setup()
    const noRoute = refused(await nav(t, alice, { characterId: hero.id, routeId: 999 }), 404)
    expect(noRoute.error).toMatch(/No route 999/)
    // Bob owns the route but not the character: still 404, and the same answer as a missing one.
    const foreign = refused(await nav(t, bob, { characterId: hero.id, routeId }), 404)
    const missing = refused(await nav(t, bob, { characterId: 9999, routeId }), 404)
    expect(foreign.error.replace(String(hero.id), 'N')).toBe(missing.error.replace('9999', 'N'))
    refused(await t.api.plugin.navigation.get({ query: { characterId: hero.id, routeId } }), 401)
    // Ids that are integers but cannot exist are simply not found.
    const zero = refused(await nav(t, alice, { characterId: 0, routeId }), 404)
    expect(zero.error).toMatch(/No character 0/)
    refused(await nav(t, alice, { characterId: hero.id, routeId: -1 }), 404)
  })
})
