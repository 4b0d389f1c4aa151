// `quest-tracker backup PATH | now | verify FILE`: a checked copy of the live database at a path
// of your choice, the scheduled backup by hand, and the check of a backup.
import { lstatSync } from 'node:fs'
import { resolve } from 'node:path'
import { systemClock } from '../clock'
import { DatabaseFileError } from '../db/client'
import { SCHEMA_VERSION } from '../db/migrate'
import {
  BackupError,
  type BackupReport,
  fileSize,
  scheduledBackup,
  scheduledSummary,
  verifyBackup,
  writeBackup,
} from '../maintenance/backup'
import { databaseFlag, none, one, parse, UsageError } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage:
  quest-tracker backup PATH           write a copy of the database to PATH (a new file)
  quest-tracker backup now            the scheduled backup, now: a copy in BACKUP_DIR named by the
                                      time; the oldest beyond BACKUP_KEEP are removed
  quest-tracker backup verify FILE    check a backup: integrity_check, schema version, rows per table

Every copy is consistent (SQLite VACUUM INTO: safe while the server runs), 0600 (it holds the
password hashes), written under a temporary name in the same folder, synced and checked before
it takes its name, so there is never half a backup under a backup's name. verify opens the file
read-only and changes nothing; it exits 1 on any doubt (damage, not a Quest Tracker database,
a newer schema than this version's, a -wal file beside it). A file named "now" or "verify" is
given as ./now. Option: --database PATH (overrides DATABASE_PATH).`

export const backup: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (sub === undefined) throw new UsageError('backup: give the path of the copy to write (or now, or verify FILE)')
  if (sub === '--help' || sub === '-h') return printHelp(io, HELP)
  if (sub === 'verify') return verify(io, rest)
  if (sub === 'now') return now(io, rest)
  return toPath(io, args)
}

async function toPath(io: CliIO, args: string[]): Promise<number> {
  const { values, positionals } = parse('backup', args, databaseFlag, one('give the path of the copy to write'))
  const target = resolve(positionals[0] as string)
  let existing: ReturnType<typeof lstatSync> | undefined
  try {
    existing = lstatSync(target, { throwIfNoEntry: false })
  } catch {
    // ENOTDIR: creating the copy below says what is wrong with the path
  }
  if (existing?.isSymbolicLink()) throw new UsageError(`backup: ${target} is a symbolic link; give a new file's path`)
  if (existing) throw new UsageError(`backup: ${target} already exists`)
  const report = await withDatabase(io, values, (db) => {
    try {
      return writeBackup(db, target)
    } catch (error) {
      // The place is wrong (a missing folder, no permission): misuse. A failed copy: the database's.
      if (error instanceof BackupError && error.message.startsWith('cannot create'))
        throw new UsageError(`backup: ${error.message}`)
      if (error instanceof BackupError) throw new DatabaseFileError(`backup: ${error.message}`)
      throw error
    }
  })
  io.out(`backup written to ${report.file} (${fileSize(report.bytes)}, schema ${report.schemaVersion}, integrity ok)`)
  return 0
}

async function now(io: CliIO, args: string[]): Promise<number> {
  const { values } = parse('backup now', args, databaseFlag, none())
  return withDatabase(io, values, (db, config) => {
    try {
      io.out(scheduledSummary(scheduledBackup(db, config, systemClock)))
      return 0
    } catch (error) {
      if (!(error instanceof BackupError)) throw error
      io.err(`quest-tracker: backup now: ${error.message}`)
      return 1
    }
  })
}

function verify(io: CliIO, args: string[]): number {
  const { positionals } = parse('backup verify', args, {}, one('give the path of the backup to check'))
  let report: BackupReport
  try {
    report = verifyBackup(positionals[0] as string)
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    io.err(`quest-tracker: backup verify: ${error.message}`)
    return 1
  }
  const older =
    report.schemaVersion < SCHEMA_VERSION ? ` (this version writes ${SCHEMA_VERSION}; upgraded when restored)` : ''
  io.out(`${report.file}: integrity ok, schema ${report.schemaVersion}${older}, ${fileSize(report.bytes)}`)
  for (const table of report.tables) io.out(`${table.name}\t${table.rows}`)
  return 0
}
