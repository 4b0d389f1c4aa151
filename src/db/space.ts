// Whether the database has room to write. A write refused for lack of space (SQLITE_FULL: the
// disk is full, or the file reached its page limit) starts an episode, logged once; it ends,
// logged once, when a write of our own finds room again (the probe below). Nothing stops writing meanwhile:
// every write is tried, so writes resume by themselves when space returns, and reads never
// needed any. /api/health says the server is degraded while an episode lasts.
import type { Database } from 'bun:sqlite'
import { type Clock, isoNow } from '../clock'
import type { Logger } from '../logger'
import { type DB, isOutOfSpace } from './client'

/** Retry-After of the 503 a write gets while the disk is full: space comes back when someone frees it. */
export const DISK_FULL_RETRY_SECONDS = 60

/**
 * What the health check's own write needs to go through before it says writes work again:
 * room for a typical write, not one page (which would end an episode the next write starts again).
 */
export const SPACE_PROBE_BYTES = 64 * 1024

export class DiskSpace {
  /** When the episode began (null: none); how many writes it refused. */
  private since: string | null = null
  private refusedWrites = 0

  constructor(
    private readonly sqlite: Database,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  /** True from a write refused for lack of space until the probe finds room. */
  get full(): boolean {
    return this.since !== null
  }

  /** A write was refused (SQLITE_FULL, already rolled back); `where` names it for the log. */
  refused(where: string): void {
    this.refusedWrites++
    if (this.since !== null) return
    this.since = isoNow(this.clock)
    this.logger.error(
      `writes fail: the disk is full (or the database reached its size limit); nothing is saved until space is freed, reads go on (first refused: ${where})`,
      { event: 'disk-full', where },
    )
  }

  /**
   * While an episode lasts, a write of our own that needs room: a table with SPACE_PROBE_BYTES in
   * it, dropped in the same transaction (the file grows, nothing of it stays). It ends the episode
   * when it goes through; false while there is still no room. Run by each health check (so an
   * idle server notices the space that came back) and after each write request that succeeded:
   * a small write fitting in a page already there does not prove the room a real one needs, and
   * ending the episode on it would start a new one, and log it, at the next large write.
   */
  probe(): boolean {
    if (this.since === null) return true
    try {
      this.sqlite.transaction(() => {
        this.sqlite.run('CREATE TABLE qt_space_probe (b BLOB)')
        this.sqlite.query('INSERT INTO qt_space_probe VALUES (zeroblob(?))').run(SPACE_PROBE_BYTES)
        this.sqlite.run('DROP TABLE qt_space_probe')
      })()
    } catch (error) {
      if (!isOutOfSpace(error)) this.logger.debug(`disk space probe: ${error instanceof Error ? error.message : error}`)
      return false
    }
    this.logger.info(
      `writes work again: the disk was full since ${this.since}, ${this.refusedWrites} write(s) refused`,
      { event: 'disk-space-back', since: this.since, refused: this.refusedWrites },
    )
    this.since = null
    this.refusedWrites = 0
    return true
  }
}

/** One watch per database connection, so that services holding only the db can report to it. */
const watches = new WeakMap<Database, DiskSpace>()

/** The database's watch, made on first use (createApp makes it, with the server's logger). */
export function watchSpace(db: DB, logger: Logger, clock: Clock): DiskSpace {
  let watch = watches.get(db.$client)
  if (!watch) {
    watch = new DiskSpace(db.$client, logger, clock)
    watches.set(db.$client, watch)
  }
  return watch
}

/**
 * A write a read may do on the side (the last use of a token, a session's new expiry): skipped
 * when there is no room, so that reads keep working on a full disk. True when it was written.
 */
export function unlessFull(db: DB, where: string, write: () => void): boolean {
  try {
    write()
    return true
  } catch (error) {
    if (!isOutOfSpace(error)) throw error
    watches.get(db.$client)?.refused(where)
    return false
  }
}
