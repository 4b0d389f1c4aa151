// A DDO Builder file's way in, end to end over a real socket: the planner's 2.2 MB showcase
// leveling guide (../shared/fixtures, outside this repository; the bench says so and stops when
// it is absent) previewed and imported with its history and its 83 quests, as JSON and as an
// uploaded file, on a file database at synchronous=full; and the reader alone (mitata).
//   bun bench/ddobuilderImport.bench.ts [runs]
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { do_not_optimize, bench as mitataBench, run } from 'mitata'
import { createApp } from '../src/app'
import { openDatabase } from '../src/db/client'
import { createUser } from '../src/modules/account/service'
import { readDdoBuilder } from '../src/modules/builds/ddobuilder'
import { benchDeps, CATALOG_SOURCE, syncBenchCatalog } from './lib/catalog'

const SHOWCASE = join(import.meta.dir, '..', '..', 'shared', 'fixtures', 'builds', 'showcase-leveling-guide.DDOBuild')
if (!existsSync(SHOWCASE)) {
  console.warn('skipped: ../shared/fixtures not found (the showcase leveling guide this bench imports)')
  process.exit(0)
}
const RUNS = Number(Bun.argv[2] ?? 15)
const xml = await Bun.file(SHOWCASE).text()

const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'qt-bench-')), 'qt.sqlite'), { synchronous: 'full' })
const deps = benchDeps(db)
const rows = await syncBenchCatalog(deps)
await createUser(deps, { username: 'bench', password: 'bench password 1' })
const server = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
const base = `http://127.0.0.1:${server.server?.port}`
const origin = { origin: base }
const signIn = await fetch(`${base}/api/session`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ identifier: 'bench', password: 'bench password 1' }),
})
const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string
const character = await fetch(`${base}/api/characters`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie, ...origin },
  body: JSON.stringify({ givenName: 'Showcase' }),
})
const { id } = (await character.json()) as { id: number }
const path = `${base}/api/characters/${id}/build/import`
const options = { take: 'history', quests: true }

const cases: [string, () => Promise<Response>][] = [
  [
    'preview (JSON)',
    () =>
      fetch(`${path}/preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...origin },
        body: JSON.stringify({ xml }),
      }),
  ],
  [
    'import: plan, history, 83 quests (JSON)',
    () =>
      fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...origin },
        body: JSON.stringify({ xml, ...options }),
      }),
  ],
  [
    'import: the same, as an uploaded file (multipart)',
    () => {
      const form = new FormData()
      form.append('file', new Blob([xml]), 'showcase-leveling-guide.DDOBuild')
      form.append('options', JSON.stringify(options))
      return fetch(path, { method: 'POST', headers: { cookie, ...origin }, body: form })
    },
  ],
]

const ms = (n: number) => (n < 1 ? `${(n * 1000).toFixed(0)} µs` : `${n.toFixed(0)} ms`)
console.log(`showcase: ${(xml.length / 1024 / 1024).toFixed(2)} MB; catalog: ${rows} rows from ${CATALOG_SOURCE}`)
console.log(`${RUNS} runs each after 3 warm-ups, one at a time over HTTP\n`)
console.log('| case | min | p50 | max |')
console.log('|---|--:|--:|--:|')
for (const [name, send] of cases) {
  const times: number[] = []
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now()
    const response = await send()
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${name} answered ${response.status}`)
    if (i >= 3) times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  console.log(
    `| ${name} | ${ms(times[0] as number)} | ${ms(times[Math.floor(times.length / 2)] as number)} | ${ms(times.at(-1) as number)} |`,
  )
}
server.stop(true)

const hostile = `<DDOBuilderCharacterData><Character><Life><Build>${'<a/>'.repeat(399_990)}</Build></Life></Character></DDOBuilderCharacterData>`
mitataBench('readDdoBuilder(showcase) and its active plan (no HTTP)', () => {
  const file = readDdoBuilder(xml)
  do_not_optimize(file.plan())
})
mitataBench('readDdoBuilder: 399,990 empty elements, just under the tag limit', () => {
  do_not_optimize(readDdoBuilder(hostile).plan())
})
// The hostile files of test/modules/builds/import.test.ts, under 1 MiB: each is refused (it throws)
// before an entity is expanded or a tag nested past the limit; how long the refusal takes is here.
const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY lol${i + 2} "${`&lol${i === 0 ? '' : i + 1};`.repeat(10)}">`,
).join(
  '',
)}]><DDOBuilderCharacterData><Character><Life><Name>&lol10;</Name><Build/></Life></Character></DDOBuilderCharacterData>`
const depth = Math.floor((1024 * 1024 - 200) / 7)
const deep = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`.slice(0, 1024 * 1024 - 100)
const refused = (file: string) => () => {
  try {
    readDdoBuilder(file).plan()
  } catch (e) {
    return do_not_optimize(e)
  }
  throw new Error('a hostile file was read')
}
mitataBench('readDdoBuilder: a billion laughs, refused', refused(laughs))
mitataBench('readDdoBuilder: 1 MiB of nesting, refused', refused(deep))
const { benchmarks } = await run({ format: 'quiet' })
console.log('\n| reader | p50 | p99 |')
console.log('|---|--:|--:|')
for (const trial of benchmarks) {
  const stats = trial.runs[0]?.stats
  if (stats) console.log(`| ${trial.alias} | ${ms(stats.p50 / 1e6)} | ${ms(stats.p99 / 1e6)} |`)
}
db.$client.close()
