// Everything a password login is checked against, in one object that lives as long as the app:
// createApp makes one LoginGuard and hands it to every route that takes a password (the plugin
// login, the website's session login), so a limit cannot be dodged by switching routes.
import type { AppDeps } from '../../deps'
import { type PeerSource, TrustedProxies } from '../../http/address'
import { ServiceUnavailable, TooManyRequests } from '../../http/errors'
import { type Logger, silentLogger } from '../../logger'
import { SIGNUP_ATTEMPTS_PER_ADDRESS, SIGNUP_REFILL_MS } from '../invites/limits'
import type { PasswordHasher } from './password'
import { AddressLimiter, LoginThrottle, MAX_ADDRESSES } from './throttle'

/** argon2 verifications running at once (each holds 64 MiB at the production cost)… */
export const MAX_HASHING = 2
/** …and logins waiting for one; any further login is answered 503 at once. */
export const MAX_HASHING_QUEUED = 16
/**
 * Places (running or waiting) one login name may hold, and one client address: beyond them its
 * own further logins are 429 at once while everyone else still finds places. Several game
 * clients starting together with one account use a few; 24 loops of one client used all 18.
 */
export const MAX_IN_FLIGHT_PER_NAME = 8
export const MAX_IN_FLIGHT_PER_ADDRESS = 8
/** Retry-After on those 429s and on the 503: a verification takes about a quarter of a second. */
const BUSY_RETRY_SECONDS = 1

interface Ticket {
  name: string
  address: string
  start: () => void
}

/** Counts per key that forget a key at zero, so they hold only what is in flight. */
class Tally {
  private readonly counts = new Map<string, number>()
  get(key: string): number {
    return this.counts.get(key) ?? 0
  }
  add(key: string, delta: number): void {
    const count = this.get(key) + delta
    if (count > 0) this.counts.set(key, count)
    else this.counts.delete(key)
  }
}

/**
 * Bounds the argon2 work in flight: without it, a few logins a second with made-up names
 * queued verifications without limit and every login (and the memory) with them. It is fair:
 * - one login name (the identifier as typed, any case) is checked one at a time, so each of its
 *   attempts sees the outcome of the one before (a burst of guesses is held to the failure
 *   limit, and a burst of right passwords all succeed), and it may hold MAX_IN_FLIGHT_PER_NAME
 *   places; keyed by the name, not the account, so the limit tells nothing about who owns it;
 * - one client address may hold MAX_IN_FLIGHT_PER_ADDRESS places, and a free check goes to the
 *   address with the fewest checks running, then to the one served longest ago: a client
 *   looping logins gets its turn, not every turn.
 */
export class HashingBound {
  private running = 0
  private readonly waiting: Ticket[] = []
  private readonly runningNames = new Set<string>()
  private readonly runningPerAddress = new Tally()
  private readonly placesPerName = new Tally()
  private readonly placesPerAddress = new Tally()
  /** When each address holding a place last started a check (a sequence number, not a time). */
  private readonly lastServed = new Map<string, number>()
  private served = 0

  constructor(
    private readonly max = MAX_HASHING,
    private readonly maxQueued = MAX_HASHING_QUEUED,
    private readonly perName = MAX_IN_FLIGHT_PER_NAME,
    private readonly perAddress = MAX_IN_FLIGHT_PER_ADDRESS,
  ) {}

  /**
   * Decides at once, before anything is awaited: throws 429 when the name or the address holds
   * its share, 503 when the queue is full, else returns a promise of a slot; call the function
   * it resolves to when the work is done. `name` is the identifier, `address` its addressKey.
   */
  enter(identifier: string, address: string): Promise<() => void> {
    const name = identifier.trim().toLowerCase()
    if (this.placesPerName.get(name) >= this.perName) {
      throw new TooManyRequests(
        `Too many logins with this name are being checked at once; try again in ${BUSY_RETRY_SECONDS} second.`,
        BUSY_RETRY_SECONDS,
      )
    }
    if (this.placesPerAddress.get(address) >= this.perAddress) {
      throw new TooManyRequests(
        `Too many logins from your address are being checked at once; try again in ${BUSY_RETRY_SECONDS} second.`,
        BUSY_RETRY_SECONDS,
      )
    }
    const startsNow = this.running < this.max && !this.runningNames.has(name)
    if (!startsNow && this.waiting.length >= this.maxQueued) {
      throw new ServiceUnavailable(
        `The server is busy checking other logins; try again in ${BUSY_RETRY_SECONDS} second.`,
        BUSY_RETRY_SECONDS,
      )
    }
    this.placesPerName.add(name, 1)
    this.placesPerAddress.add(address, 1)
    return new Promise((resolve) => {
      const ticket: Ticket = { name, address, start: () => resolve(() => this.release(ticket)) }
      if (startsNow) this.begin(ticket)
      else this.waiting.push(ticket)
    })
  }

