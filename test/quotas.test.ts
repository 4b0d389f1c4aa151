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
import { insertCharacter, ok, refused, type TestApp, testApp } from './helpers'

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
      Array.from({ length: PARALLEL }, (_, i) => t.plugin(alice).characters.post({ givenName: `New${i}` })),
    )
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: PARALLEL - 1 })
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(refused(answer, 409)).toEqual({
        error: 'This account already has 200 characters, the most one account may have; delete one first.',
      })
    }
    expect(countWhere(t, characters, eq(characters.userId, aliceId))).toBe(MAX_CHARACTERS_PER_ACCOUNT)

    // Another account is not affected; deleting one of alice's makes room again.
    ok(await t.plugin(bob).characters.post({ givenName: 'Bo' }), 201)
    const first = t.db.select().from(characters).where(eq(characters.userId, aliceId)).get()!
    ok(await t.plugin(alice).characters({ id: first.id }).delete())
    ok(await t.plugin(alice).characters.post({ givenName: 'Z' }), 201)
  })

  test('the website cookie API answers the same 409, and writes nothing', async () => {
    const { t, cookie, aliceId } = await setup()
    for (let i = 0; i < MAX_CHARACTERS_PER_ACCOUNT; i++) insertCharacter(t.db, 'alice', { givenName: `Alt${i}` })
    const { error } = refused(await t.web(cookie).characters.post({ givenName: 'One more' }), 409)
    expect(error).toStartWith('This account already has 200 characters')
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
      Array.from({ length: PARALLEL }, (_, i) => t.plugin(alice).routes.post({ ...ROUTE, name: `New ${i}` })),
    )
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: PARALLEL - 1 })
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(refused(answer, 409)).toEqual({
        error: 'The account already owns 200 routes, the most one account may have; delete one first.',
      })
    }
    expect(countWhere(t, routes, eq(routes.ownerId, aliceId))).toBe(MAX_ROUTES_PER_ACCOUNT)
    // Only the created route has steps: the refused ones left nothing behind.
    expect(t.db.select().from(routeSteps).all()).toHaveLength(1)

    // At the cap a route can still be replaced; another account can still create.
    const mine = t.db.select().from(routes).where(eq(routes.ownerId, aliceId)).get()!
    ok(await t.plugin(alice).routes({ id: mine.id }).put(ROUTE))
    ok(await t.plugin(bob).routes.post(ROUTE), 201)
  })

  test('the cookie API and the route file import meet the same cap', async () => {
    const { t, cookie, aliceId } = await setup()
    insertRoutes(t, aliceId, MAX_ROUTES_PER_ACCOUNT)
    const web = refused(await t.web(cookie).routes.post(ROUTE), 409)
    expect(web.error).toStartWith('The account already owns 200 routes')
    const file = { format: 'quest-tracker-route', formatVersion: 1, ...ROUTE }
    expect(() => importRoute(t.db, t.clock, file, 'alice')).toThrow('The account already owns 200 routes')
    expect(countWhere(t, routes, eq(routes.ownerId, aliceId))).toBe(MAX_ROUTES_PER_ACCOUNT)
  })

  test('boosts or optionals over 16 KiB as JSON: 413, nothing stored, a stored route unchanged', async () => {
    const { t, alice, cookie } = await setup()
    const big = { note: 'x'.repeat(MAX_ROUTE_FIELD_BYTES) }
    const posted = refused(await t.plugin(alice).routes.post({ ...ROUTE, boosts: big }), 413)
    expect(posted).toEqual({ error: 'Field "boosts" may take at most 16 KiB as JSON; it takes 17 KiB.' })
    expect(t.db.select().from(routes).all()).toHaveLength(0)

    const created = ok(await t.web(cookie).routes.post({ ...ROUTE, boosts: { vip: true } }), 201)
    const before = t.db.select().from(routes).all()
    const put = refused(
      await t
        .web(cookie)
        .routes({ id: created.id })
        .put({ ...ROUTE, name: 'Renamed', optionals: big }),
      413,
    )
    expect(put).toEqual({ error: 'Field "optionals" may take at most 16 KiB as JSON; it takes 17 KiB.' })
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
      difficulty: 'Heroic' as const,
      setting: 'elite' as const,
      completedAt: NOW,
      updatedAt: NOW,
    }))
    for (let i = 0; i < rows.length; i += 1000)
      s.t.db
        .insert(completions)
        .values(rows.slice(i, i + 1000))
        .run()
    const stored = () => countWhere(s.t, completions, eq(completions.characterId, character.id))
    return { ...s, character, stored, me: s.t.plugin(s.alice).characters({ id: character.id }) }
  }

  test(`${PARALLEL} parallel new triples one short of the cap: one is created, the rest are 409`, async () => {
    const { character, stored, me } = await characterWith(MAX_COMPLETIONS_PER_CHARACTER - 1)
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => me.completions.post({ name: `New ${i}` })),
    )
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: PARALLEL - 1 })
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(refused(answer, 409)).toEqual({
        error: `Character ${character.id} already has 10000 completions, the most a character may have; delete some before logging another quest (updating one already logged still works).`,
      })
    }
    expect(stored()).toBe(MAX_COMPLETIONS_PER_CHARACTER)
  })

  test('at the cap an upsert of a stored triple still works, a new one is 409, a delete makes room', async () => {
    const { t, cookie, character, stored, me } = await characterWith(MAX_COMPLETIONS_PER_CHARACTER)
    ok(await me.completions.post({ name: 'Quest 7', difficulty: 'Heroic', setting: 'elite', xp: 1234 }))
    const row = t.db.select().from(completions).where(eq(completions.name, 'Quest 7')).get()!
    expect(row).toMatchObject({ xpEarned: 1234, runs: 2 })

    const plugin = refused(await me.completions.post({ name: 'Quest 7', difficulty: 'Heroic', setting: 'reaper' }), 409)
    const website = refused(
      await t.web(cookie).characters({ id: character.id }).completions.post({ name: 'Brand new' }),
      409,
    )
    expect(website).toEqual(plugin)
    expect(stored()).toBe(MAX_COMPLETIONS_PER_CHARACTER)
    expect(t.db.select().from(completions).where(eq(completions.setting, 'reaper')).all()).toEqual([])

    expect(ok(await me.completions.delete({ name: 'Quest 0', difficulty: 'Heroic' }))).toMatchObject({ deleted: 1 })
    ok(await me.completions.post({ name: 'Brand new' }), 201)
  })

  test('PUT progress replaces with up to 10,000; more is 400 and nothing is written', async () => {
    const { t, character, stored, me } = await characterWith(3)
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Other ${i}` }))
    const tooMany = await me.progress.put({
      targetDifficulty: 'elite',
      completions: items(MAX_COMPLETIONS_PER_CHARACTER + 1),
    })
    expect(refused(tooMany, 400)).toEqual({
      error: 'Body field "completions" must be an array of at most 10000 items.',
    })
    expect(stored()).toBe(3)
    expect(t.db.select().from(characters).where(eq(characters.id, character.id)).get()!.targetDifficulty).toBe('any')

    ok(await me.progress.put({ completions: items(10_000) }))
    expect(stored()).toBe(MAX_COMPLETIONS_PER_CHARACTER)
    refused(await me.completions.post({ name: 'One more' }), 409)
  })
})

describe('GET /routes is paginated', () => {
  async function fiveRoutes() {
    const s = await setup()
    for (const name of ['echo', 'Alpha', 'delta', 'Charlie', 'bravo']) {
      ok(await s.t.plugin(s.bob).routes.post({ ...ROUTE, name }), 201)
    }
    return s
  }

  test('limit and offset choose the page; total counts every route; the default page is 100', async () => {
    const { t, alice, cookie } = await fiveRoutes()
    const routes = t.plugin(alice).routes
    const all = ok(await routes.get())
    expect(all.routes.map((r) => r.name)).toEqual(['Alpha', 'bravo', 'Charlie', 'delta', 'echo'])
    expect({ ...all, routes: undefined }).toEqual({ routes: undefined, total: 5, limit: 100, offset: 0 })

    const page = ok(await routes.get({ query: { limit: 2, offset: 1 } }))
    expect(page.routes.map((r) => r.name)).toEqual(['bravo', 'Charlie'])
    expect({ ...page, routes: undefined }).toEqual({ routes: undefined, total: 5, limit: 2, offset: 1 })

    const web = ok(await t.web(cookie).routes.get({ query: { limit: 1, offset: 4 } }))
    expect(web.routes.map((r) => r.name)).toEqual(['echo'])
    expect(web.total).toBe(5)

    const past = ok(await routes.get({ query: { offset: Number.MAX_SAFE_INTEGER } }))
    expect(past.routes).toEqual([])
    expect(past.total).toBe(5)
  })

  let shared: Awaited<ReturnType<typeof setup>>
  beforeAll(async () => {
    shared = await setup()
  })

  test.each([
    [{ limit: 0 }, 'Query parameter "limit" must be an integer from 1 to 500.'],
    [{ limit: 501 }, 'Query parameter "limit" must be an integer from 1 to 500.'],
    [{ offset: -1 }, 'Query parameter "offset" must be an integer of at least 0.'],
    [{ offset: 1.5 }, 'Query parameter "offset" must be an integer of at least 0.'],
  ])('%o is 400 naming the parameter', async (query, error) => {
    const { t, alice } = shared
    expect(refused(await t.plugin(alice).routes.get({ query }), 400)).toEqual({ error })
  })

  // Raw: the query text itself is under test (a word, and an exponent a client would not write).
  test.each([
    ['limit=abc', 'Query parameter "limit" must be an integer from 1 to 500.'],
    ['offset=1e300', 'Query parameter "offset" must be an integer from 0 to 9007199254740991.'],
  ])('?%s is 400 naming the parameter', async (query, error) => {
    const { t, alice } = shared
    const { status, body } = await t.json<unknown>('GET', `/api/plugin/routes?${query}`, { token: alice })
    expect({ status, body }).toEqual({ status: 400, body: { error } })
  })

  test('the OpenAPI document shows limit and offset, and the page fields', async () => {
    const body = ok(await testApp().api['openapi.json'].get())
    const list = body.paths['/api/plugin/routes']?.get
    expect(list?.parameters).toEqual([
      expect.objectContaining({ in: 'query', name: 'limit' }),
      expect.objectContaining({ in: 'query', name: 'offset' }),
    ])
    expect(list?.responses?.['200']).toMatchObject({
      content: { 'application/json': { schema: { required: ['routes', 'total', 'limit', 'offset'] } } },
    })
  })
})
