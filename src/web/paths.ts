// Where a signed-out visitor goes: to /login with `next`, and back to `next` after signing in.

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
