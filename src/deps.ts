// What createApp and the modules are built from; tests pass an in-memory db, a fake clock and a
// cheap password hasher.
import type { Clock } from './clock'
import type { Config } from './config'
import type { DB } from './db/client'
import type { Logger } from './logger'
import type { PasswordHasher } from './modules/auth/password'

export interface AppDeps {
  db: DB
  config: Config
  clock: Clock
  logger: Logger
  passwordHasher: PasswordHasher
}
