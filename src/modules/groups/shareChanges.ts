// How often an account may change what it shares with groups (issue 39, item 7): each share or
// withdrawal makes every open page of the group read again, so a script toggling a character in a
// loop made every member's tracker read the group's needs over and over. A bucket per account, as
// the sign-in limiter's per address (auth/throttle.ts), kept in memory: a restart forgets it.
import type { Clock } from '../../clock'
import { TooManyRequests } from '../../http/errors'
import { AddressLimiter } from '../auth/throttle'
import { MAX_SHARE_CHANGE_ACCOUNTS, SHARE_CHANGES_BURST, SHARE_CHANGES_REFILL_MS } from './limits'

export class ShareChanges {
  /** The address limiter's buckets, keyed by account. */
  private readonly buckets: AddressLimiter

  constructor(clock: Clock) {
    this.buckets = new AddressLimiter(clock, MAX_SHARE_CHANGE_ACCOUNTS, SHARE_CHANGES_BURST, SHARE_CHANGES_REFILL_MS)
  }

  /** Takes one change of the account's, or throws 429 with Retry-After when it has none left. */
  take(userId: number): void {
    const key = `account ${userId}`
    const wait = this.buckets.retryAfterSeconds(key)
    if (wait > 0)
      throw new TooManyRequests(`Too many changes to shared characters; try again in ${wait} seconds.`, wait)
    this.buckets.take(key)
  }
}
