// Elysia's route records: the one module that reads and changes them. Elysia lists every route on
// `app.routes` as `{method, path, hooks, ...}` (InternalRoute), and a parent instance builds each
// route it mounts from the hooks listed there; none of that is documented for changing. Before the
// app mounts its routes, createApp (src/app.ts) changes their records here, for three things
// the floor bench and the body limits need (bench/README.md "The floor"):
//
// 1. response schemas come off (src/http/responses.ts): Elysia would encode, clean and check
//    every answer with TypeBox's interpreter, half the time of a read; tests check answers instead;
// 2. integer path and query parameters become numbers in a hook of the route's own, and the
//    schema's own check follows (src/http/integers.ts): a tenth of an unchanged read, and a range
//    refusal that names its parameter;
// 3. routes that may take a body get a reader with the route's limit, run after the route's
//    credential check (src/http/body.ts, src/modules/auth/guard.ts): a stranger's body is never read.
//
// test/http/routeRecords.test.ts fails when Elysia's route records change shape, and createApp asserts
// that every route it mounts went through prepareRoutes (assertPrepared): a route added afterwards
// would lose its body limit, its credential-before-body check and its integer coercion.
//
// The rule for every hook (route, global, macro): it names, by destructuring, only the parts of
// the context it reads: `({ request, set }) => …`, never `(context) => …`. Elysia reads each hook's
// source and prepares for every request what the hooks name (cookies parsed, query and headers
// copied into objects, `server` defined on the context); a context taken whole makes it prepare
// everything, for every request. test/http/routeRecords.test.ts checks every hook of the app.
import type { TSchema } from '@sinclair/typebox'
import type { AnyElysia } from 'elysia'

/** The parts of a route's hooks this module reads or changes; Elysia's record has more. */
export interface RouteHooks {
  response?: TSchema | Record<number, TSchema>
  params?: TSchema
  query?: TSchema
  detail?: Record<string, unknown>
  [kind: string]: unknown
}

/** One route, as Elysia lists it. */
export interface RouteRecord {
  method: string
  path: string
  hooks: RouteHooks
}

export const routeKey = (method: string, path: string): string => `${method} ${path}`

/** The routes of an instance not yet mounted, checked to have the shape the steps below change. */
export function routeRecords(app: AnyElysia): RouteRecord[] {
  return app.routes.map((route) => {
    const { method, path } = route as { method: unknown; path: unknown }
    const hooks = (route as { hooks?: unknown }).hooks
    if (typeof method !== 'string' || typeof path !== 'string' || typeof hooks !== 'object' || hooks === null) {
      throw new Error(
        `Elysia's route records changed shape (${String(method)} ${String(path)}: no method, path or hooks object); see src/http/routeRecords.ts`,
      )
    }
    return route as unknown as RouteRecord
  })
}

/** The hooks of one kind (`transform`, `parse`, …) of a route, as an array. */
export function hooksOf(hooks: RouteHooks, kind: string): unknown[] {
  const listed = hooks[kind]
  return listed === undefined ? [] : Array.isArray(listed) ? listed : [listed]
}

/** The functions among a route's hooks of one kind (each a function, or `{ fn, scope }`). */
export function hookFunctions(hooks: RouteHooks, kind: string): ((...args: never[]) => unknown)[] {
  return hooksOf(hooks, kind).flatMap((hook) => {
    const fn = typeof hook === 'function' ? hook : (hook as { fn?: unknown } | undefined)?.fn
    return typeof fn === 'function' ? [fn as (...args: never[]) => unknown] : []
  })
}

/** Adds `fn` after a route's hooks of `kind`, for that route alone. */
export function addRouteHook(hooks: RouteHooks, kind: string, fn: (...args: never[]) => unknown): void {
  hooks[kind] = [...hooksOf(hooks, kind), { fn, scope: 'local' }]
}

/** A change to one route's record, made before it is mounted. */
export type RouteStep = (route: RouteRecord) => void

/** The routes each instance had when its steps ran: what assertPrepared compares the app with. */
const prepared = new WeakMap<AnyElysia, Set<string>>()

/** Runs `steps` on every route of `routes` (not yet mounted), in order, and remembers which. */
export function prepareRoutes(routes: AnyElysia, steps: readonly RouteStep[]): void {
  const keys = new Set<string>()
  for (const route of routeRecords(routes)) {
    for (const step of steps) step(route)
    keys.add(routeKey(route.method, route.path))
  }
  prepared.set(routes, keys)
}

/**
 * Throws when `app` has a route its prepared `routes` did not (one added after prepareRoutes,
 * which would have no body limit, no credential check before its body and no integer coercion).
 */
export function assertPrepared(app: AnyElysia, routes: AnyElysia): void {
  const keys = prepared.get(routes)
  if (!keys) throw new Error('the routes were mounted without prepareRoutes (src/http/routeRecords.ts)')
  const missed = app.routes.map((route) => routeKey(route.method, route.path)).filter((key) => !keys.has(key))
  if (missed.length > 0) {
    throw new Error(
      `routes added after prepareRoutes (src/http/routeRecords.ts) go without their body limit and checks: ${missed.join(', ')}`,
    )
  }
}
