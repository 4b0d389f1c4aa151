// Why the server cannot listen, as one line: a port in use, a privileged port, a HOST that is not
// an address of this machine. `checkListen` finds out before anything is created on disk.

/** The server cannot listen where it was told to: one line, exit 2. */
export class ListenError extends Error {}

/** The reason as the rest of a sentence, or null when `error` is not about the address. */
export function listenProblem(error: unknown, host: string, port: number): string | null {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'EADDRINUSE':
      return `port ${port} is in use (by another Quest Tracker or another program); stop it or choose another PORT`
    case 'EACCES':
      return port < 1024
        ? `port ${port} is privileged (under 1024) and needs root; choose a PORT from 1024 up (the default is 8080)`
        : `this user may not listen on ${host} port ${port}`
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine; use 0.0.0.0 (every address) or one of its own`
    case 'EINVAL':
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_AGAIN':
      return `HOST "${host}" is neither an IP address nor a name this machine can resolve; use 0.0.0.0 (every address) or one of its own`
    default:
      return null
  }
}

export function asListenError(error: unknown, host: string, port: number): unknown {
  const problem = listenProblem(error, host, port)
  return problem ? new ListenError(problem) : error
}

/**
 * Binds the address and lets it go at once, so that start-up fails on it before the database
 * file is created. `reusePort` is off: with it, a second server on a port in use starts and
 * shares the first one's traffic. Returns the port (the one the system picked for port 0).
 */
export function checkListen(host: string, port: number): number {
  let probe: ReturnType<typeof Bun.serve>
  try {
    probe = Bun.serve({ hostname: host, port, reusePort: false, fetch: () => new Response(null, { status: 503 }) })
  } catch (error) {
    throw asListenError(error, host, port)
  }
  const bound = probe.port ?? port
  void probe.stop(true)
  return bound
}
