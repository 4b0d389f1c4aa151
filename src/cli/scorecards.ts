// `quest-tracker scorecards import FILE`: replaces the optional-pursuit scorecards.
import { resolve } from 'node:path'
import { importScorecards } from '../modules/catalog/service'
import { count } from '../rules/words'
import { databaseFlag, one, parse, UsageError } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage: quest-tracker scorecards import FILE [--database PATH]

Replaces the scorecards served by GET /api/plugin/scorecards with those in FILE: a JSON object
keyed by quest name, each value an object of thresholds (see docs/catalog.md).`

export const scorecards: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  if (sub !== 'import') throw new UsageError(`scorecards: unknown subcommand "${sub}" (import)`)
  const { values, positionals } = parse('scorecards import', rest, databaseFlag, one('give the path of the JSON file'))
  const file = resolve(positionals[0] as string)
  const imported = await withDatabase(io, values, (db) => importScorecards(db, file))
  const { notInCatalog } = imported
  io.out(`imported ${count(imported.count, 'scorecard')} from ${file}`)
  if (notInCatalog.length > 0) io.out(`not in the catalog (kept anyway): ${notInCatalog.join(', ')}`)
  return 0
}
