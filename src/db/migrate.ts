// Runs the embedded drizzle-kit migrations with drizzle-orm's bookkeeping (the same
// __drizzle_migrations table, hashes and created_at as its migrator, which this replaced): all
// pending migrations and the bookkeeping table itself in one transaction, so that one that fails
// leaves the file as it was; and a database that a newer binary migrated is refused before
// anything is written. drizzle-orm's own routine created the table outside its transaction and
// silently ignored migrations it did not know.
import type { Database } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import { VERSION } from '../version'
import type { EmbeddedMigration } from './embeddedMigration'
import { migrations as embedded } from './migrations'

/**
 * The schema version of this binary: the number of migrations it carries (0000 to 0004: 5). A
 * database's schema version is the number it has applied; after the start they are the same.
 */
export const SCHEMA_VERSION = embedded.length

const TABLE = '__drizzle_migrations'

/** The database was migrated by a newer binary, or a migration failed: the sentence says which. */
export type { EmbeddedMigration }

export class MigrationError extends Error {}

/** The `created_at` (drizzle-kit's `when`) of every migration the database has applied. */
export function appliedMigrations(sqlite: Database): number[] {
  const table = sqlite.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${TABLE}'`).get()
  if (!table) return []
  return sqlite
    .query<{ at: number }, []>(`SELECT created_at AS at FROM ${TABLE} ORDER BY created_at`)
    .all()
    .map((row) => Number(row.at))
}

/** The schema version of a database: how many migrations it has applied (0 for a new file). */
export const schemaVersionOf = (sqlite: Database): number => appliedMigrations(sqlite).length

/**
 * The schema version of a database the server migrated at its start, in one cached statement
 * (health reads it on every check); throws when the bookkeeping table cannot be read.
 */
export const migratedVersionOf = (sqlite: Database): number =>
  sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${TABLE}`).get()?.n ?? 0

/** Whether a database that applied `applied` holds a migration `migrations` does not know. */
export function isNewer(applied: number[], migrations: EmbeddedMigration[] = embedded): boolean {
  const known = new Set(migrations.map((migration) => migration.when))
  return applied.some((when) => !known.has(when))
}

/**
 * Refuses a database that has applied a migration `migrations` does not hold: a newer Quest
 * Tracker migrated it, and this one would run on a schema it does not know. Reads only.
 */
export function refuseNewer(sqlite: Database, migrations: EmbeddedMigration[] = embedded): void {
  const applied = appliedMigrations(sqlite)
  if (!isNewer(applied, migrations)) return
  throw new MigrationError(
    `was upgraded by a newer Quest Tracker (schema ${applied.length}; this is ${VERSION}, schema ${migrations.length}): run that version, or restore a backup made by this one; the file was not changed`,
  )
}

/**
 * Applies the migrations the database has not applied, in one immediate transaction (another
 * process starting at the same moment waits, then finds them applied). A database with nothing
 * to apply is not locked at all.
 */
export function migrate(db: { $client: Database }, migrations: EmbeddedMigration[] = embedded): void {
  const sqlite = db.$client
  refuseNewer(sqlite, migrations)
  const pendingAfter = (applied: number[]) => migrations.filter((migration) => migration.when > Math.max(0, ...applied))
  if (pendingAfter(appliedMigrations(sqlite)).length === 0) return
  sqlite.run('BEGIN IMMEDIATE')
  const from = appliedMigrations(sqlite).length
  let current: EmbeddedMigration | undefined
  try {
    sqlite.run(`CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`)
    for (const migration of pendingAfter(appliedMigrations(sqlite))) {
      current = migration
      for (const statement of migration.sql.split('--> statement-breakpoint')) {
        if (statement.trim()) sqlite.run(statement)
      }
      sqlite
        .query(`INSERT INTO ${TABLE} (hash, created_at) VALUES (?, ?)`)
        .run(createHash('sha256').update(migration.sql).digest('hex'), migration.when)
    }
    sqlite.run('COMMIT')
  } catch (error) {
    if (sqlite.inTransaction) sqlite.run('ROLLBACK')
    const reason = error instanceof Error ? error.message : String(error)
    const which = current ? `migration ${current.tag} failed` : 'the migrations failed'
    throw new MigrationError(
      `could not be upgraded from schema ${from} to ${migrations.length}: ${which} (${reason}); it was left as it was`,
    )
  }
}
