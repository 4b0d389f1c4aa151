// Runs a client wrote, and what they cost the reads (issue 39, item 6). Quest Tracker as shipped
// (`src/main.ts serve`, a file database) with one account and one character:
//   attack  the requests: POST …/completions/restore with 6 invented completions of 500
//           runs each (a request of 330 kB), 150 times: the runs stored, and the time it took;
//   reads   the character with RUNS runs (900 completions: 150 remakes × 6 settings, 500 runs
//           each, written straight into SQLite when the attack stored fewer), then GET
//           …/next, …/quest-times, /past-lives (median of 5, and the first), the account
//           export (time and size, while /api/health is asked every 20 ms: its slowest answer),
//           and GET /api/health alone.
// Usage: bun bench/clientRuns.ts [attack|reads|all] [--runs 450000] [--app DIR]
//   --app DIR: the app of another checkout (an earlier commit's `git archive` with node_modules
//   beside it), for a before and after.
import { Database } from 'bun:sqlite'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { CATALOG_SOURCE } from './lib/catalog'
import { spawnServer } from './lib/servers'

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  allowPositionals: true,
  options: { runs: { type: 'string', default: '450000' }, app: { type: 'string' } },
})
const mode = positionals[0] ?? 'all'
const RUNS = Number(values.runs)
const root = join(import.meta.dir, '..')
const APP_ROOT = (values.app as string | undefined) ?? root
const PASSWORD = 'bench password'
const SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown'] as const
const RUNS_PER_COMPLETION = 500

const dir = mkdtempSync(join(tmpdir(), 'qt-client-runs-'))
const file = join(dir, 'qt.sqlite')

// The account, made by the app's own command (its migrations make the file).
const add = Bun.spawn([process.execPath, 'src/main.ts', 'user', 'add', '--username', 'bench', '--database', file], {
  cwd: APP_ROOT,
  stdin: new Blob([`${PASSWORD}\n`]),
  stdout: 'ignore',
  stderr: 'inherit',
})
if ((await add.exited) !== 0) throw new Error('user add failed')
// The catalog from a file (a first start would fill it from the snapshot and sync in the background).
const sync = Bun.spawn(
  [process.execPath, 'src/main.ts', 'catalog', 'sync', '--from', CATALOG_SOURCE, '--database', file],
  { cwd: APP_ROOT, stdout: 'ignore', stderr: 'ignore' },
)
if ((await sync.exited) !== 0) throw new Error('catalog sync failed')

const server = await spawnServer('app', file, 'full', APP_ROOT)
const base = `http://127.0.0.1:${server.port}`
const json = { 'content-type': 'application/json' }

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now()
  const response = await fetch(base + path, init)
  const body = await response.text()
  return { status: response.status, ms: performance.now() - started, body }
}

const login = await call('/api/plugin/auth/login', {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ identifier: 'bench', password: PASSWORD }),
})
const token = (JSON.parse(login.body) as { token: string }).token
const plugin = { ...json, authorization: `Bearer ${token}` }
const session = await fetch(`${base}/api/session`, {
  method: 'POST',
  headers: { ...json, origin: base },
  body: JSON.stringify({ identifier: 'bench', password: PASSWORD }),
})
const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string
const made = await call('/api/plugin/characters', {
  method: 'POST',
  headers: plugin,
  body: JSON.stringify({ givenName: 'Farmer', classes: [{ name: 'Fighter', levels: 20 }], epicLevels: 10 }),
})
const characterId = (JSON.parse(made.body) as { id: number }).id

// 150 remakes of the catalog (the snapshot the first start loaded), 6 settings each.
const reader = new Database(file, { readonly: true })
const remakes = reader
  .query<{ name: string; difficulty: string }, []>('SELECT name, difficulty FROM quests ORDER BY id LIMIT 150')
  .all()
const storedRuns = () =>
  (
    reader
      .query<{ n: number }, [number]>(
        'SELECT count(*) AS n FROM runs r JOIN completions c ON c.id = r.completion_id WHERE c.character_id = ?',
      )
      .get(characterId) as { n: number }
  ).n

/** Run j of a remake's setting: a time, a length and its XP. */
const runOf = (i: number, s: number, j: number) => ({
  completedAt: new Date(Date.UTC(2024, 0, 1) + ((i * 6 + s) * RUNS_PER_COMPLETION + j) * 60_000).toISOString(),
  durationSeconds: 300 + ((i * 7 + j * 13) % 900),
  xpEarned: 1000 + ((i * 31 + j) % 5000),
  reaperXpEarned: null,
})

