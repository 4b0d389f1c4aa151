// Opens the SQLite file with the pragmas this service relies on, and runs migrations.
import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
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
  if (!memory) mkdirSync(dirname(path), { recursive: true })
  const sqlite = new Database(path, { create: true, strict: true })
  // WAL lets readers run beside the one writer; bun:sqlite leaves `synchronous` at SQLite's
  // default, so set it explicitly: FULL survives power loss, NORMAL only a process crash.
  if (!memory) sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run(`PRAGMA synchronous = ${(options.synchronous ?? 'full').toUpperCase()}`)
  sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  sqlite.run('PRAGMA foreign_keys = ON')
  const db = drizzle({ client: sqlite, schema, casing: 'snake_case' }) as DB
  migrate(db)
  return db
}
