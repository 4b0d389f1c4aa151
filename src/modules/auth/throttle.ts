// Slows password guessing per identifier: after MAX_FAILURES wrong passwords in a row for one
// identifier, that identifier is refused (429 + Retry-After) for a lock that doubles each time
// (5 min, 10, 20, capped at 1 h). Other identifiers are never affected; a successful login
// clears the record. Kept in memory: a restart forgets it, which only helps a user locked out.
import type { Clock } from '../../clock'

export const MAX_FAILURES = 5
export const FIRST_LOCK_MS = 5 * 60_000
export const MAX_LOCK_MS = 60 * 60_000
const MAX_TRACKED = 10_000

interface Record {
  failures: number
  locks: number
  lockedUntil: number
  lastFailureAt: number
}

export class LoginThrottle {
  private readonly records = new Map<string, Record>()

  constructor(private readonly clock: Clock) {}

  /** Seconds to wait before this identifier may try again, or 0 when it may try now. */
  retryAfterSeconds(identifier: string): number {
    const record = this.records.get(key(identifier))
    const wait = record ? record.lockedUntil - this.clock.now().getTime() : 0
    return wait > 0 ? Math.ceil(wait / 1000) : 0
  }

  fail(identifier: string): void {
    const now = this.clock.now().getTime()
    const k = key(identifier)
    const record = this.records.get(k) ?? { failures: 0, locks: 0, lockedUntil: 0, lastFailureAt: now }
    // A record untouched for longer than the longest lock starts over.
    if (now - record.lastFailureAt > MAX_LOCK_MS) Object.assign(record, { failures: 0, locks: 0 })
    record.failures += 1
    record.lastFailureAt = now
    if (record.failures >= MAX_FAILURES) {
      record.lockedUntil = now + Math.min(FIRST_LOCK_MS * 2 ** record.locks, MAX_LOCK_MS)
      record.locks += 1
      record.failures = 0
    }
    this.records.delete(k) // re-insert: Map order is then least recently failed first
    this.records.set(k, record)
    if (this.records.size > MAX_TRACKED) this.records.delete(this.records.keys().next().value as string)
  }

  succeed(identifier: string): void {
    this.records.delete(key(identifier))
  }
}

const key = (identifier: string) => identifier.trim().toLowerCase()
