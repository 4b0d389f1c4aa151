// The website tracker's row rules: which catalog remakes a completion covers (plugin-api.md
// domain rule 2) and which rows the tracker's filters show (the level band of levelBand.ts,
// plugin-api.md "Version flag meaning"). Pure functions over plain data; the page calls them
// on every keystroke, so they index once and then only compare.
import type { PlayOn } from '../character/levels'
import type { Difficulty, Setting } from './completion'
import { inRange, LEVEL_BAND_FULL_XP, type LevelRange } from './levelBand'

export { LEVEL_BAND_ANY, LEVEL_BAND_FULL_XP } from './levelBand'

/** The catalog fields the tracker reads (the catalog module's QuestRow extends it). */
export interface TrackerRow {
  name: string
  difficulty: Difficulty
  level: number
  soloXP: number | null
  normalXP: number | null
  hardXP: number | null
  eliteXP: number | null
  duration: string
  pack: string
  patron: string
  favor: number | null
}

/** The key of a stored completion. */
export interface LoggedCompletion {
  name: string
  difficulty: Difficulty
  setting: Setting
}

/** Completions grouped by quest name, built once per progress answer. */
export type CompletionIndex = ReadonlyMap<string, readonly LoggedCompletion[]>

/** Items grouped by quest name, each group in the items' order. */
function groupByName<T extends { name: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const group = groups.get(item.name)
    if (group) group.push(item)
    else groups.set(item.name, [item])
  }
  return groups
}

/** The CompletionIndex of a character's completions. */
export const indexCompletions: <C extends LoggedCompletion>(completions: readonly C[]) => Map<string, C[]> = groupByName

/**
 * Does this completion count for this remake? Same name and same tier, or a completion whose
 * tier is `Unknown`: the website treats that as matching every remake of the name (rule 2).
 */
export function coversRemake(completion: LoggedCompletion, row: Pick<TrackerRow, 'name' | 'difficulty'>): boolean {
  return (
    completion.name === row.name && (completion.difficulty === row.difficulty || completion.difficulty === 'Unknown')
  )
}

/** The completions that count for a remake (its own tier and `Unknown`). */
export function completionsFor<C extends LoggedCompletion>(
  row: Pick<TrackerRow, 'name' | 'difficulty'>,
  index: ReadonlyMap<string, readonly C[]>,
): C[] {
  return (index.get(row.name) ?? []).filter((c) => coversRemake(c, row))
}

/** Rule 2: a remake is complete when any setting is logged for it (or for the name with tier Unknown). */
export function isCompleted(row: Pick<TrackerRow, 'name' | 'difficulty'>, index: CompletionIndex): boolean {
  return (index.get(row.name) ?? []).some((c) => coversRemake(c, row))
}

/** Settings at least as hard as another: reaper counts as elite done, as favor counts it. */
export const SETTING_RANK: Readonly<Record<Setting, number>> = {
  unknown: 0,
  casual: 1,
  normal: 2,
  hard: 3,
  elite: 4,
  reaper: 4,
}

/** Done at `setting` or a harder one (its own tier or `Unknown`): no first-time bonus left there. */
export function isDoneAt(
  row: Pick<TrackerRow, 'name' | 'difficulty'>,
  index: CompletionIndex,
  setting: Setting,
): boolean {
  return completionsFor(row, index).some((c) => SETTING_RANK[c.setting] >= SETTING_RANK[setting])
}

export const VERSION_TIERS = { heroic: 'Heroic', epic: 'Epic', legendary: 'Legendary' } as const
export type VersionTier = keyof typeof VERSION_TIERS
export type VersionFlag = 'any' | 'yes' | 'no'
export type VersionFilter = Readonly<Record<VersionTier, VersionFlag>>

export interface TrackerFilters {
  /** 0 = the band (`levels`); any other value (255) = every level. */
  levelBand: number
  /** The band levelBand 0 shows: levelRange() of levelBand.ts for the character. */
  levels: LevelRange
  versionFilter: VersionFilter
  /** Patron names; the contract leaves the entry shape open, so anything not a string is ignored. */
  excludedPatrons: readonly unknown[]
  /** `{ "<pack>": false }` hides a pack; missing or any other value shows it. */
  packState: Readonly<Record<string, unknown>>
  /** Substring of the name, pack or patron, both folded (`fold`); blank matches everything. */
  search: string
  /**
   * Hide the quests done at `playOn` or a harder setting (reaper as elite); with `any`, done at
   * any setting. A quest done on Hard stays while playing on Elite: its Elite run is still to do.
   */
  hideCompleted: boolean
  /** The Play on setting (`targetDifficulty`) that "done" is counted at; `any` by default. */
  playOn?: PlayOn
}

