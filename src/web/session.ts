// Who is signed in, and where a signed-out visitor goes: to /login with `next`, and back to
// `next` after signing in. The check is client side; the cookie API refuses without a session anyway.
import { ApiError, api, type User } from './api'

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

/** The signed-in user; without a session, replaces the page with sign in (and never resolves). */
export async function requireUser(): Promise<User> {
  try {
    return (await api.session()).user
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      location.replace(loginPath(location.pathname + location.search))
      return new Promise<never>(() => {})
    }
    throw error
  }
}

/** The user when signed in, else null (for the sign-in page). */
export async function currentUser(): Promise<User | null> {
  try {
    return (await api.session()).user
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

export async function signOut(): Promise<void> {
  await api.signOut()
  location.replace('/login')
}
