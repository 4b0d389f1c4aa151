// Backups nobody has to remember: the scheduled copy (folder, time, how many kept), each written
// 0600 and atomically and then checked; `backup verify`; `restore` with the server stopped; and
// the restore drill of docs/operations.md, performed. Real files in a temporary folder, the CLI and the server
// driven in-process; one copy is written by a separate process whose file size is capped
// (ulimit -f), so that the write fails halfway as on a disk that fills during the backup.
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { Elysia } from 'elysia'
import { type CliIO, run } from '../../src/cli'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { SCHEMA_VERSION } from '../../src/db/migrate'
import { migrations } from '../../src/db/migrations'
import type { Logger } from '../../src/logger'
import { scheduledBackup, verifyBackup } from '../../src/maintenance/backup'
import { restoreBackup } from '../../src/maintenance/restore'
import { backupCron, runScheduledBackup } from '../../src/maintenance/schedule'
import { cheapHasher, FakeClock } from '../helpers'
import { listeningPort } from '../listening'
import { scratchFolders } from '../scratch'

const scratch = scratchFolders('qt-backup-')
const root = join(import.meta.dir, '..', '..')
const PASSWORD = 'correct horse battery'

interface Session {
  out: string[]
  err: string[]
  cli(...argv: string[]): Promise<number>
  serve(whileUp: (base: string) => Promise<void>): Promise<number>
}

/** A database path in a new folder, and the CLI and server on it (extra variables in `env`). */
function session(env: Record<string, string> = {}, folder = scratch.next()): Session & { db: string; folder: string } {
  const db = join(folder, 'qt.sqlite')
  const out: string[] = []
  const err: string[] = []
  const io = (): CliIO => ({
    env: { DATABASE_PATH: db, CATALOG_SYNC_CRON: 'off', BACKUP_CRON: 'off', LOG_LEVEL: 'error', ...env },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readPassword: async () => PASSWORD,
    passwordHasher: cheapHasher,
  })
  return {
    db,
    folder,
    out,
    err,
    cli: (...argv) => run(argv, io()),
    serve: (whileUp) =>
      run(['serve', '--port', '0', '--host', '127.0.0.1'], {
        ...io(),
        env: {
          ...io().env,
          LOG_LEVEL: env.LOG_LEVEL ?? 'info', // info: the listening line names the port
          CATALOG_SOURCE_URL: join(import.meta.dir, '..', 'fixtures', 'catalog-small.json'),
        },
        untilStopped: async (stop) => {
          const port = [...out.join('\n').matchAll(/listening on port (\d+)/g)].at(-1)?.[1]
          try {
            await whileUp(`http://127.0.0.1:${port}`)
          } finally {
            await stop('test')
          }
        },
      }),
  }
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)
const rows = (file: string, table: string) => {
  const sqlite = new Database(file, { readonly: true })
  try {
    return sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${table}"`).get()?.n
  } finally {
    sqlite.close()
  }
}

/** A database with an account, a character and `bytes` of scorecards (to make it that large). */
function filledDatabase(path: string, bytes = 0): void {
  const db = openDatabase(path)
  db.$client.run(
    "INSERT INTO users (username, password_hash, created_at) VALUES ('alice', 'x', '2026-11-21T12:00:00.000Z')",
  )
  db.$client.run(
    "INSERT INTO characters (user_id, given_name, share_token, created_at, updated_at) VALUES (1, 'Brom', 's1', '2026-11-21T12:00:00.000Z', '2026-11-21T12:00:00.000Z')",
  )
  for (let i = 0; i * 1000 < bytes; i++) {
    db.$client
      .query('INSERT INTO scorecards (quest_name, data) VALUES (?, ?)')
      .run(`Quest ${i}`, `{"x":"${'x'.repeat(990)}"}`)
  }
  db.$client.close()
}

