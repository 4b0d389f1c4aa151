// The two HTTP APIs that share one set of route definitions: the plugin API (bearer tokens,
// under /api/plugin, documented in OpenAPI) and the website's cookie API (session cookie,
// under /api, same-origin). A module is mounted once per API with the API's prefix and guard,
// so the handlers, schemas and services are written once.
import { Elysia } from 'elysia'
import type { Guard } from '../modules/auth/guard'

export interface Api {
  /** `/api/plugin` or `/api`. */
  prefix: string
  /** Defines the `auth` macro: bearer token or session cookie. */
  guard: Guard
}

export const PLUGIN_PREFIX = '/api/plugin'
export const WEBSITE_PREFIX = '/api'

/**
 * A module's routes in `api`, under `path`, each answering only a signed-in caller (`auth`, in
 * `transform`, before validation) and listed under `tags`: what every route would otherwise
 * repeat, said once. Add `.guard({ params: IdParams })` before the routes that take an id.
 */
export function signedInRoutes(api: Api, path: string, tags: string[]) {
  return new Elysia({ prefix: `${api.prefix}${path}` }).use(api.guard).guard({ auth: true, detail: { tags } })
}
