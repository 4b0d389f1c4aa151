// The group pages: /groups (the account's groups, make one), /groups/{id} (a group, with its
// quests × characters grid), /groups/{id}/party (the party planner) and
// /groups/{id}/characters/{characterId} (a shared character's tracker, read-only, for members).
import { effect, useSignal } from '@preact/signals'
import { useEffect, useMemo } from 'preact/hooks'
import { act, createFeedback } from '../action'
import { ApiError, api, type Character, type MemberTracker, type User } from '../api'
import { Layout } from '../components/Layout'
import { type Link, PageData } from '../components/PageData'
import { GroupList } from '../groups/GroupList'
import { GroupView } from '../groups/GroupView'
import { PartyView } from '../groups/PartyView'
import { followGroup } from '../live'
import { requireUser } from '../session'
import { createTrackerStore, type TrackerStore } from '../tracker/store'
import { Tracker } from '../tracker/Tracker'

const TO_GROUPS: Link = { href: '/groups', label: 'Back to your groups' }

export function GroupsPage() {
  const load = async () => ({ user: await requireUser(), list: await api.groups() })
  return (
    <PageData title="Groups" what="your groups" load={load}>
      {({ user, list }) => (
        <Layout title="Groups" user={user}>
          <GroupList initial={list.groups} />
        </Layout>
      )}
    </PageData>
  )
}

export function GroupPage({ id }: { id: number }) {
  const load = async () => ({ user: await requireUser(), group: await api.group(id) })
  return (
    <PageData title="Group" what="the group" back={TO_GROUPS} wide load={load}>
      {({ user, group }) => (
        <Layout title={group.name} user={user} wide>
          <GroupView initial={group} />
        </Layout>
      )}
    </PageData>
  )
}

export function PartyPage({ id }: { id: number }) {
  const load = async () => ({ user: await requireUser(), group: await api.group(id) })
  return (
    <PageData title="Plan a party" what="the group" back={TO_GROUPS} load={load}>
      {({ user, group }) => (
        <Layout title={`${group.name}: plan a party`} user={user} wide>
          <PartyView initial={group} />
        </Layout>
      )}
    </PageData>
  )
}

/** A member's view of a character: the store's Character, without the owner's share link (never sent to members). */
const asCharacter = (view: MemberTracker): Character => ({
  ...view.character,
  shareToken: '',
  shareUrl: '/s/',
  shared: false,
})

/**
 * A character shared with the group, read-only (the share page's tracker, for members): the
 * filters change only this page; live through the group's stream (a change of this character
 * reads it again, by ETag; being removed from the group, or the character taken back, says so).
 */
export function GroupCharacterPage({ id, characterId }: { id: number; characterId: number }) {
  const load = async () => {
    const user = await requireUser()
    const [view, group, catalog] = await Promise.all([api.memberTracker(id, characterId), api.group(id), api.quests()])
    const store = createTrackerStore({
      character: asCharacter(view),
      progress: view.progress,
      quests: catalog.quests,
      save: false,
    })
    return { user, store, view, groupName: group.name }
  }
  const back: Link = { href: `/groups/${id}`, label: 'Back to the group' }
  return (
    <PageData title="Shared character" what="the character" back={back} wide load={load}>
      {(data) => <GroupCharacterView groupId={id} {...data} />}
    </PageData>
  )
}

const NOT_SHARED = 'This character is no longer shared with the group: its quests are not shown any more.'

interface GroupCharacterProps {
  groupId: number
  user: User
  store: TrackerStore
  view: MemberTracker
  groupName: string
}

function GroupCharacterView({ groupId, user, store, view, groupName }: GroupCharacterProps) {
  const gone = useSignal<string | null>(null)
  // A failed read is said where the tracker says its own (its alert region).
  const feedback = useMemo(() => ({ ...createFeedback(), error: store.error }), [])
  const characterId = store.characterId
  useEffect(
    () =>
      effect(() => {
        if (!store.live.value || gone.value !== null) return
        return followGroup({
          groupId,
          liveMode: store.liveMode,
          refresh: async () => {
            const fresh = await act(feedback, () => api.memberTracker(groupId, characterId), {
              quiet: true,
              // A 404: the page says so instead of the tracker (which it no longer shows).
              explain: (e) => {
                if (e instanceof ApiError && e.status === 404) gone.value = NOT_SHARED
                return null
              },
            })
            if (fresh.ok) store.replace({ character: asCharacter(fresh.value), progress: fresh.value.progress })
          },
          onRemoved: () => {
            gone.value = 'You are no longer a member of this group: its characters are not shown any more.'
          },
        })
      }),
    [],
  )
  return (
    <Layout title={`${store.character.value.name} (${groupName})`} user={user} wide>
      {gone.value !== null ? (
        <div data-removed="true">
          <h1>{store.character.value.name}</h1>
          <p class="error" role="alert">
            {gone.value}
          </p>
          <p>
            <a href={`/groups/${groupId}`}>Back to the group</a>
          </p>
        </div>
      ) : (
        <Tracker
          store={store}
          note={
            <>
              {view.owner.name}'s character, shared with <a href={`/groups/${groupId}`}>{groupName}</a>: a read-only
              view of its quests.
            </>
          }
        />
      )}
    </Layout>
  )
}
