// Hardening item 7 (OWASP API4, unrestricted resource consumption): per-account and per-character
// quotas (409, race-free: parallel creates at the cap never overshoot it), the size of a route's
// boosts and optionals (413), and GET /routes a page at a time. Each refusal is checked in the
// status, the `{"error"}` sentence and the stored rows, on both APIs.
import { beforeAll, describe, expect, test } from 'bun:test'
import { count, eq, type SQL } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import { characters, completions, routeSteps, routes } from '../src/db/schema'
import { findUser } from '../src/modules/auth/service'
import { MAX_CHARACTERS_PER_ACCOUNT } from '../src/modules/characters/limits'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../src/modules/completions/limits'
import { MAX_ROUTE_FIELD_BYTES, MAX_ROUTES_PER_ACCOUNT } from '../src/modules/routes/limits'
import { importRoute } from '../src/modules/routes/transfer'
import { insertCharacter, type TestApp, testApp } from './helpers'

const NOW = '2026-11-21T12:00:00.000Z'
const PARALLEL = 20

async function setup() {
  const t = testApp()
  const alice = await t.userWithToken('alice')
  const bob = await t.userWithToken('bob')
  const cookie = await t.signIn('alice')
  return { t, alice, bob, cookie, aliceId: findUser(t.db, 'alice')!.id }
}

const countWhere = (t: TestApp, table: SQLiteTable, where: SQL) =>
  t.db.select({ n: count() }).from(table).where(where).get()!.n

/** Statuses of the answers, counted: `{201: 1, 409: 19}`. */
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => Object.assign(acc, { [s]: (acc[s] ?? 0) + 1 }), {})

describe('characters: at most 200 per account', () => {
  test(`${PARALLEL} parallel creates one short of the cap: one is created, the rest are 409`, async () => {
    const { t, alice, bob, aliceId } = await setup()
    for (let i = 1; i < MAX_CHARACTERS_PER_ACCOUNT; i++) insertCharacter(t.db, 'alice', { givenName: `Alt${i}` })
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.json('POST', '/api/plugin/characters', { token: alice, body: { givenName: `New${i}` } }),
      ),
    )
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: PARALLEL - 1 })
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toEqual({
        error: 'This account already has 200 characters, the most one account may have; delete one first.',
      })
    }
    expect(countWhere(t, characters, eq(characters.userId, aliceId))).toBe(MAX_CHARACTERS_PER_ACCOUNT)

    // Another account is not affected; deleting one of alice's makes room again.
    expect((await t.json('POST', '/api/plugin/characters', { token: bob, body: { givenName: 'Bo' } })).status).toBe(201)
    const first = t.db.select().from(characters).where(eq(characters.userId, aliceId)).get()!
    expect((await t.json('DELETE', `/api/plugin/characters/${first.id}`, { token: alice })).status).toBe(200)
    expect((await t.json('POST', '/api/plugin/characters', { token: alice, body: { givenName: 'Z' } })).status).toBe(
      201,
    )
  })

  test('the website cookie API answers the same 409, and writes nothing', async () => {
    const { t, cookie, aliceId } = await setup()
    for (let i = 0; i < MAX_CHARACTERS_PER_ACCOUNT; i++) insertCharacter(t.db, 'alice', { givenName: `Alt${i}` })
    const { status, body } = await t.json('POST', '/api/characters', { cookie, body: { givenName: 'One more' } })
    expect(status).toBe(409)
    expect(body.error).toStartWith('This account already has 200 characters')
    expect(countWhere(t, characters, eq(characters.userId, aliceId))).toBe(MAX_CHARACTERS_PER_ACCOUNT)
  })
})

const ROUTE = { name: 'Korthos', quests: [{ name: 'The Collaborator' }] }

function insertRoutes(t: TestApp, ownerId: number, n: number) {
  for (let i = 0; i < n; i++) {
    t.db
      .insert(routes)
      .values({ ownerId, name: `Route ${i}`, createdAt: NOW, updatedAt: NOW })
      .run()
  }
}

