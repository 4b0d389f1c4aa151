// `quest-tracker user add|passwd|list|remove`: accounts from the command line; a password is
// read (io.readPassword), never taken from the arguments.
import { systemClock } from '../clock'
import { quoted } from '../logger'
import { createUser, listUsers, removeUser, setPassword } from '../modules/account/service'
import { productionHasher } from '../modules/auth/password'
import { count } from '../rules/words'
import { databaseFlag, none, one, parse, UsageError, valueFlag } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage:
  quest-tracker user add [--username NAME] [--email ADDR]   create an account
  quest-tracker user passwd NAME                           change a password
  quest-tracker user list                                  list accounts
  quest-tracker user remove NAME                           delete an account and revoke its tokens

The password is read from standard input (one line) or prompted for on a terminal;
it is never taken from the command line. NAME is a username or an e-mail address.
Option: --database PATH (overrides DATABASE_PATH).`

export const user: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  const passwordHasher = io.passwordHasher ?? productionHasher
  switch (sub) {
    case 'add': {
      const { values } = parse(
        'user add',
        rest,
        { username: valueFlag, email: valueFlag, ...databaseFlag },
        none('takes --username and/or --email, no other arguments'),
      )
      const { username, email } = values
      if (!username && !email) throw new UsageError('user add: give --username NAME, --email ADDR, or both')
      const password = await io.readPassword('Password for the new account: ')
      const created = await withDatabase(
        io,
        values,
        (db) => createUser({ db, clock: systemClock, passwordHasher }, { username, email, password }),
        { create: true },
      )
      io.out(`created account ${created.id} (${quoted(created.username ?? created.email ?? '')})`)
      return 0
    }
    case 'passwd': {
      const { values, positionals } = parse(
        'user passwd',
        rest,
        databaseFlag,
        one('give the username or e-mail of the account'),
      )
      const name = positionals[0] as string
      // The database first: no password prompt for a file that is not there.
      await withDatabase(io, values, async (db) =>
        setPassword(
          { db, clock: systemClock, passwordHasher },
          name,
          await io.readPassword(`New password for ${name}: `),
        ),
      )
      io.out(`password changed for ${quoted(name)}`)
      return 0
    }
    case 'list': {
      const { values } = parse('user list', rest, databaseFlag, none('takes no arguments'))
      const rows = await withDatabase(io, values, (db) => listUsers(db))
      if (rows.length === 0) io.out('no accounts yet; create one with: quest-tracker user add --username NAME')
      for (const row of rows) {
        io.out(
          `${row.id}\t${row.username === null ? '-' : quoted(row.username)}\t${row.email === null ? '-' : quoted(row.email)}\t${count(row.activeTokens, 'token')}\tcreated ${row.createdAt}`,
        )
      }
      return 0
    }
    case 'remove': {
      const { values, positionals } = parse(
        'user remove',
        rest,
        databaseFlag,
        one('give the username or e-mail of the account'),
      )
      const removed = await withDatabase(io, values, (db) => removeUser(db, positionals[0] as string))
      io.out(
        `removed account ${removed.id} (${quoted(removed.username ?? removed.email ?? '')}) and revoked its tokens`,
      )
      return 0
    }
    default:
      throw new UsageError(`user: unknown subcommand "${sub}" (add, passwd, list, remove)`)
  }
}
