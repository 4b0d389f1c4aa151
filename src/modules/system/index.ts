// GET /api/health (no auth: Docker's health check and a game PC's "is it up?") and GET
// /api/plugin/info (counts, versions, feature flags, where the documents are). The documents
// themselves are served by src/apiDocs.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { errors } from '../../http/model'
import type { Guard } from '../auth/guard'
import { Health, Info } from './model'
import { checkDatabase, info } from './service'

export function systemModule(deps: AppDeps, guard: Guard) {
  return new Elysia()
    .use(guard)
    .get(
      '/api/health',
      () => {
        checkDatabase(deps.db, deps.logger)
        return { ok: true as const }
      },
      {
        response: { 200: Health, ...errors(503) },
        detail: {
          summary: 'Health check',
          description: 'No auth. 503 when the database cannot be read.',
          security: [],
          tags: ['System'],
        },
      },
    )
    .get('/api/plugin/info', ({ user }) => info(deps.db, user, deps.config.catalogSourceUrl), {
      auth: true,
      response: { 200: Info },
      detail: { summary: 'Server information, counts and feature flags', tags: ['System'] },
    })
}
