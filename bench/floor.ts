// The app against the floor of its stack: every request a game client or the website makes
// all evening, on Quest Tracker as shipped (`src/main.ts serve`) and on bench/bare.ts (Bun.serve
// + bun:sqlite doing the same statements with no framework), one after the other in one run,
// each on its own copy of one seeded database file. Before measuring, both servers must answer
// every GET with the same JSON. Needs wrk (Debian package `wrk`).
//   bun bench/floor.ts table    the floor table: median of --runs, each after a warm-up
//   bun bench/floor.ts growth   the same reads from 10 to 10,000 completions, 1 to 1,000 characters
//                               on the account, 10 to 1,000 characters on the server
//   bun bench/floor.ts startup  start-up time on a database of about 100 MB
//   bun bench/floor.ts latency  p50 and p99 of each read from 1 to 32 connections, app and bare:
//                               where a p99 under 5 ms holds on this machine
// Environment: BENCH_PIN=1 pins wrk to CPU 0 and the servers to CPU 1 (bench/lib/servers.ts).
// Options: --duration S (5; 2 for growth), --connections N (32), --runs N (3),
//          --sync full|normal (full), --only KEY,KEY (some rows of the table: keys of CASES),
//          --before DIR (table: also an earlier checkout of the app, e.g. `git archive` of an
//          older commit with node_modules beside it, measured in the same run: before and after)
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { LOAD_CPU, PINNED, SERVER_CPU, type Server, type ServerKind, spawnServer } from './lib/servers'
import { type Seeded, seed } from './seed'

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  allowPositionals: true,
  options: {
    duration: { type: 'string' },
    connections: { type: 'string', default: '32' },
    runs: { type: 'string' },
    sync: { type: 'string', default: 'full' },
    only: { type: 'string' },
    before: { type: 'string' },
  },
})
const mode = positionals[0] ?? 'table'
const DURATION = Number(values.duration ?? (mode === 'growth' ? 2 : 5))
const RUNS = Number(values.runs ?? 3)
const CONNECTIONS = Number(values.connections)
const SYNC = values.sync as string
/** How wrk ran, for the tables' footers. */
const WRK_PLACE = PINNED ? `wrk -t1 on CPU ${LOAD_CPU}, the servers on CPU ${SERVER_CPU},` : 'wrk -t2'
const work = mkdtempSync(join(tmpdir(), 'qt-floor-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))
/** The names bench/upsert.lua cycles over: those of the measured character's completions. */
let namesFile = join(work, 'names.txt')

interface Case {
  label: string
  path: (s: Seeded) => string
  auth: 'bearer' | 'cookie' | 'none'
  /** POST completions (bench/upsert.lua) instead of a GET. */
  upsert?: boolean
  /** Sent with the server's own ETag of the answer in If-None-Match: a 304 each time. */
  conditional?: boolean
}

const progress = (label: string, id: (s: Seeded) => number, auth: Case['auth'] = 'bearer'): Case => ({
  label,
  auth,
  path: (s) => `${auth === 'cookie' ? '/api' : '/api/plugin'}/characters/${id(s)}/progress`,
})

const CASES = {
  health: { label: '`GET /api/health`', path: () => '/api/health', auth: 'none' },
  me: { label: '`GET /auth/me`', path: () => '/api/plugin/auth/me', auth: 'bearer' },
  progress: progress('`GET …/progress`, 200 completions', (s) => s.small),
  progressBig: progress('`GET …/progress`, 2,000 completions', (s) => s.big),
  progressCookie: progress('`GET /api/characters/{id}/progress` (website), 200', (s) => s.small, 'cookie'),
  progressNotModified: {
    ...progress('`GET …/progress`, 200 completions, unchanged (304)', (s) => s.small),
    conditional: true,
  },
  progressOnly: progress('`GET …/progress`', (s) => s.small),
  progressOnlyCookie: progress('`GET /api/characters/{id}/progress` (website)', (s) => s.small, 'cookie'),
  search: { label: '`GET /quests/search?q=the`', path: () => '/api/plugin/quests/search?q=the', auth: 'bearer' },
  quests: { label: '`GET /quests` (718 rows)', path: () => '/api/plugin/quests', auth: 'bearer' },
  websiteQuests: { label: '`GET /api/quests` (website)', path: () => '/api/quests', auth: 'none' },
  characters: { label: '`GET /characters`', path: () => '/api/plugin/characters', auth: 'bearer' },
  navigation: {
    label: '`GET /navigation`, 50-step route',
    path: (s) => `/api/plugin/navigation?characterId=${s.small}&routeId=${s.routeId}`,
    auth: 'bearer',
  },
  upsert: {
    label: '`POST …/completions` (upsert)',
    path: (s) => `/api/plugin/characters/${s.small}/completions`,
    auth: 'bearer',
    upsert: true,
  },
} satisfies Record<string, Case>

interface Measure {
  rps: number
  p50: number
  p99: number
  requests: number
  errors: number
}

const headersFor = (c: Case, s: Seeded): Record<string, string> =>
  c.auth === 'bearer' ? { authorization: `Bearer ${s.token}` } : c.auth === 'cookie' ? { cookie: s.cookie } : {}

async function wrk(server: Server, c: Case, s: Seeded, seconds: number, connections = CONNECTIONS): Promise<Measure> {
  const sent = headersFor(c, s)
  if (c.conditional) {
    const answer = await fetch(`http://127.0.0.1:${server.port}${c.path(s)}`, { headers: sent })
    await answer.arrayBuffer()
    sent['if-none-match'] = answer.headers.get('etag') ?? ''
  }
  const headers = Object.entries(sent).flatMap(([name, value]) => ['-H', `${name}: ${value}`])
  const script = c.upsert ? 'bench/upsert.lua' : 'bench/lib/report.lua'
  const child = Bun.spawn(
    [
      ...(PINNED ? ['taskset', '-c', LOAD_CPU] : []),
      'wrk',
      // wrk needs a connection per thread.
      `-t${PINNED ? 1 : Math.min(2, connections)}`,
      `-c${connections}`,
      `-d${seconds}s`,
      // A slow answer (a thousand characters) is measured, not dropped at wrk's default 2 s.
      '--timeout',
      '10s',
      '-s',
      script,
      ...headers,
      `http://127.0.0.1:${server.port}${c.path(s)}`,
    ],
    {
      cwd: join(import.meta.dir, '..'),
      stdout: 'pipe',
      stderr: 'inherit',
      env: { ...process.env, NAMES_FILE: namesFile },
    },
  )
  const out = await new Response(child.stdout).text()
  await child.exited
  const line = out.trim().split('\n').at(-1) ?? ''
  try {
    return JSON.parse(line) as Measure
  } catch {
    throw new Error(`wrk printed no result for ${c.label}: ${out}`)
  }
}

/** Warm-up (JIT, connections, page cache), then the measured run. */
async function measure(
  server: Server,
  c: Case,
  s: Seeded,
  seconds = DURATION,
  connections = CONNECTIONS,
): Promise<Measure> {
  await wrk(server, c, s, 1, connections)
  const result = await wrk(server, c, s, seconds, connections)
  if (result.errors > 0) throw new Error(`${c.label}: ${result.errors} errors or non-2xx answers`)
  return result
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** Seeds one database and starts both servers, each on its own copy. */
async function prepare(name: string, options: Parameters<typeof seed>[1]) {
  const appDb = join(work, `${name}-app.sqlite`)
  const bareDb = join(work, `${name}-bare.sqlite`)
  const seeded = await seed(appDb, options)
  // A -wal file left beside an older copy would be replayed into this one.
  for (const suffix of ['', '-wal', '-shm']) rmSync(bareDb + suffix, { force: true })
  copyFileSync(appDb, bareDb)
  namesFile = join(work, `${name}-names.txt`)
  await Bun.write(namesFile, `${seeded.names.join('\n')}\n`)
  const servers = {
    app: await spawnServer('app', appDb, SYNC),
    bare: await spawnServer('bare', bareDb, SYNC),
  } satisfies Record<ServerKind, Server>
  // The earlier checkout, on its own copy too.
  let before: Server | undefined
  if (values.before) {
    const beforeDb = join(work, `${name}-before.sqlite`)
    for (const suffix of ['', '-wal', '-shm']) rmSync(beforeDb + suffix, { force: true })
    copyFileSync(bareDb, beforeDb)
    before = await spawnServer('app', beforeDb, SYNC, values.before)
  }
  return {
    seeded,
    servers,
    before,
    stop: () => Promise.all([servers.app.stop(), servers.bare.stop(), before?.stop()]),
  }
}

/**
 * Both servers must answer each GET with the same JSON, and each conditional GET with a 304 of the
 * same headers: the bare one does the same work.
 */
async function sameAnswers(servers: Record<ServerKind, Server>, cases: Case[], s: Seeded) {
  for (const c of cases.filter((c) => c.conditional)) {
    const [app, bare] = await Promise.all(
      [servers.app, servers.bare].map(async (server) => {
        const url = `http://127.0.0.1:${server.port}${c.path(s)}`
        const first = await fetch(url, { headers: headersFor(c, s) })
        await first.arrayBuffer()
        const again = await fetch(url, {
          headers: { ...headersFor(c, s), 'if-none-match': first.headers.get('etag') ?? '' },
        })
        if (again.status !== 304) throw new Error(`${c.label} answered ${again.status} to its own ETag`)
        return [...again.headers.keys()].filter((name) => name !== 'date').sort()
      }),
    )
    if (!Bun.deepEquals(app, bare, true)) {
      throw new Error(`${c.label}: the bare server's 304 carries ${bare.join(', ')}; the app's ${app.join(', ')}`)
    }
  }
  for (const c of cases.filter((c) => !c.upsert && !c.conditional)) {
    const [app, bare] = await Promise.all(
      [servers.app, servers.bare].map(async (server) => {
        const response = await fetch(`http://127.0.0.1:${server.port}${c.path(s)}`, { headers: headersFor(c, s) })
        if (response.status !== 200) throw new Error(`${c.label} answered ${response.status}: ${await response.text()}`)
        return response.json()
      }),
    )
    if (!Bun.deepEquals(app, bare, true)) {
      throw new Error(
        `${c.label}: the bare server's answer differs from the app's at (app · bare):\n${differences(app, bare).join('\n')}`,
      )
    }
  }
}

/**
 * Where two answers differ, as the paths of the first few differing values, each with the app's
 * value and the bare server's (cut short): what the bare server must learn to do.
 */
function differences(app: unknown, bare: unknown, path = '', found: string[] = []): string[] {
  if (found.length >= 12 || Bun.deepEquals(app, bare, true)) return found
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
  if (isObject(app) && isObject(bare) && Array.isArray(app) === Array.isArray(bare)) {
    if (Array.isArray(app) && Array.isArray(bare) && app.length !== bare.length) {
      found.push(`  ${path || '.'}: ${app.length} items · ${bare.length} items`)
    }
    for (const key of new Set([...Object.keys(app), ...Object.keys(bare)])) {
      if (Bun.deepEquals(app[key], bare[key], true)) continue
      differences(app[key], bare[key], `${path}${Array.isArray(app) ? `[${key}]` : `.${key}`}`, found)
      // Of a list, the first item that differs says it (the others likely differ alike).
      if (Array.isArray(app)) break
    }
    return found
  }
  const cut = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 80))
  found.push(`  ${path || '.'}: ${cut(app)} · ${cut(bare)}`)
  return found
}

/** The cases of `keys`, or those of them that --only names. */
function casesOf(keys: (keyof typeof CASES)[]): Case[] {
  const only = values.only?.split(',')
  return keys.filter((key) => !only || only.includes(key)).map((key) => CASES[key])
}

interface Medians {
  app: { rps: number; p99: number }
  bare: { rps: number; p99: number }
  /** The median of the runs' app / bare ratios. */
  ratio: number
}

/**
 * RUNS measures of one case on each server, app and bare alternating run by run, so that a
 * change in the machine's load hits both; their medians.
 */
async function measureBoth(
  servers: Record<ServerKind, Server>,
  c: Case,
  s: Seeded,
  connections = CONNECTIONS,
): Promise<Medians> {
  const app: Measure[] = []
  const bare: Measure[] = []
  for (let run = 0; run < RUNS; run++) {
    app.push(await measure(servers.app, c, s, DURATION, connections))
    bare.push(await measure(servers.bare, c, s, DURATION, connections))
  }
  const of = (measures: Measure[]) => ({
    rps: median(measures.map((m) => m.rps)),
    p99: median(measures.map((m) => m.p99)),
  })
  return { app: of(app), bare: of(bare), ratio: median(app.map((a, i) => a.rps / (bare[i] as Measure).rps)) }
}

async function table() {
  const cases = casesOf([
    'health',
    'me',
    'progressNotModified',
    'progress',
    'progressBig',
    'progressCookie',
    'search',
    'quests',
    'websiteQuests',
    'characters',
    'navigation',
    'upsert',
  ])
  const { seeded, servers, before: earlier, stop } = await prepare('table', {})
  try {
    await sameAnswers(servers, cases, seeded)
    if (earlier) await sameAnswers({ app: earlier, bare: servers.bare }, cases, seeded)
  } catch (error) {
    await stop()
    throw error
  }
  const before = load()
  const started = new Date().toISOString()
  const rows: string[] = []
  for (const c of cases) {
    if (earlier) {
      const { app, bare, ratio, earlierRatio, earlierRps } = await measureThree(servers, earlier, c, seeded)
      const row = `| ${c.label} | ${fmt(earlierRps)} | ${fmt(app.rps)} | ${fmt(bare.rps)} | ${earlierRatio.toFixed(2)} | ${ratio.toFixed(2)} | ${ms(app.p99)} | ${ms(bare.p99)} |`
      rows.push(row)
      console.error(row)
      continue
    }
    const { app, bare, ratio } = await measureBoth(servers, c, seeded)
    const row = `| ${c.label} | ${fmt(app.rps)} | ${fmt(bare.rps)} | ${ratio.toFixed(2)} | ${ms(app.p99)} | ${ms(bare.p99)} |`
    rows.push(row)
    console.error(row)
  }
  await stop()
  console.log(
    `\n${WRK_PLACE} -c${CONNECTIONS} -d${DURATION}s after a 1 s warm-up, median of ${RUNS} (${earlier ? 'before, after and bare' : 'app and bare'} alternating),` +
      ` synchronous=${SYNC}; ${started}; load average before ${before}, after ${load()}\n`,
  )
  if (earlier) {
    console.log(
      '| operation | before req/s | after req/s | bare req/s | before / bare | after / bare | after p99 | bare p99 |',
    )
    console.log('|---|--:|--:|--:|--:|--:|--:|--:|')
  } else {
    console.log('| operation | app req/s | bare req/s | app / bare | app p99 | bare p99 |')
    console.log('|---|--:|--:|--:|--:|--:|')
  }
  for (const row of rows) console.log(row)
}

/** measureBoth with the earlier checkout too: before, after and bare in turn, run by run. */
async function measureThree(servers: Record<ServerKind, Server>, earlier: Server, c: Case, s: Seeded) {
  const runs: { before: Measure; app: Measure; bare: Measure }[] = []
  for (let run = 0; run < RUNS; run++) {
    runs.push({
      before: await measure(earlier, c, s),
      app: await measure(servers.app, c, s),
      bare: await measure(servers.bare, c, s),
    })
  }
  const of = (pick: (r: (typeof runs)[number]) => Measure) => ({
    rps: median(runs.map((r) => pick(r).rps)),
    p99: median(runs.map((r) => pick(r).p99)),
  })
  return {
    app: of((r) => r.app),
    bare: of((r) => r.bare),
    earlierRps: of((r) => r.before).rps,
    ratio: median(runs.map((r) => r.app.rps / r.bare.rps)),
    earlierRatio: median(runs.map((r) => r.before.rps / r.bare.rps)),
  }
}

async function growth() {
  const reads: Case[] = [
    CASES.progressOnly,
    CASES.progressOnlyCookie,
    CASES.navigation,
    CASES.characters,
    CASES.search,
    CASES.quests,
    CASES.upsert,
  ]
  const sweeps = [
    {
      title: 'completions of the one character (1 character)',
      sizes: [10, 100, 1000, 10_000],
      options: (n: number) => ({ completions: n, big: 0, characters: 1 }),
    },
    {
      title: 'characters on the account (100 completions each)',
      sizes: [1, 10, 100, 1000],
      options: (n: number) => ({ completions: 100, big: 0, characters: n, others: 100 }),
    },
    {
      title: 'characters on the server (accounts of 10 characters with 100 completions each)',
      sizes: [10, 100, 1000],
      options: (n: number) => ({ accounts: n / 10, completions: 100, big: 0, characters: 10, others: 100 }),
    },
  ]
  for (const [n, sweep] of sweeps.entries()) {
    const cells = new Map<Case, string[]>(reads.map((c) => [c, []]))
    const before = load()
    for (const size of sweep.sizes) {
      const { seeded, servers, stop } = await prepare(`growth-${n}-${size}`, sweep.options(size))
      await sameAnswers(servers, reads, seeded)
      for (const c of reads) {
        const { app, ratio } = await measureBoth(servers, c, seeded)
        const cell = `${fmt(app.rps)} · ${ms(app.p99)} · ${ratio.toFixed(2)}`
        cells.get(c)?.push(cell)
        console.error(`${sweep.title} = ${size}: ${c.label}: ${cell}`)
      }
      await stop()
    }
    console.log(
      `\n${sweep.title}: app req/s · app p99 · app/bare; ${WRK_PLACE} -c${CONNECTIONS} -d${DURATION}s after a 1 s warm-up,` +
        ` median of ${RUNS}, synchronous=${SYNC}; load average before ${before}, after ${load()}\n`,
    )
    console.log(`| operation | ${sweep.sizes.map(fmt).join(' | ')} |`)
    console.log(`|---|${sweep.sizes.map(() => '--:').join('|')}|`)
    for (const c of reads) console.log(`| ${c.label} | ${cells.get(c)?.join(' | ')} |`)
  }
}

/** Milliseconds from spawning the server to its first answer of `path` (polled every 5 ms). */
async function timeToAnswer(database: string, path: string, headers: Record<string, string>) {
  const start = performance.now()
  const server = await spawnServer('app', database, SYNC)
  const listening = performance.now() - start
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers }).catch(() => null)
    if (response?.status === 200) break
    await Bun.sleep(5)
  }
  const answered = performance.now() - start
  await server.stop()
  return { listening, answered }
}

