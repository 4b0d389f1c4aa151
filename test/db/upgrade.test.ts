// Upgrades, as a self-hoster meets them over months: a database left at every earlier schema,
// with rows in every table it had, opens in today's server with nothing lost; a migration that
// fails leaves the file byte for byte as it was and says so in one line; a database a newer
// binary migrated is refused in one line, untouched. Real files in a temporary folder.
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import packageJson from '../../package.json'
import { type CliIO, run } from '../../src/cli'
import { DatabaseFileError, openDatabase } from '../../src/db/client'
import { type EmbeddedMigration, migrate, SCHEMA_VERSION } from '../../src/db/migrate'
import { migrations } from '../../src/db/migrations'
import { cheapHasher, ok, testApp } from '../helpers'
import { scratchFolders } from '../scratch'

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
          // quest_times_dirty (0005) and character_quest_times_dirty (0010) are also fed by
          // triggers on runs: the runs filled mark theirs.
          if (table === 'quest_times_dirty' || table === 'character_quest_times_dirty')
            expect(rows.length).toBeGreaterThanOrEqual(ROWS)
          else expect(rows).toHaveLength(ROWS)
          const columns = Object.keys(rows[0] as Row)
            .map((name) => `"${name}"`)
            .join(', ')
          const now = db.$client.query<Row, []>(`SELECT ${columns} FROM "${table}" ORDER BY rowid`).all()
          expect({ table, rows: now }).toEqual({ table, rows })
        }
        // Each character's runs are counted at the upgrade (0010), the counter the bound on them reads.
        const counted = db.$client
          .query<{ kept: number; n: number }, []>(
            'SELECT kept_runs AS kept, (SELECT count(*) FROM runs r JOIN completions c ON c.id = r.completion_id WHERE c.character_id = characters.id) AS n FROM characters',
          )
          .all()
        expect(counted.some((c) => c.n > 0)).toBe(true)
        for (const c of counted) expect(c.kept).toBe(c.n)
        // And every quest a character has timed runs of is marked, so its own times are computed
        // at its first read.
        const unmarked = db.$client
          .query(
            `SELECT c.id FROM completions c WHERE EXISTS (SELECT 1 FROM runs r WHERE r.completion_id = c.id AND r.duration_seconds > 0)
             AND NOT EXISTS (SELECT 1 FROM character_quest_times_dirty d WHERE d.character_id = c.character_id
               AND d.name = c.name AND d.difficulty = c.difficulty AND d.setting = c.setting)`,
          )
          .all()
        expect(unmarked).toEqual([])
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

