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
  | { kind: 'ambiguous'; candidates: readonly MatchRow[] }
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

/**
 * The catalog remake `name` (at quest `level`, when known: 0 or null is unknown) names. A remake
 * at exactly that level wins; else, among one quest's remakes, the nearest level; among several
 * quests, the one spelt exactly as the catalog does, else the player chooses. Two tiers of one
 * quest at the same level (the heroic and epic Lord of Blades are both 20) cannot be told apart
 * by a name and a level: the lower tier is taken.
 */
export function matchQuest(index: QuestIndex, name: string, level: number | null): QuestMatch {
  const candidates = index.get(questNameKey(name)) ?? []
  if (candidates.length === 0) return { kind: 'unmatched' }
  const known = level !== null && level > 0 ? level : null
  const how = (row: MatchRow) => (row.name === name ? 'exact' : 'spelling')
  const atLevel = known === null ? [] : candidates.filter((row) => row.level === known)
  const names = (rows: readonly MatchRow[]) => new Set(rows.map((row) => row.name))
  if (atLevel.length > 0) {
    if (names(atLevel).size === 1) {
      const row = nearest(atLevel, known)
      return { kind: 'matched', row, how: how(row) }
    }
    const exact = atLevel.filter((row) => row.name === name)
    if (exact.length > 0) return { kind: 'matched', row: nearest(exact, known), how: 'exact' }
    return { kind: 'ambiguous', candidates: atLevel }
  }
  if (names(candidates).size === 1) {
    const row = nearest(candidates, known)
    return { kind: 'matched', row, how: how(row) }
  }
  const exact = candidates.filter((row) => row.name === name)
  if (exact.length > 0) return { kind: 'matched', row: nearest(exact, known), how: 'exact' }
  return { kind: 'ambiguous', candidates }
}