async function startup() {
  // 42 accounts of 10 characters with 1,250 completions each: about 100 MB.
  const database = join(work, 'large.sqlite')
  const seeded = await seed(database, { accounts: 42, characters: 10, completions: 1250, others: 1250, big: 0 })
  const mb = statSync(database).size / 1e6
  const headers = { authorization: `Bearer ${seeded.token}` }
  const progressPath = `/api/plugin/characters/${seeded.small}/progress`
  const health: number[] = []
  const first: number[] = []
  await timeToAnswer(database, '/api/health', {}) // page cache warm, as on a server that restarts
  for (let i = 0; i < 3; i++) {
    health.push((await timeToAnswer(database, '/api/health', {})).answered)
    first.push((await timeToAnswer(database, progressPath, headers)).answered)
  }
  console.log(`\nstart-up on a ${mb.toFixed(0)} MB database (median of 3, page cache warm; load average ${load()})\n`)
  console.log('| from spawning `src/main.ts serve` to | ms |')
  console.log('|---|--:|')
  console.log(`| the first answer of \`GET /api/health\` | ${fmt(median(health))} |`)
  console.log(`| the first answer of \`GET …/progress\` (1,250 completions) | ${fmt(median(first))} |`)
}

/**
 * Latency against the number of requests in flight. With N connections kept busy, a server that
 * answers one request at a time makes each wait for the others (Little's law: mean latency =
 * N / throughput), so the p99 grows with N whatever the framework; this shows, for the app and
 * for the bare server doing the same work, up to how many parallel requests each read stays
 * under 5 ms at the 99th percentile.
 */
