// The numbers GET /info reports.
import { basename } from 'node:path'
import { count, eq } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { migratedVersionOf, SCHEMA_VERSION } from '../../db/migrate'
import { catalogState, characters, quests, routes } from '../../db/schema'
import type { DiskSpace } from '../../db/space'
import { DOC_PATHS } from '../../http/api'
import type { Logger } from '../../logger'
import { VERSION } from '../../version'
import type { PublicUser } from '../auth/service'
import { CHALLENGE_SETTINGS, FEATURES, REMAKE_TIERS } from './features'

/**
 * What /info shows of the catalog source: the host of a URL or the name of a file. Every account
 * reads /info; the full value can hold an admin's paths or a URL's credentials and query token.
 */
export function publicSourceName(source: string): string {
  try {
    const url = new URL(source)
    if (url.protocol !== 'file:' && url.host) return url.host
    return basename(url.pathname)
  } catch {
    return basename(source) // a plain path
  }
}

/** What /api/health answers: 200 with `ok: true`, or 503 with `ok: false` and the reason. */
export type HealthReport = { ok: true; schemaVersion: number } | { ok: false; error: string; schemaVersion?: number }

/**
 * What /api/health checks: that the database answers a read of its schema version (a deleted,
 * damaged or closed database is not a cheerful {ok: true}), and that writes have room. While a
 * full disk refuses writes, each check tries one (space.probe), so the server says it is healthy
 * again as soon as space is freed, even when nobody writes.
 */
export function health(db: DB, logger: Logger, space: DiskSpace): HealthReport {
  try {
    const schemaVersion = migratedVersionOf(db.$client)
    if (!space.probe()) {
      return {
        ok: false,
        error: 'The disk is full: reads work, writes are refused until space is freed.',
        schemaVersion,
      }
    }
    return { ok: true, schemaVersion }
  } catch (error) {
    logger.error(`health check: the database cannot be read: ${error instanceof Error ? error.message : error}`)
    return { ok: false, error: 'The database cannot be read; see the server log.' }
  }
}

export function info(db: DB, user: PublicUser, catalogSource: string) {
  const countOf = (query: { get(): { n: number } | undefined }) => query.get()?.n ?? 0
  const state = db.select().from(catalogState).get()
  return {
    user,
    characterCount: countOf(db.select({ n: count() }).from(characters).where(eq(characters.userId, user.id))),
    routeCount: countOf(db.select({ n: count() }).from(routes)),
    questCatalogCount: countOf(db.select({ n: count() }).from(quests)),
    catalog: state
      ? { source: publicSourceName(state.source), syncedAt: state.syncedAt, rows: state.rows }
      : { source: publicSourceName(catalogSource), syncedAt: null, rows: 0 },
    apiVersion: 6 as const,
    serverVersion: VERSION,
    schemaVersion: SCHEMA_VERSION,
    ...DOC_PATHS,
    features: { ...FEATURES, challengeSettings: [...CHALLENGE_SETTINGS], remakeTiers: [...REMAKE_TIERS] },
  }
}
