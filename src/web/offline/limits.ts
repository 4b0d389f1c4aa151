// Limits of the website's offline support (listed in docs/operations.md "Limits"): what the
// service worker keeps and for how long, and how much a browser queues while the server is away.
// Plain numbers: both the service worker (sw.ts) and the page read them.

/**
 * How old a kept answer may be and still be shown offline: the website session's own idle
 * lifetime (30 days, src/modules/session/service.ts), after which the session behind it has
 * ended anyway. Older answers are deleted when next asked for.
 */
export const OFFLINE_MAX_AGE_DAYS = 30
export const OFFLINE_MAX_AGE_MS = OFFLINE_MAX_AGE_DAYS * 24 * 60 * 60_000

/**
 * How long the service worker waits for the server before it shows the kept answer instead: a
 * server gone from the Wi-Fi does not refuse connections, it never answers, and the page should
 * not wait for the browser's own minutes-long timeout. A late answer still replaces the kept one.
 */
export const NETWORK_WAIT_MS = 5000

/**
 * Writes (ticks, unticks, saved filters) one account may have waiting in a browser, refused ones
 * included until they are dismissed. An evening of play offline is a few dozen; beyond the limit
 * a change is refused on the page (it says so) rather than kept.
 */
export const MAX_QUEUED_WRITES = 1000