describe('the scheduled backup', () => {
  /** A filled database in a folder of its own, open, and the job's deps with a logger that keeps its lines. */
  function scheduledScene() {
    const folder = scratch.next()
    const path = join(folder, 'qt.sqlite')
    filledDatabase(path)
    const db = openDatabase(path)
    const lines: string[] = []
    const logger: Logger = {
      debug() {},
      info: (m) => lines.push(`info ${m}`),
      warn() {},
      error: (m) => lines.push(`error ${m}`),
    }
    return { folder, path, db, lines, deps: { db, clock: new FakeClock(), logger } }
  }

  test('a copy in BACKUP_DIR (beside the database by default) named by the time, 0600 in a 0700 folder, checked', () => {
    const folder = scratch.next()
    const path = join(folder, 'qt.sqlite')
    filledDatabase(path)
    const db = openDatabase(path)
    const clock = new FakeClock()
    const umask = process.umask(0o022)
    try {
      const result = scheduledBackup(db, loadConfig({ DATABASE_PATH: path }), clock)
      expect(result.file).toBe(join(folder, 'backups', 'qt-20261121T120000Z.sqlite'))
      expect(mode(join(folder, 'backups'))).toBe('700')
      expect(mode(result.file)).toBe('600')
      expect(result.schemaVersion).toBe(SCHEMA_VERSION)
      expect(result.tables).toContainEqual({ name: 'characters', rows: 1 })
      expect(readdirSync(join(folder, 'backups'))).toEqual(['qt-20261121T120000Z.sqlite'])
    } finally {
      process.umask(umask)
      db.$client.close()
    }
  })

  test('keeps the newest BACKUP_KEEP of this database and removes the older ones, nothing else', () => {
    const folder = scratch.next()
    const path = join(folder, 'qt.sqlite')
    filledDatabase(path)
    const backups = join(folder, 'elsewhere')
    const config = loadConfig({ DATABASE_PATH: path, BACKUP_DIR: backups, BACKUP_KEEP: '3' })
    const db = openDatabase(path)
    const clock = new FakeClock()
    try {
      scheduledBackup(db, config, clock)
      // Files that are not this database's scheduled backups are never removed.
      for (const other of ['notes.txt', 'other-20200101T000000Z.sqlite', 'qt-manual.sqlite'])
        writeFileSync(join(backups, other), 'keep me')
      // What a backup killed halfway left behind: removed by the next one.
      writeFileSync(join(backups, '.qt-20261121T120000Z.sqlite.0a1b2c3d4e5f.partial'), 'half')
      const removed: string[][] = []
      for (let day = 1; day <= 4; day++) {
        clock.advance(24 * 60 * 60_000)
        removed.push(scheduledBackup(db, config, clock).removed.map((file) => basename(file)))
      }
      expect(removed).toEqual([[], [], ['qt-20261121T120000Z.sqlite'], ['qt-20261122T120000Z.sqlite']])
      expect(readdirSync(backups).sort()).toEqual([
        'notes.txt',
        'other-20200101T000000Z.sqlite',
        'qt-20261123T120000Z.sqlite',
        'qt-20261124T120000Z.sqlite',
        'qt-20261125T120000Z.sqlite',
        'qt-manual.sqlite',
      ])
    } finally {
      db.$client.close()
    }
  })

  test('a backup that fails halfway (the file system refuses to grow it) leaves no file under a backup name', async () => {
    const { db, folder } = session()
    filledDatabase(db, 200_000)
    // A separate process whose files may not pass 100 blocks of 512 bytes: VACUUM INTO fails
    // in the middle of the copy, as on a disk that fills up during the backup.
    const child = Bun.spawn(
      ['sh', '-c', 'ulimit -f 100 && exec "$@"', 'sh', process.execPath, join(root, 'src', 'main.ts'), 'backup', 'now'],
      { env: { PATH: process.env.PATH ?? '', DATABASE_PATH: db }, stdout: 'pipe', stderr: 'pipe' },
    )
    expect(await child.exited).toBe(1)
    const stderr = (await new Response(child.stderr).text()).trim().split('\n')
    expect(stderr).toEqual([
      `quest-tracker: database ${db}`,
      expect.stringMatching(/^quest-tracker: backup now: no copy written to .*backups\/qt-\d{8}T\d{6}Z\.sqlite \(/),
    ])
    expect(readdirSync(join(folder, 'backups'))).toEqual([])
    // The next one goes through.
    const clock = new FakeClock()
    const handle = openDatabase(db)
    try {
      const done = scheduledBackup(handle, loadConfig({ DATABASE_PATH: db }), clock)
      expect(verifyBackup(done.file).tables).toContainEqual({ name: 'scorecards', rows: 200 })
    } finally {
      handle.$client.close()
    }
  })

  test('BACKUP_CRON schedules the job (and nothing when off); a run logs one line, a failed one too', async () => {
    const { folder, path, db, lines, deps } = scheduledScene()
    try {
      const on = new Elysia().use(backupCron(deps, loadConfig({ DATABASE_PATH: path, BACKUP_CRON: '0 */6 * * *' })))
      const job = (on.store as { cron?: Record<string, { getPattern(): string; stop(): void }> }).cron?.backup
      expect(job?.getPattern()).toBe('0 */6 * * *')
      job?.stop()
      const off = new Elysia().use(backupCron(deps, loadConfig({ DATABASE_PATH: path, BACKUP_CRON: 'off' })))
      expect((off.store as { cron?: unknown }).cron).toBeUndefined()

      await runScheduledBackup(deps, loadConfig({ DATABASE_PATH: path }))
      writeFileSync(join(folder, 'a-file'), '')
      await runScheduledBackup(deps, loadConfig({ DATABASE_PATH: path, BACKUP_DIR: 'a-file' }))
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^info backup written: ${RegExp.escape(join(folder, 'backups'))}/qt-20261121T120000Z\\.sqlite \\(\\d+ kB, schema ${SCHEMA_VERSION}, integrity ok\\); 1 kept$`,
          ),
        ),
        `error scheduled backup failed: cannot make the backup folder ${join(folder, 'a-file')} (a part of that path is a file); the next one runs as planned`,
      ])
    } finally {
      db.$client.close()
    }
  })

  test("is written on a thread of its own: the server's thread goes on while the copy is made", async () => {
    const { folder, path, db, lines, deps } = scheduledScene()
    try {
      // On the server's own thread the copy ran to its end inside the call: a timer set before it
      // could only fire after it (and after the promise's own reactions).
      let done = false
      let firedWhileCopying = false
      setTimeout(() => {
        firedWhileCopying = !done
      }, 0)
      await runScheduledBackup(deps, loadConfig({ DATABASE_PATH: path }))
      done = true
      expect(firedWhileCopying).toBe(true)
      expect(lines).toEqual([
        expect.stringMatching(/^info backup written: .*qt-20261121T120000Z\.sqlite .*integrity ok\); 1 kept$/),
      ])
      // The copy is whole and the server's connection goes on writing.
      db.$client.run("UPDATE users SET username = 'alicia'")
      expect(readdirSync(join(folder, 'backups'))).toEqual(['qt-20261121T120000Z.sqlite'])
    } finally {
      db.$client.close()
    }
  })

  test('the server schedules it as configured and says when (LOG_LEVEL=debug)', async () => {
    const s = session({ LOG_LEVEL: 'debug', BACKUP_CRON: '37 3 * * *', BACKUP_KEEP: '14' })
    expect(await s.serve(async () => {})).toBe(0)
    const line = s.out.find((entry) => entry.includes('next scheduled backup'))
    expect(line).toMatch(
      new RegExp(
        `next scheduled backup: \\S+T\\d\\d:37:00\\.000Z, into ${RegExp.escape(join(s.folder, 'backups'))}, keeping 14$`,
      ),
    )
    const off = session({ LOG_LEVEL: 'debug' })
    expect(await off.serve(async () => {})).toBe(0)
    expect(off.out.some((entry) => entry.endsWith('scheduled backup: off'))).toBe(true)
  })
})

describe('backup verify FILE', () => {
  test('prints the schema version and the rows of each table, and changes nothing', async () => {
    const s = session()
    filledDatabase(s.db)
    expect(await s.cli('backup', join(s.folder, 'copy.sqlite'))).toBe(0)
    const copy = join(s.folder, 'copy.sqlite')
    const bytes = readFileSync(copy)
    const listing = readdirSync(s.folder).sort()
    s.out.length = 0
    expect(await s.cli('backup', 'verify', copy)).toBe(0)
    expect(s.out[0]).toMatch(new RegExp(`^${RegExp.escape(copy)}: integrity ok, schema ${SCHEMA_VERSION}, \\d+ kB$`))
    expect(s.out.slice(1)).toEqual([
      'api_tokens\t0',
      'builds\t0',
      'catalog_state\t0',
      'character_quest_times\t0',
      'character_quest_times_dirty\t0',
      'characters\t1',
      'completions\t0',
      'group_members\t0',
      'group_shares\t0',
      'groups\t0',
      'invites\t0',
      'kept_deletions\t0',
      'lives\t0',
      'quest_times\t0',
      'quest_times_dirty\t0',
      'quests\t0',
      'route_steps\t0',
      'routes\t0',
      'runs\t0',
      'scorecards\t0',
      'sessions\t0',
      'users\t1',
    ])
    expect(readFileSync(copy).equals(bytes)).toBe(true)
    expect(readdirSync(s.folder).sort()).toEqual(listing)
  })

  test('an older schema is a good backup, said so', async () => {
    const s = session()
    const sqlite = new Database(join(s.folder, 'old.sqlite'), { create: true })
    const { migrate } = await import('../../src/db/migrate')
    migrate({ $client: sqlite }, migrations.slice(0, 2))
    sqlite.close()
    expect(await s.cli('backup', 'verify', join(s.folder, 'old.sqlite'))).toBe(0)
    expect(s.out[0]).toContain(`schema 2 (this version writes ${SCHEMA_VERSION}; upgraded when restored)`)
  })

  test.each([
    ['a missing file', (folder: string) => join(folder, 'nothing.sqlite'), 'no such file'],
    [
      'a text file',
      (folder: string) => {
        writeFileSync(join(folder, 'notes.sqlite'), 'not a database at all')
        return join(folder, 'notes.sqlite')
      },
      'is not a SQLite database',
    ],
    [
      'an empty SQLite file',
      (folder: string) => {
        new Database(join(folder, 'empty.sqlite'), { create: true }).run('CREATE TABLE t (x)')
        return join(folder, 'empty.sqlite')
      },
      'is not a Quest Tracker database',
    ],
    [
      'a damaged copy',
      (folder: string) => {
        filledDatabase(join(folder, 'source.sqlite'), 50_000)
        const bytes = readFileSync(join(folder, 'source.sqlite'))
        bytes.fill(0x55, 4096 * 3, 4096 * 5) // two pages of the middle overwritten
        writeFileSync(join(folder, 'damaged.sqlite'), bytes)
        return join(folder, 'damaged.sqlite')
      },
      'is damaged (integrity_check:',
    ],
    [
      "a newer version's database",
      (folder: string) => {
        const future = {
          tag: '0099_future',
          when: Number.MAX_SAFE_INTEGER,
          breakpoints: true,
          sql: 'CREATE TABLE f (x);',
        }
        openDatabase(join(folder, 'newer.sqlite'), { migrations: [...migrations, future] }).$client.close()
        return join(folder, 'newer.sqlite')
      },
      `was made by a newer Quest Tracker (schema ${SCHEMA_VERSION + 1}; this one knows ${SCHEMA_VERSION})`,
    ],
    [
      'a database in use (a -wal beside it)',
      (folder: string) => {
        filledDatabase(join(folder, 'live.sqlite'))
        writeFileSync(join(folder, 'live.sqlite-wal'), '')
        return join(folder, 'live.sqlite')
      },
      'has a -wal file beside it',
    ],
  ])('%s: exit 1, one line saying why', async (_name, make, reason) => {
    const s = session()
    const file = make(s.folder)
    expect(await s.cli('backup', 'verify', file)).toBe(1)
    expect(s.out).toEqual([])
    expect(s.err).toHaveLength(1)
    expect(s.err[0]).toStartWith('quest-tracker: backup verify: ')
    expect(s.err[0]).toContain(reason)
  })
})

describe('restore FILE', () => {
  test('refuses a backup in doubt, and changes nothing', async () => {
    const s = session()
    filledDatabase(s.db)
    writeFileSync(join(s.folder, 'bad.sqlite'), 'not a database')
    const before = readFileSync(s.db)
    expect(await s.cli('restore', join(s.folder, 'bad.sqlite'))).toBe(1)
    expect(s.err).toEqual([
      `quest-tracker: restore: ${join(s.folder, 'bad.sqlite')} is not a SQLite database; nothing was changed`,
    ])
    expect(readFileSync(s.db).equals(before)).toBe(true)
    expect(readdirSync(s.folder).sort()).toEqual(['bad.sqlite', 'qt.sqlite'])
  })

  test('on a new machine (no database yet): puts the backup in place, 0600', async () => {
    const old = session()
    filledDatabase(old.db)
    expect(await old.cli('backup', join(old.folder, 'copy.sqlite'))).toBe(0)
    const fresh = session({}, join(scratch.next(), 'data'))
    expect(await fresh.cli('restore', join(old.folder, 'copy.sqlite'))).toBe(0)
    expect(fresh.out).toEqual([
      `restored ${join(old.folder, 'copy.sqlite')} (schema ${SCHEMA_VERSION}, 1 account) to ${fresh.db}; there was no database before`,
    ])
    expect(mode(fresh.db)).toBe('600')
    expect(rows(fresh.db, 'characters')).toBe(1)
  })

  test('a backup of an older version is upgraded at the next start', async () => {
    const s = session()
    const old = join(s.folder, 'old.sqlite')
    const sqlite = new Database(old, { create: true })
    const { migrate } = await import('../../src/db/migrate')
    migrate({ $client: sqlite }, migrations.slice(0, 3))
    sqlite.run("INSERT INTO users (username, password_hash, created_at) VALUES ('alice', 'x', 'then')")
    sqlite.close()
    filledDatabase(s.db)
    expect(await s.cli('restore', old)).toBe(0)
    const db = openDatabase(s.db)
    expect(db.$client.query('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: SCHEMA_VERSION })
    expect(db.$client.query('SELECT username FROM users').all()).toEqual([{ username: 'alice' }])
    db.$client.close()
  })
})

describe('two restores in one second (issue 39, item 5)', () => {
  /** A database whose one account is `name`, at `path`. */
  function accountDatabase(path: string, name: string): void {
    const db = openDatabase(path)
    db.$client.query("INSERT INTO users (username, password_hash, created_at) VALUES (?, 'x', 'then')").run(name)
    db.$client.close()
  }
  const accountOf = (path: string) => {
    const sqlite = new Database(path, { readonly: true })
    try {
      return sqlite.query<{ username: string }, []>('SELECT username FROM users').get()?.username
    } finally {
      sqlite.close()
    }
  }

  test('each keeps the database it replaced under a name of its own; none is renamed over', async () => {
    const s = session()
    accountDatabase(s.db, 'original')
    for (const name of ['b1', 'b2']) {
      accountDatabase(join(s.folder, `${name}-live.sqlite`), name)
      expect(
        await s.cli('backup', join(s.folder, `${name}.sqlite`), '--database', join(s.folder, `${name}-live.sqlite`)),
      ).toBe(0)
    }
    const clock = new FakeClock() // the same second for both
    const first = restoreBackup(s.db, join(s.folder, 'b1.sqlite'), clock)
    const second = restoreBackup(s.db, join(s.folder, 'b2.sqlite'), clock)
    expect(first.aside).toMatch(/\.before-restore-20261121T120000Z$/)
    expect(second.aside).toBe(`${first.aside}-2`)
    expect(accountOf(first.aside as string)).toBe('original')
    expect(accountOf(second.aside as string)).toBe('b1')
    expect(accountOf(s.db)).toBe('b2')
  })

  test("a name whose -wal is taken (a database kept aside with its log) is not used, so no log is paired with another's file", async () => {
    const s = session()
    accountDatabase(s.db, 'original')
    expect(await s.cli('backup', join(s.folder, 'b.sqlite'))).toBe(0)
    const clock = new FakeClock()
    const taken = `${s.db}.before-restore-20261121T120000Z`
    writeFileSync(`${taken}-wal`, 'the log of a database kept aside before')
    const restored = restoreBackup(s.db, join(s.folder, 'b.sqlite'), clock)
    expect(restored.aside).toBe(`${taken}-2`)
    expect(readFileSync(`${taken}-wal`, 'utf8')).toBe('the log of a database kept aside before')
    expect(accountOf(restored.aside as string)).toBe('original')
  })
})

describe('a backup someone edited (issue 39, item 4)', () => {
  /** A good backup of a filled database, then `edit` run on it as plain SQL (what an attacker with the file does). */
  async function edited(edit: string) {
    const s = session()
    filledDatabase(s.db)
    const copy = join(s.folder, 'copy.sqlite')
    expect(await s.cli('backup', copy)).toBe(0)
    const sqlite = new Database(copy)
    sqlite.run(edit)
    sqlite.run('PRAGMA journal_mode = DELETE')
    sqlite.close()
    s.out.length = 0
    s.err.length = 0
    return { s, copy }
  }

  const ATTACKER = "'$argon2id$attacker'"
  const PLANTED = [
    `CREATE TRIGGER keep_pw AFTER UPDATE OF password_hash ON users BEGIN UPDATE users SET password_hash = ${ATTACKER} WHERE id = NEW.id; END`,
    `CREATE TRIGGER new_pw AFTER INSERT ON users BEGIN UPDATE users SET password_hash = ${ATTACKER} WHERE id = NEW.id; END`,
  ].join(';\n')

  test('planted triggers: verify exits 1 naming them, restore refuses, and the accounts keep their own passwords', async () => {
    const { s, copy } = await edited(PLANTED)
    expect(await s.cli('backup', 'verify', copy)).toBe(1)
    expect(s.out).toEqual([])
    expect(s.err).toEqual([
      `quest-tracker: backup verify: ${copy} holds what Quest Tracker's schema ${SCHEMA_VERSION} does not: a trigger "keep_pw", a trigger "new_pw"; a backup Quest Tracker wrote is never edited, so it is not trusted`,
    ])
    const before = readFileSync(s.db)
    s.err.length = 0
    expect(await s.cli('restore', copy)).toBe(1)
    expect(s.err).toEqual([
      `quest-tracker: restore: ${copy} holds what Quest Tracker's schema ${SCHEMA_VERSION} does not: a trigger "keep_pw", a trigger "new_pw"; a backup Quest Tracker wrote is never edited, so it is not trusted; nothing was changed`,
    ])
    expect(readFileSync(s.db).equals(before)).toBe(true)
    // The database in place still has alice's own hash, and a new password sticks.
    expect(await s.cli('user', 'passwd', 'alice')).toBe(0)
    const sqlite = new Database(s.db, { readonly: true })
    expect(sqlite.query('SELECT password_hash AS hash FROM users').get()).not.toEqual({ hash: '$argon2id$attacker' })
    sqlite.close()
  })

  test.each([
    ['a view', 'CREATE VIEW hashes AS SELECT password_hash FROM users', 'a view "hashes"'],
    ['a table', 'CREATE TABLE loot (x)', 'a table "loot"'],
    ['an index', 'CREATE INDEX users_by_hash ON users (password_hash)', 'an index "users_by_hash"'],
    [
      'a trigger put in place of one of its own',
      "DROP TRIGGER runs_mark_quest_times_delete; CREATE TRIGGER runs_mark_quest_times_delete AFTER DELETE ON runs BEGIN UPDATE users SET password_hash = 'x'; END",
      'a changed trigger "runs_mark_quest_times_delete"',
    ],
    ['an index taken away', 'DROP INDEX users_username_unique', 'no index "users_username_unique"'],
    ['a column added', 'ALTER TABLE users ADD COLUMN note text', 'a changed table "users"'],
  ])('%s: refused, named', async (_name, edit, named) => {
    const { s, copy } = await edited(edit)
    expect(await s.cli('backup', 'verify', copy)).toBe(1)
    expect(s.err).toHaveLength(1)
    expect(s.err[0]).toContain(`${copy} holds what Quest Tracker's schema ${SCHEMA_VERSION} does not: ${named}`)
  })

  test("SQLite's own statistics tables (ANALYZE, PRAGMA optimize) are not an edit", async () => {
    const s = session()
    filledDatabase(s.db)
    const sqlite = new Database(s.db)
    sqlite.run('ANALYZE')
    sqlite.close()
    const copy = join(s.folder, 'copy.sqlite')
    expect(await s.cli('backup', copy)).toBe(0)
    expect(await s.cli('backup', 'verify', copy)).toBe(0)
    expect(s.out.at(-1)).toBe('users\t1')
  })

  test("a backup made before drizzle-orm's migrator was replaced (its bookkeeping table written its own way) is good", async () => {
    const s = session()
    const old = join(s.folder, 'old.sqlite')
    const sqlite = new Database(old, { create: true })
    sqlite.run(`
			CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (
				id SERIAL PRIMARY KEY,
				hash text NOT NULL,
				created_at numeric
			)
		`)
    const { migrate } = await import('../../src/db/migrate')
    migrate({ $client: sqlite }, migrations.slice(0, 3))
    sqlite.close()
    expect(await s.cli('backup', 'verify', old)).toBe(0)
    expect(s.out[0]).toContain('schema 3 (this version writes')
  })

  test('a database upgraded from every earlier schema has the schema a new one has: its backups verify', async () => {
    const { migrate } = await import('../../src/db/migrate')
    for (let version = 1; version < SCHEMA_VERSION; version++) {
      const s = session()
      const sqlite = new Database(s.db, { create: true })
      migrate({ $client: sqlite }, migrations.slice(0, version))
      sqlite.close()
      openDatabase(s.db).$client.close() // upgraded at open
      const copy = join(s.folder, 'copy.sqlite')
      expect(await s.cli('backup', copy)).toBe(0)
      expect(verifyBackup(copy).schemaVersion).toBe(SCHEMA_VERSION)
    }
  })

  test('the server and the commands open the database with trusted_schema off', () => {
    const s = session()
    filledDatabase(s.db)
    const db = openDatabase(s.db)
    expect(db.$client.query('PRAGMA trusted_schema').get()).toEqual({ trusted_schema: 0 })
    db.$client.close()
    expect(openDatabase(':memory:').$client.query('PRAGMA trusted_schema').get()).toEqual({ trusted_schema: 0 })
  })
})

