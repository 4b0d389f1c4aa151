// Reads that return many rows (a character's completions, a route's steps), and the one every
// request makes (its token or session): the select is built
// with Drizzle, so it stays typed and its SQL portable, but it runs as bun:sqlite's own
// statement, which builds each row object in native code, keyed by the select's keys (every
// column is aliased to its key), instead of Drizzle mapping every cell in JavaScript: about 40%
// less time for a character's 200 completions (bench/README.md). On another database this file
// is the one to change: return Drizzle's own `.prepare()`.
import { Column, fillPlaceholders, type GetColumnData, type SQL, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { DB } from './client'

type Aliased<F extends Record<string, SQLiteColumn>> = { [K in keyof F]: SQL.Aliased<GetColumnData<F[K]>> }

/**
 * `{ key: column }` as `{ key: column AS "key" }`, for `db.select()`. Only columns whose stored
 * value is their value (text, integer, real): bun:sqlite would not decode a json or boolean one.
 */
export function aliased<F extends Record<string, SQLiteColumn>>(fields: F): Aliased<F> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, column]) => {
      if (column.mapFromDriverValue !== Column.prototype.mapFromDriverValue) {
        throw new Error(`column ${column.name} needs decoding; read it through Drizzle`)
      }
      return [key, sql<GetColumnData<typeof column>>`${column}`.as(key)]
    }),
  ) as Aliased<F>
}

interface Query<Row> {
  toSQL(): { sql: string; params: unknown[] }
  all(): Row[]
}

export interface NativeStatement<Row> {
  /** Every row, with the values of the query's `sql.placeholder`s. */
  all(values?: Record<string, unknown>): Row[]
  /** The first row, or undefined. */
  get(values?: Record<string, unknown>): Row | undefined
}

/** Prepares a select of `aliased(...)` fields (see above) as a bun:sqlite statement of `db`. */
export function prepareNative<Row>(db: DB, query: Query<Row>): NativeStatement<Row> {
  const { sql: text, params } = query.toSQL()
  const statement = db.$client.prepare<Row, never[]>(text)
  return {
    all: (values = {}) => statement.all(...(fillPlaceholders(params, values) as never[])),
    get: (values = {}) => statement.get(...(fillPlaceholders(params, values) as never[])) ?? undefined,
  }
}
