// Headers every HTML answer carries (the website's pages, the share page, /docs). No inline
// script or style anywhere (the web build checks), so 'self' is the whole policy;
// frame-ancestors 'none' and X-Frame-Options keep pages out of frames (clickjacking of the
// setting checkboxes); no MIME sniffing; no Referer, since share links carry their token.
// HSTS goes on every answer, but only on those that came over HTTPS (src/http/plumbing.ts).
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The service worker (/sw.js) that keeps the site readable offline.
  "worker-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'content-type': 'text/html; charset=utf-8',
}

/** Swagger UI sets inline styles from its script; everything else is as strict as the site's. */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_HEADERS,
  'content-security-policy': CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
}

/**
 * Strict-Transport-Security on an answer over HTTPS (directly or through a trusted proxy): the
 * browser then uses HTTPS alone for this host for a year, so no later plain-HTTP request (a typed
 * address, an old link) carries the session cookie in the clear. Not for subdomains, which may be
 * other services of the same home; never sent over plain HTTP, where browsers ignore it anyway.
 */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60

export const HSTS_HEADER = `max-age=${HSTS_MAX_AGE_SECONDS}`
