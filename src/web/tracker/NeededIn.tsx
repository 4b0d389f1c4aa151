// "Needed by" on the tracker: for a group the account is in, which of the characters it sees
// (other than this one) have not done each quest at the Play on setting. The player picks the
// group (remembered in this browser); the marks follow the group's stream, read again at most
// every NEEDED_IN_REFRESH_MS, and vanish at once when the player is removed from the group.
import { signal, useSignal, useSignalEffect } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import type { PlayOn } from '../../rules/character/levels'
import { runSetting } from '../../rules/quests/nextQuests'
import type { StepSetting } from '../../rules/routes/routeStep'
import { act, useFeedback } from '../action'
import { api, type GroupSummary } from '../api'
import { followGroup, type GroupLiveTarget, type LiveMode } from '../live'
import { rowKey } from './model'
import type { TrackerStore } from './store'

/**
 * How long after a change in the group the marks are read again, every change within it joining
 * that one read (issue 39, item 7): each event of a group's stream (any member's completion, any
 * share) made every open tracker of the group read its needs 100 ms later, all at once. The marks
 * are about other players' characters: two seconds behind is soon enough.
 */
export const NEEDED_IN_REFRESH_MS = 2000

/** Follows the group's stream for the marks: a read NEEDED_IN_REFRESH_MS after the first change of a burst. */
export const followNeeds = (target: Omit<GroupLiveTarget, 'coalesceMs'>): (() => void) =>
  followGroup({ ...target, coalesceMs: NEEDED_IN_REFRESH_MS })

/** Per tracker row key, the names of the group's characters that still need it (one tracker per page). */
export const neededBy = signal<ReadonlyMap<string, readonly string[]>>(new Map())

const REMEMBERED = 'qt.neededIn'

function rememberedGroup(): number | null {
  try {
    const value = Number(localStorage.getItem(REMEMBERED))
    return Number.isInteger(value) && value > 0 ? value : null
  } catch {
    return null
  }
}

function remember(groupId: number | null): void {
  try {
    if (groupId === null) localStorage.removeItem(REMEMBERED)
    else localStorage.setItem(REMEMBERED, String(groupId))
  } catch {
    // not kept: the page still works
  }
}

export function NeededIn({ store }: { store: TrackerStore }) {
  const groups = useSignal<GroupSummary[]>([])
  const chosen = useSignal<number | null>(null)
  const feedback = useFeedback()
  const problem = feedback.error
  const version = useSignal(0)
  const liveMode = useSignal<LiveMode>('off')

  useEffect(() => {
    api.groups().then(
      (list) => {
        groups.value = list.groups
        const remembered = rememberedGroup()
        chosen.value = list.groups.some((g) => g.id === remembered) ? remembered : null
      },
      () => {
        // No groups shown: the tracker works without them.
      },
    )
  }, [])

  useSignalEffect(() => {
    const groupId = chosen.value
    const setting = runSetting(store.playOn.value as PlayOn) as StepSetting
    void version.value
    if (groupId === null) {
      neededBy.value = new Map()
      return
    }
    let current = true
    void act(feedback, () => api.groupNeeds(groupId, setting), { quiet: true, stale: () => !current }).then((read) => {
      if (!read.ok) return
      const answer = read.value
      const names = new Map(
        answer.characters.filter((c) => c.id !== store.characterId).map((c) => [c.id, c.name] as const),
      )
      const marks = new Map<string, string[]>()
      for (const quest of answer.quests) {
        const who = quest.neededBy.flatMap((id) => names.get(id) ?? [])
        if (who.length > 0) marks.set(rowKey(quest), who)
      }
      neededBy.value = marks
    })
    return () => {
      current = false
    }
  })

  useSignalEffect(() => {
    const groupId = chosen.value
    if (groupId === null) return
    return followNeeds({
      groupId,
      liveMode,
      refresh: () => {
        version.value++
      },
      onRemoved: () => {
        groups.value = groups.value.filter((g) => g.id !== groupId)
        chosen.value = null
        remember(null)
        problem.value = 'You are no longer a member of that group.'
      },
    })
  })

  if (groups.value.length === 0 && problem.value === null) return null
  return (
    <div class="needed-in field">
      <label for="needed-in">Needed by others in</label>
      <select
        id="needed-in"
        value={chosen.value === null ? '' : String(chosen.value)}
        onChange={(e) => {
          const value = e.currentTarget.value
          chosen.value = value === '' ? null : Number(value)
          remember(chosen.value)
        }}
      >
        <option value="">no group</option>
        {groups.value.map((g) => (
          <option key={g.id} value={String(g.id)}>
            {g.name}
          </option>
        ))}
      </select>
      {problem.value && <p class="error small">{problem.value}</p>}
    </div>
  )
}
