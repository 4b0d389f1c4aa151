// The two HTTP APIs that share one set of route definitions: the plugin API (bearer tokens,
// under /api/plugin, documented in OpenAPI) and the website's cookie API (session cookie,
// under /api, same-origin). A module is written once, with paths relative to its API and the
// API's guard as a value; createApp mounts it under each API's prefix. The prefix is the
// parent's, so the app's type (and Eden Treaty's client) knows every route under both.

export const PLUGIN_PREFIX = '/api/plugin'
export const WEBSITE_PREFIX = '/api'

/** Where the server documents the plugin API (`/info` lists them). */
export const DOC_PATHS = {
  docs: '/api/plugin/docs',
  openapi: '/api/openapi.json',
  humanDocs: '/docs',
} as const
