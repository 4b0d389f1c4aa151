// The database's types, apart from the code that opens it (client.ts), so that what only needs
// the type (the configuration, the freshness watch that client.ts itself uses) imports no code.
import type { Database } from 'bun:sqlite'
import type { BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import type * as schema from './schema'

/** SQLite `synchronous` in WAL mode: `full` survives a power loss, `normal` only a crash. */
export type Synchronous = 'full' | 'normal'

export type DB = BunSQLiteDatabase<typeof schema> & { $client: Database }