// Issue 38: before lives said their kind, an epic reincarnation opened a new life with none of
// the completions; the upgrade to schema 8 (0007_reincarnation_kinds) gives them back.
describe('the upgrade repairs characters that went through an epic reincarnation', () => {
  const at = (minute: number) => `2026-10-01T12:${String(minute).padStart(2, '0')}:00.000Z`
  const feats = (...list: [string, string, number][]) =>
    JSON.stringify(list.map(([name, type, stacks]) => ({ name, type, stacks })))

  /** A database as schema 7 left it: Mordo's three lives, the last two epic ones; Brom's true ones. */
  function before() {
    const path = join(scratch.next(), 'qt.sqlite')
    const sqlite = new Database(path, { create: true, strict: true })
    sqlite.run('PRAGMA foreign_keys = ON')
    migrate(drizzle({ client: sqlite }), migrations.slice(0, 7))
    const run = (sql: string, ...values: (string | number | null)[]) => sqlite.query(sql).run(...values)
    run("INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'alice', ?, ?)", passwordHash, at(0))
    for (const [id, name] of [
      [1, 'Mordo'],
      [2, 'Brom'],
    ] as const) {
      run(
        'INSERT INTO characters (id, user_id, given_name, share_token, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?)',
        id,
        name,
        `share-${id}`,
        at(0),
        at(0),
      )
    }
    const life = (character: number, index: number, specialFeats: string, current = false) =>
      run(
        'INSERT INTO lives (character_id, life_index, is_current, special_feats, created_at, archived_at) VALUES (?, ?, ?, ?, ?, ?)',
        character,
        index,
        current ? 1 : 0,
        specialFeats,
        at(index * 10),
        current ? null : at(index * 10 + 10),
      )
    // Mordo: life 1, then two epic reincarnations (one epic stack more each, the favor kept).
    life(1, 1, feats(['Past Life: Wizard', 'HeroicPastLife', 3], ['Favor: 400', 'Favor', 1]))
    life(1, 2, feats(['Past Life: Wizard', 'HeroicPastLife', 3], ['Past Life: Doublestrike', 'EpicPastLife', 1]))
    life(1, 3, feats(['Past Life: Wizard', 'HeroicPastLife', 3], ['Past Life: Doublestrike', 'EpicPastLife', 2]), true)
    // Brom: a heroic past life more (true), then nothing more (true or lesser: left as true), then two
    // epic past lives more (a snapshot synced since, not one reincarnation: left as true).
    life(2, 1, feats())
    life(2, 2, feats(['Past Life: Fighter', 'HeroicPastLife', 1]))
    life(2, 3, feats(['Past Life: Fighter', 'HeroicPastLife', 1]))
    life(
      2,
      4,
      feats(
        ['Past Life: Fighter', 'HeroicPastLife', 1],
        ['Past Life: Doublestrike', 'EpicPastLife', 1],
        ['Past Life: Doubleshot', 'EpicPastLife', 1],
      ),
      true,
    )
    const completion = (
      id: number,
      character: number,
      index: number,
      name: string,
      latest: [string, number | null, number | null],
      count: number,
    ) =>
      run(
        `INSERT INTO completions (id, character_id, life_index, name, difficulty, setting, completed_at,
           duration_seconds, xp_earned, runs, updated_at) VALUES (?, ?, ?, ?, 'Heroic', 'elite', ?, ?, ?, ?, ?)`,
        id,
        character,
        index,
        name,
        ...latest,
        count,
        latest[0],
      )
    const runAt = (completion: number, completedAt: string, duration: number | null, xp: number | null) =>
      run(
        'INSERT INTO runs (completion_id, completed_at, duration_seconds, xp_earned) VALUES (?, ?, ?, ?)',
        completion,
        completedAt,
        duration,
        xp,
      )
    // Mordo's Crypt in all three lives (its run at 12:12 posted again in life 3: the same run).
    completion(1, 1, 1, 'Crypt', [at(12), 600, 3000], 1)
    runAt(1, at(12), 600, 3000)
    completion(2, 1, 1, 'Bell Tower', [at(14), 300, 1000], 1)
    runAt(2, at(14), 300, 1000)
    completion(3, 1, 2, 'Crypt', [at(25), 900, 3300], 1)
    runAt(3, at(25), 900, 3300)
    completion(4, 1, 2, 'Sewer Run', [at(26), null, null], 1)
    runAt(4, at(26), null, null)
    completion(5, 1, 3, 'Crypt', [at(35), null, null], 2)
    runAt(5, at(35), null, null)
    runAt(5, at(12), 600, 3000)
    // Brom: one in each life, left where they are.
    for (const index of [1, 2, 3, 4]) {
      completion(10 + index, 2, index, 'Crypt', [at(index * 10 + 5), 600, 3000], 1)
      runAt(10 + index, at(index * 10 + 5), 600, 3000)
    }
    sqlite.close()
    return path
  }

  test('their completions are the current life’s again, merged, no run lost', async () => {
    const db = openDatabase(before())
    try {
      const sqlite = db.$client
      expect(sqlite.query('PRAGMA foreign_key_check').all()).toEqual([])
      expect(
        sqlite
          .query('SELECT character_id, life_index, kind, quest_life FROM lives ORDER BY character_id, life_index')
          .values(),
      ).toEqual([
        [1, 1, null, 1],
        [1, 2, 'epic', 1],
        [1, 3, 'epic', 1],
        [2, 1, null, 1],
        [2, 2, null, 2],
        [2, 3, null, 3],
        [2, 4, null, 4],
      ])
      // Mordo's Crypt is one completion of life 1: four runs counted, its three times kept (the one
      // posted twice once), the latest run's figures.
      expect(
        sqlite
          .query(
            'SELECT id, life_index, name, completed_at, duration_seconds, xp_earned, runs FROM completions WHERE character_id = 1 ORDER BY name',
          )
          .values(),
      ).toEqual([
        [2, 1, 'Bell Tower', at(14), 300, 1000, 1],
        [1, 1, 'Crypt', at(35), null, null, 4],
        [4, 1, 'Sewer Run', at(26), null, null, 1],
      ])
      expect(
        sqlite
          .query(
            'SELECT completed_at, duration_seconds, xp_earned FROM runs WHERE completion_id = 1 ORDER BY completed_at',
          )
          .values(),
      ).toEqual([
        [at(12), 600, 3000],
        [at(25), 900, 3300],
        [at(35), null, null],
      ])
      expect(sqlite.query('SELECT count(*) FROM runs').values()).toEqual([[9]])
      // Brom's lives were true ones: each keeps its own.
      expect(
        sqlite.query('SELECT life_index FROM completions WHERE character_id = 2 ORDER BY life_index').values(),
      ).toEqual([[1], [2], [3], [4]])
      // And the server shows them: Mordo's tracker has the three quests, in life 3 of 3.
      const t = testApp({}, { db })
      const { token } = ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: PASSWORD }))
      const progress = ok(await t.plugin(token).characters({ id: 1 }).progress.get())
      expect(progress.completions.map((c) => c.name)).toEqual(['Crypt', 'Sewer Run', 'Bell Tower'])
      expect(progress.life).toEqual({ index: 3, current: true, count: 3, questLife: 1, questLives: [1] })
      const brom = ok(await t.plugin(token).characters({ id: 2 }).progress.get())
      expect(brom.completions).toHaveLength(1)
    } finally {
      db.$client.close()
    }
  })
})
