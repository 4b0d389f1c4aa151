// The community-size bench (issue 25): a database of 2,000 accounts, 10,000 characters and about
// five million completions (bench/lib/community.ts writes it straight into SQLite in a few
// minutes), and the plugin's and the website's real mix run against the app as shipped, beside
// the same run on the database of the active accounts alone (the same accounts, characters and
// completions the load touches, without the community around them).
//
// The mix, each operation on its own wrk connections (bench/lib/requests.lua), all at once:
//   upsert      POST …/completions, a random quest of a random active character (2 of 8 connections)
//   progress    GET …/progress of a random active character, plugin API, full answer
//   tracker     the tracker page: its HTML, the character, its progress (website) and the
//               catalog revalidated with its ETag
//   navigation  GET /navigation, a random active character along one of 20 50-step routes
//   search      GET /quests/search, a word of a quest name and a level
//   characters  GET /characters of a random active account
// and, paced from this process: a login every second (argon2id at the production cost), and the
// event feed: 20 streams open on active characters, a completion posted to one of them every
// 250 ms, timed from the post to its event.
//
// Usage: bun bench/community.ts [all|build|startup|mix] [--dir DIR] [--accounts N] [--duration S]
//          [--connections 8,32] [--rebuild] [--only active] [--app DIR]   (mix: the mix alone, on the
//          community database or with --only active on the other; --app: the app of another checkout,
//          e.g. an earlier commit's `git archive` with node_modules beside it; BENCH_SERVER_LOG=FILE
//          keeps the request log)
//   DIR (default /tmp/qt-community, outside the repository) keeps the two databases between runs.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { CATALOG_SOURCE } from './lib/catalog'
import { buildCommunity, LOGIN_PASSWORD, type LoadData } from './lib/community'
import { type Server, spawnServer } from './lib/servers'

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  allowPositionals: true,
  options: {
    dir: { type: 'string', default: '/tmp/qt-community' },
    accounts: { type: 'string', default: '2000' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '8,32' },
    rebuild: { type: 'boolean', default: false },
    sync: { type: 'string', default: 'full' },
    only: { type: 'string' },
    app: { type: 'string' },
  },
})
const mode = positionals[0] ?? 'all'
const DIR = values.dir as string
const ACCOUNTS = Number(values.accounts)
const DURATION = Number(values.duration)
const LEVELS = (values.connections as string).split(',').map(Number)
const SYNC = values.sync as string
const root = join(import.meta.dir, '..')
/** Where the app runs from: this checkout, or another (--app DIR: an earlier version, for a before). */
const APP_ROOT = (values.app as string | undefined) ?? root
mkdirSync(DIR, { recursive: true })

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1))
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}
const median = (xs: number[]) => percentile(xs, 50)

// ---------------------------------------------------------------------------------------------
// The two databases

interface Prepared {
  name: 'active' | 'community'
  path: string
  data: LoadData
}

async function prepare(name: Prepared['name']): Promise<Prepared> {
  const path = join(DIR, `${name}.sqlite`)
  const dataPath = join(DIR, `${name}.json`)
  if (!values.rebuild && existsSync(path) && existsSync(dataPath)) {
    const data = JSON.parse(readFileSync(dataPath, 'utf8')) as LoadData & { accounts: number }
    if (data.accounts === ACCOUNTS) return { name, path, data }
  }
  console.error(`building ${path} (${ACCOUNTS} accounts${name === 'active' ? ', the active ones only' : ''})`)
  const data = await buildCommunity(path, {
    accounts: ACCOUNTS,
    activeOnly: name === 'active',
    log: (line) => console.error(`  ${line}`),
  })
  writeFileSync(dataPath, JSON.stringify({ ...data, accounts: ACCOUNTS }))
  return { name, path, data }
}

// ---------------------------------------------------------------------------------------------
// The requests of each operation

type Operation = 'upsert' | 'progress' | 'tracker' | 'navigation' | 'search' | 'characters'
/** Connections of each operation out of 8; at 32 each has four times as many. */
const SHARE: Record<Operation, number> = { upsert: 2, progress: 1, tracker: 1, navigation: 1, search: 1, characters: 1 }
const SETTINGS = ['elite', 'reaper', 'hard', 'normal', 'casual']
const TIERS = ['Heroic', 'Epic', 'Legendary']

