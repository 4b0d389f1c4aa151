// What a command is given (CliIO: the environment, output, a password prompt) and what several
// commands do with it: the configuration from their flags, the database opened for them.
import { resolve } from 'node:path'
import { type Config, loadConfig } from '../config'
import { DatabaseFileError, type DB, databaseProblem, openDatabase } from '../db/client'
import type { PasswordHasher } from '../modules/auth/password'

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

/** A command: its help (--help, or no subcommand) and what it does with the rest of the arguments. */
export interface Command {
  help: string
  /** The exit code; misuse is thrown (UsageError, HelpWanted), as is a refusal of the service. */
  run(io: CliIO, args: string[]): Promise<number> | number
}

/** Prints a command's help: exit 0. */
export function printHelp(io: CliIO, text: string): number {
  io.out(text)
  return 0
}

/** The flags that stand for variables (`--port` for PORT), for loadConfig. */
export function configFrom(io: CliIO, flags: { port?: string; host?: string; database?: string }): Config {
  const overrides: Record<string, string | undefined> = {
    PORT: flags.port,
    HOST: flags.host,
    DATABASE_PATH: flags.database,
  }
  for (const key of Object.keys(overrides)) if (overrides[key] === undefined) delete overrides[key]
  return loadConfig(io.env, overrides)
}

/**
 * Opens the configured database for one command, says which file (on stderr, so that output
 * such as `route export` stays clean), and closes it after. Only `user add` may create it.
 */
export async function withDatabase<T>(
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
