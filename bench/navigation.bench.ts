// Navigation for a 200-step route and a character with 2,000 completions, measured with mitata
// at three depths: the pure rule (navigate), the service (its SQL + the rule), and the whole
// in-process HTTP stack (app.handle: auth, validation, JSON). Run: bun bench/navigation.bench.ts
// For the figure over real HTTP, see bench/navigation-wrk.sh (wrk).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { bench, group, run } from 'mitata'
import { createApp } from '../src/app'
import { systemClock } from '../src/clock'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { completions, routeSteps } from '../src/db/schema'
import { silentLogger } from '../src/logger'
import { productionHasher } from '../src/modules/auth/password'
import { navigation } from '../src/modules/routes/service'
import { navigate } from '../src/rules/routes/navigation'
import { COMPLETIONS, STEPS, seedNavigation } from './navigationData'

const config = loadConfig({ ...process.env, CATALOG_SYNC_CRON: 'off' })
// A real file in WAL mode, as the server runs it.
const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'qt-nav-bench-')), 'qt.sqlite'), {
  synchronous: config.databaseSynchronous,
})
const seeded = await seedNavigation(db, systemClock)
const app = createApp({ db, config, clock: systemClock, logger: silentLogger, passwordHasher: productionHasher })
const login = await app.handle(
  new Request('http://localhost/api/plugin/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: seeded.username, password: seeded.password }),
  }),
)
const { token } = (await login.json()) as { token: string }

const steps = db.select().from(routeSteps).where(eq(routeSteps.routeId, seeded.routeId)).all()
const logged = db.select().from(completions).where(eq(completions.characterId, seeded.characterId)).all()
if (steps.length !== STEPS || logged.length !== COMPLETIONS) throw new Error('seed did not produce the data')

const query = { characterId: seeded.characterId, routeId: seeded.routeId }
const summary = (match: 'setting' | 'remake') => navigation(db, seeded.userId, { ...query, match }).progress
console.log(`route: ${STEPS} steps; character: ${COMPLETIONS} completions`)
console.log('progress match=setting', summary('setting'), 'match=remake', summary('remake'))

const get = (match: string) =>
  app.handle(
    new Request(
      `http://localhost/api/plugin/navigation?characterId=${query.characterId}&routeId=${query.routeId}&match=${match}`,
      { headers: { authorization: `Bearer ${token}` } },
    ),
  )
const check = await get('remake')
if (check.status !== 200) throw new Error(`navigation answered ${check.status}: ${await check.text()}`)

for (const match of ['setting', 'remake'] as const) {
  group(`navigation match=${match}`, () => {
    bench('pure rule: navigate(200 steps, 2,000 completions)', () => navigate(steps, logged, match))
    bench('service: SQL + rule', () => navigation(db, seeded.userId, { ...query, match }))
    bench('HTTP in-process: app.handle GET /navigation', async () => {
      const response = await get(match)
      await response.arrayBuffer()
    })
  })
}

await run()
