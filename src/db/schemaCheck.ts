// The schema a database must have at its schema version: exactly what this binary's embedded
// migrations make, read back from a fresh in-memory database. A backup that holds anything else
// (a trigger, a view, an index, a table, a column changed or taken away) was edited after
// Quest Tracker wrote it, and is not trusted: a trigger planted in a backup
// (`AFTER UPDATE OF password_hash ON users … SET password_hash = '<attacker>'`) passed
// integrity_check, was restored, and gave the attacker every password set afterwards (issue 39).
import { Database } from 'bun:sqlite'
import { quoted } from '../logger'
import { type EmbeddedMigration, migrate } from './migrate'
import { migrations as embedded } from './migrations'

interface SchemaEntry {
  type: string
  name: string
  /** The SQL as normalizedSql reads it; null for the indexes SQLite makes itself (a UNIQUE). */
  sql: string | null
}

/**
 * SQLite's own tables, which a database may or may not have (ANALYZE and `PRAGMA optimize` make
 * the statistics): allowed when their SQL is SQLite's own, compared like any other otherwise.
 */
const SQLITE_OWN: Record<string, string> = {
  sqlite_stat1: 'CREATE TABLE sqlite_stat1(tbl,idx,stat)',
  sqlite_stat4: 'CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)',
}

/**
 * The SQL of a schema entry with what does not change its meaning taken out, so that one
 * database's and another's compare: runs of white space as one space and none beside
 * parentheses, commas and semicolons; a plain identifier's quotes ("x", `x`, [x]) dropped.
 * String literals and comments are kept as they are. drizzle-orm's migrator, before
 * src/db/migrate.ts replaced it, wrote its bookkeeping table with other white space and quotes.
 */
export function normalizedSql(sql: string): string {
  let out = ''
  let space = false
  const push = (token: string) => {
    if (space && out !== '' && !/[(,;]$/.test(out)) out += ' '
    space = false
    out += token
  }
  for (let i = 0; i < sql.length; ) {
    const c = sql[i] as string
    if (/\s/.test(c)) {
      space = true
      i++
      continue
    }
    if (c === "'") {
      let end = i + 1
      while (end < sql.length && !(sql[end] === "'" && sql[end + 1] !== "'")) end += sql[end] === "'" ? 2 : 1
      push(sql.slice(i, end + 1))
      i = end + 1
      continue
    }
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      push(sql.slice(i, end < 0 ? sql.length : end))
      i = end < 0 ? sql.length : end
      continue
    }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      push(sql.slice(i, end < 0 ? sql.length : end + 2))
      i = end < 0 ? sql.length : end + 2
      continue
    }
    if (c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c
      let end = i + 1
      while (end < sql.length && !(sql[end] === close && sql[end + 1] !== close)) end += sql[end] === close ? 2 : 1
      const inner = sql.slice(i + 1, end)
      push(/^[A-Za-z_][A-Za-z0-9_]*$/.test(inner) ? inner : `"${inner.replaceAll(close, '').replaceAll('"', '""')}"`)
      i = end + 1
      continue
    }
    if (c === '(' || c === ')' || c === ',' || c === ';') {
      // No space before these, none after the opening ones (push leaves it out after "(", ",", ";").
      space = false
      out += c
      i++
      continue
    }
    let end = i + 1
    while (end < sql.length && !/[\s'"`[(),;]/.test(sql[end] as string)) end++
    push(sql.slice(i, end))
    i = end
  }
  return out
}

/** Every entry of a database's schema (sqlite_master), its SQL normalized, by "type name". */
function schemaOf(sqlite: Database): Map<string, SchemaEntry> {
  const rows = sqlite
    .query<{ type: string; name: string; sql: string | null }, []>(
      'SELECT type, name, sql FROM sqlite_master ORDER BY type, name',
    )
    .all()
  const entries = new Map<string, SchemaEntry>()
  for (const row of rows) {
    const sql = row.sql === null ? null : normalizedSql(row.sql)
    if (row.type === 'table' && sql !== null && sql === SQLITE_OWN[row.name]) continue
    entries.set(`${row.type} ${row.name}`, { type: row.type, name: row.name, sql })
  }
  return entries
}

const expected = new Map<number, Map<string, SchemaEntry>>()

/** The schema the first `version` embedded migrations make (built once per version, in memory). */
function expectedSchema(version: number, migrations: EmbeddedMigration[]): Map<string, SchemaEntry> {
  const cached = migrations === embedded ? expected.get(version) : undefined
  if (cached) return cached
  const sqlite = new Database(':memory:')
  try {
    migrate({ $client: sqlite }, migrations.slice(0, version))
    const schema = schemaOf(sqlite)
    if (migrations === embedded) expected.set(version, schema)
    return schema
  } finally {
    sqlite.close()
  }
}

/** The tables a database at `version` holds, bookkeeping and SQLite's own left out. */
export function expectedTables(version: number, migrations: EmbeddedMigration[] = embedded): string[] {
  return [...expectedSchema(version, migrations).values()]
    .filter(
      (entry) => entry.type === 'table' && entry.name !== '__drizzle_migrations' && !entry.name.startsWith('sqlite_'),
    )
    .map((entry) => entry.name)
    .sort()
}

const article = (type: string) => (/^[aeiou]/.test(type) ? 'an' : 'a')

/**
 * What a database's schema holds that the first `version` migrations do not make, and what they
 * make that it lacks, in words ('a trigger "x"', 'a changed table "users"', 'no index "y"');
 * empty when the two are the same.
 */
export function schemaDifferences(
  sqlite: Database,
  version: number,
  migrations: EmbeddedMigration[] = embedded,
): string[] {
  const want = expectedSchema(version, migrations)
  const have = schemaOf(sqlite)
  const differences: string[] = []
  for (const [key, entry] of have) {
    const wanted = want.get(key)
    if (!wanted) differences.push(`${article(entry.type)} ${entry.type} ${quoted(entry.name)}`)
    else if (wanted.sql !== entry.sql) differences.push(`a changed ${entry.type} ${quoted(entry.name)}`)
  }
  for (const [key, entry] of want) {
    if (!have.has(key)) differences.push(`no ${entry.type} ${quoted(entry.name)}`)
  }
  return differences
}
