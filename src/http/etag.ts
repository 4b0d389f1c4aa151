// Conditional reads (RFC 9110 §13.1.2): the answers a client asks for again and again (progress,
// navigation, the character list, the builds and lives) carry an ETag, and a request that holds
// the current one gets 304 Not Modified with no body, computed before anything is read. The tags
// come from the change feed's version numbers (src/modules/events/feed.ts), which every write
// moves on: a tag costs a counter look-up, never a read of the answer itself.
import { status, t } from 'elysia'

/**
 * A tagged answer is the account's own: a browser keeps it (never a shared cache) and asks again
 * each time with If-None-Match, so an unchanged answer costs a 304.
 */
export const TAGGED_CACHE_CONTROL = 'private, no-cache'

/** What the OpenAPI document says of every tagged read. */
export const CONDITIONAL =
  'The answer carries an `ETag`; sent back in `If-None-Match`, it is answered 304 with no body while nothing in the answer changed.'

/** The 304 of the OpenAPI document: no body. */
export const NotModified = t.Void({
  description: 'Not modified: nothing in the answer changed since the ETag sent in If-None-Match.',
})

/** Whether If-None-Match holds `tag` (a list of tags, weak or strong, or `*`). */
export function holdsTag(request: Request, tag: string): boolean {
  const header = request.headers.get('if-none-match')
  if (!header) return false
  // What a client sends back is almost always the one tag it was given.
  if (header === tag) return true
  if (header.trim() === '*') return true
  for (const held of header.split(',')) {
    const trimmed = held.trim()
    if ((trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === tag) return true
  }
  return false
}

interface Settable {
  headers: Record<string, string | number>
}

/**
 * `read()`'s answer with `tag`, or a 304 with no body when the request holds `tag` already.
 * Check everything that answers 404 first: a 304 says the resource is there and unchanged.
 * The 304 is Elysia's status, not a Response of our own: Elysia would copy a Response to add
 * the headers in `set` (CORS), a second Response and a second set of headers per 304.
 */
export function tagged<T>(request: Request, set: Settable, tag: string, read: () => T) {
  set.headers.etag = tag
  set.headers['cache-control'] = TAGGED_CACHE_CONTROL
  if (holdsTag(request, tag)) return status<304, void>(304)
  return read()
}
