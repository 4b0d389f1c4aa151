// The completed quests a DDO Builder export writes on the planned build (issue 41 section 3): the
// current quest life's completions, each remake once on the best setting it was logged on (the
// planner keeps one difficulty per quest and level, and counts the highest: its
// Character::CompletedQuests), reaper as `R<most skulls>`. Read back by the import, they are the
// same completions.
import type { DB } from '../../db/client'
import { SETTINGS_BY_CHALLENGE } from '../../rules/quests/completion'
import { gameNameOf } from '../../rules/quests/questAliases'
import { bareName } from '../catalog/search'
import { readCatalogRows } from '../catalog/service'
import { currentQuestLife } from '../completions/service'
import { listCompletions } from '../progress/service'
import { type PlannerQuest, plannerDifficulty } from './ddobuilder'

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
    // The game's name, which the planner's quest list follows: the epic "Gianthold Tor" is the
    // wiki's "Return to Gianthold Tor", "Devil Assault" its "Devil Assault (quest)".
    const name = gameNameOf(c.name, c.difficulty) ?? bareName(c.name)
    const quest = { name, level: levelOf(c.name, c.difficulty), difficulty }
    const rank = SETTINGS_BY_CHALLENGE.indexOf(c.setting) * 100 + (c.reaperSkulls ?? 0)
    const key = `${quest.name}\u0000${quest.level}`
    const held = best.get(key)
    if (!held || rank > held.rank) best.set(key, { quest, rank })
  }
  return [...best.values()]
    .map(({ quest }) => quest)
    .sort((a, b) => a.name.localeCompare(b.name) || (a.level ?? 0) - (b.level ?? 0))
}
