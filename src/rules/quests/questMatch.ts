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

/** "Did you mean": at most this many catalog names offered for one name the catalog lacks. */
export const MAX_SUGGESTIONS = 3

/**
 * Names the catalog lacks that get suggestions, per import: each costs a pass over the catalog's
 * ~700 names, and a file of 10,000 made-up names would otherwise take seconds; the rest are
 * listed without one.
 */
export const MAX_SUGGESTED_NAMES = 100

/** Edits (a letter added, dropped or changed) between two keys, or `max` + 1 once it is beyond `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      )
      current.push(value)
      best = Math.min(best, value)
    }
    if (best > max) return max + 1
    previous = current
  }
  return previous[b.length] as number
}

/**
 * The catalog names nearest a name it does not have, nearest first (then by name), at most
 * MAX_SUGGESTIONS: by the forgiving key (questNameKey), those a few letters away ("The Pitt": The
 * Pit; one edit up to 4 letters, two up to 11, three beyond) and those whose key holds it or is
 * held in it ("Cabal for One": A Cabal for One, Return to Cabal for One). A key under 4 letters
 * is too short to guess from.
 */
export function suggestNames(index: QuestIndex, name: string): string[] {
  const key = questNameKey(name)
  if (key.length < 4) return []
  const max = key.length <= 4 ? 1 : key.length <= 11 ? 2 : 3
  const found = new Map<string, number>()
  for (const [other, rows] of index) {
    let distance = editDistance(key, other, max)
    if (distance > max) {
      const holds = Math.min(key.length, other.length) >= 6 && (other.includes(key) || key.includes(other))
      if (!holds) continue
      distance = Math.abs(other.length - key.length)
    }
    for (const row of rows) {
      const before = found.get(row.name)
      if (before === undefined || distance < before) found.set(row.name, distance)
    }
  }
  return [...found]
    .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
    .slice(0, MAX_SUGGESTIONS)
    .map(([n]) => n)
}
