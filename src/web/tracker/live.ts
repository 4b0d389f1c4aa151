// Live updates of an open tracker (domain rule 4: a completion posted by the game shows within
// a few seconds). Signed in: the server pushes `change` events (server-sent events) and the
// page re-reads progress; when the stream drops it polls every few seconds until the stream
// is back. The share page has no stream: it polls its public view.
import { effect } from '@preact/signals'
import { api } from '../api'
import type { TrackerStore } from './store'

/** Under the 5 seconds the contract allows, with room for the request itself. */
export const POLL_MS = 4000
/** How long to wait before opening a stream again after the server refused it. */
const RECONNECT_MS = 15_000
/** Events often come in bursts (a completion and a progress change): one read for a burst. */
const COALESCE_MS = 100

const CHARACTER_CHANGES = new Set(['character', 'live', 'build', 'lives'])

function pushWithFallback(store: TrackerStore): () => void {
  let source: EventSource | null = null
  let poll: ReturnType<typeof setInterval> | undefined
  let reconnect: ReturnType<typeof setTimeout> | undefined
  let coalesce: ReturnType<typeof setTimeout> | undefined
  let dropped = false
  let stopped = false

  const startPolling = () => {
    store.liveMode.value = 'polling'
    poll ??= setInterval(() => void store.refresh(), POLL_MS)
  }
  const stopPolling = () => {
    clearInterval(poll)
    poll = undefined
  }

  const open = () => {
    if (stopped) return
    store.liveMode.value = 'connecting'
    const es = new EventSource(api.eventsUrl(store.characterId))
    source = es
    es.addEventListener('open', () => {
      store.liveMode.value = 'push'
      stopPolling()
      // Whatever changed while the stream was down was never pushed.
      if (dropped) void store.refresh()
      dropped = false
    })
    es.addEventListener('change', (event) => {
      let what = ''
      try {
        const data: unknown = JSON.parse((event as MessageEvent<string>).data)
        if (typeof data === 'object' && data !== null && 'what' in data && typeof data.what === 'string')
          what = data.what
      } catch {
        // An unreadable event still means something changed.
      }
      if (CHARACTER_CHANGES.has(what)) void store.refreshCharacter()
      clearTimeout(coalesce)
      coalesce = setTimeout(() => void store.refresh(), COALESCE_MS)
    })
    es.addEventListener('error', () => {
      dropped = true
      startPolling()
      // CLOSED: the browser gives up (the server answered with an error); CONNECTING: it retries itself.
      if (es.readyState === EventSource.CLOSED) {
        es.close()
        source = null
        reconnect = setTimeout(open, RECONNECT_MS)
      }
    })
  }

  open()
  return () => {
    stopped = true
    source?.close()
    stopPolling()
    clearTimeout(reconnect)
    clearTimeout(coalesce)
    store.liveMode.value = 'off'
  }
}

function pollShare(store: TrackerStore, token: string): () => void {
  store.liveMode.value = 'polling'
  const timer = setInterval(async () => {
    try {
      store.replace(await api.share(token))
      store.error.value = null
    } catch (e) {
      store.error.value = e instanceof Error ? e.message : String(e)
    }
  }, POLL_MS)
  return () => {
    clearInterval(timer)
    store.liveMode.value = 'off'
  }
}

/** Follows the store's `Live updates` switch; returns a function that stops everything. */
export function followLive(store: TrackerStore, shareToken?: string): () => void {
  return effect(() => {
    if (!store.live.value) return
    return shareToken === undefined ? pushWithFallback(store) : pollShare(store, shareToken)
  })
}
