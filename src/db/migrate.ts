// Runs the embedded drizzle-kit migrations through Drizzle's own migration logic (same
// bookkeeping table and hashes as drizzle-orm's migrator, minus its read of a folder on disk).
import { createHash } from 'node:crypto'
import type { BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import type { MigrationMeta } from 'drizzle-orm/migrator'
import { migrations as embedded } from './migrations'

export interface EmbeddedMigration {
  tag: string
  when: number
  breakpoints: boolean
  sql: string
}

export function toMigrationMeta(migration: EmbeddedMigration): MigrationMeta {
  return {
    sql: migration.sql.split('--> statement-breakpoint'),
    bps: migration.breakpoints,
    folderMillis: migration.when,
    hash: createHash('sha256').update(migration.sql).digest('hex'),
  }
}

export function migrate<Schema extends Record<string, unknown>>(
  db: BunSQLiteDatabase<Schema>,
  migrations: EmbeddedMigration[] = embedded,
): void {
  // dialect and session are public on the Drizzle instance but not in its types.
  const { dialect, session } = db as unknown as {
    dialect: { migrate(m: MigrationMeta[], s: unknown, c: object): void }
    session: unknown
  }
  dialect.migrate(migrations.map(toMigrationMeta), session, { migrationsFolder: '' })
}