/** The remakes of each quest name, in catalog order. */
export const rowsByName: <R extends Pick<TrackerRow, 'name'>>(rows: readonly R[]) => Map<string, R[]> = groupByName

/** Which tiers each quest name exists in (for the version flag `yes`). */
export function tiersByName(rows: readonly TrackerRow[]): Map<string, Set<Difficulty>> {
  const tiers = new Map<string, Set<Difficulty>>()
  for (const row of rows) {
    const set = tiers.get(row.name)
    if (set) set.add(row.difficulty)
    else tiers.set(row.name, new Set([row.difficulty]))
  }
  return tiers
}

/**
 * Search folding, one rule for the catalog search (src/modules/catalog/search.ts) and the
 * website's own searches (the tracker's, the route editor's): case, accents and apostrophes do
 * not matter ("deleras tomb" finds "Delera's Tomb", "slavers stockade" "Secret of the Slavers'
 * Stockade"); other punctuation counts as a space.
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

/** Folded name, pack and patron (a line each), so the search compares without folding per keystroke. */
export const searchText = (row: Pick<TrackerRow, 'name' | 'pack' | 'patron'>) =>
  `${fold(row.name)}\n${fold(row.pack)}\n${fold(row.patron)}`

/**
 * A predicate for the rows the filters show. Build it once per filter change and run it over
 * the catalog: the per-row work is a few comparisons and one substring search.
 */
export function rowFilter(
  filters: TrackerFilters,
  index: CompletionIndex,
  tiers: ReadonlyMap<string, ReadonlySet<Difficulty>>,
  textOf: (row: TrackerRow) => string = searchText,
): (row: TrackerRow) => boolean {
  const excluded = new Set(filters.excludedPatrons.filter((p): p is string => typeof p === 'string'))
  const hiddenTiers = new Set<Difficulty>()
  const requiredTiers: Difficulty[] = []
  for (const key of Object.keys(VERSION_TIERS) as VersionTier[]) {
    const flag = filters.versionFilter[key]
    if (flag === 'no') hiddenTiers.add(VERSION_TIERS[key])
    if (flag === 'yes') requiredTiers.push(VERSION_TIERS[key])
  }
  const needle = fold(filters.search)
  const band = filters.levelBand === LEVEL_BAND_FULL_XP ? filters.levels : null
  const doneSetting: Setting | null = !filters.playOn || filters.playOn === 'any' ? null : filters.playOn
  return (row) => {
    if (!inRange(row.level, row.difficulty, band)) return false
    if (hiddenTiers.has(row.difficulty)) return false
    if (requiredTiers.length > 0) {
      const has = tiers.get(row.name)
      if (!has || !requiredTiers.every((tier) => has.has(tier))) return false
    }
    if (excluded.has(row.patron)) return false
    if (filters.packState[row.pack] === false) return false
    if (needle !== '' && !textOf(row).includes(needle)) return false
    if (filters.hideCompleted && (doneSetting === null ? isCompleted(row, index) : isDoneAt(row, index, doneSetting)))
      return false
    return true
  }
}

/**
 * "Quests done / shown" as the characters list counts "Quests done": quest names, not remakes
 * (a quest's heroic and epic versions are one quest, as favor counts them). Of the names among
 * `shown`, those with a shown remake `done`.
 */
export function questCounts<R extends Pick<TrackerRow, 'name'>>(
  shown: readonly R[],
  done: (row: R) => boolean,
): { done: number; shown: number } {
  const names = new Set<string>()
  const doneNames = new Set<string>()
  for (const row of shown) {
    names.add(row.name)
    if (done(row)) doneNames.add(row.name)
  }
  return { done: doneNames.size, shown: names.size }
}

/** The rows the filters show, in the given order. */
export function filterRows<R extends TrackerRow>(
  rows: readonly R[],
  filters: TrackerFilters,
  index: CompletionIndex,
  tiers: ReadonlyMap<string, ReadonlySet<Difficulty>> = tiersByName(rows),
): R[] {
  const keep = rowFilter(filters, index, tiers)
  return rows.filter(keep)
}
