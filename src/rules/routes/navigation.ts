// Where a character stands on a route: pure, over the route's steps and the character's
// completions (plugin-api.md "Navigation rules", domain rule 2).
//
// - A completion counts for a step's remake when its quest name matches (without regard to
//   case) and its remake is the step's remake or `Unknown` (an Unknown remake matches any remake
//   of that quest name, in both modes).
// - `settingCompleted`: such a completion exists with the step's exact setting.
// - `remakeCompleted`: such a completion exists with any setting (`unknown` included).
// - `completed` is `settingCompleted` with match=setting and `remakeCompleted` with match=remake.
// - `completedAt`/`durationSeconds` come from the best of the completions that make the step
//   completed in this mode, null when it is not completed. Best = closest to the step: its exact
//   setting first, then its exact remake before an Unknown one, then the latest run.
// - `nextQuest` is the first step (by position) not completed. When every step is completed it is
//   the last step with `completed: true` (the contract's nextQuest carries `completed`, and is
//   never shown as absent), and `progress.finished` is true.

export type MatchMode = 'setting' | 'remake'

export const SETTING_ORDER = ['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown'] as const

/** A route step; the type parameters let callers keep their narrower remake/setting types. */
export interface NavStep<D extends string = string, S extends string = string> {
  position: number
  name: string
  difficulty: D
  setting: S
}

export interface NavCompletion {
  id: number
  name: string
  difficulty: string
  setting: string
  completedAt: string
  durationSeconds: number | null
}

export interface StepState<D extends string = string, S extends string = string> extends NavStep<D, S> {
  completed: boolean
  settingCompleted: boolean
  remakeCompleted: boolean
  settingsLogged: string[]
  completedAt: string | null
  durationSeconds: number | null
}

export interface NextQuest<D extends string = string, S extends string = string> extends NavStep<D, S> {
  completed: boolean
}

export interface NavigationState<D extends string = string, S extends string = string> {
  steps: StepState<D, S>[]
  nextQuest: NextQuest<D, S> | null
  progress: { completed: number; total: number; remaining: number; finished: boolean }
}

const settingRank = (setting: string) => {
  const i = (SETTING_ORDER as readonly string[]).indexOf(setting)
  return i === -1 ? SETTING_ORDER.length : i
}

const time = (iso: string) => {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms
}

/** Orders candidates best first: exact setting, exact remake, latest completedAt, newest row. */
function bestFor(step: NavStep, candidates: NavCompletion[]): NavCompletion | undefined {
  let best: NavCompletion | undefined
  const key = (c: NavCompletion) => [c.setting === step.setting ? 1 : 0, c.difficulty === step.difficulty ? 1 : 0]
  for (const c of candidates) {
    if (!best) {
      best = c
      continue
    }
    const [cs, cr] = key(c)
    const [bs, br] = key(best)
    if (cs !== bs) {
      if (cs > bs) best = c
      continue
    }
    if (cr !== br) {
      if (cr > br) best = c
      continue
    }
    const ct = time(c.completedAt)
    const bt = time(best.completedAt)
    if (ct > bt || (ct === bt && c.id > best.id)) best = c
  }
  return best
}

export function navigate<D extends string, S extends string>(
  steps: NavStep<D, S>[],
  completions: NavCompletion[],
  match: MatchMode,
): NavigationState<D, S> {
  const byName = new Map<string, NavCompletion[]>()
  for (const c of completions) {
    const key = c.name.toLowerCase()
    const list = byName.get(key)
    if (list) list.push(c)
    else byName.set(key, [c])
  }

  const states = [...steps]
    .sort((a, b) => a.position - b.position)
    .map((step): StepState<D, S> => {
      const sameRemake = (byName.get(step.name.toLowerCase()) ?? []).filter(
        (c) => c.difficulty === step.difficulty || c.difficulty === 'Unknown',
      )
      const exactSetting = sameRemake.filter((c) => c.setting === step.setting)
      const settingCompleted = exactSetting.length > 0
      const remakeCompleted = sameRemake.length > 0
      const completed = match === 'setting' ? settingCompleted : remakeCompleted
      const best = completed ? bestFor(step, match === 'setting' ? exactSetting : sameRemake) : undefined
      const settingsLogged = [...new Set(sameRemake.map((c) => c.setting))].sort(
        (a, b) => settingRank(a) - settingRank(b) || a.localeCompare(b),
      )
      return {
        position: step.position,
        name: step.name,
        difficulty: step.difficulty,
        setting: step.setting,
        completed,
        settingCompleted,
        remakeCompleted,
        settingsLogged,
        completedAt: best?.completedAt ?? null,
        durationSeconds: best?.durationSeconds ?? null,
      }
    })

  const next = states.find((s) => !s.completed) ?? states.at(-1)
  const done = states.filter((s) => s.completed).length
  return {
    steps: states,
    // null only for a route without steps, which the routes module never stores.
    nextQuest: next
      ? {
          position: next.position,
          name: next.name,
          difficulty: next.difficulty,
          setting: next.setting,
          completed: next.completed,
        }
      : null,
    progress: {
      completed: done,
      total: states.length,
      remaining: states.length - done,
      finished: done === states.length,
    },
  }
}
