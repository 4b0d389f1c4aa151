// Who is signed in. The check is client side; the cookie API refuses without a session anyway,
// and a call that finds the session ended sends the page to sign in (api.ts).
import { ApiError, api, type User } from './api'

/** The signed-in user; without a session, replaces the page with sign in (and never resolves). */
export async function requireUser(): Promise<User> {
  return (await api.session()).user
}

/** The user when signed in, else null (for the sign-in page). */
export async function currentUser(): Promise<User | null> {
  try {
    return (await api.session('throw')).user
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

export async function signOut(): Promise<void> {
  await api.signOut()
  location.replace('/login')
}