describe('the restore drill of docs/operations.md, performed', () => {
  /** `bun src/main.ts ARGS` as the operator runs it: its own process, killed after 10 s. */
  const spawnMain = (args: string[], env: Record<string, string>, stdin?: string) =>
    Bun.spawn([process.execPath, join(root, 'src', 'main.ts'), ...args], {
      env: { PATH: process.env.PATH ?? '', CATALOG_SYNC_CRON: 'off', BACKUP_CRON: 'off', ...env },
      stdin: stdin === undefined ? 'ignore' : new Blob([stdin]),
      stdout: 'pipe',
      stderr: 'pipe',
    })

  /** The server in its own process, until `whileUp` is done; stopped as by `docker stop` (SIGTERM). */
  async function serving(env: Record<string, string>, whileUp: (base: string) => Promise<void>) {
    const server = spawnMain(['serve', '--port', '0', '--host', '127.0.0.1'], {
      ...env,
      CATALOG_SOURCE_URL: join(import.meta.dir, '..', 'fixtures', 'catalog-small.json'),
    })
    const timer = setTimeout(() => server.kill('SIGKILL'), 30_000) // a safety net for a hung server, beyond a loaded machine's slowest start
    try {
      await whileUp(`http://127.0.0.1:${await listeningPort(server.stdout)}`)
    } finally {
      server.kill('SIGTERM')
      expect(await server.exited).toBe(0)
      clearTimeout(timer)
    }
  }

  const login = async (base: string) => {
    const answer = await fetch(`${base}/api/plugin/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ identifier: 'alice', password: PASSWORD }),
    })
    expect(answer.status).toBe(200)
    return { authorization: `Bearer ${((await answer.json()) as { token: string }).token}` }
  }

  test('back up while serving, verify, restore refused while serving, the database damaged, restored, served again', async () => {
    const s = session()
    const env = { DATABASE_PATH: s.db, LOG_LEVEL: 'info' }
    const add = spawnMain(['user', 'add', '--username', 'alice'], env, `${PASSWORD}\n`)
    expect(await add.exited).toBe(0)
    let backupFile = ''
    // 1. The server runs and the player has a character; 2. backup now; 3. backup verify FILE.
    await serving(env, async (base) => {
      const created = await fetch(`${base}/api/plugin/characters`, {
        method: 'POST',
        headers: await login(base),
        body: JSON.stringify({ givenName: 'Brom' }),
      })
      expect(created.status).toBe(201)
      expect(await s.cli('backup', 'now')).toBe(0)
      backupFile = /^backup written: (\S+) /.exec(s.out.at(-1) ?? '')?.[1] ?? ''
      expect(await s.cli('backup', 'verify', backupFile)).toBe(0)
      expect(s.out).toContain('characters\t1')
      // A restore while the server runs is refused, and changes nothing.
      expect(await s.cli('restore', backupFile)).toBe(1)
      expect(s.err.at(-1)).toBe(
        `quest-tracker: restore: the database ${s.db} is in use (is the server running?); stop the server first, nothing was changed`,
      )
      expect(readdirSync(s.folder).filter((name) => name.includes('before-restore'))).toEqual([])
    })
    // The bad day: the database is damaged, and the server refuses to start on it.
    const bytes = readFileSync(s.db)
    bytes.fill(0x55, 4096 * 2, 4096 * 4)
    writeFileSync(s.db, bytes)
    const refused = spawnMain(['serve', '--port', '0'], env)
    expect(await refused.exited).toBe(2)
    expect(await new Response(refused.stderr).text()).toContain('is damaged')
    // 4. restore FILE, the server stopped: the damaged file is kept aside.
    s.out.length = 0
    expect(await s.cli('restore', backupFile)).toBe(0)
    const aside = readdirSync(s.folder).find((name) => name.startsWith('qt.sqlite.before-restore-')) ?? ''
    expect(aside).toMatch(/^qt\.sqlite\.before-restore-\d{8}T\d{6}Z$/)
    expect(readFileSync(join(s.folder, aside)).equals(bytes)).toBe(true)
    expect(s.out).toEqual([
      `restored ${backupFile} (schema ${SCHEMA_VERSION}, 1 account) to ${s.db}; the database before it is kept as ${join(s.folder, aside)}`,
    ])
    // 5. Start the server: the player signs in and finds the character.
    await serving(env, async (base) => {
      const list = await fetch(`${base}/api/plugin/characters`, { headers: await login(base) })
      const { characters } = (await list.json()) as { characters: { givenName: string }[] }
      expect(characters.map((character) => character.givenName)).toEqual(['Brom'])
    })
  }, 90_000) // two servers, a backup, a verify and a restore, each a process of its own
})
