// The two counters behind login throttling (LoginGuard puts them together):
// - LoginThrottle slows password guessing per key (a login name, or an account id): after
//   MAX_FAILURES failures in a row that key is locked for a lock that doubles each time (5 min,
//   10, 20, capped at 1 h). A successful login clears the record. LoginGuard keeps one per name
//   (the 429 clients see) and one per account (never shown; see loginGuard.ts).
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
 * A table of at most `maxTracked` entries, least recently written first: Maps iterate in
 * insertion order and every `put` re-inserts, so the first entries are the stalest.
 */
abstract class RecentTable<V> {
  private readonly entries = new Map<string, V>()

  constructor(
    protected readonly clock: Clock,
    private readonly maxTracked: number,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /** An entry that a flood of new identifiers must not push out. */
  protected abstract pinned(entry: V, now: number): boolean

  /**
   * A fixed-size key for any identifier: the table then costs the same per entry whatever was
   * sent (a megabyte-long username used to be kept whole).
   */
  private keyOf(identifier: string): string {
    return createHash('sha256').update(identifier.trim().toLowerCase()).digest('base64url')
  }

  protected find(identifier: string): V | undefined {
    return this.entries.get(this.keyOf(identifier))
  }

  protected forget(identifier: string): void {
    this.entries.delete(this.keyOf(identifier))
  }

  /**
   * Stores the entry as the most recent; then, over `maxTracked`, drops the stalest entry that is
   * not pinned, or, when every entry is pinned, the stalest of all.
   */
  protected put(identifier: string, entry: V, now: number): void {
    const key = this.keyOf(identifier)
    this.entries.delete(key)
    this.entries.set(key, entry)
    if (this.entries.size <= this.maxTracked) return
    for (const [stale, value] of this.entries) {
      if (!this.pinned(value, now)) {
        this.entries.delete(stale)
        return
      }
    }
    this.entries.delete(this.entries.keys().next().value as string)
  }
}

export class LoginThrottle extends RecentTable<Failures> {
  constructor(clock: Clock, maxTracked = MAX_TRACKED) {
    super(clock, maxTracked)
  }

  /** A flood of new names must not push out a locked record: that would unlock its victim. */
  protected pinned(record: Failures, now: number): boolean {
    return record.lockedUntil > now
  }

  /** Seconds to wait before this identifier may try again, or 0 when it may try now. */
  retryAfterSeconds(identifier: string): number {
    const record = this.find(identifier)
    const wait = record ? record.lockedUntil - this.clock.now().getTime() : 0
    return wait > 0 ? Math.ceil(wait / 1000) : 0
  }

  /**
   * Counts one failure. Login counts an account's attempt here before its password is checked,
   * so its two names checked side by side see each other; a right password then clears the
   * record (`succeed`).
   */
  fail(identifier: string): void {
    const now = this.clock.now().getTime()
    const record = this.find(identifier) ?? { failures: 0, locks: 0, lockedUntil: 0, lastFailureAt: now }
    // A record untouched for longer than the longest lock starts over.
    if (now - record.lastFailureAt > MAX_LOCK_MS) Object.assign(record, { failures: 0, locks: 0 })
    record.failures += 1
    record.lastFailureAt = now
    if (record.failures >= MAX_FAILURES) {
      record.lockedUntil = now + Math.min(FIRST_LOCK_MS * 2 ** record.locks, MAX_LOCK_MS)
      record.locks += 1
      record.failures = 0
    }
    this.put(identifier, record, now)
  }

  succeed(identifier: string): void {
    this.forget(identifier)
  }
}

interface Bucket {
  /** Failures this address may still have now (fractional while refilling). */
  allowance: number
  updatedAt: number
}

export class AddressLimiter extends RecentTable<Bucket> {
  /** `burst` attempts, then one more every `refillMs` (the sign-up limiter has its own numbers). */
  constructor(
    clock: Clock,
    maxTracked = MAX_ADDRESSES,
    private readonly burst = ADDRESS_BURST,
    private readonly refillMs = ADDRESS_REFILL_MS,
  ) {
    super(clock, maxTracked)
  }

  /** An address out of attempts stays out however many new addresses fail. */
  protected pinned(bucket: Bucket): boolean {
    return bucket.allowance < 1
  }

  private refilled(address: string, now: number): Bucket | undefined {
    const bucket = this.find(address)
    if (!bucket) return undefined
    bucket.allowance = Math.min(this.burst, bucket.allowance + (now - bucket.updatedAt) / this.refillMs)
    bucket.updatedAt = now
    return bucket
  }

  /** Seconds until this address may fail once more, or 0 when it may try now. */
  retryAfterSeconds(address: string): number {
    const now = this.clock.now().getTime()
    const bucket = this.refilled(address, now)
    if (!bucket || bucket.allowance >= 1) return 0
    return Math.ceil(((1 - bucket.allowance) * this.refillMs) / 1000)
  }

  /** Takes one attempt from the address's allowance (given back by `refund` on success). */
  take(address: string): void {
    const now = this.clock.now().getTime()
    const bucket = this.refilled(address, now) ?? { allowance: this.burst, updatedAt: now }
    bucket.allowance -= 1
    this.put(address, bucket, now)
  }

  refund(address: string): void {
    const now = this.clock.now().getTime()
    const bucket = this.refilled(address, now)
    if (!bucket) return
    bucket.allowance += 1
    // A full bucket is the same as none: forget it.
    if (bucket.allowance >= this.burst) this.forget(address)
  }
}
