// A route's lifecycle hooks as Elysia lists them on `app.routes`: one hook or an array of them,
// each a function or `{ fn, scope }`. Read, and added to, before the routes are mounted (the
// parent builds each route from the hooks listed here).

/** The hooks of one kind (`transform`, `parse`, …) among a route's hooks, as an array. */
export function hooksOf(hooks: unknown, kind: string): unknown[] {
  const listed = (hooks as Record<string, unknown> | undefined)?.[kind]
  return listed === undefined ? [] : Array.isArray(listed) ? listed : [listed]
}

/** Adds `fn` after a route's hooks of `kind`, for that route alone. */
export function addRouteHook(hooks: object, kind: string, fn: (...args: never[]) => unknown): void {
  ;(hooks as Record<string, unknown>)[kind] = [...hooksOf(hooks, kind), { fn, scope: 'local' }]
}
