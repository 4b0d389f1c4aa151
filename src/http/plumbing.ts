// What every request goes through: its log line, CORS (the plugin API only), HSTS over HTTPS,
// the same-origin rule of the website's cookie API, and the one error handler that turns every
// failure into `{"error": "<sentence>"}` with the right status and never a stack trace. (Bodies
// are read by each route's own reader: src/http/body.ts.)
import { Elysia, ParseError, ValidationError } from 'elysia'
import { isDatabaseBusy, isOutOfSpace } from '../db/client'
import { DISK_FULL_RETRY_SECONDS, type DiskSpace } from '../db/space'
import type { Logger } from '../logger'
import type { TrustedProxies } from './address'
import { bodyLeftUnread } from './body'
import { BadRequest, Forbidden, HttpError, noSuchEndpoint, ServiceUnavailable } from './errors'
import { beginRequest, loggedPath, requestLog, requestPath } from './requestLog'
import { HSTS_HEADER } from './security'
import { describeValidationError } from './validationMessages'

/** Retry-After of a 503 for a busy database. */
export const DATABASE_BUSY_RETRY_SECONDS = 1

function toHttpError(code: unknown, error: unknown, logger: Logger, space: DiskSpace, where: string): HttpError {
  if (error instanceof HttpError) return error
  // Errors thrown inside the parser reach here wrapped in Elysia's ParseError.
  if (error instanceof ParseError) {
    if (error.cause instanceof HttpError) return error.cause
    // The route's credential check runs in the parser, before the body is read, and may write
    // (a token's last use): a busy or full database there is that, not a body that is not JSON.
    if (isDatabaseBusy(error.cause) || isOutOfSpace(error.cause))
      return toHttpError(code, error.cause, logger, space, where)
    return new BadRequest('The request body is not valid JSON.')
  }
  if (error instanceof ValidationError) {
    if (error.type === 'response') {
      logger.error(`${where}: response does not match its schema: ${error.message.slice(0, 500)}`)
      return new HttpError(500, 'The server produced an invalid response; this is a bug, please report it.')
    }
    return new BadRequest(describeValidationError(error))
  }
  if (code === 'NOT_FOUND') return noSuchEndpoint()
  if (isDatabaseBusy(error)) {
    // Another process holds the write lock past BUSY_TIMEOUT_MS: our own writers hold it for
    // milliseconds, so a second later it is almost always free.
    logger.warn(`${where}: the database is busy (another process holds its write lock); answered 503`)
    return new ServiceUnavailable('The database is busy; try again in a moment.', DATABASE_BUSY_RETRY_SECONDS)
  }
  if (isOutOfSpace(error)) {
    // Rolled back whole (the statement and its transaction): nothing of the request is stored.
    // The log says it once per episode (DiskSpace), not once per request.
    space.refused(where)
    return new ServiceUnavailable(
      "The server's disk is full, so nothing was saved; try again later.",
      DISK_FULL_RETRY_SECONDS,
    )
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  logger.error(`${where}: unexpected error: ${detail}`)
  return new HttpError(500, 'Internal server error.')
}

/**
 * Where CORS is open: the plugin API (bearer tokens, so any origin may call, never with
 * credentials), health and the OpenAPI document. Not the website's pages or its cookie API,
 * which are same-origin only.
 */
export const CORS_OPEN = /^\/(?:api\/plugin(?:\/|$)|api\/health$|api\/catalog$|api\/openapi\.json$|openapi\.json$)/

// What every answer of the open paths carries; what a request may send is the preflight's to say
// (a browser reads Access-Control-Allow-Headers and -Methods only there).
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': '*',
}

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  // Authorization is named: browsers never let a "*" in Access-Control-Allow-Headers cover it.
  'access-control-allow-headers': 'Authorization, Content-Type, *',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-max-age': '600',
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Whether a request comes from a page of another site: the browser's Sec-Fetch-Site when it
 * sends one, else the Origin header against the request's own host. Clients that send
 * neither (curl, scripts) are not browsers under attack and pass.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site) return site !== 'same-origin' && site !== 'none'
  const origin = request.headers.get('origin')
  if (!origin) return false
  try {
    return new URL(origin).host !== (request.headers.get('host') ?? new URL(request.url).host)
  } catch {
    return true
  }
}

export interface PlumbingOptions {
  /** TRUSTED_PROXY: whether a request came over HTTPS (then its answer carries HSTS). */
  proxies: TrustedProxies
  /** The database's room to write: a refused write starts an episode, a successful answer may end it. */
  space: DiskSpace
}

export function plumbing(logger: Logger, { proxies, space }: PlumbingOptions) {
  return (
    new Elysia({ name: 'plumbing' })
      // While the disk is full, a write that went through may mean space came back: look.
      .use(
        requestLog(logger, (request, status) => {
          if (space.full && status < 400 && UNSAFE_METHODS.has(request.method)) space.probe()
        }),
      )
      .onRequest(({ request, set }) => {
        // First, so that the clock of the log line starts before anything else runs.
        const path = beginRequest(request)
        if (proxies.isHttps(request)) set.headers['strict-transport-security'] = HSTS_HEADER
        if (CORS_OPEN.test(path)) {
          if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS })
          Object.assign(set.headers, CORS_HEADERS)
        } else if (UNSAFE_METHODS.has(request.method) && path.startsWith('/api/') && isCrossSite(request)) {
          // The website's cookie API: a page of another site must not act with the visitor's cookie.
          throw new Forbidden('Cross-site requests are not allowed here.')
        }
      })
      .onError({ as: 'global' }, ({ code, error, set, request }) => {
        // Masked as in the request's own line: a busy database or a bug on /join/CODE logs no code.
        const path = loggedPath(request.url, requestPath(request))
        const httpError = toHttpError(code, error, logger, space, `${request.method} ${path}`)
        set.status = httpError.status
        Object.assign(set.headers, httpError.headers, { 'content-type': 'application/json; charset=utf-8' })
        // What is left of a refused body would be read as the next request: the listener closes
        // the connection after this answer instead of draining it for the client.
        if (bodyLeftUnread(request)) set.headers.connection = 'close'
        return { error: httpError.message }
      })
  )
}
