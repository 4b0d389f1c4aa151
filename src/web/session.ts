// Who is signed in. The check is client side; the cookie API refuses without a session anyway,
// and a call that finds the session ended sends the page to sign in (api.ts).
import { signal } from '@preact/signals'
import { ApiError, api, type User } from './api'
import { forgetOfflineData, openOutbox, prepareOutbox } from './offline/outbox'

/**
 * Who the page found signed in (requireUser), for the frame of a page whose own data then failed
 * to load: it keeps the site's header and navigation (components/PageData.tsx).
 */
export const signedIn = signal<User | null>(null)

/**
 * The signed-in user; without a session, replaces the page with sign in (and never resolves).
 * The account's queued writes (offline/outbox.ts) are shown, and sent, from here on.
 */
export async function requireUser(): Promise<User> {
  prepareOutbox()
  const { user } = await api.session()
  signedIn.value = user
  await openOutbox(user.id)
  return user
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

/** Signed out: nothing of the account stays in this browser (its queued writes, its kept answers). */
export async function signOut(): Promise<void> {
  await api.signOut()
  await forgetOfflineData()
  location.replace('/login')
}

/** Every session of the account ends, this one too: the same as signing out here. */
export async function signOutEverywhere(): Promise<void> {
  await api.signOutEverywhere()
  await forgetOfflineData()
  location.replace('/login')
}
