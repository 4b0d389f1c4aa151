// The service worker (/sw.js, built by scripts/buildWeb.ts): the website readable with the server
// away. It keeps the app shell of its build (installed with it) and the last answer of each read a
// page made (offline/cachePolicy.ts says which, and where); each read goes to the server first,
// and only when the server cannot be reached (or does not answer within NETWORK_WAIT_MS) does the
// page get the kept answer, marked with when the server sent it. Kept answers are per account and
// go when the session does: signed out here, or ended elsewhere (a 401). Writes are never answered
// from here: the page queues them itself (offline/outbox.ts).
import {
  DATA_CACHE_PREFIX,
  dataCacheName,
  type Handling,
  handlingOf,
  isFresh,
  keyOf,
  onAnswer,
  PUBLIC_CACHE,
  SESSION_CACHE,
  SESSION_PATH,
  SHELL_CACHE_PREFIX,
  STORED_AT_HEADER,
  userIdOf,
} from './offline/cachePolicy'
import { NETWORK_WAIT_MS, OFFLINE_MAX_AGE_MS } from './offline/limits'

// Written into the bundle by scripts/buildWeb.ts: the build's name and the files of its shell.
declare const SHELL_VERSION: string
declare const SHELL_FILES: readonly string[]

// The few service-worker types used here. TypeScript's `webworker` library would clash with the
// `dom` one the rest of the site compiles with.
interface LifecycleEvent extends Event {
  waitUntil(work: Promise<unknown>): void
}
interface RequestEvent extends LifecycleEvent {
  readonly request: Request
  respondWith(answer: Promise<Response>): void
}
interface WorkerScope {
  readonly location: Location
  skipWaiting(): Promise<void>
  readonly clients: { claim(): Promise<void> }
  addEventListener(type: 'install' | 'activate', listener: (event: LifecycleEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: RequestEvent) => void): void
}

const worker = self as unknown as WorkerScope
const shellCache = `${SHELL_CACHE_PREFIX}${SHELL_VERSION}`
/** The page is the same HTML on every path: one copy serves them all. */
const SHELL_PAGE = '/'

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(shellCache)
      // Past the browser's HTTP cache: the files of this build, as the server has them now.
      await cache.addAll(SHELL_FILES.map((path) => new Request(path, { cache: 'reload' })))
      // A new build takes over at once; its pages load their own files by their own names.
      await worker.skipWaiting()
    })(),
  )
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(SHELL_CACHE_PREFIX) && name !== shellCache) await caches.delete(name)
      }
      // Pages opened before this worker was installed go through it from now on.
      await worker.clients.claim()
    })(),
  )
})

worker.addEventListener('fetch', (event) => {
  const { request } = event
  const handling = handlingOf({
    method: request.method,
    url: request.url,
    mode: request.mode,
    origin: worker.location.origin,
  })
  if (handling === 'network') return
  event.respondWith(answer(handling, event))
})

function answer(handling: Exclude<Handling, 'network'>, event: RequestEvent): Promise<Response> {
  const { request } = event
  switch (handling) {
    case 'page':
      return networkOr(fetch(request), () => caches.match(SHELL_PAGE, { cacheName: shellCache }))
    case 'shell':
      return caches.match(request, { cacheName: shellCache }).then((kept) => kept ?? fetch(request))
    case 'session': {
      const known = async () => SESSION_CACHE
      const { answer, kept } = read(event, known, known, async (response) => {
        if (response.status === 200) await dropOtherAccounts(userIdOf(await response.clone().json()))
      })
      sessionKnown = kept
      return answer
    }
    case 'account-read':
      // Kept under whoever the session read in flight names, once it is done (the tracker asks
      // both at once: pages/Tracker.tsx); offline, the kept answer of the last account known.
      return read(event, () => sessionKnown.then(accountCache), accountCache).answer
    case 'public-read':
      return read(event, async () => PUBLIC_CACHE).answer
    case 'sign-in':
      return fetch(request).then(async (response) => {
        if (response.ok) await signedIn(await response.clone().json()).catch(everyoneForgotten)
        return response
      })
    case 'sign-out':
      return fetch(request).then(async (response) => {
        if (response.ok) await everyoneForgotten()
        return response
      })
  }
}

/**
 * The server's answer when it comes within NETWORK_WAIT_MS; else (or when it fails) the kept
 * one, when there is one; else whatever the server does in the end.
 */
async function networkOr(network: Promise<Response>, kept: () => Promise<Response | undefined>): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), NETWORK_WAIT_MS)
  })
  const first = await Promise.race([network.catch(() => 'failed' as const), late])
  clearTimeout(timer)
  if (first instanceof Response) return first
  const fallback = await kept()
  if (fallback) return fallback
  // Late, and then failed: the same answer as failing at once (the page sees a network error).
  return first === 'late' ? network.catch(() => Response.error()) : Response.error()
}

