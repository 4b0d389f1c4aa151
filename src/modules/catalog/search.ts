// The in-memory catalog index: built once per sync from the catalog rows, then every search,
// lookup, full-list read and quest-name resolution answers from it without touching SQLite.
// Pure: no I/O.
//
// Ranking (plugin-api.md "Search ranking"), as one score per row:
//   match  exact name 100 > name prefix 85 > name substring 70 > every query word in the name 55
//          > pack 40 > patron 25 (gaps of 15, so the bonuses below never lift a row over a
//          better match class: name matches always rank above pack and patron matches);
//   +10    enterable (character level >= quest level), only when a level is given;
//   +3     the tier the level favours (below 20 Heroic, 20-29 Epic, 30+ Legendary).
// Ties: nearer quest level first (when a level is given), then name, then Heroic, Epic, Legendary.
// Every remake is its own result; remakes are never collapsed.
import { wikiNameOf } from '../../rules/quests/questAliases'
import { questNameKey } from '../../rules/quests/questMatch'
import { isEnterable, preferredTier, type QuestTier } from '../../rules/quests/questTiers'
import { fold } from '../../rules/quests/tracker'
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
  /** Position in (folded name, tier) order: the final tie-break, as one number. */
  rank: number
}

/** Search folding: the tracker's rule (case, accents and apostrophes do not matter), one for every search. */
export { fold }

/** Lookup is exact but case-insensitive (and blind to surrounding spaces). */
export const lookupKey = (name: string) => name.trim().toLowerCase()

/**
 * A name without the wiki's disambiguator: the page "Devil Assault (quest)" is the quest the
 * game calls "Devil Assault", "Ghost of a Chance (epic)" the Epic version of "Ghost of a
 * Chance". One trailing parenthesised word group is dropped; a name that is nothing else is kept.
 */
export function bareName(name: string): string {
  const bare = name.replace(/\s*\([^()]*\)\s*$/, '')
  return bare.trim() === '' ? name : bare
}

export interface PreparedQuery {
  /** The folded query. */
  text: string
  /** Its words, when there is more than one. */
  words: string[]
}

export function prepareQuery(query: string): PreparedQuery {
  const text = fold(query)
  const words = text.split(' ')
  return { text, words: words.length > 1 ? words : [] }
}

