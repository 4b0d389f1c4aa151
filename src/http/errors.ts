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

export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message)
  }
}

export class Unauthorized extends HttpError {
  constructor(message: string) {
    super(401, message)
  }
}

export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message)
  }
}

/**
 * The request is well formed, but what is stored already forbids it (a quota is full): the same
 * request succeeds once something is deleted. (400 would tell the client to fix its request.)
 */
export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message)
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message: string) {
    super(413, message)
  }
}

export class TooManyRequests extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { 'retry-after': String(retryAfterSeconds) })
  }
}

export class Forbidden extends HttpError {
  constructor(message: string) {
    super(403, message)
  }
}

/** The server is busy (too much login work in flight), not the client's fault; retry soon. */
export class ServiceUnavailable extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, message, { 'retry-after': String(retryAfterSeconds) })
  }
}
