// A migration drizzle-kit generated, as the binary carries it (src/db/migrations/index.ts, written
// by scripts/embedMigrations.ts) and src/db/migrate.ts applies it.
export interface EmbeddedMigration {
  tag: string
  when: number
  breakpoints: boolean
  sql: string
}
