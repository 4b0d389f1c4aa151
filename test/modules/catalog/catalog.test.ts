// GET /quests, /quests/search, /quests/lookup and /scorecards through HTTP, on our small
// catalog (test/fixtures/catalog-small.json): each ranking rule and each lookup rule.
import { beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import type { Treaty } from '@elysiajs/eden'
import { scorecards } from '../../../src/db/schema'
import { BadRequest } from '../../../src/http/errors'
import { importScorecards } from '../../../src/modules/catalog/service'
import { syncCatalog } from '../../../src/modules/catalog/sync'
import { readRows, SCORECARDS, SMALL_JSON, syncDeps } from '../../catalogFixtures'
import { type Client, ok, refused, type TestApp, testApp } from '../../helpers'
import { scratchFolders } from '../../scratch'

const scratch = scratchFolders('qt-scorecards-')

type Catalog = Client['plugin']['quests']
type SearchQuery = NonNullable<Parameters<Catalog['search']['get']>[0]>['query']
type SearchBody = Treaty.Data<Catalog['search']['get']>
type LookupQuery = Parameters<Catalog['lookup']['get']>[0]['query']

let t: TestApp
let token = ''
beforeAll(async () => {
  t = testApp()
  token = await t.userWithToken('ann')
  await syncCatalog(syncDeps(t), SMALL_JSON)
})

const catalog = () => t.plugin(token).quests
const search = async (query: SearchQuery) => ok(await catalog().search.get({ query }))
/** Results as "name/tier" in rank order. */
const order = (body: SearchBody) => body.quests.map((q) => `${q.name}/${q.difficulty}`)

describe('GET /quests', () => {
  test('every row with every field, unknown XP and favor as null', async () => {
    const body = ok(await catalog().get())
    expect(body.count).toBe(12)
    // No runs yet: each row's server times are empty.
    expect(body.quests).toEqual((await readRows(SMALL_JSON)).map((row) => ({ ...row, times: [] })))
    expect(body.quests.find((q) => q.name === "Delera's Rest" && q.difficulty === 'Heroic')).toMatchObject({
      soloXP: null,
      favor: null,
      patron: '',
    })
  })

  test('needs a bearer token', async () => {
    const { quests, scorecards } = t.api.plugin
    refused(await quests.get(), 401)
    refused(await quests.search.get({ query: { q: 'crypt' } }), 401)
    refused(await quests.lookup.get({ query: { name: 'Crypt' } }), 401)
    refused(await scorecards.get(), 401)
  })
})

describe('GET /quests/search', () => {
  test('rule 1: exact name > name prefix > name substring > pack > patron; remakes are never collapsed', async () => {
    const body = await search({ q: 'crypt' })
    expect(order(body)).toEqual([
      'Crypt/Heroic', // exact (three remakes, three rows)
      'Crypt/Epic',
      'Crypt/Legendary',
      'Crypt of the Fallen/Heroic', // prefix
      'The Hidden Crypt/Heroic', // substring
      'Sewer Run/Heroic', // pack "Crypt Keepers & Co."
      'Bell Tower/Heroic', // patron "Cryptic Order"
    ])
    expect(body.quests.map((q) => q.score)).toEqual([100, 100, 100, 85, 70, 40, 25])
    expect(body).toMatchObject({ query: 'crypt', count: 7, totalMatches: 7, level: null })
    // Without a level, enterability is unknown.
    expect(body.quests.every((q) => q.enterable === null)).toBe(true)
  })

  test('rule 2: with a level, enterable remakes rank above those not yet enterable, and say so', async () => {
    // Level 25 favours Epic, yet the enterable Heroic Crypt (level 9) comes first and the
    // Legendary one (level 31, nearer in level) comes after the Epic one.
    const body = await search({ q: 'crypt', level: 25 })
    expect(order(body).slice(0, 3)).toEqual(['Crypt/Heroic', 'Crypt/Epic', 'Crypt/Legendary'])
    expect(body.quests.map((q) => q.enterable)).toEqual([true, false, false, true, true, true, true])
    expect(body.quests.map((q) => q.score)).toEqual([110, 103, 100, 95, 80, 50, 35])
    expect(body.level).toBe(25)
    // Name matches still rank above pack and patron matches (rule 1 holds with a level).
    expect(order(body).slice(3)).toEqual([
      'Crypt of the Fallen/Heroic',
      'The Hidden Crypt/Heroic',
      'Sewer Run/Heroic',
      'Bell Tower/Heroic',
    ])
  })

  test('rule 3: a mild preference for the tier of the level (below 20 Heroic, 20-29 Epic, 30+ Legendary)', async () => {
    const cases: [number, string[]][] = [
      // Nothing enterable at 10: Heroic preferred.
      [10, ['Shadow Gate/Heroic', 'Shadow Gate/Epic', 'Shadow Gate/Legendary']],
      // Heroic (18) and Epic (24) both enterable at 26: Epic preferred.
      [26, ['Shadow Gate/Epic', 'Shadow Gate/Heroic', 'Shadow Gate/Legendary']],
      // All enterable at 33: Legendary preferred.
      [33, ['Shadow Gate/Legendary', 'Shadow Gate/Epic', 'Shadow Gate/Heroic']],
    ]
    for (const [level, expected] of cases) {
      expect(order(await search({ q: 'shadow gate', level }))).toEqual(expected)
    }
    // Mild: the preference never lifts a row that is not enterable over one that is.
    const body = await search({ q: 'shadow gate', level: 22 })
    expect(order(body)).toEqual(['Shadow Gate/Heroic', 'Shadow Gate/Epic', 'Shadow Gate/Legendary'])
  })

  test('aliases: query and name for q, characterLevel and cl for level', async () => {
    const expected = await search({ q: 'crypt', level: 25 })
    for (const query of [
      { query: 'crypt', characterLevel: 25 },
      { name: 'crypt', cl: 25 },
      { q: 'CRYPT', cl: 25 },
    ]) {
      expect((await search(query)).quests).toEqual(expected.quests)
    }
  })

  test('difficulty filters, limit cuts (totalMatches still counts all), words and apostrophes fold', async () => {
    const epic = await search({ q: 'crypt', difficulty: 'epic' })
    expect(order(epic)).toEqual(['Crypt/Epic'])
    expect(epic.totalMatches).toBe(1)
    expect((await search({ q: 'crypt', difficulty: 'Unknown' })).totalMatches).toBe(7)
    const two = await search({ q: 'crypt', limit: 2 })
    expect(two).toMatchObject({ count: 2, totalMatches: 7 })
    expect(order(two)).toEqual(['Crypt/Heroic', 'Crypt/Epic'])
    expect((await search({ q: 'crypt' })).count).toBe(7)
    expect(order(await search({ q: 'crypt hidden' }))).toEqual(['The Hidden Crypt/Heroic'])
    const deleras = await search({ q: 'deleras rest' })
    expect(order(deleras)).toEqual(["Delera's Rest/Heroic", "Delera's Rest/Epic"])
    expect(deleras.quests[0]?.score).toBe(100)
    expect(await search({ q: 'nothing like this' })).toMatchObject({ count: 0, totalMatches: 0, quests: [] })
  })

  test('the default limit is 20 and the largest is 50', async () => {
    // Every row's pack or name contains a letter "e"... use a query matching all 12 rows.
    const all = await search({ q: 'e', limit: 50 })
    expect(all.count).toBe(all.totalMatches)
    const rows = await readRows(SMALL_JSON)
    expect(all.totalMatches).toBe(
      rows.filter((r) => [r.name, r.pack, r.patron].some((s) => s.toLowerCase().includes('e'))).length,
    )
    expect((await search({ q: 'e' })).count).toBe(Math.min(20, all.totalMatches))
  })

  test.each<[SearchQuery, string]>([
    [{}, 'Query parameter "q" (or "query", "name") is required.'],
    [{ q: '  ' }, 'Query parameter "q" (or "query", "name") is required.'],
    [{ q: 'crypt', limit: 0 }, 'Query parameter "limit" must be an integer from 1 to 50.'],
    [{ q: 'crypt', limit: 51 }, 'Query parameter "limit" must be an integer from 1 to 50.'],
    [{ q: 'crypt', level: 0 }, 'Query parameter "level" must be an integer from 1 to 34.'],
    [{ q: 'crypt', cl: 35 }, 'Query parameter "cl" must be an integer from 1 to 34.'],
    [{ q: 'crypt', characterLevel: 1.5 }, 'Query parameter "characterLevel" must be an integer from 1 to 34.'],
    [{ q: 'crypt', difficulty: 'elite' }, 'Query parameter "difficulty" must be one of Heroic, Epic, Legendary.'],
  ])('bad query %o: 400 %p', async (query, error) => {
    expect(refused(await catalog().search.get({ query }), 400)).toEqual({ error })
  })

  test('a limit that is not a number: 400', async () => {
    // Raw: limit is a number in the types.
    const { status, body } = await t.json<unknown>('GET', '/api/plugin/quests/search?q=crypt&limit=ten', { token })
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'Query parameter "limit" must be an integer from 1 to 50.' })
  })
})

