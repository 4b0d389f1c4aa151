// Housekeeping: ended sessions and tokens are deleted on a schedule (the rows of accounts that
// never log in again, which a login's own clean-up never reaches), so the database does not grow
// with logins; the database is optimized, and vacuumed when a good part of it is free space; the
// operator runs each by hand (`maintenance prune`, `maintenance optimize`).
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { Elysia } from 'elysia'
import { type CliIO, run } from '../../src/cli'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import type { Logger } from '../../src/logger'
import { VACUUM_MIN_FREE_BYTES } from '../../src/maintenance/housekeeping'
import { maintenanceCron, runScheduledMaintenance } from '../../src/maintenance/schedule'
import { createUser } from '../../src/modules/account/service'
import { DAY_MS } from '../../src/modules/auth/service'
import { SESSION_IDLE_MS } from '../../src/modules/session/service'
import { ok, testApp } from '../helpers'
import { scratchFolders } from '../scratch'

const scratch = scratchFolders('qt-housekeeping-')
const PASSWORD = 'correct horse battery'

const count = (sqlite: Database, table: string) =>
  sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n

function cliIn(folder: string) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIO = {
    env: { DATABASE_PATH: join(folder, 'qt.sqlite'), LOG_LEVEL: 'error' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readPassword: async () => PASSWORD,
  }
  return { out, err, cli: (...argv: string[]) => run(argv, io) }
}

describe('the database does not grow with logins', () => {
  test('1,000 logins of accounts that never come back leave only the live rows after the scheduled prune', async () => {
    const t = testApp()
    const accounts = Array.from({ length: 20 }, (_, i) => `player${i}`)
    for (const username of accounts) await createUser(t, { username, password: PASSWORD })
    // 1,000 logins: each account logs in 25 times from the game and signs in 25 times on the
    // website, and one in five ends at once (a logout, a sign-out; the next login of the account
    // deletes those).
    for (const username of accounts) {
      for (let i = 0; i < 25; i++) {
        const { token } = ok(await t.api.plugin.auth.login.post({ identifier: username, password: PASSWORD }))
        if (i % 5 === 0) ok(await t.plugin(token).auth.logout.post())
        const cookie = await t.signIn(username, PASSWORD)
        if (i % 5 === 0) ok(await t.web(cookie).session.delete())
      }
    }
    expect(count(t.db.$client, 'api_tokens')).toBe(400)
    expect(count(t.db.$client, 'sessions')).toBe(400)
    // Half a year passes: every token and session has ended. One player comes back (that login
    // deletes its own account's 20 ended ones); the 19 others never do.
    t.clock.advance(Math.max(181 * DAY_MS, SESSION_IDLE_MS))
    const { token } = ok(await t.api.plugin.auth.login.post({ identifier: 'player3', password: PASSWORD }))
    const cookie = await t.signIn('player3', PASSWORD)
    const lines: string[] = []
    const logger: Logger = {
      debug() {},
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
    }
    runScheduledMaintenance({ db: t.db, clock: t.clock, logger }, loadConfig({}))
    expect(count(t.db.$client, 'api_tokens')).toBe(1)
    expect(count(t.db.$client, 'sessions')).toBe(1)
    expect(lines).toEqual([
      expect.stringMatching(
        /^housekeeping: deleted 380 ended sessions, 380 ended tokens, 0 old invites and 0 ended undos; optimized/,
      ),
    ])
    // The live ones still work.
    ok(await t.plugin(token).auth.me.get())
    ok(await t.web(cookie).session.get())
  })

  test('a token lasts TOKEN_IDLE_DAYS after its last use, whatever the schedule; revoked ones go at once', async () => {
    const t = testApp({ TOKEN_IDLE_DAYS: '30' })
    await createUser(t, { username: 'alice', password: PASSWORD })
    const used = ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: PASSWORD })).token
    const revoked = ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: PASSWORD })).token
    ok(await t.plugin(revoked).auth.logout.post())
    t.clock.advance(29 * DAY_MS)
    ok(await t.plugin(used).auth.me.get())
    const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
    const config = loadConfig({ TOKEN_IDLE_DAYS: '30' })
    runScheduledMaintenance({ db: t.db, clock: t.clock, logger }, config)
    expect(count(t.db.$client, 'api_tokens')).toBe(1)
    t.clock.advance(29 * DAY_MS)
    runScheduledMaintenance({ db: t.db, clock: t.clock, logger }, config)
    expect(count(t.db.$client, 'api_tokens')).toBe(1) // used 29 days ago
    t.clock.advance(2 * DAY_MS)
    runScheduledMaintenance({ db: t.db, clock: t.clock, logger }, config)
    expect(count(t.db.$client, 'api_tokens')).toBe(0)
  })
})

