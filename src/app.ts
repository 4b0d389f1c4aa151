// createApp: the whole HTTP application as an Elysia instance. No side effects at import and
// none at construction besides building routes: no listening, no timers, no cron.
import { type AnyElysia, Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { plumbing } from './http/plumbing'
import { authModule } from './modules/auth'
import { buildsModule } from './modules/builds'
import { catalogModule } from './modules/catalog'
import { charactersModule } from './modules/characters'
import { completionsModule } from './modules/completions'
import { livesModule } from './modules/lives'
import { progressModule } from './modules/progress'
import { routesModule } from './modules/routes'
import { shareModule } from './modules/share'
import { systemModule } from './modules/system'
import { webModule } from './modules/web'

export function createApp(deps: AppDeps) {
  // `normalize: 'typebox'`: validate what the client sent, then drop unknown keys. Elysia's
  // default (exact mirror) rebuilds objects before validating, so `5` or `[]` sent for an
  // object field silently became `{}` instead of a 400. (`false` would reject unknown keys,
  // which game clients do send.) Cost: responses are cleaned by TypeBox too; see bench/.
  const app: AnyElysia = new Elysia({ normalize: 'typebox' })
    .use(plumbing(deps.logger))
    .use(authModule(deps))
    .use(buildsModule(deps))
    .use(livesModule(deps))
    .use(catalogModule(deps))
    .use(routesModule(deps))
    .use(charactersModule(deps))
    .use(completionsModule(deps))
    .use(progressModule(deps))
    .use(shareModule(deps))
    .use(systemModule(deps, () => app))
    // The website last: its page paths must not shadow an API route.
    .use(webModule(deps))
  // Feature modules are added here, one .use() each.
  return app
}

export type App = ReturnType<typeof createApp>
