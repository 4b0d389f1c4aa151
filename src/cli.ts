// The admin command line: serve (default), user add|passwd|list|remove, catalog sync, scorecards
// import, route export|import, backup, healthcheck; --help and --version.
// `run` returns an exit code instead of exiting so tests can drive it in-process.
// Misuse (unknown command, bad flag, missing argument): one line on stderr, exit 2.
import { closeSync, lstatSync, openSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
import { systemClock } from './clock'
import { type Config, ConfigError, loadConfig, variableDocs } from './config'
import { DatabaseFileError, type DB, databaseProblem, describeFileError, openDatabase } from './db/client'
import { HttpError } from './http/errors'
import { ListenError } from './http/listen'
import { createLogger, silentLogger } from './logger'
import {
  createUser,
  listLiveTokens,
  listUsers,
  removeUser,
  revokeTokenById,
  setPassword,
} from './modules/account/service'
import { type PasswordHasher, productionHasher } from './modules/auth/password'
import { importScorecards } from './modules/catalog/service'
import { syncCatalog, syncDetails, syncSummary } from './modules/catalog/sync'
import { exportRoute, importRoute, readRouteFile } from './modules/routes/transfer'
import { count } from './rules/words'
import { startServer } from './server'
import { VERSION } from './version'

export interface CliIO {
  env: Record<string, string | undefined>
  out(line: string): void
  err(line: string): void
  /** Reads a password: one line from standard input, or a hidden prompt on a terminal. */
  readPassword(prompt: string): Promise<string>
  /** Called by `serve` once listening; resolves when the server should stop (`reason`: e.g. SIGTERM). */
  untilStopped?(stop: (reason?: string) => Promise<void>): Promise<void>
  /** argon2id at the production cost unless given; in-process tests pass a cheap one. */
  passwordHasher?: PasswordHasher
}

class UsageError extends Error {}

const HELP: Record<string, string> = {
  main: `Quest Tracker ${VERSION}: a self-hosted quest tracker server for Dungeons & Dragons Online.
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
  catalog sync [--from URL_OR_PATH] [--verbose]
                            sync the quest catalog now (offline: --from a saved copy)
  scorecards import FILE    load optional-pursuit scorecards from a JSON file
  route export ID           print a route as JSON (redirect it to a file to share it)
  route import FILE --owner NAME
                            add the route in FILE, owned by account NAME
  backup PATH               write a consistent copy of the database (safe while serving)
  healthcheck [--port N]    exit 0 when the local server answers /api/health

Every command takes --help; those that use the database take --database PATH.
--version prints the version.

Environment (a flag of the same meaning wins over its variable):
${environmentHelp()}

Getting started: run "quest-tracker serve", then "quest-tracker user add --username NAME", and
give the game plugin the base URL http://THIS-MACHINE:8080/api/plugin. The running server
documents its API at /docs and /api/plugin/docs; /api/health answers {"ok":true}.

Exit codes: 0 done; 1 the command failed (an unknown account, an unreadable source...);
2 misuse, or a problem with the configuration, the port or the database file (one line on stderr).`,
  serve: `Usage: quest-tracker serve [--port N] [--host ADDR] [--database PATH]

Starts the HTTP server. Flags override PORT, HOST and DATABASE_PATH.`,
  user: `Usage:
  quest-tracker user add [--username NAME] [--email ADDR]   create an account
  quest-tracker user passwd NAME                           change a password
  quest-tracker user list                                  list accounts
  quest-tracker user remove NAME                           delete an account and revoke its tokens

The password is read from standard input (one line) or prompted for on a terminal;
it is never taken from the command line. NAME is a username or an e-mail address.
Option: --database PATH (overrides DATABASE_PATH).`,
  token: `Usage:
  quest-tracker token list [NAME]   live plugin tokens, of account NAME or of every account
  quest-tracker token revoke ID     revoke token ID (from the list); the plugin must log in again

Tokens are shown by id, owner, label, creation and last use, never the token itself (only its
SHA-256 is stored). A token unused for TOKEN_IDLE_DAYS (default 180) stops working by itself.
Option: --database PATH (overrides DATABASE_PATH).`,
  catalog: `Usage: quest-tracker catalog sync [--from URL_OR_PATH] [--verbose] [--database PATH]

Syncs the quest catalog now, with the same code as the daily job: from --from, or else
CATALOG_SOURCE_URL. The source is the DDO wiki page "Quests by level and XP" (HTML) or a JSON
array of quest rows, from a URL or a local file. All or nothing: a failed fetch, a page that
does not parse, or a result under half the current rows keeps the catalog and exits 1.
Prints one summary line; --verbose adds a line per quest added, removed or changed.
Without internet access, save the page elsewhere and load it: --from ./quests.html`,
  scorecards: `Usage: quest-tracker scorecards import FILE [--database PATH]

Replaces the scorecards served by GET /api/plugin/scorecards with those in FILE: a JSON object
keyed by quest name, each value an object of thresholds (see docs/catalog.md).`,
  route: `Usage:
  quest-tracker route export ID                 print route ID as JSON (redirect it to a file)
  quest-tracker route import FILE --owner NAME  add the route in FILE, owned by account NAME

The file format is described in docs/routes.md. Import always creates a new route.
Option: --database PATH (overrides DATABASE_PATH).`,
  backup: `Usage: quest-tracker backup PATH [--database PATH]

Writes a consistent copy of the live database to PATH (SQLite VACUUM INTO); safe while
the server runs. PATH must not exist yet.`,
  healthcheck: `Usage: quest-tracker healthcheck [--port N]

Asks http://127.0.0.1:PORT/api/health and exits 0 when it answers ok (for Docker).`,
}

/**
 * --help among a command's flags: thrown by `parse`, so that no command checks for it itself;
 * `run` prints HELP[topic] and exits 0.
 */
class HelpWanted {
  constructor(readonly topic: string) {}
}

const valueFlag = { type: 'string' } as const
const switchFlag = { type: 'boolean' } as const
const databaseFlag = { database: valueFlag } as const
/** Every command takes --help, also as -h. */
const helpFlag = { help: { type: 'boolean', short: 'h' } } as const

/** How many positional arguments a command takes, and the line (after "COMMAND: ") for any other count. */
interface Arity {
  min: number
  max: number
  usage: string
}
const none = (usage = 'takes no arguments (see --help)'): Arity => ({ min: 0, max: 0, usage })
const one = (usage: string): Arity => ({ min: 1, max: 1, usage })

/**
 * A command's arguments through node:util parseArgs (strict: an unknown flag, a flag without
 * its value and a stray argument are refused), each misuse as one line naming the flag.
 * `--name value` and `--name=value` both work; --help anywhere shows the command's help.
 */
function parse<const O extends ParseArgsOptionsConfig>(command: string, args: string[], options: O, arity: Arity) {
  const parsed = strictParse(command, args, { ...options, ...helpFlag }, arity)
  const flags: Record<string, unknown> = parsed.values
  for (const [name, value] of Object.entries(flags)) {
    if (value === '') throw new UsageError(`${command}: --${name} needs a value`)
  }
  if (flags.help) throw new HelpWanted(command.split(' ')[0] as string)
  const { positionals } = parsed
  if (positionals.length < arity.min || positionals.length > arity.max) {
    throw new UsageError(`${command}: ${arity.usage}`)
  }
  return parsed
}

function strictParse<const O extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: O,
  arity: Arity,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: arity.max > 0 })
  } catch (error) {
    throw new UsageError(`${command}: ${misuse(args, options, arity, error)}`)
  }
}