/** The match score of a row for a query, or 0 when it does not match. */
export function matchScore(entry: Pick<Entry, 'name' | 'pack' | 'patron'>, query: PreparedQuery): number {
  const { text, words } = query
  if (!text) return 0
  if (entry.name === text) return MATCH_SCORE.exactName
  if (entry.name.startsWith(text)) return MATCH_SCORE.namePrefix
  if (entry.name.includes(text)) return MATCH_SCORE.nameSubstring
  if (words.length > 0 && words.every((word) => entry.name.includes(word))) return MATCH_SCORE.nameWords
  if (entry.pack.includes(text)) return MATCH_SCORE.pack
  if (entry.patron.includes(text)) return MATCH_SCORE.patron
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

/**
 * One field of every row joined into a single string, so that finding the rows that contain a
 * query is a few native indexOf scans instead of one comparison per row. Folded text never
 * holds a newline, so a match never spans two rows.
 */
class Haystack {
  private readonly text: string
  /** Offset of each row's value in `text`. */
  private readonly starts: Int32Array

  constructor(values: string[]) {
    this.text = values.join('\n')
    this.starts = new Int32Array(values.length)
    let offset = 0
    values.forEach((value, i) => {
      this.starts[i] = offset
      offset += value.length + 1
    })
  }

  /** Adds to `into` the index of every row whose value contains `needle`. */
  collect(needle: string, into: Set<number>): void {
    if (!needle) return
    let from = 0
    for (;;) {
      const at = this.text.indexOf(needle, from)
      if (at === -1) return
      const row = this.rowAt(at)
      into.add(row)
      // Each row once: go on from the start of the next one.
      from = row + 1 < this.starts.length ? (this.starts[row + 1] as number) : this.text.length
    }
  }

  private rowAt(offset: number): number {
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((this.starts[mid] as number) <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}

export class CatalogIndex {
  /** Every row, in catalog (source) order. */
  readonly rows: readonly QuestRow[]
  private readonly entries: Entry[]
  private readonly byName: Map<string, QuestRow[]>
  /** Rows whose name carries a disambiguator, by the lookup key of their bare name. */
  private readonly byBareName: Map<string, QuestRow[]>
  /** Every row by its forgiving name key (questNameKey: apostrophes, spacing, "the", disambiguators). */
  private readonly byForgivingKey: Map<string, QuestRow[]>
  private readonly names: Haystack
  private readonly packs: Haystack
  private readonly patrons: Haystack

  constructor(rows: readonly QuestRow[]) {
    this.rows = rows
    this.entries = rows.map((row) => ({
      row,
      name: fold(row.name),
      pack: fold(row.pack),
      patron: fold(row.patron),
      rank: 0,
    }))
    const byNameThenTier = [...this.entries].sort(
      (a, b) =>
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || tierOrder(a.row.difficulty) - tierOrder(b.row.difficulty),
    )
    byNameThenTier.forEach((entry, rank) => {
      entry.rank = rank
    })
    this.names = new Haystack(this.entries.map((entry) => entry.name))
    this.packs = new Haystack(this.entries.map((entry) => entry.pack))
    this.patrons = new Haystack(this.entries.map((entry) => entry.patron))
    this.byName = new Map()
    for (const row of rows) {
      const key = lookupKey(row.name)
      const list = this.byName.get(key) ?? []
      list.push(row)
      this.byName.set(key, list)
    }
    for (const list of this.byName.values()) list.sort((a, b) => tierOrder(a.difficulty) - tierOrder(b.difficulty))
    this.byForgivingKey = new Map()
    for (const row of rows) {
      const key = questNameKey(row.name)
      const list = this.byForgivingKey.get(key) ?? []
      list.push(row)
      this.byForgivingKey.set(key, list)
    }
    this.byBareName = new Map()
    for (const row of rows) {
      const bare = bareName(row.name)
      if (bare === row.name) continue
      const key = lookupKey(bare)
      const list = this.byBareName.get(key) ?? []
      list.push(row)
      this.byBareName.set(key, list)
    }
  }

  get size(): number {
    return this.rows.length
  }

  /** Every remake (all tiers) whose name equals `name` case-insensitively, Heroic first. */
  remakesOf(name: string): readonly QuestRow[] {
    return this.byName.get(lookupKey(name)) ?? []
  }

  /**
   * The catalog names a typed name could mean, in catalog order: those equal to it
   * (case-insensitively), then those equal to it once their wiki disambiguator is dropped.
   */
  namesFor(name: string, tier: QuestTier | null = null): string[] {
    const key = lookupKey(name)
    const rows = [...(this.byName.get(key) ?? []), ...(this.byBareName.get(key) ?? [])]
    return [...new Set(rows.filter((row) => tier === null || row.difficulty === tier).map((row) => row.name))]
  }

  /**
   * The catalog's spelling of a quest name as a player or a game client typed it; the one
   * place completions, route steps and lookups resolve names. In order:
   * 1. with a remake tier, the one name among the rows of that tier it can mean ("Ghost of a
   *    Chance", Epic -> "Ghost of a Chance (epic)"), or the wiki's name of a quest the game
   *    names otherwise in that tier (questAliases.ts: the epic "Gianthold Tor" is the wiki's
   *    "Return to Gianthold Tor");
   * 2. a name equal to it without regard to case ("devil assault (QUEST)");
   * 3. the one name it is once the wiki's disambiguator is dropped ("Devil Assault" ->
   *    "Devil Assault (quest)");
   * 4. the one name it is as the game writes it, forgiving apostrophes (the game's "Misery’s
   *    Peak" with a curly one), spacing around ":" and a raid's " (R)" (questNameKey): among the
   *    tier's rows when there is a tier, else among all;
   * else the name as sent (trimmed): unknown to the catalog (which may lag the game), or a bare
   * name that could mean two pages ("Tangled Depths": "(quest)" or "(raid)").
   */
  resolveName(name: string, tier: QuestTier | null = null): string {
    if (tier !== null) {
      const inTier = this.namesFor(name, tier)
      if (inTier.length === 1) return inTier[0] as string
      const alias = wikiNameOf(name, tier)
      const aliased = alias === null ? undefined : this.byName.get(lookupKey(alias))?.[0]
      if (aliased) return aliased.name
    }
    const exact = this.byName.get(lookupKey(name))
    if (exact?.[0]) return exact[0].name
    const bare = this.namesFor(name)
    if (bare.length === 1) return bare[0] as string
    if (bare.length > 1) return name.trim()
    const similar = this.byForgivingKey.get(questNameKey(name)) ?? []
    const names = (rows: readonly QuestRow[]) => [...new Set(rows.map((row) => row.name))]
    const inTier = names(tier === null ? similar : similar.filter((row) => row.difficulty === tier))
    if (inTier.length === 1) return inTier[0] as string
    const anyTier = names(similar)
    return anyTier.length === 1 ? (anyTier[0] as string) : name.trim()
  }

  search({ query, difficulty, level, limit }: SearchParams): SearchResult {
    const prepared = prepareQuery(query)
    // Candidates: every row whose name, pack or patron holds the query (or, for the words
    // rule, the first word); matchScore then decides, so the rules live in one place.
    const candidates = new Set<number>()
    this.names.collect(prepared.text, candidates)
    if (prepared.words.length > 0) this.names.collect(prepared.words[0] as string, candidates)
    this.packs.collect(prepared.text, candidates)
    this.patrons.collect(prepared.text, candidates)
    const hits: { entry: Entry; score: number; distance: number }[] = []
    for (const i of candidates) {
      const entry = this.entries[i] as Entry
      if (difficulty && entry.row.difficulty !== difficulty) continue
      const match = matchScore(entry, prepared)
      if (match === 0) continue
      const score = level === null ? match : match + levelBonus(entry.row, level)
      hits.push({ entry, score, distance: level === null ? 0 : Math.abs(entry.row.level - level) })
    }
    hits.sort((a, b) => b.score - a.score || a.distance - b.distance || a.entry.rank - b.entry.rank)
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
