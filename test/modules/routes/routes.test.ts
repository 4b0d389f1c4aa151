// Shared routes over HTTP: create, list, detail, update, delete; ownership; validation; and the
// stored rows after each call.
import { describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { quests, routeSteps, routes } from '../../../src/db/schema'
import { createUser } from '../../../src/modules/account/service'
import { type Client, ok, refused, type TestApp, testApp } from '../../helpers'

/** The body of POST and PUT /routes, as the route's types take it. */
type RouteBody = Parameters<Client['plugin']['routes']['post']>[0]

const storedSteps = (t: TestApp, routeId: number) =>
  t.db
    .select({
      position: routeSteps.position,
      name: routeSteps.name,
      difficulty: routeSteps.difficulty,
      setting: routeSteps.setting,
    })
    .from(routeSteps)
    .where(eq(routeSteps.routeId, routeId))
    .orderBy(asc(routeSteps.position))
    .all()

const storedRoute = (t: TestApp, id: number) => t.db.select().from(routes).where(eq(routes.id, id)).get()

const countRoutes = (t: TestApp) => t.db.select().from(routes).all().length
const countSteps = (t: TestApp) => t.db.select().from(routeSteps).all().length

const BODY: RouteBody = {
  name: 'Korthos to 4',
  quests: [
    { name: 'The Collaborator', difficulty: 'Heroic', setting: 'elite' },
    { name: 'Misery’s Peak' },
    { name: 'Redemption', difficulty: 'epic', setting: 'Reaper' },
  ],
  boosts: { vip: true, xpPotion: 50 },
  optionals: { bravery: true },
}

async function setup() {
  const t = testApp()
  const alice = await t.userWithToken('alice')
  const bob = await t.userWithToken('bob')
  return { t, alice, bob }
}

const create = async (t: TestApp, token: string, body: RouteBody = BODY) =>
  ok(await t.plugin(token).routes.post(body), 201)

describe('POST /routes', () => {
  test('201 with the detail: positions 1..n, defaults Heroic/elite, words made canonical; rows stored', async () => {
    const { t, alice } = await setup()
    const route = ok(await t.plugin(alice).routes.post(BODY), 201)
    expect(route).toMatchObject({
      name: 'Korthos to 4',
      ownerDisplayName: 'alice',
      owned: true,
      questCount: 3,
      boosts: { vip: true, xpPotion: 50 },
      optionals: { bravery: true },
      createdAt: '2026-11-21T12:00:00.000Z',
      updatedAt: '2026-11-21T12:00:00.000Z',
    })
    const expected: typeof route.quests = [
      { position: 1, name: 'The Collaborator', difficulty: 'Heroic', setting: 'elite' },
      { position: 2, name: 'Misery’s Peak', difficulty: 'Heroic', setting: 'elite' },
      { position: 3, name: 'Redemption', difficulty: 'Epic', setting: 'reaper' },
    ]
    expect(route.quests).toEqual(expected)
    expect(storedSteps(t, route.id)).toEqual(expected)
    expect(storedRoute(t, route.id)).toMatchObject({ name: 'Korthos to 4', boosts: { vip: true, xpPotion: 50 } })
  })

  test('setting aliases, null words, a challenge word in difficulty, names trimmed, boosts default to {}', async () => {
    const { t, alice } = await setup()
    const route = await create(t, alice, {
      name: '  Trimmed  ',
      quests: [
        { name: '  Stopping the Sahuagin ', challengeSetting: 'hard' },
        { name: 'Necromancer’s Doom', challenge_setting: 'CASUAL', difficulty: 'LEGENDARY' },
        { name: 'The Pit', difficulty: 'reaper' },
        { name: 'Tangleroot Gorge', difficulty: null, setting: null },
      ],
    })
    expect(route.name).toBe('Trimmed')
    expect(route.boosts).toEqual({})
    expect(route.optionals).toEqual({})
    expect(storedSteps(t, route.id)).toEqual([
      { position: 1, name: 'Stopping the Sahuagin', difficulty: 'Heroic', setting: 'hard' },
      { position: 2, name: 'Necromancer’s Doom', difficulty: 'Legendary', setting: 'casual' },
      { position: 3, name: 'The Pit', difficulty: 'Heroic', setting: 'reaper' },
      { position: 4, name: 'Tangleroot Gorge', difficulty: 'Heroic', setting: 'elite' },
    ])
  })

  test('a quest name the catalog knows is stored in the catalog spelling', async () => {
    const { t, alice } = await setup()
    t.db.insert(quests).values({ name: 'The Pit', difficulty: 'Heroic', level: 5 }).run()
    const route = await create(t, alice, { name: 'R', quests: [{ name: 'the PIT' }, { name: 'Not In Catalog' }] })
    expect(route.quests.map((q) => q.name)).toEqual(['The Pit', 'Not In Catalog'])
    expect(storedSteps(t, route.id).map((q) => q.name)).toEqual(['The Pit', 'Not In Catalog'])
  })

  // Bodies of the right shape that the service refuses: sent through the typed client.
  const refusedByService: [string, RouteBody, RegExp][] = [
    ['name blank', { name: '   ', quests: [{ name: 'A' }] }, /route name must not be blank/],
    ['name empty', { name: '', quests: [{ name: 'A' }] }, /"name"/],
    ['quests empty', { name: 'R', quests: [] }, /at least one quest/],
    ['step name blank', { name: 'R', quests: [{ name: '  ' }] }, /Step 1 needs a quest name/],
    ['step difficulty Unknown', { name: 'R', quests: [{ name: 'A', difficulty: 'Unknown' }] }, /difficulty "Unknown"/],
    ['step difficulty typo', { name: 'R', quests: [{ name: 'A', difficulty: 'Heroik' }] }, /Heroic, Epic, Legendary/],
    [
      'challenge word in difficulty with a setting',
      { name: 'R', quests: [{ name: 'A', difficulty: 'elite', setting: 'hard' }] },
      /difficulty "elite"/,
    ],
    ['step setting unknown', { name: 'R', quests: [{ name: 'A', setting: 'unknown' }] }, /setting "unknown"/],
    ['step setting any', { name: 'R', quests: [{ name: 'A', setting: 'any' }] }, /casual, normal, hard, elite, reaper/],
    ['step setting typo', { name: 'R', quests: [{ name: 'A' }, { name: 'B', setting: 'eltie' }] }, /Step 2 \("B"\)/],
    // boosts and optionals are free-form (unknown) in the types: the service checks they are objects.
    ['boosts an array', { name: 'R', quests: [{ name: 'A' }], boosts: [1] }, /"boosts" must be a JSON object/],
    ['boosts a number', { name: 'R', quests: [{ name: 'A' }], boosts: 5 }, /"boosts" must be a JSON object/],
    ['optionals a string', { name: 'R', quests: [{ name: 'A' }], optionals: 'x' }, /"optionals" must be a JSON object/],
  ]
  for (const [label, body, message] of refusedByService) {
    test(`400 and nothing stored: ${label}`, async () => {
      const { t, alice } = await setup()
      expect(refused(await t.plugin(alice).routes.post(body), 400).error).toMatch(message)
      expect(countRoutes(t)).toBe(0)
      expect(countSteps(t)).toBe(0)
    })
  }

  // Bodies the route's types forbid (a missing or mistyped field): sent raw.
  const refusedByTypes: [string, unknown, RegExp][] = [
    ['no body', undefined, /body/i],
    ['name missing', { quests: [{ name: 'A' }] }, /"name" is required/],
    ['name not a string', { name: 5, quests: [{ name: 'A' }] }, /"name" must be/],
    ['quests missing', { name: 'R' }, /"quests" is required/],
    ['quests not an array', { name: 'R', quests: 'The Pit' }, /"quests/],
    ['step not an object', { name: 'R', quests: ['The Pit'] }, /"quests.0/],
    ['step without name', { name: 'R', quests: [{ name: 'A' }, { setting: 'elite' }] }, /"quests.1.name" is required/],
    ['step setting not a string', { name: 'R', quests: [{ name: 'A', setting: 3 }] }, /"quests.0.setting"/],
  ]
  for (const [label, body, message] of refusedByTypes) {
    test(`400 and nothing stored: ${label}`, async () => {
      const { t, alice } = await setup()
      const res = await t.json<{ error: string }>('POST', '/api/plugin/routes', { token: alice, body })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
      expect(countRoutes(t)).toBe(0)
      expect(countSteps(t)).toBe(0)
    })
  }

  test('a body that is not JSON is 400 and nothing is stored', async () => {
    const { t, alice } = await setup()
    const res = await t.json<{ error: string }>('POST', '/api/plugin/routes', { token: alice, raw: '{"name": ' })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/not valid JSON/)
    expect(countRoutes(t)).toBe(0)
  })

  test('401 without a token, nothing stored', async () => {
    const { t } = await setup()
    refused(await t.api.plugin.routes.post(BODY), 401)
    expect(countRoutes(t)).toBe(0)
  })

  test('a 2,000-step route is stored whole; 2,001 steps is 400', async () => {
    const { t, alice } = await setup()
    const many = Array.from({ length: 2000 }, (_, i) => ({ name: `Quest ${i + 1}` }))
    const route = await create(t, alice, { name: 'Long', quests: many })
    expect(route.questCount).toBe(2000)
    expect(countSteps(t)).toBe(2000)
    expect(storedSteps(t, route.id).at(-1)).toEqual({
      position: 2000,
      name: 'Quest 2000',
      difficulty: 'Heroic',
      setting: 'elite',
    })
    refused(await t.plugin(alice).routes.post({ name: 'Too long', quests: [...many, { name: 'One more' }] }), 400)
    expect(countRoutes(t)).toBe(1)
  })
})

describe('GET /routes and GET /routes/{id}', () => {
  test('every account sees every route, with questCount, boosts, optionals and ownerDisplayName', async () => {
    const { t, alice, bob } = await setup()
    const a = await create(t, alice)
    t.clock.advance(1000)
    const b = await create(t, bob, { name: 'bob route', quests: [{ name: 'X' }] })
    for (const [token, mine] of [
      [alice, a.id],
      [bob, b.id],
    ] as const) {
      const { routes: list } = ok(await t.plugin(token).routes.get())
      // By name without regard to case: "bob route" before "Korthos to 4".
      expect(list.map((r) => r.id)).toEqual([b.id, a.id])
      expect(list.map((r) => r.owned)).toEqual([b.id === mine, a.id === mine])
      expect(list[1]).toEqual({
        id: a.id,
        name: 'Korthos to 4',
        ownerDisplayName: 'alice',
        owned: a.id === mine,
        questCount: 3,
        boosts: { vip: true, xpPotion: 50 },
        optionals: { bravery: true },
        createdAt: '2026-11-21T12:00:00.000Z',
        updatedAt: '2026-11-21T12:00:00.000Z',
      })
      expect(list[1]).not.toHaveProperty('quests')
    }
    expect(ok(await t.plugin(bob).routes({ id: a.id }).get())).toEqual({ ...a, owned: false })
  })

  test('owners are shown by username or "Player"; an e-mail never appears', async () => {
    const t = testApp()
    await createUser(t, {
      username: 'carol',
      email: 'carol@example.test',
      password: 'correct horse battery',
    })
    await createUser(t, { email: 'dave@example.test', password: 'correct horse battery' })
    const login = async (identifier: string) =>
      ok(await t.api.plugin.auth.login.post({ identifier, password: 'correct horse battery' })).token
    const carol = await login('carol@example.test')
    const dave = await login('dave@example.test')
    const c = await create(t, carol, { name: 'A carol', quests: [{ name: 'X' }] })
    const d = await create(t, dave, { name: 'B dave', quests: [{ name: 'Y' }] })
    expect(c.ownerDisplayName).toBe('carol')
    expect(d.ownerDisplayName).toBe('Player')
    const list = ok(await t.plugin(dave).routes.get())
    expect(list.routes.map((r) => r.ownerDisplayName)).toEqual(['carol', 'Player'])
    expect(JSON.stringify(list)).not.toContain('@')
    for (const id of [c.id, d.id]) {
      const detail = ok(await t.plugin(carol).routes({ id }).get())
      expect(JSON.stringify(detail)).not.toContain('@example')
    }
  })

  test('an empty server lists no routes', async () => {
    const { t, alice } = await setup()
    expect(ok(await t.plugin(alice).routes.get())).toEqual({ routes: [], total: 0, limit: 100, offset: 0 })
  })

  test('detail of a missing route is 404 (ids 0 and below too); a non-integer id is 400; no token is 401', async () => {
    const { t, alice } = await setup()
    const routes = t.plugin(alice).routes
    expect(refused(await routes({ id: 99 }).get(), 404).error).toMatch(/No route 99/)
    for (const id of ['abc', '1.5']) {
      expect(refused(await routes({ id }).get(), 400).error).toBe('Path parameter "id" must be an integer.')
    }
    // No route has an id of 0 or below: such an id is simply unknown.
    for (const id of [0, -2]) refused(await routes({ id }).get(), 404)
    refused(await t.api.plugin.routes.get(), 401)
    refused(await t.api.plugin.routes({ id: 1 }).get(), 401)
  })
})

describe('PUT /routes/{id}', () => {
  test('the owner replaces the whole route; steps renumbered, updatedAt moves, boosts reset when omitted', async () => {
    const { t, alice } = await setup()
    const route = await create(t, alice)
    t.clock.advance(60_000)
    const replaced = ok(
      await t
        .plugin(alice)
        .routes({ id: route.id })
        .put({ name: 'Renamed', quests: [{ name: 'Only One', difficulty: 'Legendary', setting: 'hard' }] }),
    )
    expect(replaced).toMatchObject({
      id: route.id,
      name: 'Renamed',
      questCount: 1,
      boosts: {},
      optionals: {},
      createdAt: '2026-11-21T12:00:00.000Z',
      updatedAt: '2026-11-21T12:01:00.000Z',
      quests: [{ position: 1, name: 'Only One', difficulty: 'Legendary', setting: 'hard' }],
    })
    expect(storedSteps(t, route.id)).toEqual([
      { position: 1, name: 'Only One', difficulty: 'Legendary', setting: 'hard' },
    ])
    expect(storedRoute(t, route.id)).toMatchObject({
      name: 'Renamed',
      boosts: {},
      updatedAt: '2026-11-21T12:01:00.000Z',
    })
    expect(countSteps(t)).toBe(1)
  })

  test("someone else's route: 404 and nothing of it changes", async () => {
    const { t, alice, bob } = await setup()
    const route = await create(t, alice)
    const before = { row: storedRoute(t, route.id), steps: storedSteps(t, route.id) }
    t.clock.advance(60_000)
    const stolen = await t
      .plugin(bob)
      .routes({ id: route.id })
      .put({ name: 'Stolen', quests: [{ name: 'Z' }] })
    expect(refused(stolen, 404).error).toMatch(/No route/)
    expect(storedRoute(t, route.id)).toEqual(before.row)
    expect(storedSteps(t, route.id)).toEqual(before.steps)
  })

  test('a missing route is 404 and nothing is created', async () => {
    const { t, alice } = await setup()
    refused(
      await t
        .plugin(alice)
        .routes({ id: 42 })
        .put({ name: 'N', quests: [{ name: 'Q' }] }),
      404,
    )
    expect(countRoutes(t)).toBe(0)
    expect(countSteps(t)).toBe(0)
  })

  test('an invalid body is 400 and the stored route is unchanged (no partial write)', async () => {
    const { t, alice } = await setup()
    const route = await create(t, alice)
    const before = { row: storedRoute(t, route.id), steps: storedSteps(t, route.id) }
    const unchanged = (answer: { status: number }) => {
      expect(answer.status).toBe(400)
      expect(storedRoute(t, route.id)).toEqual(before.row)
      expect(storedSteps(t, route.id)).toEqual(before.steps)
    }
    const update = t.plugin(alice).routes({ id: route.id }).put
    unchanged(await update({ name: 'N', quests: [{ name: 'Fine' }, { name: 'Bad', setting: 'nightmare' }] }))
    unchanged(await update({ name: 'N', quests: [] }))
    // Raw: the types require a name.
    unchanged(
      await t.json('PUT', `/api/plugin/routes/${route.id}`, { token: alice, body: { quests: [{ name: 'Q' }] } }),
    )
  })
})

describe('DELETE /routes/{id}', () => {
  test("someone else's route: 404 and it stays; the owner's delete removes route and steps", async () => {
    const { t, alice, bob } = await setup()
    const route = await create(t, alice)
    const other = await create(t, bob, { name: 'Bob', quests: [{ name: 'B' }] })

    refused(await t.plugin(bob).routes({ id: route.id }).delete(), 404)
    expect(storedRoute(t, route.id)).toBeDefined()
    expect(storedSteps(t, route.id)).toHaveLength(3)

    expect(ok(await t.plugin(alice).routes({ id: route.id }).delete())).toEqual({ ok: true })
    expect(storedRoute(t, route.id)).toBeUndefined()
    expect(storedSteps(t, route.id)).toEqual([])
    // Bob's route is untouched.
    expect(storedSteps(t, other.id)).toHaveLength(1)

    refused(await t.plugin(alice).routes({ id: route.id }).delete(), 404)
    refused(await t.plugin(alice).routes({ id: route.id }).get(), 404)
  })

  test('a non-integer id is 400; no token is 401; nothing deleted', async () => {
    const { t, alice } = await setup()
    const route = await create(t, alice)
    refused(await t.plugin(alice).routes({ id: 'x' }).delete(), 400)
    refused(await t.api.plugin.routes({ id: route.id }).delete(), 401)
    expect(storedRoute(t, route.id)).toBeDefined()
  })
})

describe('GET /info', () => {
  test('routeCount counts every route on the server; navigationMatchRemake is on', async () => {
    const { t, alice, bob } = await setup()
    await create(t, alice)
    await create(t, bob)
    const info = ok(await t.plugin(alice).info.get())
    expect(info.routeCount).toBe(2)
    expect(info.features.navigationMatchRemake).toBe(true)
  })
})
