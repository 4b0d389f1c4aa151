// The site's paths: every page, and where a signed-out visitor goes (to /login with `next`, and
// back to `next` after signing in).

/**
 * `next` only when it is a path on this site: starts with one `/` (not `//host` or `/\host`,
 * which browsers read as another host) and holds no scheme. Anything else goes to `/`.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/'
  // Control characters (a tab or newline inside `//`) are dropped by URL parsing: refuse them.
  if ([...next].some((c) => c.charCodeAt(0) < 0x20)) return '/'
  return next
}

export function loginPath(from: string): string {
  return from === '/' ? '/login' : `/login?next=${encodeURIComponent(from)}`
}

/**
 * Every page of the site, in one list: the server answers each of these paths with the page (the
 * web module), and the client draws each (main.tsx, a view per path, checked by the types).
 * `:id` is a number; `:token` a share token.
 */
export const PAGE_PATHS = [
  '/',
  '/login',
  '/account',
  '/characters/:id',
  '/characters/:id/build',
  '/characters/:id/stats',
  '/routes',
  '/routes/new',
  '/routes/:id',
  '/routes/:id/edit',
  '/s/:token',
] as const

export type PagePath = (typeof PAGE_PATHS)[number]

/** What a page path's parameter may be: an id is digits, a token anything up to the next slash. */
const PARAMETER: Readonly<Record<string, string>> = { ':id': '(\\d+)', ':token': '([^/]+)' }

const PATTERNS = PAGE_PATHS.map(
  (path) => [path, new RegExp(`^${path.replace(/:\w+/g, (name) => PARAMETER[name] ?? '([^/]+)')}$`)] as const,
)

/**
 * The page a location's path shows and its parameter (decoded), or null for a path the site does
 * not have. A trailing slash is allowed.
 */
export function matchPage(pathname: string): { page: PagePath; param: string } | null {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname
  for (const [page, pattern] of PATTERNS) {
    const match = pattern.exec(trimmed)
    if (match) return { page, param: decodeURIComponent(match[1] ?? '') }
  }
  return null
}
