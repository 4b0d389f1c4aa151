// The two HTTP APIs that share one set of route definitions: the plugin API (bearer tokens,
// under /api/plugin, documented in OpenAPI) and the website's cookie API (session cookie,
// under /api, same-origin). A module is written once, with paths relative to its API and the
// API's guard as a value; createApp mounts it under each API's prefix. The prefix is the
// parent's, so the app's type (and Eden Treaty's client) knows every route under both.
import { Elysia } from 'elysia'
import type { Guard } from '../modules/auth/guard'

export const PLUGIN_PREFIX = '/api/plugin'
export const WEBSITE_PREFIX = '/api'

/**
 * A module's routes under `path`, each answering only a caller signed in through `guard` (`auth`,
 * in `transform`, before validation) and listed under `tags`: what every route would otherwise
 * repeat, said once. Add `.guard({ params: IdParams })` before the routes that take an id.
 */
export function signedInRoutes<const Path extends string>(guard: Guard, path: Path, tags: string[]) {
  return new Elysia({ prefix: path }).use(guard).guard({ auth: true, detail: { tags } })
}
