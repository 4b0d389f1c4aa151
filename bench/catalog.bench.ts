import { do_not_optimize, bench as mitataBench, run } from 'mitata'
import { createApp } from '../src/app'
import { openDatabase } from '../src/db/client'
import { createUser } from '../src/modules/account/service'
import { catalogIndex } from '../src/modules/catalog/service'
import { benchDeps, CATALOG_SOURCE, HAVE_FULL_CATALOG, syncBenchCatalog } from './lib/catalog'

if (!HAVE_FULL_CATALOG) console.warn('../shared/fixtures not found: benchmarking the 12-row test fixture instead')

const db = openDatabase(':memory:')
const deps = benchDeps(db)
const rows = await syncBenchCatalog(deps)
const app = createApp(deps)
await createUser(deps, { username: 'bench', password: 'bench password 1' })
const login = await app.handle(
  new Request('http://localhost/api/plugin/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'bench', password: 'bench password 1' }),
  }),
)
const { token } = (await login.json()) as { token: string }
const headers = { authorization: `Bearer ${token}` }

const requests: [string, string][] = [
  ['search "delera" at level 10', '/api/plugin/quests/search?q=delera&level=10'],
  ['search "the" at level 25 (broad: hundreds of matches)', '/api/plugin/quests/search?q=the&level=25'],
  ['search "shroud" Heroic only', '/api/plugin/quests/search?q=shroud&difficulty=Heroic'],
  ['search "zzz" (no match)', '/api/plugin/quests/search?q=zzz'],
  ['lookup "The Shroud"', '/api/plugin/quests/lookup?name=The%20Shroud'],
  ['GET /quests (all rows)', '/api/plugin/quests'],
]

const index = catalogIndex(db)
mitataBench(`index.search "delera" level 10 (${index.size} rows, no HTTP)`, () =>
  do_not_optimize(index.search({ query: 'delera', difficulty: null, level: 10, limit: 20 })),
)
mitataBench('index.search "the" level 25 (no HTTP)', () =>
  do_not_optimize(index.search({ query: 'the', difficulty: null, level: 25, limit: 20 })),
)
for (const [name, path] of requests) {
  const probe = await app.handle(new Request(`http://localhost${path}`, { headers }))
  if (probe.status !== 200) throw new Error(`${path} answered ${probe.status}`)
  mitataBench(`HTTP ${name}`, async () => {
    const response = await app.handle(new Request(`http://localhost${path}`, { headers }))
    do_not_optimize(await response.text())
  })
}

const { benchmarks } = await run({ format: 'quiet' })
const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`
console.log(`catalog: ${rows} rows from ${CATALOG_SOURCE}\n`)
console.log('| case | p50 | p99 | avg |')
console.log('|---|---|---|---|')
for (const trial of benchmarks) {
  const stats = trial.runs[0]?.stats
  if (stats) console.log(`| ${trial.alias} | ${us(stats.p50)} | ${us(stats.p99)} | ${us(stats.avg)} |`)
}
db.$client.close()
