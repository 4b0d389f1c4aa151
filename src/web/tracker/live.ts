// Live updates of an open tracker: signed in, the character's event stream (the shared
// followCharacter, with polling when it drops), whose events carry their change (applied by the
// store, no re-read); the share page has no stream and polls its public view instead (by ETag:
// a 304 while nothing changed).
import { effect } from '@preact/signals'
import { api, errorMessage } from '../api'
import { followCharacter, POLL_MS } from '../live'
import type { TrackerStore } from './store'

/** Changes that touch the header (name, level, classes), not only the completions. */
const CHARACTER_CHANGES = new Set(['character', 'live', 'build', 'lives'])

function pollShare(store: TrackerStore, token: string): () => void {
  store.liveMode.value = 'polling'
  const timer = setInterval(async () => {
    try {
      store.replace(await api.sharedView(token))
      store.error.value = null
    } catch (e) {
      store.error.value = errorMessage(e)
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
    if (shareToken !== undefined) return pollShare(store, shareToken)
    return followCharacter({
      characterId: store.characterId,
      liveMode: store.liveMode,
      refresh: store.refresh,
      holds: store.holds,
      onChange: (what, event) => {
        if (CHARACTER_CHANGES.has(what)) void store.refreshCharacter()
        // The change the event carries, applied to the progress held; a gap or no change: re-read.
        return event !== null && store.applyEvent(event)
      },
    })
  })
}
