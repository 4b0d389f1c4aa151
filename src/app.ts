// createApp: the whole HTTP application as an Elysia instance. No side effects at import and
// none at construction besides building routes: no listening, no timers, no cron.
import { type AnyElysia, Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { type Api, PLUGIN_PREFIX, WEBSITE_PREFIX } from './http/api'
import { plumbing } from './http/plumbing'
import { authModule, bearerGuard } from './modules/auth'
import { LoginThrottle } from './modules/auth/throttle'
import { buildsModule } from './modules/builds'
import { buildImportModule } from './modules/builds/import'
import { catalogModule, publicCatalogModule } from './modules/catalog'
import { charactersModule } from './modules/characters'
import { completionsModule } from './modules/completions'
import { changeReporter, eventsModule } from './modules/events'
import { ChangeFeed } from './modules/events/feed'
import { livesModule } from './modules/lives'
import { progressModule } from './modules/progress'
import { routesModule } from './modules/routes'
import { cookieGuard, sessionModule } from './modules/session'
import { shareModule } from './modules/share'
import { systemModule } from './modules/system'

export function createApp(deps: AppDeps) {
  // One throttle for every way of logging in (plugin tokens and website sessions).
  const throttle = new LoginThrottle(deps.clock)
  const changes = new ChangeFeed()
  const plugin: Api = { prefix: PLUGIN_PREFIX, guard: bearerGuard(deps) }
  const website: Api = { prefix: WEBSITE_PREFIX, guard: cookieGuard(deps) }
  // The character operations, written once, mounted in both APIs.
  const characterApi = (api: Api) =>
    new Elysia()
      .use(buildsModule(deps, api))
      .use(livesModule(deps, api))
      .use(routesModule(deps, api))
      .use(charactersModule(deps, api))
      .use(completionsModule(deps, api))
      .use(progressModule(deps, api))

  // `normalize: 'typebox'`: validate what the client sent, then drop unknown keys. Elysia's
  // default (exact mirror) rebuilds objects before validating, so `5` or `[]` sent for an
  // object field silently became `{}` instead of a 400. (`false` would reject unknown keys,
  // which game clients do send.) Cost: responses are cleaned by TypeBox too; see bench/.
  const app: AnyElysia = new Elysia({ normalize: 'typebox' })
    .use(plumbing(deps.logger))
    .use(changeReporter(changes))
    .use(authModule(deps, plugin, throttle))
    .use(catalogModule(deps, plugin))
    .use(characterApi(plugin))
    .use(sessionModule(deps, website, throttle))
    .use(characterApi(website))
    .use(buildImportModule(deps, website))
    .use(eventsModule(deps, website, changes))
    .use(publicCatalogModule(deps))
    .use(shareModule(deps))
    .use(systemModule(deps, plugin, () => app))
  return app
}

export type App = ReturnType<typeof createApp>
