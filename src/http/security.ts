// Headers every HTML answer carries (the website's pages, the share page, /docs). No inline
// script or style anywhere (the web build checks), so 'self' is the whole policy;
// frame-ancestors 'none' and X-Frame-Options keep pages out of frames (clickjacking of the
// setting checkboxes); no MIME sniffing; no Referer, since share links carry their token.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
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
