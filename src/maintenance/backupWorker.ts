// The scheduled backup on a thread of its own (see backupApart in schedule.ts). VACUUM INTO reads
// the whole file and writes a copy of it: a minute for a community's 1.7 GB, and on the server's
// own connection every request waited that minute. Here it has a connection of its own, read
// only, and the server's thread answers meanwhile. Listed as an entry point of the compiled
// executable (package.json's build), which embeds it.
import { Database } from 'bun:sqlite'
import { BUSY_TIMEOUT_MS } from '../db/client'
import { type BackupJob, type BackupOutcome, scheduledBackup, scheduledSummary } from './backup'

declare const self: Worker

self.onmessage = (event: MessageEvent<BackupJob>) => {
  const job = event.data
  let outcome: BackupOutcome
  let sqlite: Database | undefined
  try {
    sqlite = new Database(job.databasePath, { readonly: true, strict: true })
    sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    const now = new Date(job.now)
    outcome = { summary: scheduledSummary(scheduledBackup({ $client: sqlite }, job, { now: () => now })) }
  } catch (error) {
    outcome = { error: error instanceof Error ? error.message : String(error) }
  } finally {
    sqlite?.close()
  }
  self.postMessage(outcome)
}
