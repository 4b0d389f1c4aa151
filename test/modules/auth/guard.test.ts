// The credential guard: one named plugin per API, whose `identify` runs once per request however
// many modules use it, and which every route of the two APIs but the public ones goes through,
// before validation.

import { describe, expect, test } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import { type AnyElysia, Elysia, t } from 'elysia'
import { apiDocsModule } from '../../../src/apiDocs'
import { loadConfig } from '../../../src/config'
import { openDatabase } from '../../../src/db/client'
import { watchSpace } from '../../../src/db/space'
import type { ModuleDeps } from '../../../src/deps'
import { TrustedProxies } from '../../../src/http/address'
import { silentLogger } from '../../../src/logger'
import { accountModule } from '../../../src/modules/account'
import { authModule } from '../../../src/modules/auth'
import { credentialGuard, type Identify } from '../../../src/modules/auth/guard'
import { createLoginGuard } from '../../../src/modules/auth/loginGuard'
import { buildsModule } from '../../../src/modules/builds'
import { buildImportModule } from '../../../src/modules/builds/import'
import { livesModule } from '../../../src/modules/builds/lives'
import { catalogModule } from '../../../src/modules/catalog'
import { charactersModule } from '../../../src/modules/characters'
import { completionsModule } from '../../../src/modules/completions'
import { eventsModule } from '../../../src/modules/events'
import { ChangeFeed } from '../../../src/modules/events/feed'
import { StreamCounter } from '../../../src/modules/events/stream'
import { groupEventsModule, groupsModule, groupsOf } from '../../../src/modules/groups'
import { GroupFeed } from '../../../src/modules/groups/feed'
import { progressModule } from '../../../src/modules/progress'
import { routesModule } from '../../../src/modules/routes'
import { sessionModule } from '../../../src/modules/session'
import { SignOuts } from '../../../src/modules/session/signOuts'
import { systemModule } from '../../../src/modules/system'
import { cheapHasher, FakeClock, ok, testApp } from '../../helpers'

/** An `identify` that accepts `x-user: <id>` and counts its calls. */
function countingIdentify() {
  const calls = { n: 0 }
  const identify: Identify = ({ request }) => {
    calls.n += 1
    const id = Number(request.headers.get('x-user'))
    if (!id) throw new Response('no credential', { status: 401 })
    return {
      user: { id, email: null, username: `user${id}`, displayName: `user${id}` },
      credential: { kind: 'token', id: 7 },
    }
  }
  return { calls, identify }
}

