// What the benches run on: the real 718-row catalog (../shared/fixtures, outside this repository)
// when it is there, else our 12-row fixture; and the dependencies of an app as shipped
// (production password hashing, no scheduled sync) on a given database.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '../../src/clock'
import { loadConfig } from '../../src/config'
import type { DB } from '../../src/db/client'
import type { AppDeps } from '../../src/deps'
import { silentLogger } from '../../src/logger'
import { productionHasher } from '../../src/modules/auth/password'
import { syncCatalog } from '../../src/modules/catalog/sync'

const FULL_CATALOG = join(import.meta.dir, '..', '..', '..', 'shared', 'fixtures', 'catalog', 'quests-718.json')
export const HAVE_FULL_CATALOG = existsSync(FULL_CATALOG)
export const CATALOG_SOURCE = HAVE_FULL_CATALOG
  ? FULL_CATALOG
  : join(import.meta.dir, '..', '..', 'test', 'fixtures', 'catalog-small.json')

/** The dependencies of an app as shipped, on `db`. */
export const benchDeps = (db: DB): AppDeps => ({
  db,
  config: loadConfig({ CATALOG_SYNC_CRON: 'off' }),
  clock: systemClock,
  logger: silentLogger,
  passwordHasher: productionHasher,
})

/** Loads the bench catalog into `deps.db`; the number of rows. */
export async function syncBenchCatalog(deps: AppDeps): Promise<number> {
  const report = await syncCatalog(deps, CATALOG_SOURCE)
  if (!report.ok) throw new Error(report.error)
  return report.rows
}
