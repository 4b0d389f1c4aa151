// `quest-tracker token list|revoke`: the live plugin tokens, shown by id and never themselves.
import { systemClock } from '../clock'
import { quoted } from '../logger'
import { listLiveTokens, revokeTokenById } from '../modules/account/service'
import { databaseFlag, one, parse, UsageError } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage:
  quest-tracker token list [NAME]   live plugin tokens, of account NAME or of every account
  quest-tracker token revoke ID     revoke token ID (from the list); the plugin must log in again

Tokens are shown by id, owner, label, creation and last use, never the token itself (only its
SHA-256 is stored). A token unused for TOKEN_IDLE_DAYS (default 180) stops working by itself.
Option: --database PATH (overrides DATABASE_PATH).`

export const token: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  switch (sub) {
    case 'list': {
      const { values, positionals } = parse('token list', rest, databaseFlag, {
        min: 0,
        max: 1,
        usage: 'give at most one account name',
      })
      const rows = await withDatabase(io, values, (db) => listLiveTokens(db, positionals[0]))
      if (rows.length === 0) io.out('no live tokens')
      for (const row of rows) {
        io.out(
          `${row.id}\t${quoted(row.owner)}\t${quoted(row.label)}\tcreated ${row.createdAt}\tlast used ${row.lastUsedAt ?? 'never'}`,
        )
      }
      return 0
    }
    case 'revoke': {
      const { values, positionals } = parse(
        'token revoke',
        rest,
        databaseFlag,
        one('give the id of the token (see token list)'),
      )
      const id = Number(positionals[0])
      if (!Number.isInteger(id) || id < 1) throw new UsageError('token revoke: the id is a whole number')
      await withDatabase(io, values, (db) => revokeTokenById(db, systemClock, id))
      io.out(`revoked token ${id}`)
      return 0
    }
    default:
      throw new UsageError(`token: unknown subcommand "${sub}" (list, revoke)`)
  }
}
