// Opens the SQLite file with the pragmas this service relies on, after checking that it can be
// used (folder, permissions, damage), and runs migrations.
import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { countOwnWrites } from './freshness'
import { type EmbeddedMigration, MigrationError, migrate, refuseNewer } from './migrate'
import * as schema from './schema'
import type { DB, Synchronous } from './types'

export type { DB, Synchronous } from './types'

/**
 * For read-then-write transactions: take the write lock at BEGIN, so a transaction that read
 * first never fails to upgrade its lock when another connection writes (busy_timeout covers
 * waiting for BEGIN IMMEDIATE, not a failed upgrade).
 */
export const IMMEDIATE = { behavior: 'immediate' } as const

/**
 * How long a statement waits for another connection's write lock before failing SQLITE_BUSY.
 * bun:sqlite is synchronous, so the whole server stands still while one statement waits: keep it
 * short. Our own longest write (a full catalog swap, ~700 rows) holds the lock for about 40 ms,
 * so 500 ms rides out every writer of ours, admin commands included; a lock held longer belongs
 * to something else, and the request answers 503 with Retry-After instead of freezing everyone.
 */
export const BUSY_TIMEOUT_MS = 500

/**
 * WAL pages after which a commit copies them into the database (SQLite's automatic checkpoint,
 * run by the commit that passes it). SQLite's default, 1,000 pages, took about 10 ms at community
 * size (five million completions, their pages spread over 1.6 GB), and every request waited
 * behind that one commit; 100 pages take about 1 ms, ten times as often: the same work, a steady
 * tail (bench/README.md "The community").
 */
export const WAL_AUTOCHECKPOINT_PAGES = 100

/** The SQLite error behind `error` (Drizzle wraps them in its own, with the original as cause). */
function sqliteError(error: unknown): (Error & { code: string }) | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return e as Error & { code: string }
  }
  return null
}

/** SQLITE_BUSY and its _SNAPSHOT/_RECOVERY/_TIMEOUT variants. */
export function isDatabaseBusy(error: unknown): boolean {
  return sqliteError(error)?.code.startsWith('SQLITE_BUSY') ?? false
}

/**
 * SQLITE_FULL: the disk (or the file's page limit) has no room for what a write needs. The
 * statement, and the transaction it was in, is rolled back: nothing of it is stored.
 */
export function isOutOfSpace(error: unknown): boolean {
  return sqliteError(error)?.code === 'SQLITE_FULL'
}

export interface OpenOptions {
  synchronous?: Synchronous
  /**
   * Make the file (and its folder) when missing; the default. The admin commands other than
   * `user add` say false: run in the wrong folder, they made a new empty database and reported
   * on it ("no accounts yet") instead of saying the file was not there.
   */
  create?: boolean
  /**
   * Check at open that writes work (the server): a read-only file otherwise opens "fine", and
   * every later write, each login included, fails with a 500.
   */
  requireWritable?: boolean
  /** Tests only: the migrations to bring it to (a failing or a future one); this binary's by default. */
  migrations?: EmbeddedMigration[]
  /**
   * Read every page once (PRAGMA quick_check) before using the file; the default. The server
   * skips it for a file exactly as its last clean stop left it (takeCleanStopMark).
   */
  quickCheck?: boolean
}

/** The database file cannot be used (folder, permissions, damage, lock): one line, exit 2. */
export class DatabaseFileError extends Error {}

/**
 * Opens (creating when needed) the database at `path` — `:memory:` for tests — checks it, sets
 * the pragmas and brings the schema up to date. The path comes from configuration, never from
 * the location of this file: inside a compiled binary that location is virtual. A file that
 * cannot be used is a DatabaseFileError saying why.
 */
