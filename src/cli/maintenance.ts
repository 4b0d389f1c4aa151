// `quest-tracker maintenance prune|optimize`: the scheduled housekeeping's two tasks, by hand.
import { systemClock } from '../clock'
import { optimize, optimizedSummary, prune, prunedSummary } from '../maintenance/housekeeping'
import { databaseFlag, none, parse, UsageError } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage:
  quest-tracker maintenance prune      delete ended sessions, plugin tokens, old invites and
                                       ended undos now
  quest-tracker maintenance optimize   refresh the query planner's statistics (PRAGMA optimize),
                                       vacuum when a quarter of the file (and 1 MiB) is free space

The server runs both every day on MAINTENANCE_CRON (default 03:07). prune deletes, for every
account, the website sessions signed out or past their 30 days, and the plugin tokens revoked or
unused for TOKEN_IDLE_DAYS, and what deletes of completions removed once their hour of undo
ended; live ones are never touched. A vacuum rewrites the whole file and
holds the write lock meanwhile (the server's writes wait, or answer 503 after half a second):
run optimize at a quiet hour. Option: --database PATH (overrides DATABASE_PATH).`

export const maintenance: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  switch (sub) {
    case 'prune': {
      const { values } = parse('maintenance prune', rest, databaseFlag, none())
      const pruned = await withDatabase(io, values, (db, config) => prune(db, systemClock, config))
      io.out(prunedSummary(pruned))
      return 0
    }
    case 'optimize': {
      const { values } = parse('maintenance optimize', rest, databaseFlag, none())
      io.out(optimizedSummary(await withDatabase(io, values, (db) => optimize(db))))
      return 0
    }
    default:
      throw new UsageError(`maintenance: unknown subcommand "${sub}" (prune, optimize)`)
  }
}
