// createApp: the whole HTTP application as an Elysia instance. No side effects at import and
// none at construction besides building routes: no listening, no timers, no cron.
import { Elysia } from 'elysia'
import { apiDocsModule } from './apiDocs'
import type { DocumentedApp } from './apiDocs/openapi'
import { outsideWrites } from './db/freshness'
import { watchSpace } from './db/space'
import type { AppDeps, ModuleDeps } from './deps'
import { TrustedProxies } from './http/address'
import { PLUGIN_PREFIX, WEBSITE_PREFIX } from './http/api'
import { bodyReader } from './http/body'
import { coerceIntegers } from './http/integers'
import { plumbing } from './http/plumbing'
import { responseCheck, responseDetacher } from './http/responses'
import { assertPrepared, prepareRoutes } from './http/routeRecords'
import { accountModule } from './modules/account'
import { authModule, bearerGuard } from './modules/auth'
import { credentialCheckOf, type Guard } from './modules/auth/guard'
import { createLoginGuard } from './modules/auth/loginGuard'
import { buildsModule } from './modules/builds'
import { buildImportModule } from './modules/builds/import'
import { livesModule } from './modules/builds/lives'
import { catalogModule, publicCatalogModule } from './modules/catalog'
import { charactersModule } from './modules/characters'
import { completionsModule } from './modules/completions'
import { eventsModule } from './modules/events'
import { ChangeFeed } from './modules/events/feed'
import { StreamCounter } from './modules/events/stream'
import { groupEventsModule, groupsModule, groupsOf } from './modules/groups'
import { invitesModule } from './modules/invites'
import { nextModule } from './modules/next'
import { pastLivesModule } from './modules/pastLives'
import { playerDataModule } from './modules/playerData'
import { progressModule } from './modules/progress'
import { routesModule } from './modules/routes'
import { sagasModule } from './modules/sagas'
import { cookieGuard, sessionModule } from './modules/session'
import { SignOuts } from './modules/session/signOuts'
import { shareModule } from './modules/share'
import { systemModule } from './modules/system'
import { webModule } from './modules/web'

export interface AppOptions {
  /**
   * Tests only: check every answer against the schema its route documents, and report each
   * mismatch here (the answer is then a 500). The server itself does not check its answers:
   * see src/http/responses.ts.
   */
  onInvalidResponse?: (problem: string) => void
  /** Tests only: a shorter time for a body to arrive than BODY_TIME_LIMIT_MS (src/http/body.ts). */
  bodyTimeLimitMs?: number
}

export function createApp(inputs: AppDeps, options: AppOptions = {}) {
  // One guard for every route that takes a password (plugin login, website sign-in), so their
  // limits add up (see loginGuard.ts).
  const loginGuard = createLoginGuard(inputs)
  // TRUSTED_PROXY: whether a request came over HTTPS (the Secure cookie, HSTS).
  const proxies = new TrustedProxies(inputs.config.trustedProxies)
  // What every service that changes a character's data tells, and the event streams follow.
  const deps: ModuleDeps = { ...inputs, changes: new ChangeFeed(outsideWrites(inputs.db)) }
  // Whether the database has room to write (a full disk: 503 for writes, reads go on, health says so).
  const space = watchSpace(inputs.db, inputs.logger, inputs.clock)
  // Sign-outs reach the open event streams of the sessions they end.
  const signOuts = new SignOuts()
  // One cap on the live-update streams of an account, whichever pages they serve.
  const streams = new StreamCounter()
  // What changes a group itself, for its open pages (both APIs change groups; the website follows),
  // the needs kept between requests, and each account's share changes counted, for both APIs.
  const groups = groupsOf(deps)
  const bearer = bearerGuard(deps)
  const cookie = cookieGuard(deps, proxies)
  // The character operations, written once, mounted in both APIs.
  const characterApi = (guard: Guard) =>
    new Elysia()
      .use(buildsModule(deps, guard))
      .use(livesModule(deps, guard))
      .use(routesModule(deps, guard))
      .use(charactersModule(deps, guard))
      .use(completionsModule(deps, guard))
      .use(progressModule(deps, guard))
      .use(nextModule(deps, guard))
      .use(pastLivesModule(deps, guard))
      .use(sagasModule(deps, guard))
  const pluginApi = new Elysia({ prefix: PLUGIN_PREFIX })
    .use(authModule(deps, bearer, loginGuard))
    .use(catalogModule(deps, bearer))
    .use(characterApi(bearer))
    .use(groupsModule(deps, bearer, groups))
  const websiteApi = new Elysia({ prefix: WEBSITE_PREFIX })
    .use(sessionModule(deps, cookie, loginGuard, signOuts, proxies))
    .use(invitesModule(deps, loginGuard, proxies, groups.feed))
    .use(characterApi(cookie))
    .use(accountModule(deps, cookie, loginGuard, signOuts, proxies))
    .use(buildImportModule(deps, cookie))
    .use(eventsModule(deps, cookie, signOuts, streams))
    .use(groupsModule(deps, cookie, groups))
    .use(groupEventsModule(deps, cookie, groups.feed, signOuts, streams))
    .use(playerDataModule(deps, cookie))

  // The finished app, for the documents the system module builds on first use (set below).
  let documented: DocumentedApp | undefined
  // Every route, prepared below before the app compiles them.
  const routes = new Elysia()
    .use(pluginApi)
    .use(websiteApi)
    .use(publicCatalogModule(deps))
    .use(shareModule(deps))
    .use(systemModule(deps, bearer, space))
    .use(apiDocsModule(() => documented as DocumentedApp, deps.config.tokenIdleDays))
    // The website last: its page paths must not shadow an API route.
    .use(webModule(deps))
  // Before Elysia compiles them, every route's record is changed in one place
  // (src/http/routeRecords.ts): its response schemas taken off (kept for the documents and the
  // tests), its integer path and query parameters read without TypeBox's interpreter, and its
  // body reader added (its limits, JSON that answers 400 instead of Elysia's own parse error),
  // which runs the route's credential check before reading.
  const responses = responseDetacher()
  prepareRoutes(routes, [responses.step, coerceIntegers, bodyReader(credentialCheckOf, options.bodyTimeLimitMs)])

  // `normalize: 'typebox'`: validate what the client sent, then drop unknown keys. Elysia's
  // default (exact mirror) rebuilds objects before validating, so `5` or `[]` sent for an
  // object field silently became `{}` instead of a 400. (`false` would reject unknown keys,
  // which game clients do send.) It applies to input only: answers are not validated.
  const app = new Elysia({ normalize: 'typebox' })
    .use(plumbing(deps.logger, { proxies, space }))
    .use(options.onInvalidResponse ? responseCheck(responses.schemas, options.onInvalidResponse) : new Elysia())
    .use(routes)
  // A route added to the app itself would have none of the above.
  assertPrepared(app, routes)
  documented = { app, responses: responses.schemas }
  // What Elysia's `server` is: the hooks every request runs ask TrustedProxies instead of naming it.
  proxies.attach(() => app.server)
  return app
}

export type App = ReturnType<typeof createApp>
