// What the service worker (sw.ts) does with each request, as plain rules: which answers it keeps
// for offline use, in which cache, and which it leaves alone. Pure, so the rules are tested
// without a browser (test/web/offlineRules.test.ts); the worker only carries them out.

/** Every cache of the site starts with this; nothing else of the origin's storage is touched. */
export const CACHE_PREFIX = 'qt-'
/** The app shell of one build: its page, scripts, styles, icons and manifest. */
export const SHELL_CACHE_PREFIX = `${CACHE_PREFIX}shell-`
/** Who is signed in, as the last `GET /api/session` said: whose kept answers a page may see. */
export const SESSION_CACHE = `${CACHE_PREFIX}session`
/** One account's kept answers: `qt-data-<user id>`, so one account never reads another's. */
export const DATA_CACHE_PREFIX = `${CACHE_PREFIX}data-`
/** The public quest catalog, the same for everyone. */
export const PUBLIC_CACHE = `${CACHE_PREFIX}public`

/** On a kept answer the worker serves: when the server sent it (ISO 8601); never on the server's own. */
export const STORED_AT_HEADER = 'x-offline-stored-at'

export const SESSION_PATH = '/api/session'

export const dataCacheName = (userId: number) => `${DATA_CACHE_PREFIX}${userId}`

/**
 * The cookie API's reads that pages show, kept per account. Not kept: the event streams, the
 * downloads (exports, CSV), the account's tokens, the share view, the plugin API and anything
 * else: a new read is kept only once it is listed here.
 */
const ACCOUNT_READS: readonly RegExp[] = [
  /^\/api\/characters$/,
  /^\/api\/characters\/\d+$/,
  /^\/api\/characters\/\d+\/(?:progress|next|quest-times|live|build|lives|past-lives|sagas)$/,
  /^\/api\/past-lives$/,
  /^\/api\/routes$/,
  /^\/api\/routes\/\d+$/,
  /^\/api\/navigation$/,
  /^\/api\/account\/settings$/,
]

const PUBLIC_READS: readonly RegExp[] = [/^\/api\/quests$/]

/** Writes after which nobody is signed in here: sign out, sign out everywhere. */
const SIGN_OUTS: readonly { method: string; path: string }[] = [
  { method: 'DELETE', path: SESSION_PATH },
  { method: 'DELETE', path: '/api/account/sessions' },
]

export type Handling =
  /** A page of the site: from the server, else the kept shell. */
  | 'page'
  /** A file of the shell (hashed assets, the manifest): kept, never changes under its name. */
  | 'shell'
  /** `GET /api/session`: from the server (remembering who is signed in), else the kept one. */
  | 'session'
  /** A read of the signed-in account: from the server (kept), else the kept answer. */
  | 'account-read'
  /** A public read: the same, in the public cache. */
  | 'public-read'
  /** Signing in: the answer says who is signed in now. */
  | 'sign-in'
  /** Signing out: every account's kept answers go. */
  | 'sign-out'
  /** Anything else: the worker stays out of the way. */
  | 'network'

export interface RequestFacts {
  method: string
  url: string
  /** `navigate` for a page load. */
  mode: string
  /** The origin the worker serves. */
  origin: string
}

export function handlingOf({ method, url, mode, origin }: RequestFacts): Handling {
  const parsed = new URL(url)
  if (parsed.origin !== origin) return 'network'
  const path = parsed.pathname
  if (method === 'GET' && mode === 'navigate') return path.startsWith('/api/') ? 'network' : 'page'
  if (method === 'POST' && path === SESSION_PATH) return 'sign-in'
  if (SIGN_OUTS.some((s) => s.method === method && s.path === path)) return 'sign-out'
  if (method !== 'GET') return 'network'
  if (path.startsWith('/assets/') || path === '/manifest.webmanifest') return 'shell'
  if (path === SESSION_PATH) return 'session'
  if (ACCOUNT_READS.some((pattern) => pattern.test(path))) return 'account-read'
  if (PUBLIC_READS.some((pattern) => pattern.test(path))) return 'public-read'
  return 'network'
}

/** The key a kept answer is stored under: its path and query, whatever headers asked for it. */
export function keyOf(url: string): string {
  const parsed = new URL(url)
  return parsed.pathname + parsed.search
}

/** Whether a kept answer stored at `storedAt` may still be shown at `now`. */
export function isFresh(storedAt: string | null, now: number, maxAgeMs: number): boolean {
  if (storedAt === null) return false
  const at = Date.parse(storedAt)
  return Number.isFinite(at) && now - at <= maxAgeMs
}

/** What the worker does with the kept answer when the server answers a read with `status`. */
export type OnAnswer = 'keep' | 'revalidated' | 'forget' | 'forget-everyone' | 'leave'

export function onAnswer(status: number): OnAnswer {
  // The last answer, kept as it came: a 404 is one too (no live snapshot yet; a deleted
  // character), and offline the page gets it again, as it did online.
  if (status === 200 || status === 404) return 'keep'
  // A conditional read the page made itself (If-None-Match): the kept answer is still current.
  if (status === 304) return 'revalidated'
  // The session ended: nobody's answers may be shown here any more.
  if (status === 401) return 'forget-everyone'
  // Not this account's (403): never show it.
  if (status === 403) return 'forget'
  // A busy or full server (503), a throttle, a bad query: the kept answer stays as it was.
  return 'leave'
}

/** The user id in an answer of `GET` or `POST /api/session` (`{"user": {"id": …}}`), else null. */
export function userIdOf(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || !('user' in body)) return null
  const user = body.user
  if (typeof user !== 'object' || user === null || !('id' in user)) return null
  return typeof user.id === 'number' && Number.isInteger(user.id) ? user.id : null
}
