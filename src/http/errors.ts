// Typed errors that services throw; the one error handler (src/http/plumbing.ts) turns each
// into `{"error": "<sentence>"}` with its status.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/** The base class of the errors of one status: `throw new NotFound('No character 5.')`. */
function withStatus(status: number) {
  return class extends HttpError {
    constructor(message: string) {
      super(status, message)
    }
  }
}

/** The same, for a status that tells the client when to try again (Retry-After). */
function withRetryAfter(status: number) {
  return class extends HttpError {
    constructor(message: string, retryAfterSeconds: number) {
      super(status, message, { 'retry-after': String(retryAfterSeconds) })
    }
  }
}

export class BadRequest extends withStatus(400) {}

export class Unauthorized extends withStatus(401) {}

export class Forbidden extends withStatus(403) {}

export class NotFound extends withStatus(404) {}

/** The answer to a path no route serves (an API client's, not a browser's page: see the web module). */
export const noSuchEndpoint = (): NotFound => new NotFound('No such endpoint; see /api/plugin/docs for the list.')
/** The request body did not arrive in time (src/http/body.ts): the connection is closed after it. */
export class RequestTimeout extends withStatus(408) {}

/**
 * The request is well formed, but what is stored already forbids it (a quota is full): the same
 * request succeeds once something is deleted. (400 would tell the client to fix its request.)
 */
export class Conflict extends withStatus(409) {}

export class PayloadTooLarge extends withStatus(413) {}

/** Too many of something: failed logins for an account or from an address, open event streams. */
export class TooManyRequests extends withRetryAfter(429) {}

/** The server is busy (too much login work in flight, or the database locked), not the client's fault. */
export class ServiceUnavailable extends withRetryAfter(503) {}