describe('routes: at most 200 per account', () => {
  test(`${PARALLEL} parallel creates one short of the cap: one is created, the rest are 409`, async () => {
    const { t, alice, bob, aliceId } = await setup()
    insertRoutes(t, aliceId, MAX_ROUTES_PER_ACCOUNT - 1)
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.json('POST', '/api/plugin/routes', { token: alice, body: { ...ROUTE, name: `New ${i}` } }),
      ),
    )
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: PARALLEL - 1 })
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toEqual({
        error: 'The account already owns 200 routes, the most one account may have; delete one first.',
      })
    }
    expect(countWhere(t, routes, eq(routes.ownerId, aliceId))).toBe(MAX_ROUTES_PER_ACCOUNT)
    // Only the created route has steps: the refused ones left nothing behind.
    expect(t.db.select().from(routeSteps).all()).toHaveLength(1)

    // At the cap a route can still be replaced; another account can still create.
    const mine = t.db.select().from(routes).where(eq(routes.ownerId, aliceId)).get()!
    const replaced = await t.json('PUT', `/api/plugin/routes/${mine.id}`, { token: alice, body: ROUTE })
    expect(replaced.status).toBe(200)
    expect((await t.json('POST', '/api/plugin/routes', { token: bob, body: ROUTE })).status).toBe(201)
  })

  test('the cookie API and the route file import meet the same cap', async () => {
    const { t, cookie, aliceId } = await setup()
    insertRoutes(t, aliceId, MAX_ROUTES_PER_ACCOUNT)
    const web = await t.json('POST', '/api/routes', { cookie, body: ROUTE })
    expect(web.status).toBe(409)
    expect(web.body.error).toStartWith('The account already owns 200 routes')
    const file = { format: 'quest-tracker-route', formatVersion: 1, ...ROUTE }
    expect(() => importRoute(t.db, t.clock, file, 'alice')).toThrow('The account already owns 200 routes')
    expect(countWhere(t, routes, eq(routes.ownerId, aliceId))).toBe(MAX_ROUTES_PER_ACCOUNT)
  })

  test('boosts or optionals over 16 KiB as JSON: 413, nothing stored, a stored route unchanged', async () => {
    const { t, alice, cookie } = await setup()
    const big = { note: 'x'.repeat(MAX_ROUTE_FIELD_BYTES) }
    const posted = await t.json('POST', '/api/plugin/routes', { token: alice, body: { ...ROUTE, boosts: big } })
    expect(posted.status).toBe(413)
    expect(posted.body).toEqual({ error: 'Field "boosts" may take at most 16 KiB as JSON; it takes 17 KiB.' })
    expect(t.db.select().from(routes).all()).toHaveLength(0)

    const created = await t.json<{ id: number }>('POST', '/api/routes', {
      cookie,
      body: { ...ROUTE, boosts: { vip: true } },
    })
    expect(created.status).toBe(201)
    const before = t.db.select().from(routes).all()
    const put = await t.json('PUT', `/api/routes/${created.body.id}`, {
      cookie,
      body: { ...ROUTE, name: 'Renamed', optionals: big },
    })
    expect(put.status).toBe(413)
    expect(put.body).toEqual({ error: 'Field "optionals" may take at most 16 KiB as JSON; it takes 17 KiB.' })
    expect(t.db.select().from(routes).all()).toEqual(before)
  })
})