describe('GET /quests/lookup', () => {
  const lookup = (query: LookupQuery) => catalog().lookup.get({ query })

  test('exact and case-insensitive; every remake in quests and remakes, with their fields', async () => {
    const body = ok(await lookup({ name: 'cRYPT' }))
    expect(body.quests).toEqual([
      { name: 'Crypt', difficulty: 'Heroic', level: 9, pack: 'Harbor Tales', patron: 'The Coin Lords', favor: 3 },
      { name: 'Crypt', difficulty: 'Epic', level: 27, pack: 'Harbor Tales', patron: 'The Coin Lords', favor: 3 },
      { name: 'Crypt', difficulty: 'Legendary', level: 31, pack: 'Harbor Tales', patron: 'The Coin Lords', favor: 3 },
    ])
    expect(body.remakes).toEqual([
      { name: 'Crypt', difficulty: 'Heroic', level: 9, pack: 'Harbor Tales', patron: 'The Coin Lords' },
      { name: 'Crypt', difficulty: 'Epic', level: 27, pack: 'Harbor Tales', patron: 'The Coin Lords' },
      { name: 'Crypt', difficulty: 'Legendary', level: 31, pack: 'Harbor Tales', patron: 'The Coin Lords' },
    ])
    expect(body.remakeCount).toBe(3)
  })

  test('difficulty filters quests; remakes always lists every tier', async () => {
    const body = ok(await lookup({ name: 'Shadow Gate', difficulty: 'epic' }))
    expect(body.quests.map((q) => [q.difficulty, q.level])).toEqual([['Epic', 24]])
    expect(body.remakes.map((q) => [q.difficulty, q.level])).toEqual([
      ['Heroic', 18],
      ['Epic', 24],
      ['Legendary', 32],
    ])
    expect(body.remakeCount).toBe(3)
    // A completion's remake "Unknown" matches every remake.
    expect(ok(await lookup({ name: 'Shadow Gate', difficulty: 'Unknown' })).quests).toHaveLength(3)
  })

  test('a name in one tier only', async () => {
    const body = ok(await lookup({ name: 'The Hidden Crypt' }))
    expect(body).toMatchObject({ remakeCount: 1, quests: [{ difficulty: 'Heroic', level: 2 }] })
  })

  test.each<[LookupQuery, number, string]>([
    [{ name: 'Crypt of the' }, 404, 'No quest named "Crypt of the" in the catalog.'],
    [{ name: 'Nowhere' }, 404, 'No quest named "Nowhere" in the catalog.'],
    [
      { name: "Delera's Rest", difficulty: 'Legendary' },
      404,
      `"Delera's Rest" has no Legendary remake in the catalog (it has: Heroic, Epic).`,
    ],
    [{ name: '' }, 400, 'Query parameter "name" is required.'],
    [
      { name: 'Crypt', difficulty: 'reaper' },
      400,
      'Query parameter "difficulty" must be one of Heroic, Epic, Legendary.',
    ],
  ])('%o: %p', async (query, status, error) => {
    expect(refused(await lookup(query), status)).toEqual({ error })
  })

  test('no name: 400', async () => {
    // Raw: the types require a name.
    const { status, body } = await t.json<unknown>('GET', '/api/plugin/quests/lookup', { token })
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'Query parameter "name" is required.' })
  })
})

