// The contract with Elysia that src/http/routeRecords.ts leans on: how its route records look
// before they are mounted, and that what prepareRoutes changes there is what the mounted app
// does. An Elysia upgrade that changes either fails here, not in production. And the rule every
// hook keeps: it names the context parts it reads.
import { describe, expect, test } from 'bun:test'
import { TransformKind } from '@sinclair/typebox'
import { Elysia, t } from 'elysia'
import { systemClock } from '../../src/clock'
import { openDatabase } from '../../src/db/client'
import { watchSpace } from '../../src/db/space'
import { TrustedProxies } from '../../src/http/address'
import { bodyLimit, bodyReader } from '../../src/http/body'
import { Unauthorized } from '../../src/http/errors'
import { coerceIntegers } from '../../src/http/integers'
import { plumbing } from '../../src/http/plumbing'
import { responseDetacher } from '../../src/http/responses'
import {
  assertPrepared,
  hookFunctions,
  prepareRoutes,
  type RouteHooks,
  routeRecords,
} from '../../src/http/routeRecords'
import { silentLogger } from '../../src/logger'
import { credentialCheckOf, credentialGuard } from '../../src/modules/auth/guard'
import { testApp } from '../helpers'

/** A guard that lets in the requests that say `x-user: 1`, counting how often it was asked. */
function guarded() {
  const asked = { n: 0 }
  const guard = credentialGuard('token', ({ request }) => {
    asked.n++
    if (request.headers.get('x-user') !== '1') throw new Unauthorized('Who are you?')
    return { user: { id: 1, username: 'u', displayName: 'u', email: null }, credential: { kind: 'token', id: 1 } }
  })
  return { guard, asked }
}

/** Routes of each kind this module changes, as a module of the app declares them. */
function routes() {
  const { guard, asked } = guarded()
  const instance = new Elysia()
    .use(bodyLimit)
    .use(guard)
    .get('/items/:id', ({ params }) => ({ id: params.id, type: typeof params.id, extra: 'undeclared' }), {
      params: t.Object({ id: t.Integer() }),
      response: { 200: t.Object({ id: t.Integer(), type: t.String() }) },
    })
    .post('/items', ({ body }) => ({ got: body }), { auth: true, maxBodyBytes: 64, body: t.Object({ a: t.String() }) })
  return { instance, asked }
}

describe("Elysia's route records, before they are mounted", () => {
  test('list each route with its method, path and hooks: the response, the params with their transforms, the guard in transform', () => {
    const { instance } = routes()
    const records = routeRecords(instance)
    expect(records.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /items/:id', 'POST /items'])
    const [get, post] = records as [(typeof records)[0], (typeof records)[0]]
    expect((get.hooks.response as Record<number, unknown>)[200]).toBeDefined()
    const id = (get.hooks.params as unknown as { properties: Record<string, object> }).properties.id as object
    expect(TransformKind in id).toBe(true)
    expect(credentialCheckOf(post.hooks)).toBeFunction()
    expect(credentialCheckOf(get.hooks)).toBeUndefined()
    expect((post.hooks.detail as Record<string, unknown>)['x-max-body-bytes']).toBe(64)
  })

  test('what prepareRoutes changes is what the mounted app does', async () => {
    const { instance, asked } = routes()
    const responses = responseDetacher()
    prepareRoutes(instance, [responses.step, coerceIntegers, bodyReader(credentialCheckOf)])
    // The app's one error path, which turns a refusal into its status and sentence.
    const space = watchSpace(openDatabase(':memory:'), silentLogger, systemClock)
    const app = new Elysia().use(plumbing(silentLogger, { proxies: new TrustedProxies([]), space })).use(instance)
    assertPrepared(app, instance)
    expect([...responses.schemas.keys()]).toEqual(['GET /items/:id'])

    // Integers arrive as numbers; the answer is not checked against its schema at run time.
    const item = await app.handle(new Request('http://localhost/items/42'))
    expect(await item.json()).toEqual({ id: 42, type: 'number', extra: 'undeclared' })
    // A body over the route's limit is refused while it arrives.
    const big = await app.handle(
      new Request('http://localhost/items', {
        method: 'POST',
        headers: { 'x-user': '1' },
        body: JSON.stringify({ a: 'x'.repeat(100) }),
      }),
    )
    expect(big.status).toBe(413)
    // A stranger's body is never read: the guard refuses first, asked once.
    let read = false
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true
          controller.enqueue(new TextEncoder().encode('{"a":"b"}'))
          controller.close()
        },
      },
      { highWaterMark: 0 }, // pulled only when someone reads
    )
    asked.n = 0
    const stranger = await app.handle(
      new Request('http://localhost/items', { method: 'POST', body, duplex: 'half' } as RequestInit),
    )
    expect(stranger.status).toBe(401)
    expect(read).toBe(false)
    expect(asked.n).toBe(1)
    const member = await app.handle(
      new Request('http://localhost/items', { method: 'POST', headers: { 'x-user': '1' }, body: '{"a":"b"}' }),
    )
    expect(await member.json()).toEqual({ got: { a: 'b' } })
  })

  test('a route added after prepareRoutes is refused at once', () => {
    const { instance } = routes()
    prepareRoutes(instance, [])
    const app = new Elysia().use(instance).get('/late', () => 'no limits')
    expect(() => assertPrepared(app, instance)).toThrow('routes added after prepareRoutes')
    expect(() => assertPrepared(new Elysia().use(routes().instance), routes().instance)).toThrow(
      'mounted without prepareRoutes',
    )
  })
})

/**
 * Whether a hook's source names the context parts it reads: a destructuring first parameter, or
 * none. `(context) => …`, `context => …` and `function (ctx)` take it whole.
 */
function namesItsParts(fn: (...args: never[]) => unknown): boolean {
  const source = fn.toString().trim()
  if (/^(?:async\s+)?[\w$]+\s*=>/.test(source)) return false
  const open = source.indexOf('(')
  const next = source.slice(open + 1).trimStart()[0]
  return next === '{' || next === ')'
}

test('the rule holds: every hook of the app names the context parts it reads', () => {
  expect(namesItsParts(({ request }: { request: Request }) => request)).toBe(true)
  expect(namesItsParts((context: { request: Request }) => context.request)).toBe(false)
  const { app } = testApp()
  const routeHooks = app.routes.flatMap((route) => {
    const hooks = route.hooks as RouteHooks
    return Object.keys(hooks).flatMap((kind) => hookFunctions(hooks, kind))
  })
  const global = Object.values((app as unknown as { event: Record<string, unknown> }).event).flatMap((list) =>
    Array.isArray(list) ? list.map((hook) => (typeof hook === 'function' ? hook : hook.fn)) : [],
  )
  const all = [...new Set([...routeHooks, ...global])]
  expect(all.length).toBeGreaterThan(8)
  const offenders = all.filter((fn) => !namesItsParts(fn)).map((fn) => fn.toString().slice(0, 80))
  expect(offenders).toEqual([])
})