describe('completions: at most 10,000 per character', () => {
  async function characterWith(n: number) {
    const s = await setup()
    const character = insertCharacter(s.t.db, 'alice')
    const rows = Array.from({ length: n }, (_, i) => ({
      characterId: character.id,
      name: `Quest ${i}`,
      difficulty: 'Heroic',
      setting: 'elite',
      completedAt: NOW,
      updatedAt: NOW,
    }))
    for (let i = 0; i < rows.length; i += 1000)
      s.t.db
        .insert(completions)
        .values(rows.slice(i, i + 1000))
        .run()
    const stored = () => countWhere(s.t, completions, eq(completions.characterId, character.id))
    return { ...s, character, stored, path: `/api/plugin/characters/${character.id}/completions` }
  }

  test(`${PARALLEL} parallel new triples one short of the cap: one is created, the rest are 409`, async () => {
    const { t, alice, character, stored, path } = await characterWith(MAX_COMPLETIONS_PER_CHARACTER - 1)
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => t.json('POST', path, { token: alice, body: { name: `New ${i}` } })),
    )
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: PARALLEL - 1 })
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toEqual({
        error: `Character ${character.id} already has 10000 completions, the most a character may have; delete some before logging another quest (updating one already logged still works).`,
      })
    }
    expect(stored()).toBe(MAX_COMPLETIONS_PER_CHARACTER)
  })

  test('at the cap an upsert of a stored triple still works, a new one is 409, a delete makes room', async () => {
    const { t, alice, cookie, character, stored, path } = await characterWith(MAX_COMPLETIONS_PER_CHARACTER)
    const update = await t.json('POST', path, {
      token: alice,
      body: { name: 'Quest 7', difficulty: 'Heroic', setting: 'elite', xp: 1234 },
    })
    expect(update.status).toBe(200)
    const row = t.db.select().from(completions).where(eq(completions.name, 'Quest 7')).get()!
    expect(row).toMatchObject({ xpEarned: 1234, runs: 2 })

    const plugin = await t.json('POST', path, {
      token: alice,
      body: { name: 'Quest 7', difficulty: 'Heroic', setting: 'reaper' },
    })
    expect(plugin.status).toBe(409)
    const website = await t.json('POST', `/api/characters/${character.id}/completions`, {
      cookie,
      body: { name: 'Brand new' },
    })
    expect(website.status).toBe(409)
    expect(website.body).toEqual(plugin.body)
    expect(stored()).toBe(MAX_COMPLETIONS_PER_CHARACTER)
    expect(t.db.select().from(completions).where(eq(completions.setting, 'reaper')).all()).toEqual([])

    expect(
      (await t.json('DELETE', path, { token: alice, body: { name: 'Quest 0', difficulty: 'Heroic' } })).body,
    ).toMatchObject({
      deleted: 1,
    })
    expect((await t.json('POST', path, { token: alice, body: { name: 'Brand new' } })).status).toBe(201)
  })

  test('PUT progress replaces with up to 10,000; more is 400 and nothing is written', async () => {
    const { t, alice, character, stored } = await characterWith(3)
    const progress = `/api/plugin/characters/${character.id}/progress`
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Other ${i}` }))
    const refused = await t.json('PUT', progress, {
      token: alice,
      body: { targetDifficulty: 'elite', completions: items(MAX_COMPLETIONS_PER_CHARACTER + 1) },
    })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ error: 'Body field "completions" must be an array of at most 10000 items.' })
    expect(stored()).toBe(3)
    expect(t.db.select().from(characters).where(eq(characters.id, character.id)).get()!.targetDifficulty).toBe('any')

    const replaced = await t.json('PUT', progress, { token: alice, body: { completions: items(10_000) } })
    expect(replaced.status).toBe(200)
    expect(stored()).toBe(MAX_COMPLETIONS_PER_CHARACTER)
    const more = await t.json('POST', `/api/plugin/characters/${character.id}/completions`, {
      token: alice,
      body: { name: 'One more' },
    })
    expect(more.status).toBe(409)
  })
})

interface Page {
  routes: { id: number; name: string }[]
  total: number
  limit: number
  offset: number
}

describe('GET /routes is paginated', () => {
  async function fiveRoutes() {
    const s = await setup()
    for (const name of ['echo', 'Alpha', 'delta', 'Charlie', 'bravo']) {
      expect((await s.t.json('POST', '/api/plugin/routes', { token: s.bob, body: { ...ROUTE, name } })).status).toBe(
        201,
      )
    }
    return s
  }

  test('limit and offset choose the page; total counts every route; the default page is 100', async () => {
    const { t, alice, cookie } = await fiveRoutes()
    const all = await t.json<Page>('GET', '/api/plugin/routes', { token: alice })
    expect(all.status).toBe(200)
    expect(all.body.routes.map((r) => r.name)).toEqual(['Alpha', 'bravo', 'Charlie', 'delta', 'echo'])
    expect({ ...all.body, routes: undefined }).toEqual({ routes: undefined, total: 5, limit: 100, offset: 0 })

    const page = await t.json<Page>('GET', '/api/plugin/routes?limit=2&offset=1', { token: alice })
    expect(page.status).toBe(200)
    expect(page.body.routes.map((r) => r.name)).toEqual(['bravo', 'Charlie'])
    expect({ ...page.body, routes: undefined }).toEqual({ routes: undefined, total: 5, limit: 2, offset: 1 })

    const web = await t.json<Page>('GET', '/api/routes?limit=1&offset=4', { cookie })
    expect(web.status).toBe(200)
    expect(web.body.routes.map((r) => r.name)).toEqual(['echo'])
    expect(web.body.total).toBe(5)

    const past = await t.json<Page>('GET', `/api/plugin/routes?offset=${Number.MAX_SAFE_INTEGER}`, { token: alice })
    expect(past.status).toBe(200)
    expect(past.body.routes).toEqual([])
    expect(past.body.total).toBe(5)
  })

  let shared: Awaited<ReturnType<typeof setup>>
  beforeAll(async () => {
    shared = await setup()
  })

  test.each([
    ['limit=0', 'Query parameter "limit" must be an integer from 1 to 500.'],
    ['limit=501', 'Query parameter "limit" must be an integer from 1 to 500.'],
    ['limit=abc', 'Query parameter "limit" must be an integer.'],
    ['offset=-1', 'Query parameter "offset" must be an integer from 0 to 9007199254740991.'],
    ['offset=1e300', 'Query parameter "offset" must be an integer from 0 to 9007199254740991.'],
    ['offset=1.5', 'Query parameter "offset" must be an integer.'],
  ])('?%s is 400 naming the parameter', async (query, error) => {
    const { t, alice } = shared
    const { status, body } = await t.json('GET', `/api/plugin/routes?${query}`, { token: alice })
    expect({ status, body }).toEqual({ status: 400, body: { error } })
  })

  test('the OpenAPI document shows limit and offset, and the page fields', async () => {
    const t = testApp()
    const { body } = await t.json<{
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>
      components: { schemas: Record<string, unknown> }
    }>('GET', '/api/openapi.json')
    const list = body.paths['/api/plugin/routes']?.get
    expect(list?.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['limit', 'offset'])
    const responses = (list as unknown as { responses: Record<string, { content: Record<string, unknown> }> }).responses
    const schema = responses['200']?.content['application/json'] as { schema: { required: string[] } }
    expect(schema.schema.required.sort()).toEqual(['limit', 'offset', 'routes', 'total'])
  })
})