describe('GET /scorecards and the import', () => {
  test('empty by default; an import stores exactly what the file holds, and replaces it on the next', async () => {
    const app = testApp()
    const owner = await app.userWithToken('bob')
    await syncCatalog(syncDeps(app), SMALL_JSON)
    const read = async () => ok(await app.plugin(owner).scorecards.get())
    expect(await read()).toMatchObject({ scorecards: {} })

    expect(await importScorecards(app.db, SCORECARDS)).toEqual({
      count: 3,
      notInCatalog: ['A Quest Not In The Catalog'],
    })
    const file = await Bun.file(SCORECARDS).json()
    expect(await read()).toEqual({ scorecards: file })

    // What GET answers re-imports as is; a smaller file replaces the whole set.
    const dir = scratch.next()
    const next = join(dir, 'next.json')
    writeFileSync(next, JSON.stringify({ scorecards: { Crypt: { gold: 12 } } }))
    expect(await importScorecards(app.db, next)).toEqual({ count: 1, notInCatalog: [] })
    expect(await read()).toEqual({ scorecards: { Crypt: { gold: 12 } } })
  })

  test.each([
    ['not JSON', '{"Crypt": ', 'is not valid JSON'],
    ['an array', '[{"Crypt": {}}]', 'must hold a JSON object keyed by quest name'],
    ['a non-object entry', '{"Crypt": {"gold": 1}, "Shadow Gate": 5}', 'Scorecard "Shadow Gate"'],
    ['an empty name', '{"": {"gold": 1}}', 'empty quest name'],
  ])('a file with %s is refused and the stored scorecards are kept', async (_, text, message) => {
    const app = testApp()
    await importScorecards(app.db, SCORECARDS)
    const before = app.db.select().from(scorecards).all()
    const dir = scratch.next()
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, text)
    const attempt = importScorecards(app.db, bad)
    expect(attempt).rejects.toThrow(BadRequest)
    expect(attempt).rejects.toThrow(message)
    await attempt.catch(() => {})
    expect(app.db.select().from(scorecards).all()).toEqual(before)
  })

  test('a missing file is refused', async () => {
    const app = testApp()
    expect(importScorecards(app.db, join(tmpdir(), 'no-such-scorecards.json'))).rejects.toThrow('does not exist')
  })
})

test('the catalog operations are in the OpenAPI document, and valid OpenAPI 3.0', async () => {
  const body = ok(await t.api['openapi.json'].get())
  const catalogPaths = [
    '/api/plugin/quests',
    '/api/plugin/quests/search',
    '/api/plugin/quests/lookup',
    '/api/plugin/scorecards',
  ]
  for (const path of catalogPaths) expect(body.paths[path]).toBeDefined()
  // Validated on their own: this module answers for its own operations.
  const paths = Object.fromEntries(catalogPaths.map((path) => [path, body.paths[path]]))
  await SwaggerParser.validate(structuredClone({ ...body, paths }) as never)
})
