// The tracker pages: /characters/{id} (signed in, editable) and /s/{token} (public, read-only).
// Both load the catalog once and the character's progress, then hand one store to the view. A
// character that is not the viewer's gets a page of its own, in the site's frame: what it is not,
// and, when a group of theirs sees it, the way to its read-only view there.
import { useState } from 'preact/hooks'
import { ApiError, api, type GroupSummary, type NextAnswer, type User } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_CHARACTERS } from '../components/PageData'
import { afterFlush } from '../offline/outbox'
import { requireUser } from '../session'
import { followLive } from '../tracker/live'
import { createTrackerStore, type TrackerStore } from '../tracker/store'
import { Tracker } from '../tracker/Tracker'

const FRAME = { title: 'Tracker', what: 'the quest tracker', heading: 'Quest tracker', wide: true } as const

/** The tracker's page, signed in or shared, once its reads are in (the server draws it too: src/modules/web/firstScreen.ts). */
export function TrackerLayout({ user, store }: { user: User | null; store: TrackerStore }) {
  return (
    <Layout title={store.character.value.name} user={user} wide>
      <Tracker store={store} />
    </Layout>
  )
}

type Seen = Pick<GroupSummary, 'id' | 'name'>
type Loaded = { user: User; store: TrackerStore } | { user: User; seenIn: Seen[] }

/**
 * Every read the tracker's first screen needs, started at once: the session (and the account's
 * queued writes, which the store shows over the progress), the character, its progress, the
 * catalog, and what to run next (which the page does not wait for). None waits for another,
 * nor for the page to draw "Loading…" first. A character that is not the account's (404) is
 * answered with the groups of the account that see it, if any.
 */
function trackerReads(id: number): Promise<Loaded> {
  const next = api.next(id, 'xp')
  // Its failure is the panel's to show (NextPanel), once the page is drawn; never an uncaught one.
  // Its answer, when it comes before the others (it mostly does), is drawn with the page.
  let nextNow: NextAnswer | undefined
  next.then(
    (answer) => {
      nextNow = answer
    },
    () => {},
  )
  const user = requireUser()
  const reads = Promise.all([user, api.character(id), api.progressTagged(id), api.quests()]).then(
    ([user, character, { progress, tag }, catalog]): Loaded => ({
      user,
      store: createTrackerStore({ character, progress, tag, quests: catalog.quests, next, nextNow, save: true }),
    }),
    async (e: unknown): Promise<Loaded> => {
      if (!(e instanceof ApiError && e.status === 404)) throw e
      // Not one of the account's (or no such character): which of its groups see it, if any.
      return { user: await user, seenIn: (await api.groupsSeeing(id)).groups }
    },
  )
  // The page's load takes it in a moment (PageData); until then a failure is not an uncaught one.
  reads.catch(() => {})
  return reads
}

export function TrackerPage({ id }: { id: number }) {
  // Started as the page is first drawn (useState's initializer runs once), not after.
  const [reads] = useState(() => trackerReads(id))
  return (
    <PageData
      {...FRAME}
      back={TO_CHARACTERS}
      load={() => reads}
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
