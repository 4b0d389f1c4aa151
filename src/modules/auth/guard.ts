// Everything a password login is checked against, in one object that lives as long as the app:
// createApp makes one LoginGuard and hands it to every route that takes a password (the plugin
// login, the website's session login), so a limit cannot be dodged by switching routes.
import type { AppDeps } from '../../deps'
import type { PasswordHasher } from './password'
import { LoginThrottle } from './throttle'

export class LoginGuard {
  readonly throttle: LoginThrottle
  readonly hasher: PasswordHasher
  private dummy: Promise<string> | undefined

  constructor({ clock, passwordHasher }: Pick<AppDeps, 'clock' | 'passwordHasher'>) {
    this.throttle = new LoginThrottle(clock)
    this.hasher = passwordHasher
  }

  /**
   * Verifying against this when the account does not exist makes a wrong username take as long
   * as a wrong password. Made by the same hasher as the accounts' hashes, so it has their cost.
   */
  dummyHash(): Promise<string> {
    this.dummy ??= this.hasher.hash('no such account, no such password')
    return this.dummy
  }
}

/** The one LoginGuard of an app; createApp calls this once and passes it to the login routes. */
export const createLoginGuard = (deps: Pick<AppDeps, 'clock' | 'passwordHasher'>): LoginGuard => new LoginGuard(deps)
