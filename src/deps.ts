// What createApp and the modules are built from; tests pass an in-memory db, a fake clock and a
// cheap password hasher.
import type { Clock } from './clock'
import type { Config } from './config'
import type { DB } from './db/client'
import type { Logger } from './logger'
import type { PasswordHasher } from './modules/auth/password'
import type { ChangeFeed } from './modules/events/feed'

export interface AppDeps {
  db: DB
  config: Config
  clock: Clock
  logger: Logger
  passwordHasher: PasswordHasher
}

/** What the modules are built from: the app's inputs, and the change feed createApp makes for all of them. */
export interface ModuleDeps extends AppDeps {
  changes: ChangeFeed
}

/**
 * What a service that changes a character's data needs: where it writes, its clock, and the
 * feed it tells what it changed (the website's event streams listen there).
 */
export type Writer = Pick<ModuleDeps, 'db' | 'clock' | 'changes'>
