// GET /api/health (no auth: Docker's health check and a game PC's "is it up?") and GET
// /api/plugin/info (counts, versions, feature flags, where the documents are). The documents
// themselves are served by src/apiDocs.
import { Elysia } from 'elysia'
import { SCHEMA_VERSION } from '../../db/migrate'
import type { DiskSpace } from '../../db/space'
import type { AppDeps } from '../../deps'
import { errors } from '../../http/model'
import type { Guard } from '../auth/guard'
import { Health, Info } from './model'
import { health, info } from './service'

export function systemModule(deps: AppDeps, guard: Guard, space: DiskSpace) {
  return new Elysia()
    .use(guard)
    .get(
      '/api/health',
      ({ set }) => {
        const report = health(deps.db, deps.logger, space, deps.config.catalogSources)
        if (!report.ok) set.status = 503
        return report
      },
      {
        // The 503 is an Error that also says `ok: false` (and the schema version when it can be read).
        response: { 200: Health, ...errors(503) },
        detail: {
          summary: 'Health check',
          description: `No auth. 200 \`{"ok": true, "schemaVersion": ${SCHEMA_VERSION}, "catalog": {...}}\`: the database answers, with its schema version and where the quest catalog comes from (how many quests, which source, when, and how the last try of each source went). 503 \`{"ok": false, "error": "<why>"}\` when the database cannot be read. Docker's HEALTHCHECK (\`quest-tracker healthcheck\`) asks it.`,
          security: [],
          tags: ['System'],
        },
      },
    )
    .get('/api/plugin/info', ({ user }) => info(deps.db, user, deps.config.catalogSources), {
      auth: true,
      response: { 200: Info },
      detail: { summary: 'Server information, counts and feature flags', tags: ['System'] },
    })
}
