// A character's saga progress (issue 41 section 4): for each saga of the table (sagaTable.ts),
// which of its quests the character has done and on what. Only what the table's sources give is
// counted: a quest is done when any setting of it is logged, at the saga's tier (or without a
// tier, which counts for every tier: the contract's domain rule 2), in the completions given
// (the service passes the current quest life's, as the tracker counts them). No points, no
// reward tier: nothing cited says how a saga counts them. Pure functions over plain data.
import { mostSkulls, SETTINGS_BY_CHALLENGE, type Setting } from './completion'
import { type MatchRow, matchQuest, type QuestIndex, questNameKey } from './questMatch'
import type { Saga } from './sagaTable'

/** What a saga reads of a completion. */
export interface SagaCompletion {
  name: string
  difficulty: string
  setting: Setting
  reaperSkulls?: number | null
}

export interface SagaQuestProgress {
  /** As the saga table names it. */
  name: string
  /** The catalog remake it is (the imports' matcher, at the saga's tier); null: the catalog lacks it. */
  catalog: MatchRow | null
  done: boolean
  /** Every setting it was logged on, least challenging first. */
  settings: Setting[]
  /** The most challenging of them; null when not done. */
  best: Setting | null
  /** On reaper: the most skulls logged (null: none said). */
  reaperSkulls: number | null
}

export interface SagaProgress extends Omit<Saga, 'quests'> {
  quests: SagaQuestProgress[]
  /** Quests done, of `total`. */
  done: number
  total: number
}

/** Names that two different quests of the table share once spelling is forgiven (`Locked Away (pt 1)`, `(pt 2)`). */
function sharedKeys(sagas: readonly Saga[]): ReadonlySet<string> {
  const names = new Map<string, Set<string>>()
  for (const saga of sagas) {
    for (const name of saga.quests) {
      const key = questNameKey(name)
      names.set(key, (names.get(key) ?? new Set()).add(name))
    }
  }
  return new Set([...names].filter(([, spellings]) => spellings.size > 1).map(([key]) => key))
}

/**
 * Each saga's progress from `completions`. A saga quest resolves to a catalog remake with the
 * imports' matcher (questMatch.ts) at the saga's tier; the completions that count for it are
 * those at that tier or without one, named as the table or the catalog names it (any case), or,
 * for a name the catalog lacks (a newer quest the plugin posted by the game's name), named as it
 * once spelling is forgiven, unless two quests of the table share that spelling.
 */
export function sagaProgress(
  sagas: readonly Saga[],
  index: QuestIndex,
  completions: readonly SagaCompletion[],
): SagaProgress[] {
  const shared = sharedKeys(sagas)
  const byName = new Map<string, SagaCompletion[]>()
  const byKey = new Map<string, SagaCompletion[]>()
  const add = (map: Map<string, SagaCompletion[]>, key: string, c: SagaCompletion) => {
    const list = map.get(key)
    if (list) list.push(c)
    else map.set(key, [c])
  }
  for (const c of completions) {
    add(byName, c.name.toLowerCase(), c)
    add(byKey, questNameKey(c.name), c)
  }
  return sagas.map(({ quests, ...saga }) => {
    const progress = quests.map((name): SagaQuestProgress => {
      const match = matchQuest(index, name, { difficulty: saga.tier })
      // The row as far as the answer says (the index may hold whole catalog rows).
      const catalog =
        match.kind === 'matched'
          ? { name: match.row.name, difficulty: match.row.difficulty, level: match.row.level }
          : null
      const names = new Set([name.toLowerCase(), catalog?.name.toLowerCase()])
      const key = questNameKey(name)
      let found = [...names].flatMap((n) => (n === undefined ? [] : (byName.get(n) ?? [])))
      if (found.length === 0 && catalog === null && !shared.has(key)) found = byKey.get(key) ?? []
      const counted = found.filter((c) => c.difficulty === saga.tier || c.difficulty === 'Unknown')
      const settings = SETTINGS_BY_CHALLENGE.filter((s) => counted.some((c) => c.setting === s))
      const skulls = mostSkulls(...counted.filter((c) => c.setting === 'reaper').map((c) => c.reaperSkulls))
      return {
        name,
        catalog,
        done: counted.length > 0,
        settings,
        best: settings.at(-1) ?? null,
        reaperSkulls: skulls,
      }
    })
    return { ...saga, quests: progress, done: progress.filter((q) => q.done).length, total: progress.length }
  })
}
