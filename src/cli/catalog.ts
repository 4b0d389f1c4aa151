// `quest-tracker catalog sync`: the daily job's sync, now, from the configured source or --from.
import { systemClock } from '../clock'
import { silentLogger } from '../logger'
import { syncCatalog, syncDetails, syncSummary } from '../modules/catalog/sync'
import { databaseFlag, none, parse, switchFlag, UsageError, valueFlag } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage: quest-tracker catalog sync [--from URL_OR_PATH] [--verbose] [--database PATH]

Syncs the quest catalog now, with the same code as the daily job: from --from, or else
CATALOG_SOURCE_URL. The source is the DDO wiki page "Quests by level and XP" (HTML) or a JSON
array of quest rows, from a URL or a local file. All or nothing: a failed fetch, a page that
does not parse, or a result under half the current rows keeps the catalog and exits 1.
Prints one summary line; --verbose adds a line per quest added, removed or changed.
Without internet access, save the page elsewhere and load it: --from ./quests.html`

export const catalog: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  if (sub !== 'sync') throw new UsageError(`catalog: unknown subcommand "${sub}" (sync)`)
  const { values } = parse(
    'catalog sync',
    rest,
    { from: valueFlag, verbose: switchFlag, ...databaseFlag },
    none('takes --from URL_OR_PATH and --verbose, no other arguments'),
  )
  return withDatabase(io, values, async (db, config) => {
    // The command prints the summary itself: the sync's own log line would repeat it.
    const result = await syncCatalog(
      { db, clock: systemClock, logger: silentLogger },
      values.from ?? config.catalogSourceUrl,
    )
    if (!result.ok) {
      io.err(`quest-tracker: ${syncSummary(result)}`)
      return 1
    }
    io.out(syncSummary(result))
    if (values.verbose) for (const line of syncDetails(result)) io.out(`  ${line}`)
    return 0
  })
}
