// Opens the SQLite file with the pragmas this service relies on, and runs migrations.
import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { type BunSQLiteDatabase, drizzle } from 'drizzle-orm/bun-sqlite'
import type { Synchronous } from '../config'
import { migrate } from './migrate'
import * as schema from './schema'

export type DB = BunSQLiteDatabase<typeof schema> & { $client: Database }

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

/** SQLITE_BUSY (and its _SNAPSHOT/_RECOVERY/_TIMEOUT variants), also when Drizzle wraps it. */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true
  }
  return false
}

export interface OpenOptions {
  synchronous?: Synchronous
}

/**
 * Opens (creating when needed) the database at `path` — `:memory:` for tests — sets the
 * pragmas and brings the schema up to date. The path comes from configuration, never from
 * the location of this file: inside a compiled binary that location is virtual.
 */
export function openDatabase(path: string, options: OpenOptions = {}): DB {
  const memory = path === ':memory:'
  if (!memory) prepareFile(path)
  const sqlite = new Database(path, { create: true, strict: true })
  // WAL lets readers run beside the one writer; bun:sqlite leaves `synchronous` at SQLite's
  // default, so set it explicitly: FULL survives power loss, NORMAL only a process crash.
  if (!memory) {
    sqlite.run('PRAGMA journal_mode = WAL')
    // SQLite gives new -wal/-shm files the database's mode; these may predate the fix.
    for (const sidecar of [`${path}-wal`, `${path}-shm`]) ownerOnly(sidecar)
  }
  sqlite.run(`PRAGMA synchronous = ${(options.synchronous ?? 'full').toUpperCase()}`)
  sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  sqlite.run('PRAGMA foreign_keys = ON')
  const db = drizzle({ client: sqlite, schema, casing: 'snake_case' }) as DB
  migrate(db)
  return db
}

/**
 * The database holds password and token hashes: its folder (when we make it) is 0700 and the
 * file 0600, created before SQLite opens it (SQLite would make it 0644). An existing file loses
 * any group or other access it has.
 */
function prepareFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  if (!existsSync(path)) {
    try {
      closeSync(openSync(path, 'wx', 0o600))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  ownerOnly(path)
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
