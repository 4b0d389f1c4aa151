// The quests × characters grid (issue 41 "Every alt at a glance", issue 42 "Seeing each other"):
// what each character has done of each catalog row in its current life, sent compactly and read
// back as the tracker's own completion index, so the grid asks the tracker's rules (isDoneAt,
// favorTotals, rowFilter) rather than rules of its own. Pure functions over plain data.
//
// The compact form of one character over the catalog's rows (in catalog order):
// - `done`: one character per row, the settings done of that remake in its own tier, a bitmask
//   (bit i: CHALLENGE_SETTINGS_BY_BIT[i]) written as one letter of CELL_ALPHABET: "0" for none.
//   The whole catalog is 718 letters a character, where the completions behind them can be 10,000.
// - `unknownTier`: per quest name, the settings of its completions logged without a tier
//   (`Unknown`: they count for every remake of the name, plugin-api.md domain rule 2), the same
//   letter; only names the catalog has, and only those with such completions.
import { MAX_TOTAL_LEVEL, type PlayOn } from '../character/levels'
import type { Difficulty, Setting } from './completion'
import { inLevelBand } from './levelBand'
import {
  type CompletionIndex,
  completionsFor,
  isCompleted,
  isDoneAt,
  LEVEL_BAND_ANY,
  LEVEL_BAND_FULL_XP,
  type LoggedCompletion,
  rowFilter,
  type TrackerRow,
  type VersionFilter,
} from './tracker'

/** The setting of each bit of a cell's mask: bit 0 `unknown`, bit 5 `reaper`. */
export const CELL_SETTINGS: readonly Setting[] = ['unknown', 'casual', 'normal', 'hard', 'elite', 'reaper']

/** 64 letters for the 64 masks of six settings; "0" is none, so a character new to the game is a row of zeros. */
export const CELL_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_'

const BIT: Readonly<Record<string, number>> = Object.fromEntries(CELL_SETTINGS.map((setting, i) => [setting, 1 << i]))

/** A mask's letter; a letter's mask (anything else reads as none). */
export const cellLetter = (mask: number): string => CELL_ALPHABET[mask & 63] as string
export const cellMask = (letter: string | undefined): number =>
  letter === undefined ? 0 : Math.max(0, CELL_ALPHABET.indexOf(letter))

/** The compact form of one character's current life over the catalog (see above). */
export interface CharacterCells {
  done: string
  unknownTier: Record<string, string>
}

/** A character's completions of this life, over the catalog's rows, in the compact form. */
export function characterCells(
  rows: readonly Pick<TrackerRow, 'name' | 'difficulty'>[],
  completions: readonly LoggedCompletion[],
): CharacterCells {
  const catalog = new Set(rows.map((row) => row.name))
  const own = new Map<string, number>()
  const unknown = new Map<string, number>()
  for (const c of completions) {
    if (!catalog.has(c.name)) continue
    const bit = BIT[c.setting] ?? 0
    if (c.difficulty === 'Unknown') unknown.set(c.name, (unknown.get(c.name) ?? 0) | bit)
    else {
      const key = `${c.difficulty}\u0000${c.name}`
      own.set(key, (own.get(key) ?? 0) | bit)
    }
  }
  let done = ''
  for (const row of rows) done += cellLetter(own.get(`${row.difficulty}\u0000${row.name}`) ?? 0)
  const unknownTier: Record<string, string> = {}
  for (const [name, mask] of unknown) unknownTier[name] = cellLetter(mask)
  return { done, unknownTier }
}

const settingsOf = (mask: number): Setting[] => CELL_SETTINGS.filter((_, i) => (mask & (1 << i)) !== 0)

/**
 * The compact form read back as the completions it stands for, indexed by name as the tracker's
 * rules read them (tracker.ts): each remake's settings in its own tier, and each name's `Unknown`
 * ones. `rows` must be the rows `done` was made over (the same catalog version).
 */
export function cellsIndex(
  rows: readonly Pick<TrackerRow, 'name' | 'difficulty'>[],
  cells: CharacterCells,
): Map<string, LoggedCompletion[]> {
  const index = new Map<string, LoggedCompletion[]>()
  const add = (name: string, difficulty: Difficulty, mask: number) => {
    if (mask === 0) return
    let list = index.get(name)
    if (!list) index.set(name, (list = []))
    for (const setting of settingsOf(mask)) list.push({ name, difficulty, setting })
  }
  rows.forEach((row, i) => {
    add(row.name, row.difficulty, cellMask(cells.done[i]))
  })
  for (const [name, letter] of Object.entries(cells.unknownTier)) add(name, 'Unknown', cellMask(letter))
  return index
}

/** Hardest first: the setting a cell shows as the best done (reaper above elite, `unknown` last). */
const BEST_FIRST: readonly Setting[] = ['reaper', 'elite', 'hard', 'normal', 'casual', 'unknown']

/** The hardest setting among completions (the grid's cell shows it); null for none. */
export function bestSetting(completions: readonly Pick<LoggedCompletion, 'setting'>[]): Setting | null {
  for (const setting of BEST_FIRST) if (completions.some((c) => c.setting === setting)) return setting
  return null
}

