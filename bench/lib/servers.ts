// Starts the servers of the benchmarks, each in its own process (the load generator never shares
// a process, or a JIT, with the server it measures).
//   spawnServer('app' | 'bare', database)  -- used by bench/floor.ts: Quest Tracker as shipped
//     (`src/main.ts serve`) or the bare baseline (bench/bare.ts) on a seeded database file
//   bun bench/lib/servers.ts app  -- Quest Tracker (createApp) on a temporary database with
//     BENCH_USERS accounts (default 1); prints {port, token, tokens} (bench/events.bench.ts)
import { appendFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { createApp } from '../../src/app'
import { systemClock } from '../../src/clock'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { silentLogger } from '../../src/logger'
import { createUser } from '../../src/modules/account/service'
import { createLoginGuard } from '../../src/modules/auth/loginGuard'
import { productionHasher } from '../../src/modules/auth/password'
import { login } from '../../src/modules/auth/service'

const root = join(import.meta.dir, '..', '..')

/**
 * BENCH_PIN=1: the servers on one core and the load (wrk) on the other (taskset), so that neither
 * takes the other's core: a table's ratios then hold from run to run within a few hundredths,
 * where sharing both cores they swung by a third.
 */
export const PINNED = process.env.BENCH_PIN === '1'
export const SERVER_CPU = '1'
export const LOAD_CPU = '0'

/** The first line a process writes on stdout (its port, as every server here prints it first). */
export async function readFirstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes('\n')) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value)
  }
  reader.releaseLock()
  return text.split('\n')[0] as string
}

/** Reads a server's output to its end: dropped, or appended to BENCH_SERVER_LOG when set (to find slow requests). */
async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  const file = process.env.BENCH_SERVER_LOG
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    // Appended: every server of a run (a bench may start several) in the one file.
    if (file) appendFileSync(file, value)
  }
}

export interface Server {
  port: number
  process: Subprocess
  stop(): Promise<void>
}

export type ServerKind = 'app' | 'bare'

/**
 * Starts the app or the bare server on `database`, at DATABASE_SYNCHRONOUS `synchronous`; the
 * app from `appRoot` (another checkout: an earlier version, for a before-and-after in one run).
 */
export async function spawnServer(
  kind: ServerKind,
  database: string,
  synchronous = 'full',
  appRoot = root,
): Promise<Server> {
  const command =
    kind === 'app'
      ? [
          process.execPath,
          // Bun's own flags for the app (BENCH_BUN_FLAGS="--smol"): to measure what they change.
          ...(process.env.BENCH_BUN_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
          'src/main.ts',
          'serve',
          '--port',
          '0',
          '--host',
          '127.0.0.1',
          '--database',
          database,
        ]
      : [process.execPath, 'bench/bare.ts', database]
  const pinned = PINNED ? ['taskset', '-c', SERVER_CPU, ...command] : command
  const child = Bun.spawn(pinned, {
    cwd: kind === 'app' ? appRoot : root,
    stdout: 'pipe',
    stderr: 'inherit',
    // The log level as shipped (info: a line per request), unless BENCH_LOG_LEVEL says otherwise.
    env: {
      ...process.env,
      DATABASE_SYNCHRONOUS: synchronous,
      CATALOG_SYNC_CRON: 'off',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
  })
  const line = await readFirstLine(child.stdout)
  // The rest of the output (the request log) is read and dropped, as a terminal or journald
  // would take it: a pipe nobody reads would fill and stall the server.
  void drain(child.stdout)
  // The app says "listening on port N"; bench/bare.ts prints {"port": N}.
  const port = Number(/port\D*(\d+)/.exec(line)?.[1])
  if (!port) {
    child.kill()
    throw new Error(`${kind} server did not start: ${line}`)
  }
  return {
    port,
    process: child,
    async stop() {
      child.kill()
      await child.exited
    },
  }
}

if (import.meta.main) {
  if (Bun.argv[2] !== 'app') {
    console.error('usage: bun bench/lib/servers.ts app')
    process.exit(2)
  }
  const config = loadConfig({ ...process.env, CATALOG_SYNC_CRON: 'off' })
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'qt-bench-')), 'qt.sqlite'), {
    synchronous: config.databaseSynchronous,
  })
  const deps = { db, config, clock: systemClock, logger: silentLogger, passwordHasher: productionHasher }
  // BENCH_USERS=n adds accounts bench2..benchN (same password) for benchmarks of many players.
  const users = Math.max(1, Number(process.env.BENCH_USERS ?? 1))
  const loginGuard = createLoginGuard(deps)
  const tokens: string[] = []
  for (let i = 1; i <= users; i++) {
    const username = i === 1 ? 'bench' : `bench${i}`
    await createUser(deps, { username, password: 'bench password' })
    tokens.push((await login(deps, loginGuard, username, 'bench password', 'b', undefined)).token)
  }
  const app = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
  console.log(JSON.stringify({ port: app.server?.port, token: tokens[0], tokens }))
}
