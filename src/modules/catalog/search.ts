// The in-memory catalog index: built once per sync from the catalog rows, then every search,
// lookup and full-list read answers from it without touching SQLite. Pure: no I/O.
//
// Ranking (plugin-api.md "Search ranking"), as one score per row:
//   match  exact name 100 > name prefix 85 > name substring 70 > every query word in the name 55
//          > pack 40 > patron 25 (gaps of 15, so the bonuses below never lift a row over a
//          better match class: name matches always rank above pack and patron matches);
//   +10    enterable (character level >= quest level), only when a level is given;
//   +3     the tier the level favours (below 20 Heroic, 20-29 Epic, 30+ Legendary).
// Ties: nearer quest level first (when a level is given), then name, then Heroic, Epic, Legendary.
// Every remake is its own result; remakes are never collapsed.
import { isEnterable, preferredTier, type QuestTier } from '../../rules/quest-levels'
import { type QuestRow, TIERS } from './parse'

export const MATCH_SCORE = {
  exactName: 100,
  namePrefix: 85,
  nameSubstring: 70,
  nameWords: 55,
  pack: 40,
  patron: 25,
} as const
export const ENTERABLE_BONUS = 10
export const PREFERRED_TIER_BONUS = 3

export interface SearchParams {
  query: string
  difficulty: QuestTier | null
  level: number | null
  limit: number
}

export interface SearchRow extends QuestRow {
  score: number
  enterable: boolean | null
}

export interface SearchResult {
  totalMatches: number
  quests: SearchRow[]
}

interface Entry {
  row: QuestRow
  name: string
  pack: string
  patron: string
  tierOrder: number
}

/**
 * Search folding: case, accents and apostrophes do not matter ("deleras tomb" finds
 * "Delera's Tomb"); other punctuation counts as a space.
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2018\u2019`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** Lookup is exact but case-insensitive (and blind to surrounding spaces). */
export const lookupKey = (name: string) => name.trim().toLowerCase()

/** The match score of a row for a folded query, or 0 when it does not match. */
export function matchScore(entry: Pick<Entry, 'name' | 'pack' | 'patron'>, query: string): number {
  if (!query) return 0
  if (entry.name === query) return MATCH_SCORE.exactName
  if (entry.name.startsWith(query)) return MATCH_SCORE.namePrefix
  if (entry.name.includes(query)) return MATCH_SCORE.nameSubstring
  const words = query.split(' ')
  if (words.length > 1 && words.every((word) => entry.name.includes(word))) return MATCH_SCORE.nameWords
  if (entry.pack.includes(query)) return MATCH_SCORE.pack
  if (entry.patron.includes(query)) return MATCH_SCORE.patron
  return 0
}

/** The level bonuses of a row for a character level (rules 2 and 3). */
export function levelBonus(row: Pick<QuestRow, 'level' | 'difficulty'>, level: number): number {
  return (
    (isEnterable(level, row.level) ? ENTERABLE_BONUS : 0) +
    (preferredTier(level) === row.difficulty ? PREFERRED_TIER_BONUS : 0)
  )
}

const tierOrder = (tier: QuestTier) => TIERS.indexOf(tier)

export class CatalogIndex {
  /** Every row, in catalog (source) order. */
  readonly rows: readonly QuestRow[]
  private readonly entries: Entry[]
  private readonly byName: Map<string, QuestRow[]>

  constructor(rows: readonly QuestRow[]) {
    this.rows = rows
    this.entries = rows.map((row) => ({
      row,
      name: fold(row.name),
      pack: fold(row.pack),
      patron: fold(row.patron),
      tierOrder: tierOrder(row.difficulty),
    }))
    this.byName = new Map()
    for (const row of rows) {
      const key = lookupKey(row.name)
      const list = this.byName.get(key) ?? []
      list.push(row)
      this.byName.set(key, list)
    }
    for (const list of this.byName.values()) list.sort((a, b) => tierOrder(a.difficulty) - tierOrder(b.difficulty))
  }

  get size(): number {
    return this.rows.length
  }

  /** Every remake (all tiers) whose name equals `name` case-insensitively, Heroic first. */
  remakesOf(name: string): readonly QuestRow[] {
    return this.byName.get(lookupKey(name)) ?? []
  }

  search({ query, difficulty, level, limit }: SearchParams): SearchResult {
    const folded = fold(query)
    const hits: { entry: Entry; score: number; distance: number }[] = []
    for (const entry of this.entries) {
      if (difficulty && entry.row.difficulty !== difficulty) continue
      const match = matchScore(entry, folded)
      if (match === 0) continue
      const score = level === null ? match : match + levelBonus(entry.row, level)
      hits.push({ entry, score, distance: level === null ? 0 : Math.abs(entry.row.level - level) })
    }
    hits.sort(
      (a, b) =>
        b.score - a.score ||
        a.distance - b.distance ||
        (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0) ||
        a.entry.tierOrder - b.entry.tierOrder,
    )
    return {
      totalMatches: hits.length,
      quests: hits.slice(0, limit).map(({ entry, score }) => ({
        ...entry.row,
        score,
        enterable: level === null ? null : isEnterable(level, entry.row.level),
      })),
    }
  }
}
