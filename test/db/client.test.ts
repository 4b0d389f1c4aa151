import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { treaty } from '@elysiajs/eden'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { BUSY_TIMEOUT_MS, openDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../../src/db/client'
import { migrate } from '../../src/db/migrate'
import { migrations } from '../../src/db/migrations'
import { quests } from '../../src/db/schema'
import { silentLogger } from '../../src/logger'
import { cheapHasher, FakeClock, ok, refused, testApp } from '../helpers'
import { scratchFolders } from '../scratch'

const scratch = scratchFolders('qt-db-')

const pragma = (db: ReturnType<typeof openDatabase>, name: string) =>
  Object.values(db.$client.query(`PRAGMA ${name}`).get() as Record<string, unknown>)[0]

describe('openDatabase', () => {
  test('a file database gets WAL, synchronous FULL by default, busy_timeout and foreign keys', async () => {
    const dir = scratch.next()
    const db = openDatabase(join(dir, 'nested', 'folder', 'qt.sqlite'))
    expect(pragma(db, 'journal_mode')).toBe('wal')
    expect(pragma(db, 'synchronous')).toBe(2) // FULL
    expect(pragma(db, 'busy_timeout')).toBe(BUSY_TIMEOUT_MS)
    expect(pragma(db, 'foreign_keys')).toBe(1)
    // Checkpoints of about 100 pages (1 ms at community size), not SQLite's 1,000 (10 ms), so the
    // commit that runs one does not stall everything behind it (bench/README.md).
    expect(pragma(db, 'wal_autocheckpoint')).toBe(WAL_AUTOCHECKPOINT_PAGES)
    expect(WAL_AUTOCHECKPOINT_PAGES).toBe(100)
    db.$client.close()
  })

  test('only its owner can read it: folders made 0700, the file, -wal and -shm 0600 (under the usual umask 022)', async () => {
    const dir = scratch.next()
    const path = join(dir, 'made', 'qt.sqlite')
    const mode = (file: string) => (statSync(file).mode & 0o777).toString(8)
    const umask = process.umask(0o022) // the usual default, under which SQLite makes files 0644
    try {
      const db = openDatabase(path)
      db.$client.run("INSERT INTO users (username, password_hash, created_at) VALUES ('a', 'x', 'now')")
      expect(mode(join(dir, 'made'))).toBe('700')
      expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual(['600', '600', '600'])
      db.$client.close()
      // A database from before this rule is tightened at its next open.
      const old = join(dir, 'old.sqlite')
      writeFileSync(old, '', { mode: 0o644 })
      chmodSync(old, 0o644)
      openDatabase(old).$client.close()
      expect(mode(old)).toBe('600')
    } finally {
      process.umask(umask)
    }
  })

  test('DATABASE_SYNCHRONOUS=normal sets synchronous NORMAL', async () => {
    const dir = scratch.next()
    const db = openDatabase(join(dir, 'qt.sqlite'), { synchronous: 'normal' })
    expect(pragma(db, 'synchronous')).toBe(1) // NORMAL
    db.$client.close()
  })

  test('migrations create every table and run once', async () => {
    const dir = scratch.next()
    const path = join(dir, 'qt.sqlite')
    openDatabase(path).$client.close()
    const db = openDatabase(path) // second start: nothing to apply, nothing fails
    const tables = (db.$client.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
      .map((row) => row.name)
      .sort()
    expect(tables).toEqual(
      expect.arrayContaining([
        'api_tokens',
        'builds',
        'catalog_state',
        'characters',
        'completions',
        'lives',
        'quests',
        'route_steps',
        'routes',
        'scorecards',
        'users',
      ]),
    )
    const applied = db.$client.query('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }
    expect(applied.n).toBe(migrations.length)
    migrate(db) // idempotent
    expect((db.$client.query('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n).toBe(
      migrations.length,
    )
    db.$client.close()
  })

  test('the embedded migrations are exactly the journal drizzle-kit wrote (run `bun run db:generate`)', () => {
    const folder = join(import.meta.dir, '..', '..', 'src', 'db', 'migrations')
    const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string; when: number }[]
    }
    expect(migrations.map((m) => m.tag)).toEqual(journal.entries.map((e) => e.tag))
    expect(migrations.map((m) => m.when)).toEqual(journal.entries.map((e) => e.when))
    for (const migration of migrations) {
      expect(migration.sql).toBe(readFileSync(join(folder, `${migration.tag}.sql`), 'utf8'))
    }
  })

  test('foreign keys cascade: removing a user removes its tokens', () => {
    const db = openDatabase(':memory:')
    db.$client.run("INSERT INTO users (username, password_hash, created_at) VALUES ('a', 'x', 'now')")
    db.$client.run("INSERT INTO api_tokens (user_id, label, token_hash, created_at) VALUES (1, 'p', 'h', 'now')")
    db.$client.run('DELETE FROM users WHERE id = 1')
    expect((db.$client.query('SELECT count(*) AS n FROM api_tokens').get() as { n: number }).n).toBe(0)
  })
})

describe('a database whose write lock another process holds', () => {
  test('a write answers 503 with Retry-After within about busy_timeout (not 500 after 5 s); reads go on', async () => {
    const path = join(scratch.next(), 'qt.sqlite')
    const db = openDatabase(path)
    const app = createApp({
      db,
      config: loadConfig({}),
      clock: new FakeClock(),
      logger: silentLogger,
      passwordHasher: cheapHasher,
    })
    // A write of any endpoint, without the cost of an account and a login.
    const writable = app.post('/api/plugin/test-write', () => {
      db.insert(quests).values({ name: 'Busy', difficulty: 'Heroic', level: 1 }).run()
      return { ok: true }
    })
    const api = treaty<typeof writable>(writable, { parseDate: false }).api
    const other = new Database(path)
    other.run('BEGIN IMMEDIATE') // another process writing (a sqlite3 shell, a long script)
    try {
      const started = performance.now()
      const answer = await api.plugin['test-write'].post()
      const waited = performance.now() - started
      expect(refused(answer, 503)).toEqual({ error: 'The database is busy; try again in a moment.' })
      expect(answer.response.headers.get('retry-after')).toBe('1')
      expect(waited).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS * 0.9)
      expect(waited).toBeLessThan(BUSY_TIMEOUT_MS + 1000)
      // WAL: readers never wait for the writer.
      ok(await api.health.get())
    } finally {
      other.run('ROLLBACK')
      other.close()
    }
    ok(await api.plugin['test-write'].post())
    db.$client.close()
  })

  test('a write in the credential check, before the body is read, is 503 too (it was 400 "not valid JSON")', async () => {
    const path = join(scratch.next(), 'qt.sqlite')
    const t = testApp({}, { db: openDatabase(path) })
    const token = await t.userWithToken('alice') // never used: its first use records the time
    const other = new Database(path)
    other.run('BEGIN IMMEDIATE')
    try {
      const answer = await t.plugin(token).characters.post({ givenName: 'Ann' })
      expect(refused(answer, 503).error).toBe('The database is busy; try again in a moment.')
    } finally {
      other.run('ROLLBACK')
      other.close()
    }
    expect(t.db.$client.query('SELECT count(*) AS n FROM characters').get()).toEqual({ n: 0 })
    t.db.$client.close()
  })
})

describe("SQLite's locks on its files hold while the server works", () => {
  /**
   * POSIX record locks belong to the process, and closing any descriptor of a file drops every
   * lock the process holds on it. Code that opens and closes the database or its `-shm` itself
   * (a read, a map, a copy) silently takes SQLite's locks away: another process (the CLI) then
   * believes it is alone, resets the WAL index under the server (a crash: "Bus error", "locking
   * protocol", seen once with a map of `-shm`), and writers stop excluding each other.
   */
  const locksOn = (inode: number) =>
    readFileSync('/proc/locks', 'utf8')
      .split('\n')
      .filter((line) => {
        const fields = line.trim().split(/\s+/)
        return fields[4] === String(process.pid) && fields[5]?.split(':')[2] === String(inode)
      }).length

  test.skipIf(process.platform !== 'linux')(
    'after an evening of requests, the server still holds its lock on the WAL index (-shm)',
    async () => {
      const path = join(scratch.next(), 'qt.sqlite')
      const t = testApp({}, { db: openDatabase(path) })
      const shm = statSync(`${path}-shm`).ino
      const held = locksOn(shm)
      expect(held).toBeGreaterThan(0)

      const token = await t.userWithToken('alice')
      const cookie = await t.signIn('alice')
      const me = t.plugin(token)
      const hero = ok(await me.characters.post({ givenName: 'Tordek' }), 201)
      const character = me.characters({ id: hero.id })
      ok(await character.completions.post({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }), 201)
      const first = await character.progress.get()
      const tag = first.response.headers.get('etag') as string
      expect((await character.progress.get({ headers: { 'if-none-match': tag } })).status).toBe(304)
      ok(await me.characters.get())
      ok(await t.api.quests.get())
      ok(await t.api.health.get())
      ok(await t.web(cookie).account.export.get())
      ok(await character.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))

      expect(locksOn(shm)).toBe(held)
      t.db.$client.close()
    },
  )
})
