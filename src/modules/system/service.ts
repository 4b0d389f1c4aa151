// The numbers GET /info reports.
import { count, eq } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { catalogState, characters, quests, routes } from '../../db/schema'
import { VERSION } from '../../version'
import type { PublicUser } from '../auth/service'
import { CHALLENGE_SETTINGS, FEATURES, REMAKE_TIERS } from './features'

export const DOC_PATHS = {
  docs: '/api/plugin/docs',
  openapi: '/api/openapi.json',
  humanDocs: '/docs',
} as const

export function info(db: DB, user: PublicUser, catalogSource: string) {
  const countOf = (query: { get(): { n: number } | undefined }) => query.get()?.n ?? 0
  const state = db.select().from(catalogState).get()
  return {
    user,
    characterCount: countOf(db.select({ n: count() }).from(characters).where(eq(characters.userId, user.id))),
    routeCount: countOf(db.select({ n: count() }).from(routes)),
    questCatalogCount: countOf(db.select({ n: count() }).from(quests)),
    catalog: state
      ? { source: state.source, syncedAt: state.syncedAt, rows: state.rows }
      : { source: catalogSource, syncedAt: null, rows: 0 },
    apiVersion: 6 as const,
    serverVersion: VERSION,
    ...DOC_PATHS,
    features: { ...FEATURES, challengeSettings: [...CHALLENGE_SETTINGS], remakeTiers: [...REMAKE_TIERS] },
  }
}