function requestLines(data: LoadData, op: Operation, catalogTag: string): string[] {
  let seed = 12345
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x80000000
  }
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T
  const lines: string[] = []
  for (let i = 0; i < 4000; i++) {
    const account = pick(data.active)
    const bearer = ['authorization', `Bearer ${account.token}`]
    const cookie = ['cookie', account.cookie]
    const character = pick(account.characters)
    const line = (method: string, path: string, headers: string[], body = '-') =>
      [method, path, ...headers, body].join('\t')
    if (op === 'upsert') {
      // Not the characters at the cap (a new quest there is refused, 409), nor the event probe's.
      const probe = data.active[0]?.characters[0]?.id
      const open = account.characters.filter((c) => c.completions < 9500 && c.id !== probe)
      if (open.length === 0) continue
      const body = JSON.stringify({
        name: pick(data.names),
        difficulty: pick(TIERS),
        setting: pick(SETTINGS),
        durationSeconds: 300 + Math.floor(next() * 1500),
        xpEarned: Math.floor(next() * 50_000),
      })
      lines.push(
        line(
          'POST',
          `/api/plugin/characters/${pick(open).id}/completions`,
          [...bearer, 'content-type', 'application/json'],
          body,
        ),
      )
    } else if (op === 'progress') lines.push(line('GET', `/api/plugin/characters/${character.id}/progress`, bearer))
    else if (op === 'tracker') {
      lines.push(line('GET', `/characters/${character.id}`, cookie))
      lines.push(line('GET', `/api/characters/${character.id}`, cookie))
      lines.push(line('GET', `/api/characters/${character.id}/progress`, cookie))
      lines.push(line('GET', '/api/quests', ['if-none-match', catalogTag, 'accept-encoding', 'gzip']))
    } else if (op === 'navigation') {
      lines.push(line('GET', `/api/plugin/navigation?characterId=${character.id}&routeId=${pick(data.routes)}`, bearer))
    } else if (op === 'search') {
      const word =
        pick(
          pick(data.names)
            .split(/\s+/)
            .filter((w) => w.length > 2),
        ) ?? 'the'
      lines.push(
        line(
          'GET',
          `/api/plugin/quests/search?q=${encodeURIComponent(word)}&level=${1 + Math.floor(next() * 30)}`,
          bearer,
        ),
      )
    } else lines.push(line('GET', '/api/plugin/characters', bearer))
  }
  return lines
}

interface Measure {
  rps: number
  p50: number
  p99: number
  requests: number
  errors: number
}

function wrk(port: number, op: Operation, connections: number, seconds: number, file: string) {
  const child = Bun.spawn(
    [
      'wrk',
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      'bench/lib/requests.lua',
      `http://127.0.0.1:${port}/`,
    ],
    { cwd: root, stdout: 'pipe', stderr: 'inherit', env: { ...process.env, REQUESTS_FILE: file } },
  )
  return (async () => {
    const out = await new Response(child.stdout).text()
    await child.exited
    try {
      return JSON.parse(out.trim().split('\n').at(-1) ?? '') as Measure
    } catch {
      throw new Error(`wrk printed no result for ${op}: ${out}`)
    }
  })()
}

// ---------------------------------------------------------------------------------------------
// The paced part: logins, and the event feed timed from a post to its event

interface Paced {
  login: number[]
  event: number[]
  eventsReceived: number
  errors: number
}