/** The server's peak resident memory so far, in MB (Linux). */
const peakMemory = () => {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8')
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

function line(label: string, value: string) {
  console.log(`${label.padEnd(44)} ${value}`)
}

console.log(`app ${APP_ROOT}; load ${loadavg()[0]?.toFixed(2)}`)

if (mode === 'attack' || mode === 'all') {
  const started = performance.now()
  const statuses = new Map<number, number>()
  for (let i = 0; i < 150; i++) {
    const remake = remakes[i % remakes.length] as { name: string; difficulty: string }
    const completions = SETTINGS.map((setting, s) => {
      const runList = Array.from({ length: RUNS_PER_COMPLETION }, (_, j) => runOf(i, s, j))
      return { ...remake, setting, ...(runList.at(-1) as object), runs: RUNS_PER_COMPLETION, runList }
    })
    const answer = await call(`/api/plugin/characters/${characterId}/completions/restore`, {
      method: 'POST',
      headers: plugin,
      body: JSON.stringify({ completions }),
    })
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
  }
  line('150 forged restores (6 × 500 runs each)', `${((performance.now() - started) / 1000).toFixed(1)} s`)
  line('  statuses', [...statuses].map(([status, n]) => `${n} × ${status}`).join(', '))
  line('  runs stored', storedRuns().toLocaleString('en'))
}

if (mode === 'reads' || mode === 'all') {
  if (storedRuns() < RUNS) {
    // What the attack stored in the version before, written straight into the file.
    const writer = new Database(file)
    writer.run('PRAGMA busy_timeout = 10000')
    const now = new Date().toISOString()
    const perCompletion = Math.ceil(RUNS / (remakes.length * SETTINGS.length))
    writer.transaction(() => {
      writer.run('DELETE FROM completions WHERE character_id = ?', [characterId])
      const completion = writer.prepare<{ id: number }, [number, string, string, string, string, number, string]>(
        `INSERT INTO completions (character_id, name, difficulty, setting, completed_at, runs, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      const run = writer.prepare(
        'INSERT INTO runs (completion_id, completed_at, duration_seconds, xp_earned) VALUES (?, ?, ?, ?)',
      )
      let left = RUNS
      remakes.forEach((remake, i) => {
        SETTINGS.forEach((setting, s) => {
          const n = Math.min(perCompletion, left)
          if (n <= 0) return
          left -= n
          const last = runOf(i, s, n - 1)
          const { id } = completion.get(
            characterId,
            remake.name,
            remake.difficulty,
            setting,
            last.completedAt,
            n,
            now,
          ) as { id: number }
          for (let j = 0; j < n; j++) {
            const r = runOf(i, s, j)
            run.run(id, r.completedAt, r.durationSeconds, r.xpEarned)
          }
        })
      })
    })()
    writer.close()
  }
  line('runs of the character', storedRuns().toLocaleString('en'))
  const web = { cookie }
  const timed = async (label: string, path: string, headers: Record<string, string>) => {
    const first = await call(path, { headers })
    if (first.status !== 200) throw new Error(`${path}: ${first.status} ${first.body.slice(0, 200)}`)
    const times: number[] = []
    for (let i = 0; i < 5; i++) times.push((await call(path, { headers })).ms)
    times.sort((a, b) => a - b)
    line(label, `first ${first.ms.toFixed(0)} ms, then median ${(times[2] as number).toFixed(1)} ms`)
  }
  await timed(`GET /characters/${characterId}/next`, `/api/plugin/characters/${characterId}/next`, plugin)
  await timed(`GET /characters/${characterId}/quest-times`, `/api/plugin/characters/${characterId}/quest-times`, plugin)
  await timed('GET /api/past-lives', '/api/past-lives', web)
  await timed('GET /api/health', '/api/health', {})

  line('server memory: peak resident (VmHWM) before the export', `${peakMemory()} MB`)
  // The export, with /api/health asked every 20 ms meanwhile.
  const health: number[] = []
  let exporting = true
  const poll = (async () => {
    while (exporting) {
      health.push((await call('/api/health')).ms)
      await Bun.sleep(20)
    }
  })()
  await Bun.sleep(20)
  // Counted as it arrives, not kept: this process also times /api/health.
  const started = performance.now()
  const response = await fetch(`${base}/api/account/export`, { headers: web })
  let bytes = 0
  for await (const chunk of response.body as ReadableStream<Uint8Array>) bytes += chunk.byteLength
  const exported = { status: response.status, ms: performance.now() - started, bytes }
  exporting = false
  await poll
  line(
    'GET /api/account/export',
    `${exported.status}, ${(exported.ms / 1000).toFixed(2)} s, ${(exported.bytes / 1e6).toFixed(1)} MB`,
  )
  health.sort((a, b) => a - b)
  line(
    '  /api/health meanwhile',
    `${health.length} answers, median ${(health[Math.floor(health.length / 2)] ?? 0).toFixed(1)} ms, slowest ${(health.at(-1) ?? 0).toFixed(0)} ms`,
  )
  line('server memory: peak resident (VmHWM)', `${peakMemory()} MB`)
}

reader.close()
await server.stop()
rmSync(dir, { recursive: true, force: true })
