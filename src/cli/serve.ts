// `quest-tracker serve` (the default command): the configuration from the environment and the
// flags, the server started (startServer), and stopped when the caller says so (a signal).
import type { Config } from '../config'
import { createLogger } from '../logger'
import { startServer } from '../server'
import { databaseFlag, none, parse, valueFlag } from './args'
import { type CliIO, type Command, configFrom } from './io'

const HELP = `Usage: quest-tracker serve [--port N] [--host ADDR] [--database PATH]

Starts the HTTP server. Flags override PORT, HOST and DATABASE_PATH.`

export const serve: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const { values } = parse('serve', args, { port: valueFlag, host: valueFlag, ...databaseFlag }, none())
  const config = configFrom(io, values)
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
