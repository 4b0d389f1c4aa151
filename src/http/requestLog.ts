// One log line per request: method, path (credentials in the query masked), status and time,
// at info; a successful health check (Docker asks every 30 s) only at debug. Refused logins and
// lock-outs are logged at warn by the login code itself, with the account and the address.
import { Elysia, StatusMap } from 'elysia'
import type { Logger } from '../logger'

/** Query keys whose values are credentials (a token in a link, a password in a careless client). */
const SECRET_KEY = /token|pass|secret|key|auth|session|code|sig/i

/**
 * Paths that carry a share token or an invite code: anyone who reads the log could open the
 * shared page, or sign up with a code a chat app's link preview fetched before its player did.
 */
const SECRET_PATH = /^(\/s|\/api\/share|\/join|\/api\/invites)\/[^/]+/

/** An invite code anywhere else in a path or a query value (a path the router does not know). */
const INVITE_CODE = /qti_[^/?&#]*/g

/** The path with its share token or invite code as "***". */
const maskPath = (path: string): string => {
  const masked = path.replace(SECRET_PATH, '$1/***')
  return masked.includes('qti_') ? masked.replace(INVITE_CODE, 'qti_***') : masked
}

/** What URL parsing could change in a path: an escape, a dot segment, a backslash, no path at all. */
const NORMALIZED = /[%\\]|\/\.|^(?!\/)/

/**
 * The path of a request's URL (`http://host:port/path?query` as Bun gives it), as `new URL(url)`
 * would give it, but without parsing the whole URL (every request asks for it) when the path is
 * plain; any other path is parsed.
 */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const query = url.indexOf('?', start)
  const hash = url.indexOf('#', start)
  const end = query < 0 ? hash : hash < 0 ? query : Math.min(query, hash)
  const path = start < 0 ? '' : end < 0 ? url.slice(start) : url.slice(start, end)
  return NORMALIZED.test(path) ? new URL(url).pathname : path
}

/**
 * The path and query as logged: a share token or an invite code in the path, an invite code in
 * a query value, and the value of every query key that looks like a credential are "***". `path` is pathOf(url), when the caller has it.
 */
export function loggedPath(url: string, path?: string): string {
  // Most requests have no query: their path as it is (a share token or invite code still masked).
  if (!url.includes('?')) return maskPath(path ?? pathOf(url))
  const { pathname: raw, searchParams } = new URL(url)
  const pathname = maskPath(raw)
  if (searchParams.size === 0) return pathname
  const query = [...searchParams].map(
    ([key, value]) =>
      `${encodeURIComponent(key)}=${SECRET_KEY.test(key) ? '***' : encodeURIComponent(value).replace(INVITE_CODE, 'qti_***')}`,
  )
  return `${pathname}?${query.join('&')}`
}

function statusOf(status: number | string | undefined, response: unknown): number {
  // A handler that returns its own Response sets its status there, not in `set`.
  if (response instanceof Response) return response.status
  if (typeof status === 'number') return status
  return (status && StatusMap[status as keyof typeof StatusMap]) || 200
}

// When a request began (performance.now()) and its path, kept on the Request itself: a property
// of it costs a quarter of a WeakMap's set and get (0.1 µs against 0.4 µs), on every request.
const STARTED = Symbol('started')
const PATH = Symbol('path')
type Begun = Request & { [STARTED]?: number; [PATH]?: string }

/**
 * The first thing every request does (plumbing's onRequest, one hook for both): starts its
 * clock and returns its path (pathOf), kept for whoever asks again (requestPath).
 */
export function beginRequest(request: Request): string {
  const begun = request as Begun
  begun[STARTED] = performance.now()
  const path = pathOf(request.url)
  begun[PATH] = path
  return path
}

/** The path of a request (pathOf), read once by beginRequest. */
export function requestPath(request: Request): string {
  return (request as Begun)[PATH] ?? pathOf(request.url)
}

/**
 * The log line of every request, once it is answered (beginRequest must have started it).
 * `answered` is told of each request with its status, after the line: what else needs to know
 * how a request ended, without a hook of its own (every hook costs every request).
 */
export function requestLog(logger: Logger, answered?: (request: Request, status: number) => void) {
  return new Elysia({ name: 'requestLog' }).onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
    const begun = request as Begun
    const began = begun[STARTED]
    const ms = began === undefined ? 0 : Math.round((performance.now() - began) * 10) / 10
    const method = request.method
    const path = loggedPath(request.url, begun[PATH])
    const status = statusOf(set.status, responseValue)
    const line = `${method} ${path} ${status} ${ms} ms`
    const fields = logger.json ? { method, path, status, ms } : undefined
    if (path === '/api/health' && status < 400) logger.debug(line, fields)
    else logger.info(line, fields)
    answered?.(request, status)
  })
}
