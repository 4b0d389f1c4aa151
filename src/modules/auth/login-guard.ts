// Everything a password login is checked against, in one object that lives as long as the app:
// createApp makes one LoginGuard and hands it to every route that takes a password (the plugin
// login, the website's session login), so a limit cannot be dodged by switching routes.
import type { AppDeps } from '../../deps'
import { ServiceUnavailable } from '../../http/errors'
import { type Logger, silentLogger } from '../../logger'
import { type PeerSource, TrustedProxies } from './address'
import type { PasswordHasher } from './password'
import { AddressLimiter, LoginThrottle } from './throttle'

/** argon2 verifications running at once (each holds 64 MiB at the production cost)… */
export const MAX_HASHING = 2
/** …and logins waiting for one; any further login is answered 503 at once. */
export const MAX_HASHING_QUEUED = 16
/** Retry-After on that 503: a verification takes about a quarter of a second. */
const BUSY_RETRY_SECONDS = 1

/**
 * Bounds the argon2 work in flight: without it, a few logins a second with made-up names
 * queued verifications without limit and every login (and the memory) with them.
 */
export class HashingBound {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(
    private readonly max = MAX_HASHING,
    private readonly maxQueued = MAX_HASHING_QUEUED,
  ) {}

  /**
   * Decides at once, before anything is awaited: throws 503 when the queue is full, else
   * returns a promise of a slot; call the function it resolves to when the work is done.
   */
  enter(): Promise<() => void> {
    if (this.running < this.max) {
      this.running += 1
      return Promise.resolve(this.release)
    }
    if (this.waiting.length >= this.maxQueued) {
      throw new ServiceUnavailable(
        `The server is busy checking other logins; try again in ${BUSY_RETRY_SECONDS} second.`,
        BUSY_RETRY_SECONDS,
      )
    }
    return new Promise((resolve) => this.waiting.push(() => resolve(this.release)))
  }

  private readonly release = (): void => {
    const next = this.waiting.shift()
    // The slot passes straight to the next in line; `running` only drops when nobody waits.
    if (next) next()
    else this.running -= 1
  }
}

type GuardDeps = Pick<AppDeps, 'clock' | 'config' | 'passwordHasher'> & Partial<Pick<AppDeps, 'logger'>>

export class LoginGuard {
  /** Failures per account id: the username and the e-mail of one account share one count. */
  readonly accounts: LoginThrottle
  /** Failures per name that matches no account, so those behave like accounts (no existence leak). */
  readonly unknownNames: LoginThrottle
  readonly addresses: AddressLimiter
  readonly hashing = new HashingBound()
  readonly hasher: PasswordHasher
  private readonly proxies: TrustedProxies
  private dummy: Promise<string> | undefined

  /** Where refused logins and lock-outs are reported (at warn). */
  readonly logger: Logger

  constructor({ clock, config, passwordHasher, logger = silentLogger }: GuardDeps) {
    this.logger = logger
    this.accounts = new LoginThrottle(clock)
    this.unknownNames = new LoginThrottle(clock)
    this.addresses = new AddressLimiter(clock)
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