async function paced(port: number, data: LoadData, seconds: number): Promise<Paced> {
  const base = `http://127.0.0.1:${port}`
  const result: Paced = { login: [], event: [], eventsReceived: 0, errors: 0 }
  const until = performance.now() + seconds * 1000
  const streams = new AbortController()
  // The probe's post waits for the next event of its character (no other writer touches it).
  let waiting: ((at: number) => void) | null = null
  const [prober] = data.active
  if (!prober) throw new Error('no active account')
  const probeCharacter = prober.characters[0]?.id as number
  // 20 trackers open, each on its own stream; the first on the character the probe posts to.
  const open = data.active.slice(0, 20).map(async (account, i) => {
    const id = i === 0 ? probeCharacter : (account.characters[1]?.id as number)
    const response = await fetch(`${base}/api/characters/${id}/events`, {
      headers: { cookie: account.cookie },
      signal: streams.signal,
    })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = ''
    try {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) break
        text += decoder.decode(chunk.value)
        let end = text.indexOf('\n\n')
        while (end >= 0) {
          const event = text.slice(0, end)
          text = text.slice(end + 2)
          if (/^data: /m.test(event)) {
            result.eventsReceived++
            if (i === 0) waiting?.(performance.now())
          }
          end = text.indexOf('\n\n')
        }
      }
    } catch {
      // aborted at the end
    }
  })
  await Bun.sleep(200)
  let probe = 0
  const posts = (async () => {
    while (performance.now() < until) {
      const xp = 1_000_000 + probe++
      const arrived = new Promise<number>((resolve) => {
        waiting = resolve
      })
      const sent = performance.now()
      const answer = await fetch(`${base}/api/plugin/characters/${probeCharacter}/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${prober.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: data.names[probe % data.names.length], setting: 'elite', xpEarned: xp }),
      })
      await answer.arrayBuffer()
      if (answer.status >= 300) result.errors++
      const at = await Promise.race([arrived, Bun.sleep(5000).then(() => Number.NaN)])
      waiting = null
      if (Number.isNaN(at)) result.errors++
      else result.event.push(at - sent)
      await Bun.sleep(250)
    }
  })()
  const logins = (async () => {
    let n = 0
    while (performance.now() < until) {
      const username = data.logins[n++ % data.logins.length] as string
      const sent = performance.now()
      const answer = await fetch(`${base}/api/plugin/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: username, password: LOGIN_PASSWORD, label: 'bench login' }),
      })
      await answer.arrayBuffer()
      if (answer.status !== 200) result.errors++
      else result.login.push(performance.now() - sent)
      await Bun.sleep(1000)
    }
  })()
  await Promise.all([posts, logins])
  streams.abort()
  await Promise.allSettled(open)
  return result
}

// ---------------------------------------------------------------------------------------------
// One run of the mix

type Row = { p50: number; p99: number; rps: number; errors: number }
type MixResult = Record<Operation | 'login' | 'event', Row>

async function mix(server: Server, prepared: Prepared, connections: number, seconds: number): Promise<MixResult> {
  const tag = (await fetch(`http://127.0.0.1:${server.port}/api/quests`)).headers.get('etag') ?? '""'
  const ops = Object.keys(SHARE) as Operation[]
  const files = Object.fromEntries(
    ops.map((op) => {
      const file = join(DIR, `${prepared.name}-${op}.tsv`)
      writeFileSync(file, `${requestLines(prepared.data, op, tag).join('\n')}\n`)
      return [op, file]
    }),
  ) as Record<Operation, string>
  const scale = connections / 8
  const [measures, pacedResult] = await Promise.all([
    Promise.all(ops.map((op) => wrk(server.port, op, Math.max(1, SHARE[op] * scale), seconds, files[op]))),
    paced(server.port, prepared.data, seconds),
  ])
  const out = {} as MixResult
  ops.forEach((op, i) => {
    const m = measures[i] as Measure
    out[op] = { p50: m.p50, p99: m.p99, rps: m.rps, errors: m.errors }
  })
  const row = (xs: number[]): Row => ({
    p50: percentile(xs, 50),
    p99: percentile(xs, 99),
    rps: xs.length / seconds,
    errors: 0,
  })
  out.login = { ...row(pacedResult.login), errors: pacedResult.errors }
  out.event = row(pacedResult.event)
  return out
}

/**
 * How long after the runs the memory is read again: a login (argon2id, 64 MiB a check) keeps its
 * buffers for a second or two after it answered, so the figure read at once depends on whether
 * the last second had a login in it (measured alone: 159 MiB after 20 checks, 31 MiB 3 s later).
 */
const SETTLE_MS = 3000

/**
 * The server's resident memory now, its own part of it (anonymous: heaps, SQLite's cache; the
 * rest is the executable's and libraries' pages) and its peak (MiB), from /proc.
 */
function memoryOf(server: Server): { rss: number; anon: number; peak: number } {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8')
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rss: kib('VmRSS') / 1024, anon: kib('RssAnon') / 1024, peak: kib('VmHWM') / 1024 }
}

/** The memory right after the runs, and again SETTLE_MS later. */
async function memoryAfterRuns(server: Server): Promise<Pick<Report, 'memory' | 'settled'>> {
  const memory = memoryOf(server)
  await Bun.sleep(SETTLE_MS)
  return { memory, settled: memoryOf(server) }
}

