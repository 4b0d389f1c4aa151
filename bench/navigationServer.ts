// Starts Quest Tracker on a temporary database seeded with the navigation benchmark's data
// (bench/navigationData.ts) and prints one JSON line {port, token, characterId, routeId}.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { systemClock } from '../src/clock'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { silentLogger } from '../src/logger'
import { createLoginGuard } from '../src/modules/auth/loginGuard'
import { productionHasher } from '../src/modules/auth/password'
import { login } from '../src/modules/auth/service'
import { seedNavigation } from './navigationData'

const config = loadConfig({ ...process.env, CATALOG_SYNC_CRON: 'off' })
const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'qt-nav-bench-')), 'qt.sqlite'), {
  synchronous: config.databaseSynchronous,
})
const seeded = await seedNavigation(db, systemClock)
const deps = { db, config, clock: systemClock, logger: silentLogger, passwordHasher: productionHasher }
const { token } = await login(deps, createLoginGuard(deps), seeded.username, seeded.password, 'b', undefined)
const app = createApp(deps).listen({
  port: 0,
  hostname: '127.0.0.1',
})
console.log(JSON.stringify({ port: app.server?.port, token, characterId: seeded.characterId, routeId: seeded.routeId }))
