// Housekeeping: what piles up when nobody looks. Ended sessions and plugin tokens of accounts
// that never log in again (a login cleans only its own account's), invite codes used or expired a
// day ago, what deletes of completions removed once their undo window ended (a delete cleans only
// its own character's), and the database's statistics and free pages. A share link is a column of its character
// (a stopped or replaced link leaves no row behind), so there is nothing of it to prune.
import type { Clock } from '../clock'
import type { Config } from '../config'
import type { DB } from '../db/client'
import { DAY_MS, pruneTokens } from '../modules/auth/service'
import { pruneKeptDeletions } from '../modules/completions/service'
import { purgeOldInvites } from '../modules/invites/service'
import { pruneSessions } from '../modules/session/service'
import { count } from '../rules/words'
import { fileSize } from './backup'

/**
 * VACUUM rewrites the whole file and holds the write lock meanwhile (writes wait, then answer
 * 503): worth it only when a good part of the file is free pages, and enough of them to matter.
 * A quarter, and at least 1 MiB: a home server's database after a purge of old accounts, not
 * the few free pages every database has.
 */
export const VACUUM_MIN_FREE_FRACTION = 0.25
export const VACUUM_MIN_FREE_BYTES = 1024 * 1024

export interface Pruned {
  sessions: number
  tokens: number
  invites: number
  /** Deletes of completions kept for their undo, once it ended. */
  deletions: number
}

/**
 * Deletes the ended sessions and tokens of every account, old invite codes, and what deletes of
 * completions removed once their undo ended, in one transaction.
 */
export function prune(db: DB, clock: Clock, config: Pick<Config, 'tokenIdleDays'>): Pruned {
  return db.$client.transaction(() => ({
    sessions: pruneSessions(db, clock),
    tokens: pruneTokens(db, clock, config.tokenIdleDays * DAY_MS),
    invites: purgeOldInvites(db, clock),
    deletions: pruneKeptDeletions(db, clock),
  }))()
}

export const prunedSummary = (pruned: Pruned): string =>
  `deleted ${count(pruned.sessions, 'ended session')}, ${count(pruned.tokens, 'ended token')}, ${count(pruned.invites, 'old invite')} and ${count(pruned.deletions, 'ended undo')}`

export interface Optimized {
  pageSize: number
  pagesBefore: number
  pagesAfter: number
  freeBefore: number
  vacuumed: boolean
}

const pragma = (db: DB, name: string): number =>
  Number(Object.values(db.$client.query(`PRAGMA ${name}`).get() as Record<string, unknown>)[0] ?? 0)

/**
 * `PRAGMA optimize` (SQLite refreshes the statistics its query planner needs, where they are
 * stale), a VACUUM when the free pages pass both thresholds above, and a checkpoint that empties
 * the WAL back into the file (a large write can leave the WAL large).
 */
export function optimize(db: DB): Optimized {
  const pageSize = pragma(db, 'page_size')
  const pagesBefore = pragma(db, 'page_count')
  const freeBefore = pragma(db, 'freelist_count')
  db.$client.run('PRAGMA optimize')
  const vacuumed =
    freeBefore >= pagesBefore * VACUUM_MIN_FREE_FRACTION && freeBefore * pageSize >= VACUUM_MIN_FREE_BYTES
  if (vacuumed) db.$client.run('VACUUM')
  db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
  return { pageSize, pagesBefore, pagesAfter: pragma(db, 'page_count'), freeBefore, vacuumed }
}

export function optimizedSummary(result: Optimized): string {
  if (!result.vacuumed) {
    return `optimized; no vacuum needed (${Math.round((result.freeBefore * result.pageSize) / 1024)} kB free of ${Math.round((result.pagesBefore * result.pageSize) / 1024)} kB)`
  }
  const freed = (result.pagesBefore - result.pagesAfter) * result.pageSize
  return `optimized; vacuumed: ${fileSize(freed)} freed (${result.pagesBefore} pages to ${result.pagesAfter})`
}

/** The scheduled housekeeping: prune, then optimize; its one log line. */
export function housekeeping(db: DB, clock: Clock, config: Pick<Config, 'tokenIdleDays'>): string {
  const pruned = prune(db, clock, config)
  return `housekeeping: ${prunedSummary(pruned)}; ${optimizedSummary(optimize(db))}`
}