/** Milliseconds from spawning `src/main.ts serve` to its first 200 of /api/health. */
async function startupTime(path: string): Promise<number> {
  const start = performance.now()
  const server = await spawnServer('app', path, SYNC, APP_ROOT)
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/health`).catch(() => null)
    if (response?.status === 200) break
    await Bun.sleep(5)
  }
  const took = performance.now() - start
  // A signal in the first milliseconds can come before `serve` listens for it (the process then
  // dies without its clean stop, and the next start reads the whole file): let it settle.
  await Bun.sleep(300)
  await server.stop()
  return took
}

async function cli(args: string[]): Promise<{ ms: number; code: number; out: string }> {
  const start = performance.now()
  const child = Bun.spawn([process.execPath, 'src/main.ts', ...args], {
    cwd: APP_ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, LOG_LEVEL: 'warn' },
  })
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
  const code = await child.exited
  return { ms: performance.now() - start, code, out: out + err }
}

interface Report {
  name: Prepared['name']
  completions: number
  bytes: number
  buildSeconds: number
  startup: number[]
  runs: Record<number, MixResult>
  memory: { rss: number; anon: number; peak: number }
  /** The same, SETTLE_MS after the runs ended (a login's argon2 buffers are given back by then). */
  settled: { rss: number; anon: number; peak: number }
  backup: { ms: number; bytes: number; code: number; upsertP99: number }
  sync: { ms: number; code: number; upsertP99: number }
}

async function measureDatabase(prepared: Prepared): Promise<Report> {
  const { path } = prepared
  const bytes = statSync(path).size
  console.error(`${prepared.name}: ${prepared.data.completions} completions, ${(bytes / 2 ** 20).toFixed(0)} MiB`)
  await startupTime(path) // the page cache warm, as on a server that restarts
  const startup: number[] = []
  for (let i = 0; i < 3; i++) startup.push(await startupTime(path))
  console.error(`  start-up ${startup.map(fmt).join(', ')} ms`)
  const server = await spawnServer('app', path, SYNC, APP_ROOT)
  const runs: Record<number, MixResult> = {}
  try {
    await mix(server, prepared, 8, 3) // warm-up: JIT, connections, page cache
    for (const connections of LEVELS) {
      runs[connections] = await mix(server, prepared, connections, DURATION)
      console.error(`  ${connections} connections: ${JSON.stringify(runs[connections])}`)
    }
    const { memory, settled } = await memoryAfterRuns(server)
    // A backup and a catalog sync, each from another process while the mix runs at 8.
    const copy = join(DIR, `${prepared.name}-backup.sqlite`)
    rmSync(copy, { force: true })
    const [backupMix, backupRun] = await Promise.all([
      mix(server, prepared, 8, DURATION),
      Bun.sleep(2000).then(() => cli(['backup', copy, '--database', path])),
    ])
    const backupBytes = existsSync(copy) ? statSync(copy).size : 0
    rmSync(copy, { force: true })
    const [syncMix, syncRun] = await Promise.all([
      mix(server, prepared, 8, Math.min(DURATION, 10)),
      Bun.sleep(2000).then(() => cli(['catalog', 'sync', '--from', CATALOG_SOURCE, '--database', path])),
    ])
    return {
      name: prepared.name,
      completions: prepared.data.completions,
      bytes,
      buildSeconds: prepared.data.buildSeconds,
      startup,
      runs,
      memory,
      settled,
      backup: { ms: backupRun.ms, bytes: backupBytes, code: backupRun.code, upsertP99: backupMix.upsert.p99 },
      sync: { ms: syncRun.ms, code: syncRun.code, upsertP99: syncMix.upsert.p99 },
    }
  } finally {
    await server.stop()
  }
}

function printReports(active: Report, community: Report, started: string, before: string) {
  console.log(
    `\nbench/community.ts on ${started}; ${DURATION} s per run after a 3 s warm-up, synchronous=${SYNC},` +
      ` the request log on; load average before ${before}, after ${load()}\n`,
  )
  console.log('| | active accounts alone | the community |')
  console.log('|---|--:|--:|')
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`
  console.log(`| completions | ${fmt(active.completions)} | ${fmt(community.completions)} |`)
  console.log(`| database size | ${mib(active.bytes)} | ${mib(community.bytes)} |`)
  console.log(
    `| size per million completions | ${mib((active.bytes / active.completions) * 1e6)} | ${mib((community.bytes / community.completions) * 1e6)} |`,
  )
  console.log(`| built in | ${active.buildSeconds.toFixed(0)} s | ${community.buildSeconds.toFixed(0)} s |`)
  console.log(
    `| start-up to the first health answer (median of 3) | ${fmt(median(active.startup))} ms | ${fmt(median(community.startup))} ms |`,
  )
  const memory = (m: Report['memory']) =>
    `${m.rss.toFixed(0)} MiB (own ${m.anon.toFixed(0)}; peak ${m.peak.toFixed(0)})`
  console.log(`| RSS after the runs (its own part; peak) | ${memory(active.memory)} | ${memory(community.memory)} |`)
  console.log(
    `| RSS ${SETTLE_MS / 1000} s after the runs (its own part) | ${memory(active.settled)} | ${memory(community.settled)} |`,
  )
  console.log(
    `| \`backup\` under the mix at 8 (size) | ${fmt(active.backup.ms)} ms (${mib(active.backup.bytes)}) | ${fmt(community.backup.ms)} ms (${mib(community.backup.bytes)}) |`,
  )
  console.log(`| upsert p99 meanwhile | ${ms(active.backup.upsertP99)} ms | ${ms(community.backup.upsertP99)} ms |`)
  console.log(`| \`catalog sync\` under the mix at 8 | ${fmt(active.sync.ms)} ms | ${fmt(community.sync.ms)} ms |`)
  console.log(`| upsert p99 meanwhile | ${ms(active.sync.upsertP99)} ms | ${ms(community.sync.upsertP99)} ms |`)
  for (const connections of LEVELS) {
    console.log(`\nThe mix at ${connections} connections (p50 · p99 in ms; req/s of the community run):\n`)
    console.log('| operation | active alone | community | p99 community / alone | req/s |')
    console.log('|---|--:|--:|--:|--:|')
    const a = active.runs[connections] as MixResult
    const c = community.runs[connections] as MixResult
    for (const op of Object.keys(c) as (keyof MixResult)[]) {
      const errors = a[op].errors + c[op].errors
      console.log(
        `| ${op} | ${ms(a[op].p50)} · ${ms(a[op].p99)} | ${ms(c[op].p50)} · ${ms(c[op].p99)} | ${(c[op].p99 / a[op].p99).toFixed(2)} | ${fmt(c[op].rps)}${errors ? ` (${errors} errors)` : ''} |`,
      )
    }
  }
}