export function openDatabase(path: string, options: OpenOptions = {}): DB {
  if (path === ':memory:') return setUp(trustNoSchema(new Database(path, { strict: true })), options)
  const file = resolve(path)
  let sqlite: Database | undefined
  try {
    prepareFile(file, options.create ?? true)
    sqlite = new Database(file, { create: true, strict: true })
    // First, so that the checks below wait for another writer like every later statement.
    sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    trustNoSchema(sqlite)
    // Before anything that could write (the switch to WAL): a newer binary's database stays as it was.
    refuseNewer(sqlite, options.migrations)
    // WAL lets readers run beside the one writer.
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`)
    // SQLite gives new -wal/-shm files the database's mode; these may predate the fix.
    for (const sidecar of [`${file}-wal`, `${file}-shm`]) ownerOnly(sidecar)
    // A damaged file otherwise opens, says healthy, and takes writes. quick_check reads every
    // page once but skips the slow index checks: milliseconds for a household's database, 2 s
    // warm (10 s cold) for a community's 1.6 GB, hence the clean-stop mark below.
    if (options.quickCheck ?? true) {
      const check = sqlite.query('PRAGMA quick_check(1)').values()[0]?.[0]
      if (check !== 'ok') throw new DatabaseFileError(`the database ${file} is damaged (${check}); restore a backup`)
    }
    if (options.requireWritable) probeWrite(sqlite)
    return setUp(sqlite, options)
  } catch (error) {
    sqlite?.close()
    if (error instanceof DatabaseFileError) throw error
    if (error instanceof MigrationError) throw new DatabaseFileError(`the database ${file} ${error.message}`)
    const problem = databaseProblem(error, file)
    throw problem ? new DatabaseFileError(problem) : error
  }
}

/**
 * An in-memory database that starts as a copy of `image` (what `Database#serialize` gave), set up
 * as openDatabase sets one up: the tests' fresh database, migrated once and copied in a
 * millisecond instead of migrated for each test.
 */
export function openMemoryCopy(image: Uint8Array, options: OpenOptions = {}): DB {
  return setUp(trustNoSchema(Database.deserialize(image, { strict: true })), options)
}

/**
 * trusted_schema off: what the file itself defines (triggers, views, defaults, index expressions)
 * may call no function that is not marked harmless, whoever wrote the file. A restored or copied
 * database is then no way to run this process's own functions (the own-writes counter of
 * freshness.ts is one, called by temporary triggers, which this leaves alone).
 */
function trustNoSchema(sqlite: Database): Database {
  sqlite.run('PRAGMA trusted_schema = OFF')
  return sqlite
}

function setUp(sqlite: Database, options: OpenOptions): DB {
  // bun:sqlite leaves `synchronous` at SQLite's default, so set it explicitly: FULL survives
  // power loss, NORMAL only a process crash.
  sqlite.run(`PRAGMA synchronous = ${(options.synchronous ?? 'full').toUpperCase()}`)
  sqlite.run('PRAGMA foreign_keys = ON')
  const db = drizzle({ client: sqlite, schema, casing: 'snake_case' }) as DB
  migrate(db, options.migrations)
  // After the migrations, which may rebuild a table (and would take its triggers with it).
  countOwnWrites(sqlite)
  return db
}

/** A write that is rolled back: SQLite opens a read-only file read-only without a word. */
function probeWrite(sqlite: Database): void {
  const version = Number(sqlite.query('PRAGMA user_version').values()[0]?.[0] ?? 0)
  sqlite.run('BEGIN IMMEDIATE')
  try {
    sqlite.run(`PRAGMA user_version = ${version}`)
  } finally {
    sqlite.run('ROLLBACK')
  }
}

/** What is wrong with the database file, as the rest of a sentence; null when it is not a file problem. */
export function databaseProblem(error: unknown, file: string): string | null {
  const e = sqliteError(error)
  const code = e?.code ?? ''
  if (code.startsWith('SQLITE_BUSY'))
    return `the database ${file} is busy: another program holds its write lock; close it or try again`
  if (code.startsWith('SQLITE_READONLY'))
    return `the database ${file} is read-only for this user; let the user the server runs as write to it and its folder`
  if (code === 'SQLITE_NOTADB') return `${file} is not a SQLite database; check DATABASE_PATH`
  if (code.startsWith('SQLITE_CORRUPT')) return `the database ${file} is damaged (${e?.message}); restore a backup`
  if (code.startsWith('SQLITE_CANTOPEN'))
    return `cannot open the database ${file}; check the permissions of the file and its folder`
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL' || code === 'SQLITE_PERM')
    return `cannot use the database ${file}: ${e?.message}`
  return null
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of that path is a file',
  EEXIST: 'a part of that path is a file',
  ENOSPC: 'no space left on the device',
}

/** "permission denied" and the like, for a failed file system call. */
export function describeFileError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  return (code && REASONS[code]) ?? message
}

/**
 * The database holds password and token hashes: its folder (when we make it) is 0700 and the
 * file 0600, created before SQLite opens it (SQLite would make it 0644). An existing file loses
 * any group or other access it has.
 */
function prepareFile(file: string, create: boolean): void {
  // ENOTDIR (a file where a folder should be) is a missing file too; making the folder says why.
  const stats = (() => {
    try {
      return statSync(file, { throwIfNoEntry: false })
    } catch {
      return undefined
    }
  })()
  if (stats?.isDirectory()) throw new DatabaseFileError(`${file} is a folder; DATABASE_PATH names the database file`)
  if (!stats) {
    if (!create) {
      throw new DatabaseFileError(
        `no database at ${file}; check DATABASE_PATH (or --database), or create it by starting the server or adding an account`,
      )
    }
    const folder = dirname(file)
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 })
    } catch (error) {
      throw new DatabaseFileError(`cannot make the database folder ${folder} (${describeFileError(error)})`)
    }
    try {
      closeSync(openSync(file, 'wx', 0o600))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new DatabaseFileError(`cannot create the database ${file} (${describeFileError(error)})`)
    }
  }
  ownerOnly(file)
}

