// Which catalog remake a quest named elsewhere is: a DDO Builder file's completed quest, a row of
// a spreadsheet kept by hand. Real files spell names their own way (74 of the 83 completed quests
// of the planner's own example file match the wiki's names exactly), so the match forgives what
// they differ in: case, apostrophes ("The Kobold's New Ringleader", "The Kobolds' New
// Ringleader"), `:` and hyphen spacing ("Scourge:Blockade", "War Plans", "War-plans"), the word
// "the" ("The Halls of Shan-To-Kor", "Agent of the Darguul") and the wiki's disambiguators
// ("Redemption (quest)"). The planner names a quest once with several levels (Ghost of a Chance:
// 5 and 25) where the wiki has "Ghost of a Chance" and "Ghost of a Chance (epic)", so the quest's
// level, when known, picks the remake.
import type { Difficulty } from './completion'

/** A catalog remake, as far as matching reads it. */
export interface MatchRow {
  name: string
  difficulty: Difficulty
  level: number
}

/**
 * What two spellings of one quest share: lower case, without parenthesised disambiguators, the
 * word "the", or anything but letters and digits.
 */
export function questNameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\bthe\b/g, ' ')
    .replace(/[^\p{L}\p{N}]/gu, '')
}

export type QuestMatch =
  /** One remake: `how` says whether the name was the catalog's own or a spelling forgiven. */
  | { kind: 'matched'; row: MatchRow; how: 'exact' | 'spelling' }
  /** Several quests fit and nothing tells them apart: the player chooses. */
  | { kind: 'ambiguous'; candidates: MatchRow[] }
  /** No catalog quest has this name in any spelling. */
  | { kind: 'unmatched' }

/** The catalog's remakes by name key, built once for many lookups. */
export type QuestIndex = ReadonlyMap<string, readonly MatchRow[]>

export function questIndex(rows: readonly MatchRow[]): QuestIndex {
  const index = new Map<string, MatchRow[]>()
  for (const row of rows) {
    const key = questNameKey(row.name)
    const list = index.get(key)
    if (list) list.push(row)
    else index.set(key, [row])
  }
  return index
}

const TIER_ORDER: readonly Difficulty[] = ['Heroic', 'Epic', 'Legendary', 'Unknown']

/** The remake whose level is nearest `level` (a tie goes to the lower tier), or the first tier without one. */
function nearest(rows: readonly MatchRow[], level: number | null): MatchRow {
  const sorted = [...rows].sort((a, b) => TIER_ORDER.indexOf(a.difficulty) - TIER_ORDER.indexOf(b.difficulty))
  if (level === null) return sorted[0] as MatchRow
  return sorted.reduce((best, row) => (Math.abs(row.level - level) < Math.abs(best.level - level) ? row : best))
}

/** What else a source says of a quest: its level (0 or null: unknown), its tier (Unknown: unknown). */
export interface QuestHints {
  level?: number | null
  difficulty?: Difficulty | null
}

/**
 * The catalog remake `name` names. A tier the source gives keeps only that tier's remakes (a name
 * the catalog has in other tiers only is the player's choice). Then a remake at exactly the given
 * level wins; else, among one quest's remakes, the nearest level; among several quests, the one
 * spelt exactly as the catalog does. Two tiers of one quest at the same level (the heroic and epic
 * Lord of Blades are both 20) cannot be told apart by a name and a level: the lower tier is
 * taken. What nothing decides (no level and no tier for a quest with several) is the player's
 * choice: ambiguous, with the candidates.
 */
export function matchQuest(index: QuestIndex, name: string, hints: QuestHints = {}): QuestMatch {
  const all = index.get(questNameKey(name)) ?? []
  if (all.length === 0) return { kind: 'unmatched' }
  const tier = hints.difficulty && hints.difficulty !== 'Unknown' ? hints.difficulty : null
  const candidates = tier === null ? all : all.filter((row) => row.difficulty === tier)
  if (candidates.length === 0) return { kind: 'ambiguous', candidates: [...all] }
  const level = hints.level !== undefined && hints.level !== null && hints.level > 0 ? hints.level : null
  const matched = (rows: readonly MatchRow[]): QuestMatch => {
    const row = nearest(rows, level)
    return { kind: 'matched', row, how: row.name === name ? 'exact' : 'spelling' }
  }
  // One remake, or one quest whose remake the level picks.
  const decides = (rows: readonly MatchRow[]) => rows.length === 1 || level !== null
  const atLevel = level === null ? [] : candidates.filter((row) => row.level === level)
  const pool = atLevel.length > 0 ? atLevel : candidates
  if (new Set(pool.map((row) => row.name)).size === 1) {
    return decides(pool) ? matched(pool) : { kind: 'ambiguous', candidates: [...pool] }
  }
  const exact = pool.filter((row) => row.name === name)
  if (exact.length > 0 && decides(exact)) return matched(exact)
  return { kind: 'ambiguous', candidates: [...(exact.length > 0 ? exact : pool)] }
}
