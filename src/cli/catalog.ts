// `quest-tracker catalog sync`: the daily job's sync, now, from the configured sources or --from;
// `quest-tracker catalog status`: where the catalog comes from and how each source's last try went.
import { systemClock } from '../clock'
import { silentLogger } from '../logger'
import { catalogProvenance } from '../modules/catalog/service'
import { SNAPSHOT } from '../modules/catalog/snapshot'
import { sourceLabel } from '../modules/catalog/sources'
import { syncCatalog, syncDetails, syncSummary } from '../modules/catalog/sync'
import { databaseFlag, none, parse, switchFlag, UsageError, valueFlag } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage: quest-tracker catalog sync [--from URL_OR_PATH] [--verbose] [--database PATH]
       quest-tracker catalog status [--database PATH]

sync: brings the quest catalog up to date now, with the same code as the daily job: from
--from, or else the sources of CATALOG_SOURCES, tried in order until one answers (the DDO wiki's
page "Quests by level and XP", DDO Audit's quest list, another Quest Tracker's /api/catalog, or a
JSON array of quest rows; a URL or a local file). The rows are merged in: quests are updated and
added, never removed, and every completion stays. When no source can be read, the catalog is
kept and the command exits 1. Prints one summary line; --verbose adds a line per quest added or
changed, and per source row left out.
Without internet access, or when every source refuses the server, load a saved copy:
--from ./quests.html

status: how many quests the catalog holds, where they come from (the copy that ships with
Quest Tracker, or the last sync), and how the last try of each source went.`

export const catalog: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  if (sub === 'status') return status(io, rest)
  if (sub !== 'sync') throw new UsageError(`catalog: unknown subcommand "${sub}" (sync, status)`)
  const { values } = parse(
    'catalog sync',
    rest,
    { from: valueFlag, verbose: switchFlag, ...databaseFlag },
    none('takes --from URL_OR_PATH and --verbose, no other arguments'),
  )
  return withDatabase(io, values, async (db, config) => {
    // The command prints the summary itself: the sync's own log lines would repeat it.
    const result = await syncCatalog(
      { db, clock: systemClock, logger: silentLogger },
      values.from ?? config.catalogSources,
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

function status(io: CliIO, args: string[]): Promise<number> {
  const { values } = parse('catalog status', args, { ...databaseFlag }, none('takes no arguments'))
  return withDatabase(io, values, async (db, config) => {
    const state = catalogProvenance(db, config.catalogSources)
    const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'never')
    if (state.origin === 'none') io.out(`quests: ${state.rows} (never filled: the server fills it when it starts)`)
    else if (state.origin === 'snapshot')
      io.out(
        `quests: ${state.rows}, the copy that ships with Quest Tracker (${SNAPSHOT.title}, ${SNAPSHOT.source}, as of ${day(state.asOf)}); never synced`,
      )
    else io.out(`quests: ${state.rows}, from ${state.source}, synced ${state.syncedAt}`)
    io.out(`sources: ${config.catalogSources.map(sourceLabel).join(', then ')}`)
    for (const attempt of state.attempts) {
      io.out(`  ${attempt.at}  ${attempt.source}: ${attempt.outcome} (${attempt.detail})`)
    }
    if (state.attempts.length === 0) io.out('  no sync tried yet')
    return 0
  })
}
