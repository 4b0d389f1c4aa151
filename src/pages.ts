// The website's pages, in one list for the server (which answers each path with the page: the web
// module) and the client (which draws each: web/main.tsx, a view per path, checked by the types).
// Plain data and one matcher; nothing of either side.

/** Every page of the site. `:id` is a number; `:token` a share token; `:code` an invite code. */
export const PAGE_PATHS = [
  '/',
  '/login',
  '/join/:code',
  '/account',
  '/characters/new',
  '/characters/:id',
  '/characters/:id/edit',
  '/characters/:id/build',
  '/characters/:id/stats',
  '/characters/:id/sagas',
  '/groups',
  '/groups/:id',
  '/groups/:id/party',
  '/past-lives',
  '/past-lives/:id',
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