  private begin(ticket: Ticket): void {
    this.running += 1
    this.runningNames.add(ticket.name)
    this.runningPerAddress.add(ticket.address, 1)
    this.lastServed.set(ticket.address, ++this.served)
    ticket.start()
  }

  private release(ticket: Ticket): void {
    this.running -= 1
    this.runningNames.delete(ticket.name)
    this.runningPerAddress.add(ticket.address, -1)
    this.placesPerName.add(ticket.name, -1)
    this.placesPerAddress.add(ticket.address, -1)
    if (this.placesPerAddress.get(ticket.address) === 0) this.lastServed.delete(ticket.address)
    while (this.running < this.max) {
      const next = this.next()
      if (!next) return
      this.waiting.splice(this.waiting.indexOf(next), 1)
      this.begin(next)
    }
  }

  /** The waiting ticket whose turn it is; those whose name is being checked wait for it. */
  private next(): Ticket | undefined {
    let best: Ticket | undefined
    let bestRank: [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
    for (const ticket of this.waiting) {
      if (this.runningNames.has(ticket.name)) continue
      const rank: [number, number] = [
        this.runningPerAddress.get(ticket.address),
        this.lastServed.get(ticket.address) ?? 0,
      ]
      // Strictly better only: on a tie the earlier arrival keeps its turn.
      if (rank[0] < bestRank[0] || (rank[0] === bestRank[0] && rank[1] < bestRank[1])) {
        best = ticket
        bestRank = rank
      }
    }
    return best
  }
}

type GuardDeps = Pick<AppDeps, 'clock' | 'config' | 'passwordHasher'> & Partial<Pick<AppDeps, 'logger'>>

export class LoginGuard {
  /**
   * Failures per login name as typed (any case), whatever it belongs to: an account's username,
   * its e-mail, a name of no account. Its lock is the 429 a client sees, so what a login is
   * answered depends only on the name it used (no existence leak, no username–e-mail link).
   */
  readonly names: LoginThrottle
  /**
   * Failures per account id: its username and e-mail share this count, so the account gets
   * MAX_FAILURES password checks per lock whichever names are tried. Never shown: a login to a
   * locked account by a name that is not locked itself is answered as a wrong password.
   */
  readonly accounts: LoginThrottle
  readonly addresses: AddressLimiter
  /**
   * Sign-ups with an invite per client address (invites/signup.ts): their own count, so a
   * newcomer's tries do not lock the address's sign-ins, with the same argon2 bound below.
   */
  readonly signups: AddressLimiter
  readonly hashing = new HashingBound()
  readonly hasher: PasswordHasher
  private readonly proxies: TrustedProxies
  private dummy: Promise<string> | undefined

  /** Where refused logins and lock-outs are reported (at warn). */
  readonly logger: Logger

  constructor({ clock, config, passwordHasher, logger = silentLogger }: GuardDeps) {
    this.logger = logger
    this.names = new LoginThrottle(clock)
    this.accounts = new LoginThrottle(clock)
    this.addresses = new AddressLimiter(clock)
    this.signups = new AddressLimiter(clock, MAX_ADDRESSES, SIGNUP_ATTEMPTS_PER_ADDRESS, SIGNUP_REFILL_MS)
    this.hasher = passwordHasher
    this.proxies = new TrustedProxies(config.trustedProxies)
  }

  /**
   * Verifying against this when the account does not exist makes a wrong username take as long
   * as a wrong password. Made by the same hasher as the accounts' hashes, so it has their cost.
   */
  dummyHash(): Promise<string> {
    this.dummy ??= this.hasher.hash('no such account, no such password')
    return this.dummy
  }

  /** The client's address for the per-address limit (see address.ts); pass Elysia's `server`. */
  clientAddress(request: Request, server: PeerSource | null | undefined): string | undefined {
    return this.proxies.clientAddress(request, server)
  }
}

/** The one LoginGuard of an app; createApp calls this once and passes it to the login routes. */
export const createLoginGuard = (deps: GuardDeps): LoginGuard => new LoginGuard(deps)
