// `quest-tracker backup PATH`: a consistent copy of the live database (VACUUM INTO).
import { closeSync, lstatSync, openSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { DatabaseFileError, databaseProblem, describeFileError, openDatabase } from '../db/client'
import { databaseFlag, one, parse, UsageError } from './args'
import { type CliIO, type Command, configFrom } from './io'

const HELP = `Usage: quest-tracker backup PATH [--database PATH]

Writes a consistent copy of the live database to PATH (SQLite VACUUM INTO); safe while
the server runs. PATH must not exist yet.`

export const backup: Command = { help: HELP, run }

function run(io: CliIO, args: string[]): number {
  const { values, positionals } = parse('backup', args, databaseFlag, one('give the path of the copy to write'))
  const target = resolve(positionals[0] as string)
  let existing: ReturnType<typeof lstatSync> | undefined
  try {
    existing = lstatSync(target, { throwIfNoEntry: false })
  } catch {
    // ENOTDIR: creating the copy below says what is wrong with the path
  }
  // SQLite would write the copy wherever a dangling link points.
  if (existing?.isSymbolicLink()) throw new UsageError(`backup: ${target} is a symbolic link; give a new file's path`)
  if (existing) throw new UsageError(`backup: ${target} already exists`)
  const config = configFrom(io, values)
  const db = openDatabase(config.databasePath, { synchronous: config.databaseSynchronous, create: false })
  io.err(`quest-tracker: database ${resolve(config.databasePath)}`)
  try {
    // The copy holds the password hashes too: born 0600, and O_EXCL never follows a link made
    // since the check. VACUUM INTO accepts an existing empty file.
    try {
      closeSync(openSync(target, 'wx', 0o600))
    } catch (error) {
      throw new UsageError(`backup: cannot create ${target} (${describeFileError(error)})`)
    }
    try {
      db.$client.query('VACUUM INTO ?').run(target)
    } catch (error) {
      rmSync(target, { force: true })
      const problem = databaseProblem(error, resolve(config.databasePath))
      throw problem ? new DatabaseFileError(`backup: no copy written: ${problem}`) : error
    }
  } finally {
    db.$client.close()
  }
  io.out(`backup written to ${target}`)
  return 0
}
