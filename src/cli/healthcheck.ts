// `quest-tracker healthcheck`: asks the local server's /api/health (Docker's HEALTHCHECK).
import { none, parse, valueFlag } from './args'
import { type CliIO, type Command, configFrom } from './io'

const HELP = `Usage: quest-tracker healthcheck [--port N]

Asks http://127.0.0.1:PORT/api/health and exits 0 when it answers ok (for Docker).`

export const healthcheck: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const config = configFrom(io, parse('healthcheck', args, { port: valueFlag }, none()).values)
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
