// Why the server cannot listen, as one line: a port in use, a privileged port, a HOST that is not
// an address of this machine. `checkListen` finds out before anything is created on disk. And
// what the listener itself lets one connection hold (`listenerLimits`).
import type { AnyElysia } from 'elysia'
import { BODY_TIME_LIMIT_MS, largestBodyLimit } from './body'

/**
 * Bun closes a connection whose request is not answered within this many seconds, however fast
 * its body arrives (Bun 1.4 does not restart the count for body bytes), and an idle kept-alive
 * one. Longer than BODY_TIME_LIMIT_MS, so a slow body is answered 408 by the app first.
 */
export const IDLE_TIMEOUT_SECONDS = BODY_TIME_LIMIT_MS / 1000 + 10

/**
 * What the listener lets through beyond the largest route limit. Bun checks its own limit on each
 * read from the socket (up to 512 KiB) before the app sees those bytes: at the route limit
 * exactly, a chunked body crossing it got Bun's 413 without a body instead of the app's
 * `{"error"}`. With this much room the app's reader always sees the crossing first.
 */
export const LISTENER_BODY_HEADROOM_BYTES = 1024 * 1024

/**
 * The listener's own limits for `app`: the outer bound on a body (the app enforces each route's
 * limit as the body arrives; a declared Content-Length over this is refused by Bun itself, 413
 * without a body), and IDLE_TIMEOUT_SECONDS.
 */
export const listenerLimits = (app: AnyElysia) => ({
  maxRequestBodySize: largestBodyLimit(app) + LISTENER_BODY_HEADROOM_BYTES,
  idleTimeout: IDLE_TIMEOUT_SECONDS,
})

/** The server cannot listen where it was told to: one line, exit 2. */
export class ListenError extends Error {}

/** The reason as the rest of a sentence, or null when `error` is not about the address. */
export function listenProblem(error: unknown, host: string, port: number): string | null {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'EADDRINUSE':
      return `port ${port} is in use (by another Quest Tracker or another program); stop it or choose another PORT`
    case 'EACCES':
      return port < 1024
        ? `port ${port} is privileged (under 1024): give the program the right to it (setcap cap_net_bind_service=+ep on the executable, or AmbientCapabilities=CAP_NET_BIND_SERVICE in its systemd unit), or choose a PORT from 1024 up (the default is 8080)`
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
