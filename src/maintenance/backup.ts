// Backups: a consistent copy of the live database (VACUUM INTO) written under a temporary name
// in the target's folder, synced to disk, checked, and only then given its final name, so a
// crash or a full disk never leaves half a file under a backup's name; the scheduled ones named by
// their time and the oldest removed beyond BACKUP_KEEP; and the check itself (`backup verify`).
import { constants, Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import type { Clock } from '../clock'
import type { Config } from '../config'
import { type DB, describeFileError, isOutOfSpace } from '../db/client'
import { appliedMigrations, isNewer, SCHEMA_VERSION } from '../db/migrate'
import { migrations } from '../db/migrations'
import { expectedTables, schemaDifferences } from '../db/schemaCheck'

/** A backup that cannot be trusted, or could not be written: the sentence says why (one line). */
export class BackupError extends Error {}

/** What a backup reads: a connection to the live database (the server's, or one of its own). */
export type BackupSource = Pick<DB, '$client'>

/** A scheduled backup as the server hands it to its thread (backupWorker.ts): plain data. */
export interface BackupJob extends Pick<Config, 'databasePath' | 'backupDir' | 'backupKeep'> {
  /** The time it is named by (an ISO string: the server's clock, which tests move). */
  now: string
}

/** What the thread answers: the log line, or why the backup failed (BackupError's sentence). */
export type BackupOutcome = { summary: string } | { error: string }

/** What `backup verify` prints: the schema the backup is at and the rows of each of its tables. */
export interface BackupReport {
  file: string
  bytes: number
  schemaVersion: number
  tables: { name: string; rows: number }[]
}

const SQLITE_MAGIC = 'SQLite format 3\0'

/**
 * Opens a backup read-only and immutable (SQLite then takes no lock and makes no -wal or -shm
 * beside it, so the file and its folder stay exactly as they were), runs integrity_check, and
 * reads its schema version and the row count of each table. Any doubt is a BackupError: not a
 * SQLite file, a -wal or -journal beside it (a database in use, or a copy taken without its
 * log: not a backup), damage, not a Quest Tracker database, a schema newer than this binary, or
 * a schema other than the one this binary's migrations make at its version (an edited backup: a
 * planted trigger would run in the server once restored). The file's schema is read with
 * trusted_schema off, and only the tables Quest Tracker makes are counted.
 */
export function verifyBackup(path: string): BackupReport {
  const file = resolve(path)
  const stats = statSync(file, { throwIfNoEntry: false })
  if (!stats) throw new BackupError(`${file}: no such file`)
  if (!stats.isFile()) throw new BackupError(`${file} is not a file`)
  if (readHeader(file) !== SQLITE_MAGIC) throw new BackupError(`${file} is not a SQLite database`)
  for (const log of ['-wal', '-journal']) {
    if (existsSync(file + log)) {
      throw new BackupError(
        `${file} has a ${log} file beside it: a database in use or a copy taken without its log, not a backup (make one with quest-tracker backup)`,
      )
    }
  }
  let sqlite: Database | undefined
  try {
    sqlite = new Database(immutableUri(file), constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI)
    // Before the first statement reads its schema: nothing the file defines may call a function.
    sqlite.run('PRAGMA trusted_schema = OFF')
    const check = sqlite.query('PRAGMA integrity_check(1)').values()[0]?.[0]
    if (check !== 'ok') throw new BackupError(`${file} is damaged (integrity_check: ${check})`)
    const names = sqlite
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all()
      .map((row) => row.name)
    if (!names.includes('__drizzle_migrations') || !names.includes('users')) {
      throw new BackupError(`${file} is not a Quest Tracker database (no migrations table or no accounts)`)
    }
    const applied = appliedMigrations(sqlite)
    if (isNewer(applied)) {
      throw new BackupError(
        `${file} was made by a newer Quest Tracker (schema ${applied.length}; this one knows ${SCHEMA_VERSION}); restore it with that version`,
      )
    }
    if (applied.some((when, i) => migrations[i]?.when !== when)) {
      throw new BackupError(
        `${file} has applied migrations this version does not apply in that order; it is not trusted`,
      )
    }
    const differences = schemaDifferences(sqlite, applied.length)
    if (differences.length > 0) {
      throw new BackupError(
        `${file} holds what Quest Tracker's schema ${applied.length} does not: ${differences.slice(0, 6).join(', ')}${differences.length > 6 ? `, and ${differences.length - 6} more` : ''}; a backup Quest Tracker wrote is never edited, so it is not trusted`,
      )
    }
    const tables = expectedTables(applied.length).map((name) => ({
      name,
      rows: sqlite?.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${name}"`).get()?.n ?? 0,
    }))
    return { file, bytes: stats.size, schemaVersion: applied.length, tables }
  } catch (error) {
    if (error instanceof BackupError) throw error
    throw new BackupError(`${file} cannot be read as a database (${error instanceof Error ? error.message : error})`)
  } finally {
    sqlite?.close()
  }
}

function readHeader(file: string): string {
  const fd = openSync(file, 'r')
  try {
    const bytes = Buffer.alloc(SQLITE_MAGIC.length)
    const read = readSync(fd, bytes, 0, bytes.length, 0)
    return bytes.subarray(0, read).toString('latin1')
  } finally {
    closeSync(fd)
  }
}

/** A read-only, immutable SQLite URI for a path (`?` and `#` in a file name escaped). */
const immutableUri = (file: string): string =>
  `file:${encodeURI(file).replace(/\?/g, '%3F').replace(/#/g, '%23')}?immutable=1`

/**
 * Writes a verified copy of the database at `target`, which must not exist. The copy is written
 * 0600 (it holds the password hashes) under a temporary name in the same folder, synced, checked
 * with verifyBackup, then renamed: `target` is either absent or a whole, checked backup.
 */
export function writeBackup(db: BackupSource, target: string): BackupReport {
  const file = resolve(target)
  const folder = dirname(file)
  const temporary = join(folder, `.${basename(file)}.${randomBytes(6).toString('hex')}.partial`)
  try {
    // O_EXCL: never through a link; VACUUM INTO accepts an existing empty file.
    closeSync(openSync(temporary, 'wx', 0o600))
  } catch (error) {
    throw new BackupError(`cannot create a file in ${folder} (${describeFileError(error)})`)
  }
  try {
    try {
      db.$client.query('VACUUM INTO ?').run(temporary)
    } catch (error) {
      const reason = isOutOfSpace(error) ? 'the disk is full' : error instanceof Error ? error.message : String(error)
      throw new BackupError(`no copy written to ${file} (${reason})`)
    }
    syncToDisk(temporary)
    const report = verifyBackup(temporary)
    if (lstatSync(file, { throwIfNoEntry: false })) throw new BackupError(`${file} already exists`)
    renameSync(temporary, file)
    syncToDisk(folder)
    return { ...report, file }
  } finally {
    rmSync(temporary, { force: true })
  }
}

/** fsync a file or a folder (a folder, so that a rename in it survives a power loss). */
function syncToDisk(path: string): void {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    fsyncSync(fd)
  } catch {
    // Not every file system syncs a folder; the file itself was synced before.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** The folder of the scheduled backups: BACKUP_DIR, a relative one taken from the database's folder. */
export const backupFolder = (config: Pick<Config, 'databasePath' | 'backupDir'>): string =>
  resolve(dirname(resolve(config.databasePath)), config.backupDir)

/** `20261121T033700Z`: a UTC time that sorts as it reads, for file names. */
const stamp = (clock: Clock): string =>
  clock
    .now()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The names the scheduled backups of a database take: `quest-tracker-20261121T033700Z.sqlite`. */
function scheduledNames(databasePath: string) {
  const name = basename(databasePath)
  const stem = name.slice(0, name.length - extname(name).length) || name
  const pattern = new RegExp(`^${escapeRegExp(stem)}-\\d{8}T\\d{6}Z\\.sqlite$`)
  // What writeBackup names its temporary file, with the time of the backup it was for.
  const partial = new RegExp(`^\\.${escapeRegExp(stem)}-(\\d{8}T\\d{6}Z)\\.sqlite\\.[0-9a-f]+\\.partial$`)
  return { nameAt: (clock: Clock) => `${stem}-${stamp(clock)}.sqlite`, pattern, partial }
}

export interface ScheduledBackup extends BackupReport {
  /** The older backups removed to keep BACKUP_KEEP. */
  removed: string[]
  kept: number
}

/**
 * The scheduled backup (also `backup now`): a verified copy in the backup folder, named by the
 * time, then the oldest of this database's scheduled backups removed beyond `keep` (never any
 * other file of the folder, nor a copy of another database).
 */
export function scheduledBackup(
  db: BackupSource,
  config: Pick<Config, 'databasePath' | 'backupDir' | 'backupKeep'>,
  clock: Clock,
): ScheduledBackup {
  const folder = backupFolder(config)
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new BackupError(`cannot make the backup folder ${folder} (${describeFileError(error)})`)
  }
  const names = scheduledNames(config.databasePath)
  // The temporary file of a backup that was killed halfway (kill -9, a power cut) is removed by
  // the next one; not one of this second's, which another process may be writing now.
  for (const name of readdirSync(folder)) {
    const time = names.partial.exec(name)?.[1]
    if (time && time < stamp(clock)) rmSync(join(folder, name), { force: true })
  }
  const report = writeBackup(db, join(folder, names.nameAt(clock)))
  const ours = readdirSync(folder)
    .filter((name) => names.pattern.test(name))
    .sort()
  const removed = ours.slice(0, Math.max(0, ours.length - config.backupKeep)).map((name) => join(folder, name))
  for (const file of removed) rmSync(file, { force: true })
  return { ...report, removed, kept: ours.length - removed.length }
}

/** "1.2 MB", "840 kB": a file's size in a log line. */
export function fileSize(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`
  return `${Math.max(1, Math.round(bytes / 1000))} kB`
}

/** The log line of a scheduled backup. */
export function scheduledSummary(result: ScheduledBackup): string {
  const removed =
    result.removed.length > 0 ? `, removed ${result.removed.map((file) => basename(file)).join(', ')}` : ''
  return `backup written: ${result.file} (${fileSize(result.bytes)}, schema ${result.schemaVersion}, integrity ok); ${result.kept} kept${removed}`
}
