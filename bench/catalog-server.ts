// A server with the full catalog on a throw-away in-memory database, for bench/catalog-wrk.sh:
// prints "PORT TOKEN" on its first line, then serves until killed.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { systemClock } from '../src/clock'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { silentLogger } from '../src/logger'
import { createLoginGuard } from '../src/modules/auth/login-guard'
import { productionHasher } from '../src/modules/auth/password'
import { createUser, login } from '../src/modules/auth/service'
import { syncCatalog } from '../src/modules/catalog/sync'

const shared = join(import.meta.dir, '..', '..', 'shared', 'fixtures', 'catalog', 'quests-718.json')
const source = existsSync(shared) ? shared : join(import.meta.dir, '..', 'test', 'fixtures', 'catalog-small.json')

const db = openDatabase(':memory:')
const deps = {
  db,
  config: loadConfig({ CATALOG_SYNC_CRON: 'off' }),
  clock: systemClock,
  logger: silentLogger,
  passwordHasher: productionHasher,
}
const report = await syncCatalog(deps, source)
if (!report.ok) throw new Error(report.error)
await createUser(deps, { username: 'bench', password: 'bench password 1' })
const { token } = await login(deps, createLoginGuard(deps), 'bench', 'bench password 1', 'bench', undefined)
const app = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
console.log(`${app.server?.port} ${token} ${report.rows}`)
