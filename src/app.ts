// createApp: the whole HTTP application as an Elysia instance. No side effects at import and
// none at construction besides building routes: no listening, no timers, no cron.
import { type AnyElysia, Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { plumbing } from './http/plumbing'
import { authModule } from './modules/auth'
import { buildsModule } from './modules/builds'
import { catalogModule } from './modules/catalog'
import { livesModule } from './modules/lives'
import { routesModule } from './modules/routes'
import { systemModule } from './modules/system'

export function createApp(deps: AppDeps) {
  const app: AnyElysia = new Elysia()
    .use(plumbing(deps.logger))
    .use(authModule(deps))
    .use(buildsModule(deps))
    .use(livesModule(deps))
    .use(catalogModule(deps))
    .use(routesModule(deps))
    .use(systemModule(deps, () => app))
  // Feature modules are added here, one .use() each.
  return app
}

export type App = ReturnType<typeof createApp>
