// The route editor's state, as signals: the name, the steps in order (each a quest remake and a
// challenge setting), the boosts and optionals the route assumes, and the catalog search that
// adds steps. Nothing is sent until Save: POST a new route, or PUT the whole route back.
import { computed, signal } from '@preact/signals'
import type { Difficulty } from '../../rules/quests/completion'
import { fold } from '../../rules/quests/tracker'
import {
  DEFAULT_STEP_DIFFICULTY,
  STEP_DIFFICULTIES,
  type StepDifficulty,
  type StepSetting,
} from '../../rules/routes/routeStep'
import { api, errorMessage, type QuestRow, type RouteDetail, type RouteInputBody } from '../api'

export interface EditStep {
  /** Stable across moves, for the list's keys and focus. */
  key: number
  name: string
  difficulty: StepDifficulty
  setting: StepSetting
}

/** At most this many catalog matches are listed under the search box. */
export const SEARCH_RESULTS = 12

export type EditorStore = ReturnType<typeof createEditorStore>

const asTier = (d: Difficulty): StepDifficulty => (d === 'Unknown' ? DEFAULT_STEP_DIFFICULTY : d)

export function createEditorStore(quests: readonly QuestRow[], route: RouteDetail | null) {
  let nextKey = 1
  const name = signal(route?.name ?? '')
  const steps = signal<EditStep[]>(
    (route?.quests ?? []).map((q) => ({ key: nextKey++, name: q.name, difficulty: q.difficulty, setting: q.setting })),
  )
  const boosts = signal<Record<string, unknown>>({ ...(route?.boosts ?? {}) })
  const optionals = signal<Record<string, unknown>>({ ...(route?.optionals ?? {}) })
  const search = signal('')
  const error = signal<string | null>(null)
  /** Announces moves, additions and removals to screen readers (the list itself changes silently). */
  const notice = signal<string | null>(null)
  const saving = signal(false)

  /** The tiers each quest name exists in, for the step's tier choice. */
  const tiers = new Map<string, StepDifficulty[]>()
  for (const q of quests) {
    const list = tiers.get(q.name) ?? []
    if (!list.includes(asTier(q.difficulty))) list.push(asTier(q.difficulty))
    tiers.set(q.name, list)
  }
  const tiersOf = (questName: string): readonly StepDifficulty[] => tiers.get(questName) ?? STEP_DIFFICULTIES

  /** Folded names and packs (the search's rule, rules/quests/tracker.ts fold), once. */
  const folded = new Map(quests.map((q) => [q, { name: fold(q.name), pack: fold(q.pack) }]))
  const results = computed(() => {
    const words = fold(search.value)
    if (words === '') return []
    const of = (q: QuestRow) => folded.get(q) ?? { name: '', pack: '' }
    return quests
      .filter((q) => of(q).name.includes(words) || of(q).pack.includes(words))
      .sort(
        (a, b) =>
          Number(!of(a).name.startsWith(words)) - Number(!of(b).name.startsWith(words)) ||
          a.level - b.level ||
          a.name.localeCompare(b.name),
      )
      .slice(0, SEARCH_RESULTS)
  })

  function add(q: QuestRow): void {
    steps.value = [...steps.value, { key: nextKey++, name: q.name, difficulty: asTier(q.difficulty), setting: 'elite' }]
    notice.value = `Added ${q.name} (${q.difficulty}) as step ${steps.value.length}.`
  }

  /** Moves a step by one place; returns its new index (or the old one at either end). */
  function move(index: number, by: -1 | 1): number {
    const to = index + by
    const list = [...steps.value]
    const [step] = list.splice(index, 1)
    if (!step || to < 0 || to > list.length) return index
    list.splice(to, 0, step)
    steps.value = list
    notice.value = `${step.name} is now step ${to + 1} of ${list.length}.`
    return to
  }

  function remove(index: number): void {
    const step = steps.value[index]
    steps.value = steps.value.filter((_, i) => i !== index)
    if (step) notice.value = `Removed ${step.name}. ${steps.value.length} steps left.`
  }

  function update(index: number, patch: Partial<Pick<EditStep, 'difficulty' | 'setting'>>): void {
    steps.value = steps.value.map((s, i) => (i === index ? { ...s, ...patch } : s))
  }

  function setBonus(group: 'boosts' | 'optionals', key: string, value: true | number | null): void {
    const target = group === 'boosts' ? boosts : optionals
    const next = { ...target.value }
    if (value === null || value === 0) delete next[key]
    else next[key] = value
    target.value = next
  }

  function body(): RouteInputBody {
    return {
      name: name.value.trim(),
      quests: steps.value.map(({ name: n, difficulty, setting }) => ({ name: n, difficulty, setting })),
      boosts: boosts.value,
      optionals: optionals.value,
    }
  }

  /** Saves (create or replace) and answers the stored route, or null after showing why not. */
  async function save(): Promise<RouteDetail | null> {
    if (name.value.trim() === '') {
      error.value = 'Give the route a name.'
      return null
    }
    if (steps.value.length === 0) {
      error.value = 'Add at least one quest: find it in the catalog search.'
      return null
    }
    saving.value = true
    error.value = null
    try {
      return route ? await api.updateRoute(route.id, body()) : await api.createRoute(body())
    } catch (e) {
      error.value = errorMessage(e)
      return null
    } finally {
      saving.value = false
    }
  }

  return {
    route,
    name,
    steps,
    boosts,
    optionals,
    search,
    results,
    error,
    notice,
    saving,
    tiersOf,
    add,
    move,
    remove,
    update,
    setBonus,
    save,
  }
}
