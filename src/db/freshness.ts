// Whether rows read earlier still hold: what lets the server keep a credential's look-up and a
// character's owner between requests (an unchanged read then reads neither) and still see every
// change at the very next request. Two counters say it:
// - outside: SQLite's `PRAGMA data_version`, moved by every commit of another connection (the
//   CLI, another process), never by this one's. Read at most once per synchronous run of the
//   server (a request's guard, its handler and its ETag share one read: the request is answered
//   as of that moment), and afresh inside a transaction;
// - own writes: this connection's changes to the rows an identity is made of (accounts, tokens,
//   sessions, characters' owners), counted by temporary triggers made at open: whichever code
//   writes them, a revocation, a sign-out, a new password, a removed account (its rows go by
//   cascade), a deleted character, a token's last use, is counted; a rolled-back write takes its
//   count back with it.
// Rows kept while both counters stand still are the rows SQLite would answer; the clock is not
// part of it: an expiry is checked against the kept row on every request.
//
// `PRAGMA data_version` is a read transaction: two fcntl locks and an fstat, 2-6 µs, a fifth of
// an unchanged read (a 304). A file database in WAL mode is read through its WAL index (the
// `-shm` file, which every connection maps): its header (SQLite's documented WAL format, the
// first 48 bytes) changes with every commit of any connection. The watch maps that header too
// and reads the pragma again only when the header has changed since it last did; anything else
// (a database in memory, another journal mode, a file it cannot map) reads the pragma each time.

import type { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import type { DB } from './client'
import { preparedOnce } from './prepared'

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

/** After the migrations: the counter of this connection's own writes, and the triggers that move it. */
export function countOwnWrites(sqlite: Database): void {
  sqlite.run('CREATE TEMP TABLE IF NOT EXISTS own_writes (n INTEGER NOT NULL)')
  sqlite.run('INSERT INTO temp.own_writes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM temp.own_writes)')
  for (const [table, change] of WATCHED) {
    const name = `own_writes_${table}_${change.split(' ')[0]}`
    sqlite.run(
      `CREATE TEMP TRIGGER IF NOT EXISTS ${name} AFTER ${change.toUpperCase()} ON main.${table} ` +
        'BEGIN UPDATE temp.own_writes SET n = n + 1; END',
    )
  }
}

/** The WAL index header's first copy: 12 words at the start of the `-shm` file (SQLite's WAL format). */
const WAL_INDEX_HEADER_WORDS = 12

/**
 * The live WAL index header of a file database in WAL mode, or null. Mapped, not read: the
 * mapping costs no system call per look. The `-shm` file is never truncated while a connection
 * has it open (SQLite truncates it only for the first connection to open the database), and
 * this one has it open for as long as the watch is used.
 */
function walIndexHeader(sqlite: Database): Uint32Array | null {
  try {
    const file = sqlite.filename
    if (!file || file === ':memory:') return null
    const mode = sqlite.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()?.journal_mode
    const shm = `${file}-shm`
    if (mode !== 'wal' || !existsSync(shm)) return null
    const mapped = Bun.mmap(shm, { shared: true, size: WAL_INDEX_HEADER_WORDS * 4 })
    if (mapped.byteLength < WAL_INDEX_HEADER_WORDS * 4) return null
    return new Uint32Array(mapped.buffer, mapped.byteOffset, WAL_INDEX_HEADER_WORDS)
  } catch {
    return null
  }
}

/**
 * SQLite's `PRAGMA data_version` of a connection: `read()` asks SQLite; `latest()` gives its last
 * answer again while the WAL index header stands still (no commit since), else asks.
 */
export class DataVersion {
  /** How many times SQLite was asked: for the tests, which prove that an unchanged file is not. */
  reads = 0
  private readonly pragma
  /** The WAL index header (null: SQLite is asked every time), as it was at the last read, and that read's answer. */
  private readonly header: Uint32Array | null
  private readonly headerSeen = new Uint32Array(WAL_INDEX_HEADER_WORDS)
  private seen = Number.NaN

  constructor(sqlite: Database) {
    this.pragma = sqlite.prepare<[number], []>('PRAGMA data_version')
    this.header = walIndexHeader(sqlite)
  }

  read(): number {
    this.reads++
    return Number(this.pragma.values()[0]?.[0] ?? 0)
  }

  latest(): number {
    const { header, headerSeen } = this
    if (!header) return this.read()
    let same = !Number.isNaN(this.seen)
    for (let i = 0; same && i < WAL_INDEX_HEADER_WORDS; i++) same = header[i] === headerSeen[i]
    if (same) return this.seen
    // The header before the pragma: a commit between the two moves the header again, and the
    // next look asks again.
    headerSeen.set(header)
    this.seen = this.read()
    return this.seen
  }
}

/** The two counters of one connection. */
export class WriteWatch {
  readonly dataVersion: DataVersion
  private readonly own
  private outsideNow: number | undefined
  private readonly forget = () => {
    this.outsideNow = undefined
  }

  constructor(private readonly sqlite: Database) {
    // openDatabase made them; a connection opened otherwise (a copy of a database) gets them at
    // its first use, outside a transaction (inside one, their making would roll back with it).
    if (!sqlite.inTransaction) countOwnWrites(sqlite)
    this.dataVersion = new DataVersion(sqlite)
    // A temporary table only: no read of the database file, so it costs a fraction of a look-up.
    this.own = sqlite.prepare<[number], []>('SELECT n FROM temp.own_writes')
  }

  /** Inside a transaction nothing is kept or answered from what was: the statements run. */
  get inTransaction(): boolean {
    return this.sqlite.inTransaction
  }

  /** How many times another connection has committed (see above: once per synchronous run). */
  outside(): number {
    if (this.sqlite.inTransaction) return this.dataVersion.read()
    if (this.outsideNow === undefined) {
      this.outsideNow = this.dataVersion.latest()
      queueMicrotask(this.forget)
    }
    return this.outsideNow
  }

  /** How many rows this connection's own writes changed among the WATCHED ones. */
  ownWrites(): number {
    return Number(this.own.values()[0]?.[0] ?? 0)
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
    const outside = this.watch.outside()
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
