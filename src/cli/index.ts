// The admin command line: serve (default), user add|passwd|list|remove, token list|revoke,
// invite create|list|revoke, catalog sync|status, scorecards import, route export|import, data export,
// completions export|import, backup PATH|now|verify, restore, maintenance prune|optimize,
// healthcheck; --help and --version.
// `run` returns an exit code instead of exiting so tests can drive it in-process.
// Misuse (unknown command, bad flag, missing argument): one line on stderr, exit 2.
// Each command is a file of this folder with its help text beside its flags; args.ts parses them.
import { ConfigError, variableDocs } from '../config'
import { DatabaseFileError } from '../db/client'
import { SCHEMA_VERSION } from '../db/migrate'
import { HttpError } from '../http/errors'
import { ListenError } from '../http/listen'
import { TlsError } from '../http/tls'
import { VERSION } from '../version'
import { HelpWanted, UsageError } from './args'
import { backup } from './backup'
import { catalog } from './catalog'
import { completionsCommand, data } from './data'
import { healthcheck } from './healthcheck'
import { invite } from './invite'
import { type CliIO, type Command, printHelp } from './io'
import { maintenance } from './maintenance'
import { restore } from './restore'
import { route } from './route'
import { scorecards } from './scorecards'
import { serve } from './serve'
import { token } from './token'
import { user } from './user'

export type { CliIO } from './io'

/** The commands by name (a Map: a name such as "constructor" is no command). */
const COMMANDS = new Map<string, Command>([
  ['serve', serve],
  ['user', user],
  ['token', token],
  ['invite', invite],
  ['catalog', catalog],
  ['scorecards', scorecards],
  ['route', route],
  ['data', data],
  ['completions', completionsCommand],
  ['backup', backup],
  ['restore', restore],
  ['maintenance', maintenance],
  ['healthcheck', healthcheck],
])

const HELP = `Quest Tracker ${VERSION}: a self-hosted quest tracker server for Dungeons & Dragons Online.
The game plugin posts your characters and quest completions to it; it serves them back with the
quest catalog, shared routes, progress and builds. One process, one SQLite file.

Usage: quest-tracker [command] [options]

Commands:
  serve [--port N] [--host ADDR] [--database PATH]
                            start the server (the default command)
  user add [--username NAME] [--email ADDR]
                            create an account; the password is read from standard input (one
                            line) or prompted for, never taken from the command line
  user passwd NAME          change a password (NAME: a username or an e-mail address)
  user list                 list accounts and their live tokens
  user remove NAME          delete an account, its characters and routes; revoke its tokens
  token list [NAME]         list live plugin tokens (of account NAME): id, owner, label, last use
  token revoke ID           revoke one plugin token (the plugin must log in again)
  invite create [--days N] [--url BASE]
                            a one-time link (/join/CODE) with which a newcomer makes an account
                            (works when SIGNUP_INVITES=on; for 7 days unless --days N)
  invite list               pending invites, the operator's and the groups', by id
  invite revoke ID          end one invite: its link stops working
  catalog sync [--from URL_OR_PATH] [--verbose]
                            sync the quest catalog now (offline: --from a saved copy)
  catalog status            where the quest catalog comes from, and each source's last try
  scorecards import FILE    load optional-pursuit scorecards from a JSON file
  route export ID           print a route as JSON (redirect it to a file to share it)
  route import FILE --owner NAME
                            add the route in FILE, owned by account NAME
  data export --owner NAME  print everything of account NAME as JSON (characters, routes)
  completions export ID     print character ID's completions as CSV
  completions import FILE --character ID [--confirm] [--keep-unmatched]
                            import a CSV of completions (a preview unless --confirm)
  backup PATH               write a consistent, checked copy of the database (safe while serving)
  backup now                the scheduled backup, now: a copy in BACKUP_DIR, keeping BACKUP_KEEP
  backup verify FILE        check a backup: integrity, schema version, rows of each table
  restore FILE              put a checked backup in place of the database (server stopped);
                            the database it replaces is kept aside
  maintenance prune         delete ended sessions, tokens, invites and undos now (also daily)
  maintenance optimize      refresh the planner's statistics; vacuum when much of the file is free
  healthcheck [--port N]    exit 0 when the local server answers /api/health

Every command takes --help; those that use the database take --database PATH.
--version prints the version and the database schema it writes.

Environment (a flag of the same meaning wins over its variable):
${environmentHelp()}

Getting started: run "quest-tracker serve", then "quest-tracker user add --username NAME" (or,
with SIGNUP_INVITES=on, "quest-tracker invite create" for each player, who makes their own), and
give the game plugin the base URL http://THIS-MACHINE:8080/api/plugin. The running server
documents its API at /docs and /api/plugin/docs; /api/health answers {"ok":true,...}.

Exit codes: 0 done; 1 the command failed (an unknown account, an unreadable source...);
2 misuse, or a problem with the configuration, the port or the database file (one line on stderr).`

/** The variables of the configuration schema as `NAME=default  meaning` lines for --help. */
function environmentHelp(): string {
  const column = 28
  const indent = ' '.repeat(column)
  return variableDocs()
    .flatMap(({ name, fallback, description }) => {
      const left = `  ${name}=${/\s/.test(fallback) ? `"${fallback}"` : fallback}`
      const lines = wrap(description.replaceAll('`', ''), 100 - column)
      // A list too long for one line (CATALOG_SOURCES) goes on, an entry a line.
      if (left.length > 100) {
        const [first = '', ...rest] = left.split(', ')
        return [
          `${first},`,
          ...rest.map((entry, i) => `${indent}${entry}${i < rest.length - 1 ? ',' : ''}`),
          ...lines.map((line) => indent + line),
        ]
      }
      if (left.length > column - 1) return [left, ...lines.map((line) => indent + line)]
      return [left.padEnd(column) + lines[0], ...lines.slice(1).map((line) => indent + line)]
    })
    .join('\n')
}

/** Words into lines of at most `width` characters (a longer word stands alone). */
function wrap(words: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of words.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  return [...lines, line]
}

/** Runs the command `argv` names (serve when none): its exit code. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [command = 'serve', ...rest] =
    argv[0]?.startsWith('--') && argv[0] !== '--help' && argv[0] !== '--version' ? ['serve', ...argv] : argv
  try {
    switch (command) {
      case '--help':
      case '-h':
      case 'help':
        return printHelp(io, HELP)
      case '--version':
      case '-V':
      case 'version':
        io.out(`quest-tracker ${VERSION} (schema ${SCHEMA_VERSION})`)
        return 0
    }
    const found = COMMANDS.get(command)
    if (!found) throw new UsageError(`unknown command "${command}" (see quest-tracker --help)`)
    return await found.run(io, rest)
  } catch (error) {
    if (error instanceof HelpWanted) return printHelp(io, (COMMANDS.get(error.topic) as Command).help)
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof ListenError ||
      error instanceof TlsError ||
      error instanceof DatabaseFileError
    ) {
      io.err(`quest-tracker: ${error.message}`)
      return 2
    }
    if (error instanceof HttpError) {
      io.err(`quest-tracker: ${error.message}`)
      return 1
    }
    throw error
  }
}
