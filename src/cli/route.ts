// `quest-tracker route export|import`: a route as a file, to share it between servers.
import { resolve } from 'node:path'
import { systemClock } from '../clock'
import { quoted } from '../logger'
import { exportRoute, importRoute, readRouteFile } from '../modules/routes/transfer'
import { databaseFlag, one, parse, UsageError, valueFlag } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage:
  quest-tracker route export ID                 print route ID as JSON (redirect it to a file)
  quest-tracker route import FILE --owner NAME  add the route in FILE, owned by account NAME

The file format is described in docs/routes.md. Import always creates a new route.
Option: --database PATH (overrides DATABASE_PATH).`

export const route: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  switch (sub) {
    case 'export': {
      const { values, positionals } = parse('route export', rest, databaseFlag, one('give the id of the route'))
      const id = Number(positionals[0])
      if (!Number.isInteger(id) || id < 1) throw new UsageError('route export: the id is a whole number')
      const file = await withDatabase(io, values, (db) => exportRoute(db, id))
      io.out(JSON.stringify(file, null, 2))
      return 0
    }
    case 'import': {
      const { values, positionals } = parse(
        'route import',
        rest,
        { owner: valueFlag, ...databaseFlag },
        one('give the path of the route file'),
      )
      const owner = values.owner
      if (!owner) throw new UsageError('route import: give --owner NAME (the account that will own the route)')
      const text = readRouteFile(resolve(positionals[0] as string))
      const created = await withDatabase(io, values, (db) => importRoute(db, systemClock, text, owner))
      io.out(
        `imported route ${created.id} ${quoted(created.name)} (${created.quests.length} steps), owned by ${quoted(owner)}`,
      )
      return 0
    }
    default:
      throw new UsageError(`route: unknown subcommand "${sub}" (export, import)`)
  }
}
