// The numbers GET /info reports.
import { count, eq } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { migratedVersionOf, SCHEMA_VERSION } from '../../db/migrate'
import { characters, quests, routes } from '../../db/schema'
import type { DiskSpace } from '../../db/space'
import { DOC_PATHS } from '../../http/api'
import type { Logger } from '../../logger'
import { VERSION } from '../../version'
import type { PublicUser } from '../auth/service'
import { type CatalogProvenance, catalogProvenance } from '../catalog/service'
import { CHALLENGE_SETTINGS, FEATURES, REMAKE_TIERS } from './features'

/** What /api/health answers: 200 with `ok: true`, or 503 with `ok: false` and the reason. */
export type HealthReport =
  | { ok: true; schemaVersion: number; catalog: CatalogProvenance }
  | { ok: false; error: string; schemaVersion?: number }

/**
 * What /api/health checks: that the database answers a read of its schema version (a deleted,
 * damaged or closed database is not a cheerful {ok: true}), and that writes have room. While a
 * full disk refuses writes, each check tries one (space.probe), so the server says it is healthy
 * again as soon as space is freed, even when nobody writes.
 */
export function health(db: DB, logger: Logger, space: DiskSpace, sources: readonly string[]): HealthReport {
  try {
    const schemaVersion = migratedVersionOf(db.$client)
    if (!space.probe()) {
      return {
        ok: false,
        error: 'The disk is full: reads work, writes are refused until space is freed.',
        schemaVersion,
      }
    }
    return { ok: true, schemaVersion, catalog: catalogProvenance(db, sources) }
  } catch (error) {
    logger.error(`health check: the database cannot be read: ${error instanceof Error ? error.message : error}`)
    return { ok: false, error: 'The database cannot be read; see the server log.' }
  }
}

export function info(db: DB, user: PublicUser, catalogSources: readonly string[]) {
  const countOf = (query: { get(): { n: number } | undefined }) => query.get()?.n ?? 0
  return {
    user,
    characterCount: countOf(db.select({ n: count() }).from(characters).where(eq(characters.userId, user.id))),
    routeCount: countOf(db.select({ n: count() }).from(routes)),
    questCatalogCount: countOf(db.select({ n: count() }).from(quests)),
    catalog: catalogProvenance(db, catalogSources),
    apiVersion: 6 as const,
    serverVersion: VERSION,
    schemaVersion: SCHEMA_VERSION,
    ...DOC_PATHS,
    features: { ...FEATURES, challengeSettings: [...CHALLENGE_SETTINGS], remakeTiers: [...REMAKE_TIERS] },
  }
}
