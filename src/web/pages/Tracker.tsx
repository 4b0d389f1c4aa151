// The tracker pages: /characters/{id} (signed in, editable) and /s/{token} (public, read-only).
// Both load the catalog once and the character's progress, then hand one store to the view.
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

export function TrackerPage({ id }: { id: number }) {
  const load = async () => {
    const user = await requireUser()
    // The three reads do not depend on each other.
    const [character, { progress, tag }, catalog] = await Promise.all([
      api.character(id),
      api.progressTagged(id),
      api.quests(),
    ])
    return { user, store: createTrackerStore({ character, progress, tag, quests: catalog.quests, save: true }) }
  }
  return (
    <PageData {...FRAME} back={TO_CHARACTERS} load={load} follow={({ store }) => followSigned(store)}>
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
  const load = async () => {
    const [view, catalog] = await Promise.all([api.sharedView(token), api.quests()])
    const store = createTrackerStore({
      character: view.character,
      progress: view.progress,
      quests: catalog.quests,
      save: false,
    })
    return { user: null, store }
  }
  return (
    <PageData {...FRAME} load={load} follow={({ store }) => followLive(store, token)}>
      {(data) => <TrackerLayout {...data} />}
    </PageData>
  )
}