async function latency() {
  const levels = [1, 2, 4, 8, 16, 32]
  const cases = casesOf([
    'me',
    'progress',
    'progressBig',
    'progressCookie',
    'search',
    'quests',
    'websiteQuests',
    'characters',
    'navigation',
  ])
  const { seeded, servers, stop } = await prepare('latency', {})
  await sameAnswers(servers, cases, seeded)
  const before = load()
  const started = new Date().toISOString()
  const rows: string[] = []
  for (const c of cases) {
    const cells: string[] = []
    for (const connections of levels) {
      const { app, bare } = await measureBoth(servers, c, seeded, connections)
      const cell = `${ms(app.p99)} · ${ms(bare.p99)}`
      cells.push(cell)
      console.error(`${c.label} at ${connections}: app p99 · bare p99 ${cell}`)
    }
    rows.push(`| ${c.label} | ${cells.join(' | ')} |`)
  }
  await stop()
  console.log(
    `\np99 app · p99 bare by connections; wrk -d${DURATION}s after a 1 s warm-up, median of ${RUNS},` +
      ` synchronous=${SYNC}; ${started}; load average before ${before}, after ${load()}\n`,
  )
  console.log(`| operation | ${levels.join(' | ')} |`)
  console.log(`|---|${levels.map(() => '--:').join('|')}|`)
  for (const row of rows) console.log(row)
}

const modes: Record<string, () => Promise<void>> = { table, growth, startup, latency }
const run = modes[mode]
if (!run) {
  console.error(`usage: bun bench/floor.ts ${Object.keys(modes).join('|')} [--duration S] [--connections N] ...`)
  process.exit(2)
}
await run()
process.exit(0)
