// Favor earned from completions (GAME-RULES.md "Favor"): base favor of the remake times the
// multiplier of the best setting completed, counted once, and shared between the tiers of one
// quest name. Pure functions over plain data.
import type { Setting } from './completion'
import { type CompletionIndex, completionsFor, rowsByName, type TrackerRow } from './tracker'

/**
 * Multiplier of base favor per challenge setting. `unknown` (a completion whose setting the game
 * client did not know) counts as normal: the quest was done, and normal is the plain full
 * credit; guessing elite would overstate, casual would understate what most runs are.
 */
export const FAVOR_MULTIPLIER: Readonly<Record<Setting, number>> = {
  casual: 0.5,
  normal: 1,
  hard: 2,
  elite: 3,
  reaper: 3,
  unknown: 1,
}

/** The highest multiplier any setting gives: what a remake is worth at most. */
export const MAX_FAVOR_MULTIPLIER = Math.max(...Object.values(FAVOR_MULTIPLIER))

export type FavorRow = Pick<TrackerRow, 'name' | 'difficulty' | 'patron' | 'favor'>

/** Favor of one remake completed on one setting; casual's half is rounded down. Unknown base favor is 0. */
export function favorFor(base: number | null, setting: Setting): number {
  return Math.floor((base ?? 0) * FAVOR_MULTIPLIER[setting])
}

/** Favor earned for one remake: its best completed setting (its own tier or `Unknown`), once. */
export function remakeFavor(row: FavorRow, index: CompletionIndex): number {
  let best = 0
  for (const c of completionsFor(row, index)) best = Math.max(best, favorFor(row.favor, c.setting))
  return best
}

export interface FavorTotal {
  earned: number
  /** Favor available: every quest name on its best setting. */
  possible: number
}

export interface FavorTotals extends FavorTotal {
  /** Per patron name ('' for rows the wiki names no patron for), in first-seen catalog order. */
  byPatron: Map<string, FavorTotal>
}

/** One quest name's favor: what its remakes earned (the best one), what it is worth, and whose it is. */
export interface NameFavor {
  earned: number
  possible: number
  patron: string
}

/**
 * Favor of one quest name from its remakes (in catalog order, at least one).
 *
 * "Shared between the tiers of one quest name" is read as: a name's favor is counted once, as
 * the largest favor any of its remakes earned (heroic elite and epic normal of the same quest
 * do not add up; the better of the two counts). What a name is worth (`possible`) is likewise
 * the largest of its remakes' base favor at the top multiplier. The name's favor goes to the
 * patron of the remake that earned it (or of the most valuable remake while none did); the
 * tiers of one name have the same patron in the catalog, so this choice rarely matters.
 */
export function nameFavor(remakes: readonly FavorRow[], index: CompletionIndex): NameFavor {
  let earned = 0
  let earnedPatron = ''
  let possible = 0
  let bestPatron = ''
  remakes.forEach((row, i) => {
    const remakeEarned = remakeFavor(row, index)
    const remakePossible = (row.favor ?? 0) * MAX_FAVOR_MULTIPLIER
    // The first remake sets both; a later one takes over only when it is worth strictly more.
    if (i === 0 || remakeEarned > earned) {
      earned = remakeEarned
      earnedPatron = row.patron
    }
    if (i === 0 || remakePossible > possible) {
      possible = remakePossible
      bestPatron = row.patron
    }
  })
  return { earned, possible, patron: earned > 0 ? earnedPatron : bestPatron }
}

/** Favor per patron and overall from each name's favor, in the names' order (first seen in the catalog). */
export function sumFavor(names: Iterable<NameFavor>): FavorTotals {
  const totals: FavorTotals = { earned: 0, possible: 0, byPatron: new Map() }
  for (const name of names) {
    const entry = totals.byPatron.get(name.patron) ?? { earned: 0, possible: 0 }
    entry.earned += name.earned
    entry.possible += name.possible
    totals.byPatron.set(name.patron, entry)
    totals.earned += name.earned
    totals.possible += name.possible
  }
  return totals
}

/** Favor per patron and overall: each quest name's favor (nameFavor), summed. */
export function favorTotals(rows: readonly FavorRow[], index: CompletionIndex): FavorTotals {
  return sumFavor([...rowsByName(rows).values()].map((remakes) => nameFavor(remakes, index)))
}
