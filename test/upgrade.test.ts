// Upgrades, as a self-hoster meets them over months: a database left at every earlier schema,
// with rows in every table it had, opens in today's server with nothing lost; a migration that
// fails leaves the file byte for byte as it was and says so in one line; a database a newer
// binary migrated is refused in one line, untouched. Real files in a temporary folder.
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import packageJson from '../package.json'
import { type CliIO, run } from '../src/cli'
import { DatabaseFileError, openDatabase } from '../src/db/client'
import { type EmbeddedMigration, migrate, SCHEMA_VERSION } from '../src/db/migrate'
import { migrations } from '../src/db/migrations'
import { cheapHasher, ok, testApp } from './helpers'
import { scratchFolders } from './scratch'

const scratch = scratchFolders('qt-upgrade-')
const PASSWORD = 'correct horse battery'
const passwordHash = await cheapHasher.hash(PASSWORD)
const ROWS = 3

type Row = Record<string, unknown>
interface Column {
  name: string
  type: string
  notnull: number
  dflt_value: string | null
  pk: number
}

const tablesOf = (sqlite: Database): string[] =>
  sqlite
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != '__drizzle_migrations' ORDER BY name",
    )
    .all()
    .map((row) => row.name)

const columnsOf = (sqlite: Database, table: string) => sqlite.query<Column, []>(`PRAGMA table_info("${table}")`).all()

/** Tables in an order where every table comes after those its foreign keys point to. */
function parentsFirst(sqlite: Database, tables: string[]): string[] {
  const ordered: string[] = []
  const visit = (table: string) => {
    if (ordered.includes(table)) return
    const parents = sqlite.query<{ table: string }, []>(`PRAGMA foreign_key_list("${table}")`).all()
    for (const parent of parents) if (parent.table !== table) visit(parent.table)
    ordered.push(table)
  }
  for (const table of tables) visit(table)
  return ordered
}

/**
 * Row `i` of a table, from its columns as that schema had them: every column gets a value (the
 * nullable ones too), a foreign key points at row `i` of its parent, a column with a default
 * keeps it (so JSON columns hold valid JSON), timestamps are timestamps. An account can log in.
 */
function rowOf(sqlite: Database, table: string, i: number): Row {
  const foreign = new Set(
    sqlite
      .query<{ from: string }, []>(`PRAGMA foreign_key_list("${table}")`)
      .all()
      .map((key) => key.from),
  )
  const special: Row = {
    'users.username': `player${i}`,
    'users.email': `player${i}@example.com`,
    'users.password_hash': passwordHash,
    'builds.role': 'planned',
    'builds.document': JSON.stringify({ build: { levels: i } }),
    'scorecards.data': JSON.stringify({ elite: i }),
  }
  const row: Row = {}
  for (const column of columnsOf(sqlite, table)) {
    const key = `${table}.${column.name}`
    if (key in special) row[column.name] = special[key]
    else if (foreign.has(column.name) || column.pk) row[column.name] = i
    else if (column.dflt_value !== null) continue
    else if (column.name.endsWith('_at')) row[column.name] = `2026-0${i}-0${i}T12:00:00.000Z`
    else if (/INT/i.test(column.type)) row[column.name] = i * 10
    else if (/REAL/i.test(column.type)) row[column.name] = i + 0.5
    else row[column.name] = `${key}.${i}`
  }
  return row
}

