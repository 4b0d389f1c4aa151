// Start-up checks: every problem with the address or the database file is one line on stderr and
// exit 2, found before the database file is created; the real entry point is spawned where the
// exit code and the absence of a stack trace are what is checked.

import { Database } from 'bun:sqlite'
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CliIO, run } from '../src/cli'
import { cleanStopMark, openDatabase } from '../src/db/client'
import { listenProblem } from '../src/http/listen'
import { AS_NOBODY, compiledBinary, NOBODY, whyNobodyCannotRun } from './compiled'

const root = join(import.meta.dir, '..')
const scratch = mkdtempSync(join(tmpdir(), 'qt-start-'))
chmodSync(scratch, 0o755) // an unprivileged user runs the server in some tests
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let dir: string
let out: string[]
let err: string[]
let count = 0
beforeEach(() => {
  dir = join(scratch, `case-${++count}`)
  mkdirSync(dir, { mode: 0o755 })
  out = []
  err = []
})

const env = (extra: Record<string, string> = {}) => ({
  DATABASE_PATH: join(dir, 'qt.sqlite'),
  CATALOG_SOURCE_URL: join(import.meta.dir, 'fixtures', 'catalog-small.json'),
  CATALOG_SYNC_CRON: 'off',
  LOG_LEVEL: 'error',
  ...extra,
})

/** `serve` in-process; once listening it calls `whileUp`, then stops. */
const serve = (extraEnv: Record<string, string>, whileUp: (port: number) => Promise<void> = async () => {}) => {
  const io: CliIO = {
    env: env({ LOG_LEVEL: 'info', ...extraEnv }), // info: the listening line names the port
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readPassword: async () => '',
    untilStopped: async (stop) => {
      try {
        await whileUp(Number(/port (\d+)/.exec(out.join('\n'))?.[1]))
      } finally {
        await stop()
      }
    },
  }
  return run(['serve'], io)
}

const asRoot = process.getuid?.() === 0
/**
 * How the tests that must see what an ordinary user sees start the server. Root ignores file
 * permissions and may bind any port, so root drops to `nobody`, who cannot read a checkout in a
 * private folder (mode 0700): `nobody` runs the compiled binary from a folder anyone may read.
 */
const unprivileged: { command: string[] } | { skip: string } = await (async () => {
  if (!asRoot) return { command: [process.execPath, join(root, 'src', 'main.ts')] }
  const binary = await compiledBinary()
  const why = whyNobodyCannotRun(binary, scratch)
  return why ? { skip: why } : { command: [...AS_NOBODY, binary] }
})()
const unprivilegedSkip = 'skip' in unprivileged ? unprivileged.skip : null
if (unprivilegedSkip) console.warn(`skipped: ${unprivilegedSkip} (the start-up cases of an unprivileged user)`)

/** `bun src/main.ts ARGS` (or, unprivileged, the command above) as a separate process; killed after 5 s. */
async function spawnMain(args: string[], extraEnv: Record<string, string>, options: { unprivileged?: boolean } = {}) {
  const command =
    options.unprivileged && 'command' in unprivileged
      ? unprivileged.command
      : [process.execPath, join(root, 'src', 'main.ts')]
  const child = Bun.spawn([...command, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: scratch, ...env(extraEnv) },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => child.kill(), 20_000) // a safety net: the program exits at once, but a loaded machine starts it slowly
  const code = await child.exited
  clearTimeout(timer)
  return { code, stdout: await new Response(child.stdout).text(), stderr: await new Response(child.stderr).text() }
}

describe('the address', () => {
  test('a second server on a port in use fails with "port N is in use" and creates no database', async () => {
    const second = join(scratch, `second-${count}.sqlite`)
    let secondCode: number | undefined
    let secondErr: string[] = []
    const code = await serve({}, async (port) => {
      const errors: string[] = []
      secondCode = await run(['serve', '--port', String(port), '--host', '0.0.0.0'], {
        env: env({ DATABASE_PATH: second }),
        out: () => {},
        err: (line) => errors.push(line),
        readPassword: async () => '',
        untilStopped: (stop) => stop(), // had it started, it would share the port's traffic
      })
      secondErr = errors
      expect(secondErr).toEqual([
        `quest-tracker: port ${port} is in use (by another Quest Tracker or another program); stop it or choose another PORT`,
      ])
    })
    expect(code).toBe(0)
    expect(secondCode).toBe(2)
    expect(existsSync(second)).toBe(false)
  })

  test('the real entry point: one line on stderr and exit 2, not a stack trace', async () => {
    const holder = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('someone else') })
    try {
      const { code, stderr } = await spawnMain(['serve', '--port', String(holder.port), '--host', '127.0.0.1'], {})
      expect(stderr).toBe(
        `quest-tracker: port ${holder.port} is in use (by another Quest Tracker or another program); stop it or choose another PORT\n`,
      )
      expect(code).toBe(2)
      expect(existsSync(join(dir, 'qt.sqlite'))).toBe(false)
    } finally {
      await holder.stop(true)
    }
  })

  test.each([
    ['192.0.2.1', 'HOST 192.0.2.1 is not an address of this machine'], // TEST-NET-1, never local
    ['not-a-host.invalid', 'HOST "not-a-host.invalid" is neither an IP address nor a name this machine can resolve'],
  ])('HOST=%s is one line and exit 2', async (host, message) => {
    expect(await serve({ HOST: host, PORT: '0' })).toBe(2)
    expect(err).toHaveLength(1)
    expect(err[0]).toStartWith(`quest-tracker: ${message}`)
    expect(existsSync(join(dir, 'qt.sqlite'))).toBe(false)
  })

  const unprivilegedPorts = (() => {
    try {
      return Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'))
    } catch {
      return 1024
    }
  })()
  test.skipIf(unprivilegedPorts <= 80 || unprivilegedSkip !== null)(
    'a privileged port, for a user who may not bind it: one line, exit 2',
    async () => {
      const { code, stderr } = await spawnMain(['serve'], { PORT: '80', HOST: '127.0.0.1' }, { unprivileged: true })
      expect(stderr).toBe(
        'quest-tracker: port 80 is privileged (under 1024): give the program the right to it (setcap cap_net_bind_service=+ep on the executable, or AmbientCapabilities=CAP_NET_BIND_SERVICE in its systemd unit), or choose a PORT from 1024 up (the default is 8080)\n',
      )
      expect(code).toBe(2)
    },
  )

  test('each listen error code has its sentence', () => {
    expect(listenProblem({ code: 'EACCES' }, '0.0.0.0', 443)).toContain('port 443 is privileged')
    expect(listenProblem({ code: 'EADDRINUSE' }, '0.0.0.0', 8080)).toContain('port 8080 is in use')
    expect(listenProblem(new Error('something else'), '0.0.0.0', 8080)).toBeNull()
  })
})

