// What createApp and the modules are built from; tests pass an in-memory db and a fake clock.
import type { Clock } from './clock'
import type { Config } from './config'
import type { DB } from './db/client'
import type { Logger } from './logger'

export interface AppDeps {
  db: DB
  config: Config
  clock: Clock
  logger: Logger
}
