// The tracker pages: /characters/{id} (signed in, editable) and /s/{token} (public, read-only).
// Both load the catalog once and the character's progress, then hand one store to the view.
import { useEffect, useState } from 'preact/hooks'
import { api, type User } from '../api'
import { ErrorMessage, Layout, Loading } from '../components/Layout'
import { requireUser } from '../session'
import { followLive } from '../tracker/live'
import { createTrackerStore, type TrackerStore } from '../tracker/store'
import { Tracker } from '../tracker/Tracker'

type Loaded = { store: TrackerStore; user: User | null } | { error: string } | null

function useLoaded(load: () => Promise<{ store: TrackerStore; user: User | null }>, shareToken?: string): Loaded {
  const [state, setState] = useState<Loaded>(null)
  useEffect(() => {
    let stop: (() => void) | undefined
    load()
      .then((loaded) => {
        setState(loaded)
        stop = followLive(loaded.store, shareToken)
      })
      .catch((e: unknown) => setState({ error: e instanceof Error ? e.message : String(e) }))
    return () => stop?.()
  }, [])
  return state
}

function Frame({ state, user }: { state: Loaded; user?: User | null }) {
  if (state === null) {
    return (
      <Layout title="Tracker" user={user} wide>
        <Loading what="the quest tracker" />
      </Layout>
    )
  }
  if ('error' in state) {
    return (
      <Layout title="Tracker" user={user} wide>
        <h1>Quest tracker</h1>
        <ErrorMessage message={state.error} />
        {user !== undefined && (
          <p>
            <a href="/">Back to your characters</a>
          </p>
        )}
      </Layout>
    )
  }
  return (
    <Layout title={state.store.character.value.name} user={state.user} wide>
      <Tracker store={state.store} />
    </Layout>
  )
}

export function TrackerPage({ id }: { id: number }) {
  const state = useLoaded(async () => {
    const user = await requireUser()
    // The three reads do not depend on each other.
    const [character, progress, catalog] = await Promise.all([api.character(id), api.progress(id), api.quests()])
    return { user, store: createTrackerStore({ character, progress, quests: catalog.quests, save: true }) }
  })
  return <Frame state={state} user={state && 'user' in state ? state.user : null} />
}

export function SharePage({ token }: { token: string }) {
  const state = useLoaded(async () => {
    const [view, catalog] = await Promise.all([api.sharedView(token), api.quests()])
    return {
      user: null,
      store: createTrackerStore({
        character: view.character,
        progress: view.progress,
        quests: catalog.quests,
        save: false,
      }),
    }
  }, token)
  return <Frame state={state} />
}
