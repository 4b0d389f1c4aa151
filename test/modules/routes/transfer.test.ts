// Route files (what `quest-tracker route export` prints and `route import` reads): the format,
// a round trip, and a clear error for every kind of bad file, with nothing stored.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { routeSteps, routes } from '../../../src/db/schema'
import { HttpError } from '../../../src/http/errors'
import { createUser } from '../../../src/modules/account/service'
import { exportRoute, importRoute, readRouteFile } from '../../../src/modules/routes/transfer'
import { ok, testApp } from '../../helpers'

const FIXTURE = join(import.meta.dir, '..', '..', 'fixtures', 'routes', 'korthos.json')

async function setup() {
  const t = testApp()
  const alice = await t.userWithToken('alice')
  await createUser(t, { email: 'mail-only@example.test', password: 'correct horse battery' })
  return { t, alice }
}

function rejects(run: () => unknown, message: RegExp) {
  let error: unknown
  try {
    run()
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(HttpError)
  expect((error as HttpError).status).toBe(400)
  expect((error as HttpError).message).toMatch(message)
}

describe('exportRoute', () => {
  test('a versioned JSON object with the steps in order; 404 for a missing route', async () => {
    const { t, alice } = await setup()
    const created = await t.plugin(alice).routes.post({
      name: 'Mine',
      quests: [
        { name: 'A', setting: 'reaper' },
        { name: 'B', difficulty: 'Epic' },
      ],
      boosts: { x: 1 },
    })
    expect(exportRoute(t.db, ok(created, 201).id)).toEqual({
      format: 'quest-tracker-route',
      formatVersion: 1,
      name: 'Mine',
      author: 'alice',
      boosts: { x: 1 },
      optionals: {},
      quests: [
        { name: 'A', difficulty: 'Heroic', setting: 'reaper' },
        { name: 'B', difficulty: 'Epic', setting: 'elite' },
      ],
    })
    let error: unknown
    try {
      exportRoute(t.db, 999)
    } catch (e) {
      error = e
    }
    expect((error as HttpError).status).toBe(404)
  })
})

describe('importRoute', () => {
  const valid = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>
  test('a file (text) becomes a new route of the named owner, visible over HTTP', async () => {
    const { t, alice } = await setup()
    const route = importRoute(t.db, t.clock, readFileSync(FIXTURE, 'utf8'), 'ALICE')
    expect(route).toMatchObject({
      name: 'Korthos Island, elite',
      ownerDisplayName: 'alice',
      questCount: 4,
      boosts: { vip: true },
    })
    expect(route.quests.at(-1)).toEqual({
      position: 4,
      name: "Necromancer's Doom",
      difficulty: 'Heroic',
      setting: 'elite',
    })
    expect(ok(await t.plugin(alice).routes({ id: route.id }).get())).toEqual({ ...route, owned: true })
  })

  test('a file saved with a byte-order mark imports like one without', async () => {
    const { t } = await setup()
    const route = importRoute(t.db, t.clock, `\uFEFF${readFileSync(FIXTURE, 'utf8')}`, 'alice')
    expect(route).toMatchObject({ name: 'Korthos Island, elite', questCount: 4 })
  })

  test('extra fields in a file are ignored, even after the HTTP validator has been built', async () => {
    const { t, alice } = await setup()
    // Elysia rewrites the schemas it validates bodies with; the importer must not inherit that.
    ok(await t.plugin(alice).routes.post({ name: 'R', quests: [{ name: 'Q' }] }), 201)
    const file = { ...valid, exportedBy: 'v9', quests: [{ name: 'Q', level: 5, setting: 'hard' }] }
    const route = importRoute(t.db, t.clock, file, 'alice')
    expect(route.quests).toEqual([{ position: 1, name: 'Q', difficulty: 'Heroic', setting: 'hard' }])
  })

  test('the owner may be given by e-mail; export then import round-trips the route', async () => {
    const { t } = await setup()
    const first = importRoute(t.db, t.clock, JSON.parse(readFileSync(FIXTURE, 'utf8')), 'mail-only@example.test')
    expect(first.ownerDisplayName).toBe('Player')
    const copy = importRoute(t.db, t.clock, exportRoute(t.db, first.id), 'alice')
    expect(copy.id).not.toBe(first.id)
    expect(copy.quests).toEqual(first.quests)
    expect({ name: copy.name, boosts: copy.boosts, optionals: copy.optionals }).toEqual({
      name: first.name,
      boosts: first.boosts,
      optionals: first.optionals,
    })
    expect(t.db.select().from(routes).all()).toHaveLength(2)
  })

  const bad: [string, unknown, RegExp][] = [
    ['not JSON', '{"format": "quest-tracker-route",', /not valid JSON/],
    ['an array', '[1, 2]', /one JSON object/],
    ['no format marker', { ...valid, format: undefined }, /not a Quest Tracker route file/],
    ['another format', { ...valid, format: 'ddo-route' }, /not a Quest Tracker route file/],
    ['a newer version', { ...valid, formatVersion: 2 }, /version 2 is not supported; this server reads version 1/],
    ['no version', { ...valid, formatVersion: undefined }, /version undefined is not supported/],
    ['no quests', { ...valid, quests: undefined }, /field "quests" is required/],
    ['quests not an array', { ...valid, quests: 'x' }, /field "quests" must be an array/],
    ['a step without name', { ...valid, quests: [{ setting: 'elite' }] }, /field "quests.0.name" is required/],
    ['a name that is not a string', { ...valid, name: 7 }, /field "name" must be a string/],
    ['an empty route', { ...valid, quests: [] }, /at least one quest/],
    [
      'a step word that is not concrete',
      { ...valid, quests: [{ name: 'A', setting: 'unknown' }] },
      /Step 1 \("A"\): setting "unknown"/,
    ],
    ['boosts not an object', { ...valid, boosts: [] }, /"boosts" must be a JSON object/],
  ]
  for (const [label, file, message] of bad) {
    test(`a bad file is refused clearly and nothing is stored: ${label}`, async () => {
      const { t } = await setup()
      rejects(() => importRoute(t.db, t.clock, file, 'alice'), message)
      expect(t.db.select().from(routes).all()).toEqual([])
      expect(t.db.select().from(routeSteps).all()).toEqual([])
    })
  }

  test('readRouteFile: the text, or a sentence for a missing file or a directory', () => {
    expect(JSON.parse(readRouteFile(FIXTURE)).formatVersion).toBe(1)
    rejects(() => readRouteFile(join(import.meta.dir, '..', '..', 'no-such-route.json')), /no such file/)
    rejects(() => readRouteFile(import.meta.dir), /it is a directory/)
  })

  test('an unknown owner is refused before anything is stored', async () => {
    const { t } = await setup()
    rejects(() => importRoute(t.db, t.clock, valid, 'nobody'), /No account "nobody"/)
    expect(t.db.select().from(routes).all()).toEqual([])
  })
})