describe('one guard instance', () => {
  test('identify runs once per request, however many times the guard is used', async () => {
    const { calls, identify } = countingIdentify()
    const guard = credentialGuard('token', identify)
    const first = new Elysia({ prefix: '/a' })
      .use(guard)
      .use(guard)
      .guard({ auth: true, params: t.Object({ id: t.Integer() }) })
      .post('/:id', ({ user, params, body }) => ({ user: user.id, id: params.id, body }), {
        body: t.Object({ n: t.Integer() }),
      })
    const second = new Elysia({ prefix: '/b' }).use(guard).get('/', ({ user }) => ({ user: user.id }), { auth: true })
    const app = new Elysia().use(guard).use(first).use(second).use(guard)

    const as = (user: number) => treaty<typeof app>(app, { headers: { 'x-user': String(user) }, parseDate: false })
    expect(ok(await as(3).a({ id: 5 }).post({ n: 1 }))).toEqual({ user: 3, id: 5, body: { n: 1 } })
    expect(calls.n).toBe(1)

    expect(ok(await as(4).b.get())).toEqual({ user: 4 })
    expect(calls.n).toBe(2)

    // The credential is checked before the body and the path are: 401, not 400. (Raw: n is an
    // integer in the types.)
    const refused = await app.handle(
      new Request('http://localhost/a/abc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: 'x' }),
      }),
    )
    expect(refused.status).toBe(401)
    expect(calls.n).toBe(3)
  })

  // Raw: every route of the table in turn, by its path pattern.
  test('every route of every module goes through the guard exactly once, the public ones never', async () => {
    const deps: ModuleDeps = {
      db: openDatabase(':memory:'),
      config: loadConfig({ CATALOG_SYNC_CRON: 'off' }),
      clock: new FakeClock(),
      logger: silentLogger,
      passwordHasher: cheapHasher,
      changes: new ChangeFeed(),
    }
    const { calls, identify } = countingIdentify()
    const guard = credentialGuard('token', identify)
    const loginGuard = createLoginGuard(deps)
    const signOuts = new SignOuts()
    const proxies = new TrustedProxies([])
    // Every module written with relative paths, mounted under one prefix as createApp does.
    const modules: AnyElysia[] = [
      authModule(deps, guard, loginGuard),
      catalogModule(deps, guard),
      buildsModule(deps, guard),
      livesModule(deps, guard),
      routesModule(deps, guard),
      charactersModule(deps, guard),
      completionsModule(deps, guard),
      progressModule(deps, guard),
      sessionModule(deps, guard, loginGuard, signOuts, proxies),
      accountModule(deps, guard, loginGuard, signOuts, proxies),
      buildImportModule(deps, guard),
      eventsModule(deps, guard, signOuts, new StreamCounter()),
      groupsModule(deps, guard, groupsOf(deps)),
      groupEventsModule(deps, guard, new GroupFeed(), signOuts, new StreamCounter()),
    ]
    const app = new Elysia()
      .use(new Elysia({ prefix: '/x' }).use(modules))
      .use(systemModule(deps, guard, watchSpace(deps.db, deps.logger, deps.clock)))
      .use(
        apiDocsModule(() => {
          throw new Error('no document in this test')
        }, deps.config.tokenIdleDays),
      )
    const routes = app.routes.map((route) => ({ method: route.method, path: route.path }))
    expect(routes.length).toBeGreaterThan(40)

    const runs: Record<string, number> = {}
    for (const { method, path } of routes) {
      const before = calls.n
      const url = `http://localhost${path.replace(/:\w+/g, '1')}`
      const body = method === 'GET' || method === 'HEAD' ? undefined : '{}'
      await app.handle(
        new Request(url, { method, headers: { 'x-user': '999', 'content-type': 'application/json' }, body }),
      )
      runs[`${method} ${path}`] = calls.n - before
    }
    const publicRoutes = [
      'POST /x/auth/login',
      'POST /x/session/',
      'GET /api/health',
      'GET /api/plugin/',
      'GET /api/plugin/docs',
      'GET /api/openapi.json',
      'GET /api/plugin/openapi.json',
      'GET /openapi.json',
      'GET /docs',
      'GET /docs/assets/init.js',
      'GET /docs/assets/swagger-ui.css',
      'GET /docs/assets/swagger-ui-bundle.js',
    ]
    const expected = Object.fromEntries(Object.keys(runs).map((key) => [key, publicRoutes.includes(key) ? 0 : 1]))
    expect(runs).toEqual(expected)
    expect(Object.keys(runs)).toEqual(expect.arrayContaining(publicRoutes))
  })
})

describe('the two APIs', () => {
  // Open to anyone: sign-in, sign-up with an invite (and its preview), health and documentation,
  // the public catalog and shared characters.
  const PUBLIC = new Set([
    'POST /api/plugin/auth/login',
    'POST /api/session/',
    'GET /api/invites/:code',
    'POST /api/signup',
    'GET /api/health',
    'GET /api/plugin/',
    'GET /api/plugin/docs',
    'GET /api/openapi.json',
    'GET /api/plugin/openapi.json',
    'GET /api/quests',
    'GET /api/catalog',
    'GET /api/share/:token',
  ])

  // Raw: every route of the table in turn, with ids, queries and bodies of the wrong type.
  test('every other API route answers 401 without its own credential, whatever the request holds', async () => {
    const app = testApp()
    const token = await app.userWithToken('alice')
    const cookie = await app.signIn('alice')
    const guarded = app.app.routes.filter(
      (route) => route.path.startsWith('/api/') && !PUBLIC.has(`${route.method} ${route.path}`),
    )
    expect(guarded.length).toBeGreaterThan(60)
    const answers: Record<string, number[]> = {}
    for (const { method, path } of guarded) {
      // A path id, a query and body fields of the wrong type: each would be a 400 with a credential.
      const url = `${path.replace(/:\w+/g, 'abc')}?characterId=x&routeId=y&limit=z`
      const body = method === 'GET' ? undefined : { givenName: 5, currentPassword: 5, xml: 5, steps: 5, name: 5 }
      const wrong = path.startsWith('/api/plugin/') ? { cookie } : { token }
      const statuses = []
      for (const credential of [{}, wrong]) statuses.push((await app.json(method, url, { body, ...credential })).status)
      answers[`${method} ${path}`] = statuses
    }
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((key) => [key, [401, 401]])))
  })
})