describe('the schedule', () => {
  test('MAINTENANCE_CRON schedules the job (and nothing when off)', () => {
    const t = testApp()
    const deps = { db: t.db, clock: t.clock, logger: { debug() {}, info() {}, warn() {}, error() {} } }
    const on = new Elysia().use(maintenanceCron(deps, loadConfig({ MAINTENANCE_CRON: '0 2 * * 0' })))
    const job = (on.store as { cron?: Record<string, { getPattern(): string; stop(): void }> }).cron?.maintenance
    expect(job?.getPattern()).toBe('0 2 * * 0')
    job?.stop()
    const off = new Elysia().use(maintenanceCron(deps, loadConfig({ MAINTENANCE_CRON: 'off' })))
    expect((off.store as { cron?: unknown }).cron).toBeUndefined()
  })

  test('the server schedules it and says when (LOG_LEVEL=debug)', async () => {
    const folder = scratch.next()
    const out: string[] = []
    const io: CliIO = {
      env: {
        DATABASE_PATH: join(folder, 'qt.sqlite'),
        CATALOG_SOURCE_URL: join(import.meta.dir, '..', 'fixtures', 'catalog-small.json'),
        CATALOG_SYNC_CRON: 'off',
        LOG_LEVEL: 'debug',
      },
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      readPassword: async () => '',
      untilStopped: (stop) => stop(),
    }
    expect(await run(['serve', '--port', '0', '--host', '127.0.0.1'], io)).toBe(0)
    expect(out.some((line) => /next scheduled housekeeping: \S+T\d\d:07:00\.000Z$/.test(line))).toBe(true)
  })
})

describe('by hand', () => {
  test('maintenance prune deletes ended sessions and tokens now, in one line', async () => {
    const folder = scratch.next()
    const db = openDatabase(join(folder, 'qt.sqlite'))
    db.$client.run(
      "INSERT INTO users (username, password_hash, created_at) VALUES ('a', 'x', '2020-01-01T00:00:00.000Z')",
    )
    db.$client.run(
      "INSERT INTO api_tokens (user_id, label, token_hash, created_at) VALUES (1, 'old', 'h1', '2020-01-01T00:00:00.000Z')",
    )
    db.$client.run(
      "INSERT INTO sessions (user_id, token_hash, created_at, expires_at) VALUES (1, 'h2', '2020-01-01T00:00:00.000Z', '2020-01-31T00:00:00.000Z')",
    )
    db.$client.close()
    const { out, cli } = cliIn(folder)
    expect(await cli('maintenance', 'prune')).toBe(0)
    expect(out).toEqual(['deleted 1 ended session, 1 ended token, 0 old invites and 0 ended undos'])
    const check = new Database(join(folder, 'qt.sqlite'), { readonly: true })
    expect([count(check, 'api_tokens'), count(check, 'sessions'), count(check, 'users')]).toEqual([0, 0, 1])
    check.close()
  })

  test('maintenance optimize vacuums a database that is mostly free space, and not one that is not', async () => {
    const folder = scratch.next()
    const path = join(folder, 'qt.sqlite')
    const db = openDatabase(path)
    const insert = db.$client.query('INSERT INTO scorecards (quest_name, data) VALUES (?, ?)')
    db.$client.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`Quest ${i}`, `{"x":"${'x'.repeat(1000)}"}`)
    })()
    db.$client.run('DELETE FROM scorecards')
    db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
    db.$client.close()
    const before = statSync(path).size
    expect(before).toBeGreaterThan(VACUUM_MIN_FREE_BYTES * 2)
    const { out, cli } = cliIn(folder)
    expect(await cli('maintenance', 'optimize')).toBe(0)
    expect(out[0]).toMatch(/^optimized; vacuumed: [\d.]+ MB freed \(\d+ pages to \d+\)$/)
    expect(statSync(path).size).toBeLessThan(before / 4)
    expect(await cli('maintenance', 'optimize')).toBe(0)
    expect(out[1]).toMatch(/^optimized; no vacuum needed \(\d+ kB free of \d+ kB\)$/)
  })

  test('misuse: one line, exit 2', async () => {
    const { err, cli } = cliIn(scratch.next())
    expect(await cli('maintenance', 'sweep')).toBe(2)
    expect(await cli('maintenance', 'prune', 'extra')).toBe(2)
    expect(err).toEqual([
      'quest-tracker: maintenance: unknown subcommand "sweep" (prune, optimize)',
      'quest-tracker: maintenance prune: takes no arguments (see --help)',
    ])
  })
})