/**
 * What the strict parse refused, in words: the arguments again as tokens, without strict,
 * and the first one that breaks a rule (parseArgs's own message spans lines and varies).
 */
function misuse(args: string[], options: ParseArgsOptionsConfig, arity: Arity, error: unknown): string {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
  for (const token of tokens) {
    if (token.kind === 'positional' && arity.max === 0) return arity.usage
    if (token.kind !== 'option') continue
    const option = options[token.name]
    if (!option) return `unknown option ${token.rawName} (see --help)`
    if (option.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`
    if (token.value === undefined) return `${token.rawName} needs a value`
    // parseArgs will not take "-x" after a flag as its value: it is more likely a forgotten one.
    if (!token.inlineValue && token.value.startsWith('-')) {
      return `${token.rawName} needs a value; ${token.value} looks like a flag (write ${token.rawName}=${token.value} if it is the value)`
    }
  }
  // A refusal these rules do not foresee: parseArgs's own words, first line.
  return `${error instanceof Error ? error.message.split('\n')[0] : error} (see --help)`
}

/** The flags that stand for variables (`--port` for PORT), for loadConfig. */
function configFrom(io: CliIO, flags: { port?: string; host?: string; database?: string }): Config {
  const overrides: Record<string, string | undefined> = {
    PORT: flags.port,
    HOST: flags.host,
    DATABASE_PATH: flags.database,
  }
  for (const key of Object.keys(overrides)) if (overrides[key] === undefined) delete overrides[key]
  return loadConfig(io.env, overrides)
}

/** The variables of the configuration schema as `NAME=default  meaning` lines for --help. */
function environmentHelp(): string {
  const column = 28
  const indent = ' '.repeat(column)
  return variableDocs()
    .flatMap(({ name, fallback, description }) => {
      const left = `  ${name}=${/\s/.test(fallback) ? `"${fallback}"` : fallback}`
      const lines = wrap(description.replaceAll('`', ''), 100 - column)
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

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [command = 'serve', ...rest] =
    argv[0]?.startsWith('--') && argv[0] !== '--help' && argv[0] !== '--version' ? ['serve', ...argv] : argv
  try {
    switch (command) {
      case '--help':
      case '-h':
      case 'help':
        io.out(HELP.main as string)
        return 0
      case '--version':
      case '-V':
      case 'version':
        io.out(`quest-tracker ${VERSION}`)
        return 0
      case 'serve':
        return await serve(
          io,
          parse('serve', rest, { port: valueFlag, host: valueFlag, ...databaseFlag }, none()).values,
        )
      case 'user':
        return await user(io, rest)
      case 'token':
        return await token(io, rest)
      case 'catalog':
        return await catalog(io, rest)
      case 'scorecards':
        return await scorecards(io, rest)
      case 'route':
        return await route(io, rest)
      case 'backup':
        return backup(io, rest)
      case 'healthcheck':
        return await healthcheck(io, parse('healthcheck', rest, { port: valueFlag }, none()).values)
      default:
        throw new UsageError(`unknown command "${command}" (see quest-tracker --help)`)
    }
  } catch (error) {
    if (error instanceof HelpWanted) return help(io, error.topic)
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof ListenError ||
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

async function serve(io: CliIO, flags: { port?: string; host?: string; database?: string }): Promise<number> {
  const config = configFrom(io, flags)
  const server = await startServer({ config, logger: cliLogger(io, config), passwordHasher: io.passwordHasher })
  if (io.untilStopped) await io.untilStopped(server.stop)
  return 0
}

/** The logger of a command, writing through `io` (warn and error to stderr). */
function cliLogger(io: CliIO, config: Config) {
  return createLogger(config.logLevel, {
    format: config.logFormat,
    write: (line, level) => (level === 'warn' || level === 'error' ? io.err(line) : io.out(line)),
  })
}

async function user(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return help(io, 'user')
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
      io.out(`created account ${created.id} (${created.username ?? created.email})`)
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
      io.out(`password changed for ${name}`)
      return 0
    }
    case 'list': {
      const { values } = parse('user list', rest, databaseFlag, none('takes no arguments'))
      const rows = await withDatabase(io, values, (db) => listUsers(db))
      if (rows.length === 0) io.out('no accounts yet; create one with: quest-tracker user add --username NAME')
      for (const row of rows) {
        io.out(
          `${row.id}\t${row.username ?? '-'}\t${row.email ?? '-'}\t${count(row.activeTokens, 'token')}\tcreated ${row.createdAt}`,
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
      io.out(`removed account ${removed.id} (${removed.username ?? removed.email}) and revoked its tokens`)
      return 0
    }
    default:
      throw new UsageError(`user: unknown subcommand "${sub}" (add, passwd, list, remove)`)
  }
}

async function token(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return help(io, 'token')
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
          `${row.id}\t${row.owner}\t${row.label}\tcreated ${row.createdAt}\tlast used ${row.lastUsedAt ?? 'never'}`,
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

/**
 * Opens the configured database for one command, says which file (on stderr, so that output
 * such as `route export` stays clean), and closes it after. Only `user add` may create it.
 */
async function withDatabase<T>(
  io: CliIO,
  flags: { database?: string },
  fn: (db: DB, config: Config) => T | Promise<T>,
  { create = false } = {},
): Promise<T> {
  const config = configFrom(io, flags)
  const db = openDatabase(config.databasePath, { synchronous: config.databaseSynchronous, create })
  io.err(`quest-tracker: database ${resolve(config.databasePath)}`)
  try {
    return await fn(db, config)
  } catch (error) {
    // A write to a read-only file, a lock held too long: one line, like a problem found at open.
    const problem = databaseProblem(error, resolve(config.databasePath))
    throw problem ? new DatabaseFileError(problem) : error
  } finally {
    db.$client.close()
  }
}

async function catalog(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return help(io, 'catalog')
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

async function scorecards(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return help(io, 'scorecards')
  if (sub !== 'import') throw new UsageError(`scorecards: unknown subcommand "${sub}" (import)`)
  const { values, positionals } = parse('scorecards import', rest, databaseFlag, one('give the path of the JSON file'))
  const file = resolve(positionals[0] as string)
  const imported = await withDatabase(io, values, (db) => importScorecards(db, file))
  const { notInCatalog } = imported
  io.out(`imported ${count(imported.count, 'scorecard')} from ${file}`)
  if (notInCatalog.length > 0) io.out(`not in the catalog (kept anyway): ${notInCatalog.join(', ')}`)
  return 0
}

async function route(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return help(io, 'route')
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
      io.out(`imported route ${created.id} "${created.name}" (${created.quests.length} steps), owned by ${owner}`)
      return 0
    }
    default:
      throw new UsageError(`route: unknown subcommand "${sub}" (export, import)`)
  }
}

function backup(io: CliIO, args: string[]): number {
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

async function healthcheck(io: CliIO, flags: { port?: string }): Promise<number> {
  const config = configFrom(io, flags)
  try {
    const response = await fetch(`http://127.0.0.1:${config.port}/api/health`, { signal: AbortSignal.timeout(3000) })
    const body = (await response.json()) as { ok?: boolean }
    if (response.ok && body.ok === true) return 0
  } catch {
    // fall through: unhealthy
  }
  io.err('quest-tracker: the server did not answer /api/health')
  return 1
}

function help(io: CliIO, topic: string): number {
  io.out(HELP[topic] as string)
  return 0
}
