// The completed quests a DDO Builder export writes on the planned build (issue 41 section 3): the
// current quest life's completions, each remake once on the best setting it was logged on (the
// planner keeps one difficulty per quest and level, and counts the highest: its
// Character::CompletedQuests), reaper as `R<most skulls>`. Read back by the import, they are the
// same completions.
import type { DB } from '../../db/client'
import type { Setting } from '../../rules/quests/completion'
import { bareName } from '../catalog/search'
import { readCatalogRows } from '../catalog/service'
import { currentQuestLife } from '../completions/service'
import { listCompletions } from '../progress/service'
import { type PlannerQuest, plannerDifficulty } from './ddobuilder'

/** Settings from the least to the most (DDO wiki, "Solo": "Higher settings are more challenging"). */
const RANK: Readonly<Record<Setting, number>> = { unknown: 0, casual: 1, normal: 2, hard: 3, elite: 4, reaper: 5 }

export function plannerQuests(db: DB, characterId: number): PlannerQuest[] {
  const catalog = readCatalogRows(db)
  /** A remake's level; the lowest of the name's for a completion without a tier; null off the catalog. */
  const levelOf = (name: string, difficulty: string): number | null => {
    const rows = catalog.filter(
      (row) => row.name === name && (difficulty === 'Unknown' || row.difficulty === difficulty),
    )
    return rows.length === 0 ? null : Math.min(...rows.map((row) => row.level))
  }
  const best = new Map<string, { quest: PlannerQuest; rank: number }>()
  for (const c of listCompletions(db, characterId, currentQuestLife(db, characterId))) {
    const difficulty = plannerDifficulty(c.setting, c.reaperSkulls)
    if (difficulty === null) continue
    const quest = { name: bareName(c.name), level: levelOf(c.name, c.difficulty), difficulty }
    const rank = RANK[c.setting] * 100 + (c.reaperSkulls ?? 0)
    const key = `${quest.name}\u0000${quest.level}`
    const held = best.get(key)
    if (!held || rank > held.rank) best.set(key, { quest, rank })
  }
  return [...best.values()]
    .map(({ quest }) => quest)
    .sort((a, b) => a.name.localeCompare(b.name) || (a.level ?? 0) - (b.level ?? 0))
}