function ownerOnly(file: string): void {
  const stats = statSync(file, { throwIfNoEntry: false })
  if (!stats || (stats.mode & 0o077) === 0) return
  try {
    chmodSync(file, stats.mode & 0o700)
  } catch {
    // Not ours to change (another owner): the folder's permissions are then what protect it.
  }
}

/**
 * Beside the database, while the server is stopped: what the file was (device, inode, size,
 * modification and change times) when the server last stopped cleanly, the WAL emptied into it.
 */
export const cleanStopMark = (file: string): string => `${resolve(file)}-stopped`

function fileIdentity(file: string): string | null {
  const stats = statSync(file, { bigint: true, throwIfNoEntry: false })
  return stats ? `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` : null
}

/** After a clean stop (the database closed): the mark of the file as it is now. */
export function leaveCleanStopMark(file: string): void {
  const identity = fileIdentity(resolve(file))
  if (identity === null) return
  try {
    writeFileSync(cleanStopMark(file), `${identity}\n`, { mode: 0o600 })
  } catch {
    // Not written (a read-only folder): the next start reads every page, as without it.
  }
}

/**
 * At start, before the database is opened: whether the file is exactly as the server's last clean
 * stop left it (the mark matches, and no WAL holds writes since), so reading every page again
 * would find what the last check found. Anything else (a crash, a copy, a restore, a command
 * that wrote, any byte changed) fails the match. The mark is removed either way: only a clean
 * stop leaves one, so the start after a crash always checks.
 */
export function takeCleanStopMark(file: string): boolean {
  const mark = cleanStopMark(file)
  let recorded: string
  try {
    recorded = readFileSync(mark, 'utf8').trim()
  } catch {
    return false
  }
  rmSync(mark, { force: true })
  const wal = statSync(`${resolve(file)}-wal`, { throwIfNoEntry: false })
  return (wal === undefined || wal.size === 0) && recorded === fileIdentity(resolve(file))
}