function fill(sqlite: Database): void {
  for (const table of parentsFirst(sqlite, tablesOf(sqlite))) {
    for (let i = 1; i <= ROWS; i++) {
      const row = rowOf(sqlite, table, i)
      const names = Object.keys(row)
      sqlite
        .query(
          `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        )
        .run(...(Object.values(row) as never[]))
    }
  }
}

/** Every row of every table, in rowid order. */
const snapshot = (sqlite: Database): Record<string, Row[]> =>
  Object.fromEntries(
    tablesOf(sqlite).map((table) => [table, sqlite.query<Row, []>(`SELECT * FROM "${table}" ORDER BY rowid`).all()]),
  )

/**
 * A database as the server of schema `version` left it: that many of the migrations applied
 * (the way that server ran them), rows in every table, closed.
 */
function databaseAt(version: number, path = join(scratch.next(), 'qt.sqlite')) {
  const sqlite = new Database(path, { create: true, strict: true })
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA foreign_keys = ON')
  migrate(drizzle({ client: sqlite }), migrations.slice(0, version))
  fill(sqlite)
  const rows = snapshot(sqlite)
  sqlite.close()
  return { path, rows }
}

const oneLine = (error: unknown): string => {
  expect(error).toBeInstanceOf(DatabaseFileError)
  const message = (error as Error).message
  expect(message).not.toContain('\n')
  return message
}

const openError = (path: string, options: Parameters<typeof openDatabase>[1] = {}): unknown => {
  try {
    openDatabase(path, options).$client.close()
  } catch (error) {
    return error
  }
  return undefined
}

const last = migrations[migrations.length - 1] as EmbeddedMigration

describe("a database at every earlier schema opens in today's server with nothing lost", () => {
  test('the schema version is the number of migrations this binary carries', () => {
    expect(SCHEMA_VERSION).toBe(migrations.length)
  })

  test.each(migrations.map((migration, index) => [index + 1, migration.tag] as const))(
    'schema %d (after %s)',
    async (version) => {
      const before = databaseAt(version)
      const db = openDatabase(before.path)
      try {
        expect(db.$client.query('PRAGMA integrity_check').values()).toEqual([['ok']])
        expect(db.$client.query('PRAGMA foreign_key_check').all()).toEqual([])
        const applied = db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations').get()
        expect(applied?.n).toBe(SCHEMA_VERSION)
        // Every row of every table that schema had, every column it had, as it was.
        for (const [table, rows] of Object.entries(before.rows)) {
          // quest_times_dirty is also fed by triggers on runs (0005): the runs filled mark theirs.
          if (table === 'quest_times_dirty') expect(rows.length).toBeGreaterThanOrEqual(ROWS)
          else expect(rows).toHaveLength(ROWS)
          const columns = Object.keys(rows[0] as Row)
            .map((name) => `"${name}"`)
            .join(', ')
          const now = db.$client.query<Row, []>(`SELECT ${columns} FROM "${table}" ORDER BY rowid`).all()
          expect({ table, rows: now }).toEqual({ table, rows })
        }
        // And today's server serves them: the account logs in and sees its character.
        const t = testApp({}, { db })
        const { token } = ok(await t.api.plugin.auth.login.post({ identifier: 'player2', password: PASSWORD }))
        const { characters } = ok(await t.plugin(token).characters.get())
        expect(characters.map((character) => character.givenName)).toEqual(['characters.given_name.2'])
      } finally {
        db.$client.close()
      }
    },
  )
})

describe('a migration that fails', () => {
  /** Creates a table, then fails: the halfway point a real migration can reach. */
  const broken: EmbeddedMigration = {
    tag: '0099_broken',
    when: last.when + 1,
    breakpoints: true,
    sql: 'CREATE TABLE halfway (id integer);--> statement-breakpoint\nINSERT INTO no_such_table VALUES (1);',
  }

  test('leaves the file byte for byte as it was, and says so in one line', () => {
    // Schema 3: two of today's migrations would apply before the broken one, in the same transaction.
    const { path } = databaseAt(3)
    const bytes = readFileSync(path)
    const message = oneLine(openError(path, { migrations: [...migrations, broken] }))
    expect(message).toBe(
      `the database ${path} could not be upgraded from schema 3 to ${migrations.length + 1}: migration 0099_broken failed (no such table: no_such_table); it was left as it was`,
    )
    expect(readFileSync(path).equals(bytes)).toBe(true)
    expect(existsSync(`${path}-wal`)).toBe(false)
    // Today's migrations alone still apply to it.
    const db = openDatabase(path)
    expect(db.$client.query('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: SCHEMA_VERSION })
    db.$client.close()
  })

  test('on a new database too: nothing is left of it but the empty file', () => {
    const path = join(scratch.next(), 'qt.sqlite')
    oneLine(openError(path, { migrations: [...migrations, broken] }))
    const sqlite = new Database(path, { readonly: true })
    expect(tablesOf(sqlite)).toEqual([])
    expect(sqlite.query("SELECT name FROM sqlite_master WHERE name = '__drizzle_migrations'").all()).toEqual([])
    sqlite.close()
  })
})

describe('a database newer than this binary', () => {
  const future: EmbeddedMigration = {
    tag: '0099_future',
    when: last.when + 1,
    breakpoints: true,
    sql: 'CREATE TABLE future (id integer);',
  }

  const newer = () => {
    const path = join(scratch.next(), 'qt.sqlite')
    openDatabase(path, { migrations: [...migrations, future] }).$client.close()
    return path
  }

  test('is refused in one line, untouched', () => {
    const path = newer()
    const bytes = readFileSync(path)
    expect(oneLine(openError(path))).toBe(
      `the database ${path} was upgraded by a newer Quest Tracker (schema ${SCHEMA_VERSION + 1}; this is ${packageJson.version}, schema ${SCHEMA_VERSION}): run that version, or restore a backup made by this one; the file was not changed`,
    )
    expect(readFileSync(path).equals(bytes)).toBe(true)
    expect(existsSync(`${path}-wal`)).toBe(false)
  })

  test('the server and every admin command refuse it with one line and exit 2', async () => {
    const path = newer()
    const bytes = readFileSync(path)
    for (const argv of [
      ['serve', '--port', '0'],
      ['user', 'list'],
    ]) {
      const err: string[] = []
      const io: CliIO = {
        env: { DATABASE_PATH: path, CATALOG_SYNC_CRON: 'off', LOG_LEVEL: 'error' },
        out: () => {},
        err: (line) => err.push(line),
        readPassword: async () => '',
        untilStopped: (stop) => stop(),
      }
      expect(await run(argv, io)).toBe(2)
      expect(err).toHaveLength(1)
      expect(err[0]).toContain('was upgraded by a newer Quest Tracker')
    }
    expect(readFileSync(path).equals(bytes)).toBe(true)
  })
})

describe('the schema version is shown', () => {
  test('--version names it', async () => {
    const out: string[] = []
    const io: CliIO = { env: {}, out: (line) => out.push(line), err: () => {}, readPassword: async () => '' }
    expect(await run(['--version'], io)).toBe(0)
    expect(out).toEqual([`quest-tracker ${packageJson.version} (schema ${SCHEMA_VERSION})`])
  })

  test("/api/health and /api/plugin/info say the database's schema", async () => {
    const t = testApp()
    expect(ok(await t.api.health.get())).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION })
    const token = await t.userWithToken('alice')
    expect(ok(await t.plugin(token).info.get()).schemaVersion).toBe(SCHEMA_VERSION)
  })
})
