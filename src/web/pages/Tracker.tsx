// The tracker pages: /characters/{id} (signed in, editable) and /s/{token} (public, read-only).
// Both load the catalog once and the character's progress, then hand one store to the view. A
// character that is not the viewer's gets a page of its own, in the site's frame: what it is not,
// and, when a group of theirs sees it, the way to its read-only view there.
import { ApiError, api, type GroupSummary, type User } from '../api'
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

type Seen = Pick<GroupSummary, 'id' | 'name'>
type Loaded = { user: User; store: TrackerStore } | { user: User; seenIn: Seen[] }

export function TrackerPage({ id }: { id: number }) {
  const load = async (): Promise<Loaded> => {
    const user = await requireUser()
    try {
      // The three reads do not depend on each other.
      const [character, { progress, tag }, catalog] = await Promise.all([
        api.character(id),
        api.progressTagged(id),
        api.quests(),
      ])
      return { user, store: createTrackerStore({ character, progress, tag, quests: catalog.quests, save: true }) }
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e
      // Not one of the account's (or no such character): which of its groups see it, if any.
      return { user, seenIn: (await api.groupsSeeing(id)).groups }
    }
  }
  return (
    <PageData
      {...FRAME}
      back={TO_CHARACTERS}
      load={load}
      follow={(data) => ('store' in data ? followSigned(data.store) : () => {})}
    >
      {(data) => ('store' in data ? <TrackerLayout {...data} /> : <NotYours id={id} {...data} />)}
    </PageData>
  )
}

/** A character id that is not the viewer's: said plainly, with the way to it through a group that sees it. */
function NotYours({ id, user, seenIn }: { id: number; user: User; seenIn: Seen[] }) {
  return (
    <Layout title="Not your character" user={user}>
      <div class="not-yours" data-character-id={id}>
        <h1>Not one of your characters</h1>
        {seenIn.length === 0 ? (
          <p>
            Character {id} is not one of yours, and none of your groups sees it: it belongs to another player, or no
            longer exists. <a href="/">Go to your characters</a>.
          </p>
        ) : (
          <>
            <p>
              Character {id} belongs to another player. Its player shares it with{' '}
              {seenIn.length === 1 ? 'a group of yours' : 'groups of yours'}: open its quests there, read-only.
            </p>
            <ul class="seen-in">
              {seenIn.map((group) => (
                <li key={group.id}>
                  <a href={`/groups/${group.id}/characters/${id}`}>Its quests in {group.name}</a>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Layout>
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
