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
  sqlite.run('PRAGMA busy_timeout = 5000')
  sqlite.run('PRAGMA foreign_keys = ON')
  const db = drizzle({ client: sqlite, schema, casing: 'snake_case' }) as DB
  migrate(db)
  return db
}
