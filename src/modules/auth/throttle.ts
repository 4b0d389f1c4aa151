// The two counters behind login throttling (LoginGuard puts them together):
// - LoginThrottle slows password guessing per account (or per unknown name): after MAX_FAILURES
//   failures in a row it refuses that key (429 + Retry-After) for a lock that doubles each time
//   (5 min, 10, 20, capped at 1 h). A successful login clears the record.
// - AddressLimiter bounds failed logins per client address: a bucket of ADDRESS_BURST failures
//   that refills one every ADDRESS_REFILL_MS. A success gives back only its own attempt, so
//   an attacker's one good account cannot wash an address clean.
// Both are kept in memory and bounded; a restart forgets them, which only helps someone locked out.
import { createHash } from 'node:crypto'
import type { Clock } from '../../clock'

export const MAX_FAILURES = 5
export const FIRST_LOCK_MS = 5 * 60_000
export const MAX_LOCK_MS = 60 * 60_000
export const MAX_TRACKED = 10_000

export const ADDRESS_BURST = 20
export const ADDRESS_REFILL_MS = 30_000
export const MAX_ADDRESSES = 10_000

interface Failures {
  failures: number
  locks: number
  lockedUntil: number
  lastFailureAt: number
}

/**
 * A fixed-size key for any identifier: the table then costs the same per entry whatever was
 * sent (a megabyte-long username used to be kept whole).
 */
const keyOf = (identifier: string): string =>
  createHash('sha256').update(identifier.trim().toLowerCase()).digest('base64url')

/**
 * Drops one entry once `map` is over `max`: the least recently touched one that `keep` does not
 * protect, or, when every entry is protected, the least recently touched of all. Maps iterate
 * in insertion order and every write re-inserts, so the first entries are the stalest.
 */
function evictOne<V>(map: Map<string, V>, max: number, keep: (value: V) => boolean): void {
  if (map.size <= max) return
  for (const [key, value] of map) {
    if (!keep(value)) {
      map.delete(key)
      return
    }
  }
  map.delete(map.keys().next().value as string)
}

export class LoginThrottle {
  private readonly records = new Map<string, Failures>()

  constructor(
    private readonly clock: Clock,
    private readonly maxTracked = MAX_TRACKED,
  ) {}

  get size(): number {
    return this.records.size
  }

  /** Seconds to wait before this identifier may try again, or 0 when it may try now. */
  retryAfterSeconds(identifier: string): number {
    const record = this.records.get(keyOf(identifier))
    const wait = record ? record.lockedUntil - this.clock.now().getTime() : 0
    return wait > 0 ? Math.ceil(wait / 1000) : 0
  }

  /**
   * Counts one failure. Login counts every attempt here before the password is checked, so
   * parallel attempts see each other; a right password then clears the record (`succeed`).
   */
  fail(identifier: string): void {
    const now = this.clock.now().getTime()
    const key = keyOf(identifier)
    const record = this.records.get(key) ?? { failures: 0, locks: 0, lockedUntil: 0, lastFailureAt: now }
    // A record untouched for longer than the longest lock starts over.
    if (now - record.lastFailureAt > MAX_LOCK_MS) Object.assign(record, { failures: 0, locks: 0 })
    record.failures += 1
    record.lastFailureAt = now
    if (record.failures >= MAX_FAILURES) {
      record.lockedUntil = now + Math.min(FIRST_LOCK_MS * 2 ** record.locks, MAX_LOCK_MS)
      record.locks += 1
      record.failures = 0
    }
    this.records.delete(key) // re-insert: Map order is then least recently failed first
    this.records.set(key, record)
    // A flood of new names must not push out a locked record: that would unlock its victim.
    evictOne(this.records, this.maxTracked, (r) => r.lockedUntil > now)
  }

  succeed(identifier: string): void {
    this.records.delete(keyOf(identifier))
  }
}

interface Bucket {
  /** Failures this address may still have now (fractional while refilling). */
  allowance: number
  updatedAt: number
}

export class AddressLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    private readonly clock: Clock,
    private readonly maxTracked = MAX_ADDRESSES,
  ) {}

  get size(): number {
    return this.buckets.size
  }

  private refilled(key: string, now: number): Bucket | undefined {
    const bucket = this.buckets.get(key)
    if (!bucket) return undefined
    bucket.allowance = Math.min(ADDRESS_BURST, bucket.allowance + (now - bucket.updatedAt) / ADDRESS_REFILL_MS)
    bucket.updatedAt = now
    return bucket
  }

  /** Seconds until this address may fail once more, or 0 when it may try now. */
  retryAfterSeconds(address: string): number {
    const now = this.clock.now().getTime()
    const bucket = this.refilled(keyOf(address), now)
    if (!bucket || bucket.allowance >= 1) return 0
    return Math.ceil(((1 - bucket.allowance) * ADDRESS_REFILL_MS) / 1000)
  }

  /** Takes one attempt from the address's allowance (given back by `refund` on success). */
  take(address: string): void {
    const now = this.clock.now().getTime()
    const key = keyOf(address)
    const bucket = this.refilled(key, now) ?? { allowance: ADDRESS_BURST, updatedAt: now }
    bucket.allowance -= 1
    this.buckets.delete(key)
    this.buckets.set(key, bucket)
    evictOne(this.buckets, this.maxTracked, (b) => b.allowance < 1)
  }

  refund(address: string): void {
    const now = this.clock.now().getTime()
    const key = keyOf(address)
    const bucket = this.refilled(key, now)
    if (!bucket) return
    bucket.allowance += 1
    // A full bucket is the same as none: forget it.
    if (bucket.allowance >= ADDRESS_BURST) this.buckets.delete(key)
  }
}