async function main() {
  if (mode === 'build') {
    await prepare('active')
    await prepare('community')
    return
  }
  if (mode === 'mix') {
    // The mix alone, on one database, at each --connections: for working on one operation.
    const prepared = await prepare(values.only === 'active' ? 'active' : 'community')
    const server = await spawnServer('app', prepared.path, SYNC, APP_ROOT)
    try {
      await mix(server, prepared, 8, 3)
      for (const connections of LEVELS) {
        const result = await mix(server, prepared, connections, DURATION)
        console.log(`${prepared.name} at ${connections} (load ${load()}):`)
        for (const [op, row] of Object.entries(result))
          console.log(
            `  ${op.padEnd(10)} p50 ${ms(row.p50).padStart(7)}  p99 ${ms(row.p99).padStart(7)}  ${fmt(row.rps)}/s${row.errors ? ` ${row.errors} errors` : ''}`,
          )
      }
      const { memory, settled } = await memoryAfterRuns(server)
      console.log(
        `RSS after the runs ${memory.rss.toFixed(0)} MiB (own ${memory.anon.toFixed(0)}; peak ${memory.peak.toFixed(0)}); ${SETTLE_MS / 1000} s later ${settled.rss.toFixed(0)} MiB (own ${settled.anon.toFixed(0)})`,
      )
    } finally {
      await server.stop()
    }
    return
  }
  if (mode === 'startup') {
    for (const name of ['active', 'community'] as const) {
      const { path } = await prepare(name)
      await startupTime(path)
      const times: number[] = []
      for (let i = 0; i < 3; i++) times.push(await startupTime(path))
      console.log(`${name}: start-up ${times.map(fmt).join(', ')} ms`)
    }
    return
  }
  const active = await prepare('active')
  const community = await prepare('community')
  const started = new Date().toISOString()
  const before = load()
  const activeReport = await measureDatabase(active)
  const communityReport = await measureDatabase(community)
  printReports(activeReport, communityReport, started, before)
}

await main()
process.exit(0)