/**
 * Whether a remake is in a character's band: the tracker's default band (levelBand.ts: from the
 * Full XP minimum at `playOn` to DEFAULT_LEVELS_ABOVE above the character, Epic and Legendary
 * from level 20). The grid asks this one function for every character and row, so a change to the
 * band is made there alone.
 */
export function inGridBand(questLevel: number, tier: Difficulty, characterLevel: number, playOn: PlayOn): boolean {
  return inLevelBand(questLevel, tier, characterLevel, { playOn })
}

/** Whether a remake is done at `playOn` (or harder, reaper as elite); with `any`, at any setting: the tracker's "done". */
export function doneAt(row: Pick<TrackerRow, 'name' | 'difficulty'>, index: CompletionIndex, playOn: PlayOn): boolean {
  return playOn === 'any' ? isCompleted(row, index) : isDoneAt(row, index, playOn)
}

/**
 * How a player looks at the grid, kept on the account (so it follows them from the desk to the
 * phone): the columns' order and which are hidden, and the filters, which are the tracker's.
 */
export interface GridView {
  /** Character ids in the order their columns show; a character not listed follows, by id. */
  order: number[]
  /** Character ids whose columns are hidden. */
  hidden: number[]
  /** The setting a cell's "done" is counted at, and a tick logs (`any`: elite, as "what to run next"). */
  playOn: PlayOn
  /** LEVEL_BAND_FULL_XP: the rows in some shown character's Full XP band; LEVEL_BAND_ANY: every row. */
  levelBand: typeof LEVEL_BAND_FULL_XP | typeof LEVEL_BAND_ANY
  versionFilter: VersionFilter
  excludedPatrons: string[]
  hiddenPacks: string[]
  /** Hide the rows every shown character that can run them (in its band, with the band on) has done. */
  hideDoneByAll: boolean
}

export const DEFAULT_GRID_VIEW: GridView = {
  order: [],
  hidden: [],
  playOn: 'elite',
  levelBand: LEVEL_BAND_FULL_XP,
  versionFilter: { heroic: 'any', epic: 'any', legendary: 'any' },
  excludedPatrons: [],
  hiddenPacks: [],
  hideDoneByAll: false,
}

/** The characters in the view's order (those it does not list after them, in the order given), each with whether it is hidden. */
export function orderColumns<C extends { id: number }>(
  characters: readonly C[],
  view: Pick<GridView, 'order' | 'hidden'>,
): { character: C; hidden: boolean }[] {
  const rank = new Map(view.order.map((id, i) => [id, i]))
  const hidden = new Set(view.hidden)
  return characters
    .map((character, i) => ({ character, at: rank.get(character.id) ?? view.order.length + i }))
    .sort((a, b) => a.at - b.at)
    .map(({ character }) => ({ character, hidden: hidden.has(character.id) }))
}

/** A shown column of the grid: a character's level and its completions (cellsIndex). */
export interface GridColumn {
  level: number
  index: CompletionIndex
}

/**
 * A predicate for the rows the grid shows over `columns` (the shown characters): the tracker's own
 * filters (tiers, patrons, packs, the search: rowFilter), each character's level band in place of
 * the tracker's one (a row in the band of at least one of them), and "done by all".
 */
export function gridRowFilter(
  view: GridView,
  search: string,
  columns: readonly GridColumn[],
  tiers: ReadonlyMap<string, ReadonlySet<Difficulty>>,
  textOf?: (row: TrackerRow) => string,
): (row: TrackerRow) => boolean {
  const packState = Object.fromEntries(view.hiddenPacks.map((pack) => [pack, false]))
  const tracker = rowFilter(
    {
      levelBand: LEVEL_BAND_ANY,
      levels: { from: 1, to: MAX_TOTAL_LEVEL, epicContent: true },
      versionFilter: view.versionFilter,
      excludedPatrons: view.excludedPatrons,
      packState,
      search,
      hideCompleted: false,
      playOn: view.playOn,
    },
    new Map(),
    tiers,
    textOf,
  )
  const banded = view.levelBand === LEVEL_BAND_FULL_XP
  return (row) => {
    if (!tracker(row)) return false
    const counted = banded
      ? columns.filter((c) => inGridBand(row.level, row.difficulty, c.level, view.playOn))
      : columns
    if (banded && counted.length === 0) return false
    if (view.hideDoneByAll && counted.length > 0 && counted.every((c) => doneAt(row, c.index, view.playOn)))
      return false
    return true
  }
}

/** What one cell shows: done at the Play on setting, the hardest setting done, and whether the row is in the character's band. */
export interface Cell {
  done: boolean
  best: Setting | null
  inBand: boolean
  /** Done only through a completion logged without a tier (it counts for every remake of the name). */
  viaUnknown: boolean
}

export function gridCell(row: TrackerRow, column: GridColumn, playOn: PlayOn): Cell {
  const completions = completionsFor(row, column.index)
  return {
    done: doneAt(row, column.index, playOn),
    best: bestSetting(completions),
    inBand: inGridBand(row.level, row.difficulty, column.level, playOn),
    viaUnknown: completions.length > 0 && completions.every((c) => c.difficulty === 'Unknown'),
  }
}
