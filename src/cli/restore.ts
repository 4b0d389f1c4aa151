// `quest-tracker restore FILE`: a verified backup in place of the database, the server stopped.
import { systemClock } from '../clock'
import { RestoreRefused, restoreBackup } from '../maintenance/restore'
import { count } from '../rules/words'
import { databaseFlag, one, parse } from './args'
import { type CliIO, type Command, configFrom } from './io'

const HELP = `Usage: quest-tracker restore FILE [--database PATH]

Puts the backup FILE in place of the database. Stop the server first: while anything has the
database open, restore refuses and changes nothing. FILE is checked first (as backup verify);
the database in place is kept aside as DATABASE.before-restore-TIME, never deleted. A backup
made by an older version is upgraded when the server starts.`

export const restore: Command = { help: HELP, run }

function run(io: CliIO, args: string[]): number {
  const { values, positionals } = parse('restore', args, databaseFlag, one('give the path of the backup to restore'))
  const config = configFrom(io, values)
  try {
    const { report, database, aside } = restoreBackup(config.databasePath, positionals[0] as string, systemClock)
    const accounts = report.tables.find((table) => table.name === 'users')?.rows ?? 0
    const before = aside ? `the database before it is kept as ${aside}` : 'there was no database before'
    io.out(
      `restored ${report.file} (schema ${report.schemaVersion}, ${count(accounts, 'account')}) to ${database}; ${before}`,
    )
    return 0
  } catch (error) {
    if (!(error instanceof RestoreRefused)) throw error
    io.err(`quest-tracker: restore: ${error.message}`)
    return 1
  }
}
