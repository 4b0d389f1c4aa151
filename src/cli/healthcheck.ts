// `quest-tracker healthcheck`: asks the local server's /api/health (Docker's HEALTHCHECK).
import { tlsFiles } from '../http/tls'
import { none, parse, valueFlag } from './args'
import { type CliIO, type Command, configFrom } from './io'

const HELP = `Usage: quest-tracker healthcheck [--port N]

Asks http://127.0.0.1:PORT/api/health (https:// when TLS_CERT_FILE is set) and exits 0 when it
answers ok (for Docker); 1 when the server does not answer, or answers that it is degraded (a
full disk: the line says why).`

export const healthcheck: Command = { help: HELP, run }

async function run(io: CliIO, args: string[]): Promise<number> {
  const config = configFrom(io, parse('healthcheck', args, { port: valueFlag }, none()).values)
  // Over HTTPS the certificate names the server's LAN name, not 127.0.0.1, and this asks the
  // server on this very machine: its certificate is not what is being checked.
  const scheme = tlsFiles(config) ? 'https' : 'http'
  try {
    const response = await fetch(`${scheme}://127.0.0.1:${config.port}/api/health`, {
      signal: AbortSignal.timeout(3000),
      tls: { rejectUnauthorized: false },
    })
    const body = (await response.json()) as { ok?: boolean; error?: unknown }
    if (response.ok && body.ok === true) return 0
    if (body.ok === false && typeof body.error === 'string') {
      io.err(`quest-tracker: the server is degraded: ${body.error}`)
      return 1
    }
  } catch {
    // fall through: unhealthy
  }
  io.err('quest-tracker: the server did not answer /api/health')
  return 1
}
