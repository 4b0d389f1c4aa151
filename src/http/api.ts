// The two HTTP APIs that share one set of route definitions: the plugin API (bearer tokens,
// under /api/plugin, documented in OpenAPI) and the website's cookie API (session cookie,
// under /api, same-origin). A module is mounted once per API with the API's prefix and guard,
// so the handlers, schemas and services are written once.
import type { Guard } from '../modules/auth/guard'

export interface Api {
  /** `/api/plugin` or `/api`. */
  prefix: string
  /** Defines the `auth` macro: bearer token or session cookie. */
  guard: Guard
}

export const PLUGIN_PREFIX = '/api/plugin'
export const WEBSITE_PREFIX = '/api'