/** A database with a row, then its users table's root page overwritten: damage SQLite opens without a word. */
function damagedDatabase(file: string): void {
  const db = openDatabase(file)
  db.$client.run("INSERT INTO users (username, password_hash, created_at) VALUES ('a', 'x', 'now')")
  db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
  db.$client.close()
  damageInPlace(file)
}

/** The users table's root page of a closed database overwritten, nothing else touched. */
function damageInPlace(file: string): void {
  const db = new Database(file, { readonly: true })
  const { rootpage } = db.query("SELECT rootpage FROM sqlite_master WHERE name = 'users'").get() as {
    rootpage: number
  }
  const pageSize = (db.query('PRAGMA page_size').get() as { page_size: number }).page_size
  db.close()
  const fd = openSync(file, 'r+')
  writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (rootpage - 1) * pageSize)
  closeSync(fd)
}

describe('the database file', () => {
  test('a folder that cannot be made is one line and exit 2', async () => {
    writeFileSync(join(scratch, `file-${count}`), 'not a folder')
    const path = join(scratch, `file-${count}`, 'data', 'qt.sqlite')
    expect(await serve({ DATABASE_PATH: path })).toBe(2)
    expect(err).toEqual([
      `quest-tracker: cannot make the database folder ${join(scratch, `file-${count}`, 'data')} (a part of that path is a file)`,
    ])
  })

  test('a damaged database does not start (today it started, said healthy and took writes)', async () => {
    const file = join(scratch, `damaged-${count}.sqlite`)
    damagedDatabase(file)
    expect(await serve({ DATABASE_PATH: file })).toBe(2)
    expect(err).toHaveLength(1)
    expect(err[0]).toStartWith(`quest-tracker: the database ${file} is damaged (`)
    expect(err[0]).toEndWith('); restore a backup')
    expect(out).toEqual([])
  })

  test('a file as the last clean stop left it is not read through again; a change to it, or a crash, is', async () => {
    const file = join(dir, 'qt.sqlite')
    const checked = () => out.find((line) => line.includes(`database ${file}:`)) ?? ''
    let markWhileUp = true
    const serveDebug = async () => {
      out = []
      return serve({ LOG_LEVEL: 'debug' }, async () => {
        markWhileUp = existsSync(cleanStopMark(file))
      })
    }
    // The first start makes the file and checks it; its clean stop leaves the mark.
    expect(await serveDebug()).toBe(0)
    expect(checked()).toContain('quick_check ok')
    expect(existsSync(cleanStopMark(file))).toBe(true)
    expect(await serveDebug()).toBe(0)
    expect(checked()).toContain('as the last clean stop left it (no quick_check)')
    // A running server has taken the mark: one that crashes leaves none, and the next start checks.
    expect(markWhileUp).toBe(false)
    rmSync(cleanStopMark(file))
    expect(await serveDebug()).toBe(0)
    expect(checked()).toContain('quick_check ok')
    // Damaged after a clean stop: the file is not as the mark says, so it is checked and refused.
    expect(existsSync(cleanStopMark(file))).toBe(true)
    // File times tick coarsely (a few ms on ext4): no real change comes within a tick of the stop.
    await Bun.sleep(20)
    damageInPlace(file)
    expect(await serveDebug()).toBe(2)
    expect(err[0]).toStartWith(`quest-tracker: the database ${file} is damaged (`)
  })

  test('a file that is not a database is one line and exit 2', async () => {
    const file = join(scratch, `text-${count}.sqlite`)
    writeFileSync(file, 'These are my notes, not a database.\n'.repeat(200))
    expect(await serve({ DATABASE_PATH: file })).toBe(2)
    expect(err).toEqual([`quest-tracker: ${file} is not a SQLite database; check DATABASE_PATH`])
  })

  test.skipIf(unprivilegedSkip !== null)(
    'a read-only database does not start (today it started and every login was 500)',
    async () => {
      const folder = join(scratch, `ro-${count}`)
      const file = join(folder, 'qt.sqlite')
      openDatabase(file).$client.close()
      if (asRoot) {
        // The server runs as nobody below: its folder is its own, the file is not writable.
        for (const path of [folder, file, `${file}-wal`, `${file}-shm`])
          if (existsSync(path)) chownSync(path, NOBODY, NOBODY)
      }
      chmodSync(file, 0o400)
      const { code, stderr } = await spawnMain(
        ['serve', '--port', '0'],
        { DATABASE_PATH: file },
        { unprivileged: true },
      )
      expect(stderr).toBe(
        `quest-tracker: the database ${file} is read-only for this user; let the user the server runs as write to it and its folder\n`,
      )
      expect(code).toBe(2)
    },
  )
})
