// Whether the server can be reached, as the page's own calls find it, and which of what the page
// shows came from the service worker's kept answers (and from when). The API client (api.ts)
// reports every answer here; while the server is away the page asks it every OFFLINE_PROBE_MS
// whether it is back, and `whenReachable` callers (the write queue) hear when it is.
import { computed, effect, signal } from '@preact/signals'
import { STORED_AT_HEADER } from './cachePolicy'

/** While the server is away, how often a page asks whether it is back (and a busy one is tried again). */
export const OFFLINE_PROBE_MS = 5000

/** False from a call that could not reach the server (or got a kept answer) until one that did. */
export const reachable = signal(true)

/** Path and query -> when the server sent the kept answer the page got for it. */
const keptAnswers = signal<ReadonlyMap<string, string>>(new Map())

/** When the oldest kept answer on the page was sent by the server, or null when none is shown. */
export const oldestKept = computed(() => {
  let oldest: string | null = null
  for (const at of keptAnswers.value.values()) if (oldest === null || at < oldest) oldest = at
  return oldest
})

const listeners = new Set<() => void>()

/** Calls `back` each time the server can be reached again; returns how to stop. */
export function whenReachable(back: () => void): () => void {
  listeners.add(back)
  return () => listeners.delete(back)
}

function setReachable(now: boolean): void {
  if (reachable.value === now) return
  reachable.value = now
  if (now) for (const back of listeners) back()
}

/** An answer reached the page: the server's own, or a kept one the service worker served. */
export function noteAnswer(response: Response): void {
  let key: string
  try {
    const url = new URL(response.url)
    key = url.pathname + url.search
  } catch {
    return
  }
  const storedAt = response.headers.get(STORED_AT_HEADER)
  const next = new Map(keptAnswers.value)
  if (storedAt === null) next.delete(key)
  else next.set(key, storedAt)
  if (next.size !== keptAnswers.value.size || storedAt !== null) keptAnswers.value = next
  setReachable(storedAt === null)
}

/** A call found no server (and the service worker had nothing kept for it). */
export function noteUnreachable(): void {
  setReachable(false)
}

/** Asks whether the server answers at all (any status); the health check is never kept. */
async function probe(): Promise<void> {
  try {
    await fetch('/api/health', { cache: 'no-store' })
    setReachable(true)
  } catch {
    // still away
  }
}

/** Started once by main.tsx: while the server is away, asks every OFFLINE_PROBE_MS whether it is back. */
export function watchReachability(): () => void {
  return effect(() => {
    if (reachable.value) return
    const timer = setInterval(() => void probe(), OFFLINE_PROBE_MS)
    return () => clearInterval(timer)
  })
}
