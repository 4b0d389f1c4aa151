// The scheduled jobs of the operator's side, as Elysia cron plugins for startServer to `.use()`
// (each starts its job at that moment, which is why createApp never uses them): the backup and
// the housekeeping. A job that fails logs one line and waits for its next turn; the server goes on.
import { cron } from '@elysiajs/cron'
import type { AnyElysia, Elysia } from 'elysia'
import type { Clock } from '../clock'
import type { Config } from '../config'
import type { DB } from '../db/client'
import type { Logger } from '../logger'
import { scheduledBackup, scheduledSummary } from './backup'
import { housekeeping } from './housekeeping'

export interface JobDeps {
  db: DB
  clock: Clock
  logger: Logger
}

type BackupConfig = Pick<Config, 'databasePath' | 'backupDir' | 'backupKeep'>

/** One scheduled backup: its line at `info`, or why it failed at `error`. */
export function runScheduledBackup({ db, clock, logger }: JobDeps, config: BackupConfig): void {
  try {
    logger.info(scheduledSummary(scheduledBackup(db, config, clock)))
  } catch (error) {
    logger.error(
      `scheduled backup failed: ${error instanceof Error ? error.message : error}; the next one runs as planned`,
    )
  }
}

/** BACKUP_CRON's job, reachable as `store.cron.backup`; nothing with `off`. */
export function backupCron(deps: JobDeps, config: BackupConfig & Pick<Config, 'backupCron'>) {
  const pattern = config.backupCron
  if (pattern === null) return (app: Elysia): AnyElysia => app
  // protect: a backup still being written makes the next tick skip instead of overlapping.
  return cron({ name: 'backup', pattern, protect: true, run: () => runScheduledBackup(deps, config) })
}

/** One scheduled housekeeping: its line at `info`, or why it failed at `error`. */
export function runScheduledMaintenance({ db, clock, logger }: JobDeps, config: Pick<Config, 'tokenIdleDays'>): void {
  try {
    logger.info(housekeeping(db, clock, config))
  } catch (error) {
    logger.error(
      `scheduled housekeeping failed: ${error instanceof Error ? error.message : error}; the next one runs as planned`,
    )
  }
}

/** MAINTENANCE_CRON's job, reachable as `store.cron.maintenance`; nothing with `off`. */
export function maintenanceCron(deps: JobDeps, config: Pick<Config, 'tokenIdleDays' | 'maintenanceCron'>) {
  const pattern = config.maintenanceCron
  if (pattern === null) return (app: Elysia): AnyElysia => app
  return cron({ name: 'maintenance', pattern, protect: true, run: () => runScheduledMaintenance(deps, config) })
}
