// `restore FILE`: a verified backup put in place of the database, with the server stopped. The
// current database (and its -wal, should one be left) is kept aside, never deleted.
import { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  unlinkSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { Clock } from '../clock'
import { describeFileError, isDatabaseBusy } from '../db/client'
import { BackupError, type BackupReport, verifyBackup } from './backup'

/** The restore cannot go ahead (the server runs, the backup is in doubt): one line, nothing changed. */
export class RestoreRefused extends Error {}

export interface Restored {
  report: BackupReport
  database: string
  /** Where the database that was in place now is; null when there was none. */
  aside: string | null
}

/**
 * Whether another connection has the database open (the server, or an admin command). Every
 * connection to a WAL database holds a shared lock on it for as long as it is open, so an
 * exclusive lock, asked for without waiting, is refused exactly while anything else has it
 * open: the same check SQLite makes before it lets a database leave WAL mode. A database no one
 * has open is checkpointed on the way (its -wal emptied into it), so the file set aside is whole.
 */
function refuseWhileInUse(file: string): void {
  let sqlite: Database | undefined
  try {
    sqlite = new Database(file, { readwrite: true })
    sqlite.run('PRAGMA busy_timeout = 0')
    sqlite.run('PRAGMA locking_mode = EXCLUSIVE')
    sqlite.run('BEGIN EXCLUSIVE')
    sqlite.run('COMMIT')
    sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  } catch (error) {
    if (isDatabaseBusy(error)) {
      throw new RestoreRefused(
        `the database ${file} is in use (is the server running?); stop the server first, nothing was changed`,
      )
    }
    // A damaged database (what is being replaced, often) cannot be asked: it goes aside as it is.
  } finally {
    sqlite?.close()
  }
}

/** "2026-11-21T03:37:00.000Z" as "20261121T033700Z", for the name of the file kept aside. */
const stamp = (clock: Clock): string =>
  clock
    .now()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

/**
 * Moves `from` to `to` unless `to` exists; false when it does. A hard link then the old name's
 * removal, since a rename replaces whatever holds the new name: the database kept aside by a
 * restore in the same second was lost that way. A file system without hard links gets a
 * rename after a look (the restore runs with the server stopped; only another restore races it).
 */
function moveUnlessTaken(from: string, to: string): boolean {
  try {
    linkSync(from, to)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error
    if (existsSync(to)) return false
    renameSync(from, to)
    return true
  }
  unlinkSync(from)
  return true
}

/**
 * Moves the database (and its -wal, when one was left) aside as `<file>.before-restore-<time>`,
 * or `…-2`, `-3` when a restore of the same second took that name: a name is taken only when
 * neither it nor its -wal exists, and never by renaming over anything. The -shm is removed
 * (SQLite rebuilds it). Returns the name.
 */
function setAside(database: string, clock: Clock): string {
  const base = `${database}.before-restore-${stamp(clock)}`
  for (let n = 1; ; n++) {
    const aside = n === 1 ? base : `${base}-${n}`
    if (existsSync(`${aside}-wal`) || !moveUnlessTaken(database, aside)) continue
    if (existsSync(`${database}-wal`) && !moveUnlessTaken(`${database}-wal`, `${aside}-wal`)) {
      // A -wal of that name appeared meanwhile: the database goes back, and on to the next name.
      if (!moveUnlessTaken(aside, database)) throw new Error(`${database} appeared while it was being set aside`)
      continue
    }
    rmSync(`${database}-shm`, { force: true })
    return aside
  }
}

/**
 * Verifies `backup`, refuses while the database is open elsewhere, copies the backup next to the
 * database (0600, synced, verified again), moves the database aside (setAside: a name of its
 * own, its -wal beside it) and renames the copy into place. A backup of an older schema is upgraded at the next start.
 */
export function restoreBackup(databasePath: string, backup: string, clock: Clock): Restored {
  const database = resolve(databasePath)
  const source = resolve(backup)
  if (source === database) throw new RestoreRefused(`${source} is the database itself; give a backup of it`)
  let report: BackupReport
  try {
    report = verifyBackup(source)
  } catch (error) {
    if (error instanceof BackupError) throw new RestoreRefused(`${error.message}; nothing was changed`)
    throw error
  }
  const present = existsSync(database)
  if (present) refuseWhileInUse(database)
  const folder = dirname(database)
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new RestoreRefused(`cannot make the database folder ${folder} (${describeFileError(error)})`)
  }
  const copy = join(folder, `.${basename(database)}.${randomBytes(6).toString('hex')}.restoring`)
  try {
    try {
      copyFileSync(source, copy, 1) // COPYFILE_EXCL
      chmodSync(copy, 0o600)
      const fd = openSync(copy, 'r')
      try {
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    } catch (error) {
      throw new RestoreRefused(
        `cannot copy the backup into ${folder} (${describeFileError(error)}); nothing was changed`,
      )
    }
    try {
      verifyBackup(copy)
    } catch (error) {
      if (error instanceof BackupError)
        throw new RestoreRefused(`the copy failed its check (${error.message}); nothing was changed`)
      throw error
    }
    const aside = present ? setAside(database, clock) : null
    renameSync(copy, database)
    return { report, database, aside }
  } finally {
    rmSync(copy, { force: true })
  }
}
