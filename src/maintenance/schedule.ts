// The scheduled jobs of the operator's side, as Elysia cron plugins for startServer to `.use()`
// (each starts its job at that moment, which is why createApp never uses them): the backup and
// the housekeeping. A job that fails logs one line and waits for its next turn; the server goes on.
import { resolve } from 'node:path'
import { cron } from '@elysiajs/cron'
import type { AnyElysia, Elysia } from 'elysia'
import type { Clock } from '../clock'
import type { Config } from '../config'
import type { DB } from '../db/client'
import type { Logger } from '../logger'
import type { BackupJob, BackupOutcome } from './backup'
import { housekeeping } from './housekeeping'

export interface JobDeps {
  db: DB
  clock: Clock
  logger: Logger
}

type BackupConfig = Pick<Config, 'databasePath' | 'backupDir' | 'backupKeep'>

/**
 * The thread's module. From a checkout it is the file beside this one; in the compiled executable
 * every module's import.meta.url is the executable's own (`file:///$bunfs/root/quest-tracker`),
 * and the worker, an entry point of the build, sits under the entry points' common folder (src/).
 */
const BACKUP_WORKER = import.meta.url.startsWith('file:///$bunfs/')
  ? new URL('./maintenance/backupWorker.ts', import.meta.url).href
  : new URL('./backupWorker.ts', import.meta.url).href

/**
 * A scheduled backup of the database file, written on a thread of its own (backupWorker.ts) with
 * a connection of its own: the server's thread goes on answering while it copies (VACUUM INTO on
 * the server's connection held every request for as long as the copy took: about a minute for
 * 1.7 GB). Writes are not spared: while the copy holds its read, the WAL cannot be checkpointed
 * past it, and its writes share the disk with every commit's fsync. Resolves to its log line, or
 * rejects with why it failed.
 */
export function backupApart(job: BackupJob): Promise<string> {
  return new Promise((done, fail) => {
    // `ref: false`: a server that stops while a copy is written does not wait for it (the next
    // backup removes the temporary file it leaves).
    const worker = new Worker(BACKUP_WORKER, { ref: false })
    const finish = () => void worker.terminate()
    worker.onmessage = (event: MessageEvent<BackupOutcome>) => {
      finish()
      if ('summary' in event.data) done(event.data.summary)
      else fail(new Error(event.data.error))
    }
    worker.onerror = (event) => {
      finish()
      fail(new Error(event.message || 'the backup thread failed'))
    }
    // A thread that ends without a word (its module did not load) must not leave this pending:
    // the schedule skips every later backup while one is running. After an answer it changes nothing.
    worker.addEventListener('close', () => fail(new Error('the backup thread ended without an answer')))
    worker.postMessage({ ...job, databasePath: resolve(job.databasePath) })
  })
}

/** One scheduled backup (backupApart): its line at `info`, or why it failed at `error`. */
export async function runScheduledBackup({ clock, logger }: JobDeps, config: BackupConfig): Promise<void> {
  const { databasePath, backupDir, backupKeep } = config
  try {
    logger.info(await backupApart({ databasePath, backupDir, backupKeep, now: clock.now().toISOString() }))
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