/**
 * What the last `GET /api/session` this worker answered left to do (who is signed in, whose
 * answers go): the account's reads answered meanwhile are kept once it is done.
 */
let sessionKnown: Promise<void> = Promise.resolve()

/**
 * A read kept in the cache `keepIn` names (null: nobody known to be signed in, so nothing kept):
 * the server's answer, kept with the time it came; when the server cannot be reached, the one
 * kept in the cache `keptIn` names (by default the same). `kept`: done with the server's answer.
 */
function read(
  event: RequestEvent,
  keepIn: () => Promise<string | null>,
  keptIn: () => Promise<string | null> = keepIn,
  also?: (response: Response) => Promise<void>,
): { answer: Promise<Response>; kept: Promise<void> } {
  const { request } = event
  const key = keyOf(request.url)
  const network = fetch(request).then(async (response) => {
    try {
      await also?.(response)
      const cacheName = await keepIn()
      if (cacheName) await remember(cacheName, key, response)
    } catch {
      // Not kept (the page left while its body came, a full disk): the answer itself still goes.
    }
    return response
  })
  const kept = network.then(
    () => undefined,
    () => undefined,
  )
  // A late answer is still kept after the page got the kept one.
  event.waitUntil(kept)
  const answer = networkOr(network, async () => {
    const cacheName = await keptIn()
    return cacheName ? keptAnswer(cacheName, key) : undefined
  })
  return { answer, kept }
}

async function remember(cacheName: string, key: string, response: Response): Promise<void> {
  const action = onAnswer(response.status)
  if (action === 'leave') return
  if (action === 'forget-everyone') return forgetEveryone()
  const cache = await caches.open(cacheName)
  if (action === 'forget') {
    await cache.delete(key)
    return
  }
  if (action === 'revalidated') {
    // Still current: the same body, with the time the server said so.
    const stored = await cache.match(key)
    const etag = response.headers.get('etag')
    if (stored && etag !== null && stored.headers.get('etag') === etag) await cache.put(key, stamped(stored))
    return
  }
  if ((response.headers.get('content-type') ?? '').startsWith('application/json')) {
    await cache.put(key, stamped(response.clone()))
  }
}

/** A copy of the answer that says when the server sent it. */
function stamped(response: Response): Response {
  const headers = new Headers(response.headers)
  headers.set(STORED_AT_HEADER, new Date().toISOString())
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

/** The kept answer, unless it is older than OFFLINE_MAX_AGE_MS (then it goes). */
async function keptAnswer(cacheName: string, key: string): Promise<Response | undefined> {
  const cache = await caches.open(cacheName)
  const stored = await cache.match(key)
  if (!stored) return undefined
  if (isFresh(stored.headers.get(STORED_AT_HEADER), Date.now(), OFFLINE_MAX_AGE_MS)) return stored
  await cache.delete(key)
  return undefined
}

/** The cache of whoever the last session answer named, or null. */
async function accountCache(): Promise<string | null> {
  const session = await caches.match(SESSION_PATH, { cacheName: SESSION_CACHE })
  const id = session ? userIdOf(await session.json().catch(() => null)) : null
  return id === null ? null : dataCacheName(id)
}

/** Whoever is signed in now: any other account's kept answers go. */
async function dropOtherAccounts(id: number | null): Promise<void> {
  if (id === null) return
  const mine = dataCacheName(id)
  for (const name of await caches.keys()) {
    if (name.startsWith(DATA_CACHE_PREFIX) && name !== mine) await caches.delete(name)
  }
}

/** Someone signed in: other accounts' kept answers go, and the session is kept as `GET /api/session` answers it. */
async function signedIn(body: unknown): Promise<void> {
  const id = userIdOf(body)
  if (id === null) return
  await dropOtherAccounts(id)
  const answer = new Response(JSON.stringify({ user: (body as { user: unknown }).user }), {
    headers: { 'content-type': 'application/json' },
  })
  await (await caches.open(SESSION_CACHE)).put(SESSION_PATH, stamped(answer))
}

/**
 * Whatever kept data can be forgotten is: after a sign-in whose bookkeeping failed (the page left
 * while its answer came), or a sign-out. The sign-in or sign-out itself still answers the page.
 */
async function everyoneForgotten(): Promise<void> {
  await forgetEveryone().catch(() => undefined)
}

/** Signed out, or the session ended: nothing of any account stays. */
async function forgetEveryone(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name === SESSION_CACHE || name.startsWith(DATA_CACHE_PREFIX)) await caches.delete(name)
  }
}
