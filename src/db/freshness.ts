// Whether rows read earlier still hold: what lets the server keep a credential's look-up and a
// character's owner between requests (an unchanged read then reads neither) and still see every
// change at the very next request. Two counters say it:
// - outside: SQLite's `PRAGMA data_version`, moved by every commit of another connection (the
//   CLI, another process), never by this one's. Read at most once per turn of the event loop,
//   and afresh inside a transaction. Every request a turn takes up arrived before the turn began
//   (a request comes through the loop's poll), so an answer as of the turn's first read is one
//   the request could have had the moment it arrived; a commit that ended before a request was
//   sent is seen by it, since its turn begins after it arrived. The read is forgotten with
//   setImmediate, which Bun runs before it polls again. Under load a turn takes up many requests,
//   and they share the read (a read transaction: two fcntl and an fstat, a fifth of a 304);
// - own writes: this connection's changes to the rows an identity is made of (accounts, tokens,
//   sessions, characters' owners), counted by temporary triggers made at open: whichever code
//   writes them, a revocation, a sign-out, a new password, a removed account (its rows go by
//   cascade), a deleted character, a token's last use, is counted. The triggers call a function
//   of this process that adds one to a number in memory, so reading the count is reading a
//   property, not running a statement (two statements a request were a tenth of a 304). A write
//   that is rolled back keeps its count: the look-ups are forgotten once more than needed.
// Rows kept while both counters stand still are the rows SQLite would answer; the clock is not
// part of it: an expiry is checked against the kept row on every request.
import type { Database } from 'bun:sqlite'
import { preparedOnce } from './prepared'
import type { DB } from './types'

/** Look-ups kept by each KeptRows (a credential's, a character's owner), all forgotten when full. */
export const MAX_KEPT_ROWS = 10_000

/** The changes that can alter who a credential is, or whose a character is; inserts cannot. */
const WATCHED: [table: string, change: string][] = [
  ['users', 'update'],
  ['users', 'delete'],
  ['api_tokens', 'update'],
  ['api_tokens', 'delete'],
  ['sessions', 'update'],
  ['sessions', 'delete'],
  ['characters', 'update of user_id'],
  ['characters', 'delete'],
]

/** The count of a connection's own writes, kept on its Database object. */
const OWN_WRITES = Symbol('own writes')
type Counted = Database & { [OWN_WRITES]?: { n: number } }

/** The SQL function the triggers call: it adds one to the connection's count and returns NULL. */
const OWN_WRITE_FUNCTION = 'quest_tracker_own_write'

/**
 * After the migrations, outside a transaction (the triggers would roll back with it): the
 * counter of this connection's own writes, and the triggers that move it. The connection is
 * marked as counting only once its triggers exist, so a connection without them is never
 * trusted to count (WriteWatch refuses it).
 */
export function countOwnWrites(sqlite: Database): void {
  if (sqlite.inTransaction) throw new Error('countOwnWrites inside a transaction: its triggers would roll back with it')
  const counted = sqlite as Counted
  const count = counted[OWN_WRITES] ?? { n: 0 }
  sqlite.function(OWN_WRITE_FUNCTION, () => {
    count.n++
    return null
  })
  for (const [table, change] of WATCHED) {
    const name = `own_writes_${table}_${change.split(' ')[0]}`
    sqlite.run(
      `CREATE TEMP TRIGGER IF NOT EXISTS ${name} AFTER ${change.toUpperCase()} ON main.${table} ` +
        `BEGIN SELECT ${OWN_WRITE_FUNCTION}(); END`,
    )
  }
  counted[OWN_WRITES] = count
}

/** The two counters of one connection. */
export class WriteWatch {
  private readonly dataVersion
  private readonly own: { n: number }
  private outsideNow: number | undefined
  private readonly forget = () => {
    this.outsideNow = undefined
  }

  constructor(private readonly sqlite: Database) {
    // openDatabase made them; a connection opened otherwise (a copy of a database) gets them at
    // its first use, outside a transaction (inside one, their making would roll back with it).
    if (!sqlite.inTransaction) countOwnWrites(sqlite)
    this.dataVersion = sqlite.prepare<[number], []>('PRAGMA data_version')
    const own = (sqlite as Counted)[OWN_WRITES]
    if (own === undefined) throw new Error('the connection does not count its own writes (countOwnWrites)')
    this.own = own
  }

  /** Inside a transaction nothing is kept or answered from what was: the statements run. */
  get inTransaction(): boolean {
    return this.sqlite.inTransaction
  }

  /** How many times another connection has committed (see above: read once per turn). */
  outside(): number {
    return this.sqlite.inTransaction ? this.readOutside() : this.outsideThisTurn()
  }

  /** outside(), for a caller that has just seen that no transaction is open (one native call less). */
  outsideThisTurn(): number {
    if (this.outsideNow === undefined) {
      this.outsideNow = this.readOutside()
      setImmediate(this.forget)
    }
    return this.outsideNow
  }

  /** How many rows this connection's own writes changed among the WATCHED ones. */
  ownWrites(): number {
    return this.own.n
  }

  private readOutside(): number {
    return Number(this.dataVersion.values()[0]?.[0] ?? 0)
  }
}

/** The watch of a database (one per connection, shared by every cache and the ETags). */
export const writeWatch = preparedOnce((db: DB) => new WriteWatch(db.$client))

/**
 * How many times another connection has committed to the database: part of every ETag, so a
 * write the change feed never saw (the CLI) still changes them.
 */
export const outsideWrites =
  (db: DB): (() => number) =>
  () =>
    writeWatch(db).outside()

/**
 * Rows of `load` kept by key while neither counter moves (then all forgotten at once), at most
 * MAX_KEPT_ROWS of them. Only rows found are kept: a key that finds nothing (a wrong or guessed
 * token) is looked up every time, so it can neither fill the cache nor be answered from it.
 */
export class KeptRows<K, V> {
  private readonly rows = new Map<K, V>()
  private outside = -1
  private own = -1

  constructor(private readonly watch: WriteWatch) {}

  get(key: K, load: () => V | undefined): V | undefined {
    if (this.watch.inTransaction) return load()
    const outside = this.watch.outsideThisTurn()
    const own = this.watch.ownWrites()
    if (outside !== this.outside || own !== this.own) {
      this.rows.clear()
      this.outside = outside
      this.own = own
    }
    const kept = this.rows.get(key)
    if (kept !== undefined) return kept
    const row = load()
    if (row === undefined) return undefined
    if (this.rows.size >= MAX_KEPT_ROWS) this.rows.clear()
    this.rows.set(key, row)
    return row
  }
}

/** One KeptRows per database for a kind of look-up: `const kept = keptRows<string, Row>()`, then `kept(db).get(…)`. */
export const keptRows = <K, V>() => preparedOnce((db: DB) => new KeptRows<K, V>(writeWatch(db)))
