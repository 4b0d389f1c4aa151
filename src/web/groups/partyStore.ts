// The party planner's state, as signals: the group as last read, the party and setting chosen
// (the address holds them: it is the link to send the party), the plan the server answered,
// whether the account was removed from the group, the stream's mode, and what its reads said.
// Every read runs through act; a plan read the page has since asked again says nothing.
import { batch, effect, signal } from '@preact/signals'
import { MAX_PARTY_SIZE } from '../../rules/quests/groupNeeds'
import { STEP_SETTINGS, type StepSetting } from '../../rules/routes/routeStep'
import { act, createFeedback } from '../action'
import { api, type GroupDetail, type PartyAnswer } from '../api'
import { followGroup, type LiveMode } from '../live'

export type PartyStore = ReturnType<typeof createPartyStore>

/** The party and setting of the address: `c` the ids, `s` the setting. */
function fromAddress(group: GroupDetail): { ids: number[]; setting: StepSetting } {
  const params = new URLSearchParams(location.search)
  const shared = new Set(group.characters.map((c) => c.id))
  const ids = (params.get('c') ?? '')
    .split(',')
    .map(Number)
    .filter((id) => shared.has(id))
    .slice(0, MAX_PARTY_SIZE)
  const s = params.get('s')
  const setting = STEP_SETTINGS.find((x) => x === s) ?? 'elite'
  return { ids: [...new Set(ids)], setting }
}

export function createPartyStore(initial: GroupDetail) {
  const feedback = createFeedback()
  const group = signal(initial)
  const start = fromAddress(initial)
  const ids = signal<number[]>(start.ids)
  const setting = signal<StepSetting>(start.setting)
  const plan = signal<PartyAnswer | null>(null)
  const removed = signal(false)
  const liveMode = signal<LiveMode>('off')
  /** Bumped by a change in the group: the plan is read again for the same party. */
  const version = signal(0)
  /** The last plan read asked for: an earlier one's answer (or failure) is not shown. */
  let asked = 0

  /** Puts the party and setting in the address, and reads their plan (none for nobody). */
  async function readPlan(party: number[], at: StepSetting): Promise<void> {
    const params = new URLSearchParams()
    if (party.length > 0) params.set('c', party.join(','))
    params.set('s', at)
    history.replaceState(null, '', `${location.pathname}?${params}`)
    const seq = ++asked
    if (party.length === 0) {
      plan.value = null
      return
    }
    const answer = await act(feedback, () => api.party(initial.id, party, at), {
      quiet: true,
      stale: () => seq !== asked,
    })
    if (answer.ok) plan.value = answer.value
  }

  /**
   * Reads the group again (a change in it): a character taken back leaves the party; `removed`
   * when the caller is not a member any more.
   */
  async function refresh(): Promise<'removed' | undefined> {
    const fresh = await act(feedback, () => api.groupIfMember(initial.id), { quiet: true })
    if (!fresh.ok) return undefined
    const now = fresh.value
    if (now === null) return 'removed'
    const shared = new Set(now.characters.map((c) => c.id))
    batch(() => {
      group.value = now
      if (ids.value.some((id) => !shared.has(id))) ids.value = ids.value.filter((id) => shared.has(id))
      version.value++
    })
  }

  function toggle(id: number, on: boolean): void {
    ids.value = on ? [...ids.value, id] : ids.value.filter((x) => x !== id)
  }

  /** Reads the plan whenever the party, the setting or the group changes, live through the group's stream; the stop. */
  function follow(): () => void {
    const stopReads = effect(() => {
      void version.value
      void readPlan(ids.value, setting.value)
    })
    const stopStream = followGroup({
      groupId: initial.id,
      liveMode,
      refresh,
      onRemoved: () => {
        removed.value = true
      },
    })
    return () => {
      asked++
      stopReads()
      stopStream()
    }
  }

  return { feedback, group, ids, setting, plan, removed, liveMode, toggle, follow }
}
