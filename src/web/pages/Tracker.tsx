// The tracker pages: /characters/{id} (signed in, editable) and /s/{token} (public, read-only).
// Both load the catalog once and the character's progress, then hand one store to the view.
import { useState } from 'preact/hooks'
import { api, type User } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_CHARACTERS } from '../components/PageData'
import { afterFlush } from '../offline/outbox'
import { requireUser } from '../session'
import { followLive } from '../tracker/live'
import { createTrackerStore, type TrackerStore } from '../tracker/store'
import { Tracker } from '../tracker/Tracker'

const FRAME = { title: 'Tracker', what: 'the quest tracker', heading: 'Quest tracker', wide: true } as const

function TrackerLayout({ user, store }: { user: User | null; store: TrackerStore }) {
  return (
    <Layout title={store.character.value.name} user={user} wide>
      <Tracker store={store} />
    </Layout>
  )
}

/**
 * Every read the tracker's first screen needs, started at once: the session (and the account's
 * queued writes, which the store shows over the progress), the character, its progress, the
 * catalog, and what to run next (which the page does not wait for). None waits for another,
 * nor for the page to draw "Loading…" first.
 */
function trackerReads(id: number) {
  const next = api.next(id, 'xp')
  // Its failure is the panel's to show (NextPanel), once the page is drawn; never an uncaught one.
  next.catch(() => {})
  const reads = Promise.all([requireUser(), api.character(id), api.progressTagged(id), api.quests()]).then(
    ([user, character, { progress, tag }, catalog]) => ({
      user,
      store: createTrackerStore({ character, progress, tag, quests: catalog.quests, next, save: true }),
    }),
  )
  // The page's load takes it in a moment (PageData); until then a failure is not an uncaught one.
  reads.catch(() => {})
  return reads
}

export function TrackerPage({ id }: { id: number }) {
  // Started as the page is first drawn (useState's initializer runs once), not after.
  const [reads] = useState(() => trackerReads(id))
  return (
    <PageData {...FRAME} back={TO_CHARACTERS} load={() => reads} follow={({ store }) => followSigned(store)}>
      {(data) => <TrackerLayout {...data} />}
    </PageData>
  )
}

/** Live updates, and a fresh read each time queued writes were sent (or refused) after a time offline. */
function followSigned(store: TrackerStore): () => void {
  const stopLive = followLive(store)
  const stopFlushed = afterFlush(() => void store.refresh())
  return () => {
    stopLive()
    stopFlushed()
  }
}

export function SharePage({ token }: { token: string }) {
  const [reads] = useState(() => {
    const read = Promise.all([api.sharedView(token), api.quests()]).then(([view, catalog]) => ({
      user: null,
      store: createTrackerStore({
        character: view.character,
        progress: view.progress,
        quests: catalog.quests,
        save: false,
      }),
    }))
    read.catch(() => {})
    return read
  })
  return (
    <PageData {...FRAME} load={() => reads} follow={({ store }) => followLive(store, token)}>
      {(data) => <TrackerLayout {...data} />}
    </PageData>
  )
}
