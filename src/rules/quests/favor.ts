// Favor earned from completions (GAME-RULES.md "Favor"): base favor of the remake times the
// multiplier of the best setting completed, counted once, and shared between the tiers of one
// quest name. Pure functions over plain data.
import type { Setting } from './completion'
import { type CompletionIndex, completionsFor, type TrackerRow } from './tracker'

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

/**
 * Favor per patron and overall.
 *
 * "Shared between the tiers of one quest name" is read as: a name's favor is counted once, as
 * the largest favor any of its remakes earned (heroic elite and epic normal of the same quest
 * do not add up; the better of the two counts). What a name is worth (`possible`) is likewise
 * the largest of its remakes' base favor at the top multiplier. The name's favor goes to the
 * patron of the remake that earned it (or of the most valuable remake while none did); the
 * tiers of one name have the same patron in the catalog, so this choice rarely matters.
 */
export function favorTotals(rows: readonly FavorRow[], index: CompletionIndex): FavorTotals {
  const byName = new Map<string, { earned: number; earnedPatron: string; possible: number; bestPatron: string }>()
  for (const row of rows) {
    const earned = remakeFavor(row, index)
    const possible = (row.favor ?? 0) * MAX_FAVOR_MULTIPLIER
    const seen = byName.get(row.name)
    if (!seen) {
      byName.set(row.name, { earned, earnedPatron: row.patron, possible, bestPatron: row.patron })
      continue
    }
    if (earned > seen.earned) {
      seen.earned = earned
      seen.earnedPatron = row.patron
    }
    if (possible > seen.possible) {
      seen.possible = possible
      seen.bestPatron = row.patron
    }
  }
  const totals: FavorTotals = { earned: 0, possible: 0, byPatron: new Map() }
  for (const name of byName.values()) {
    const patron = name.earned > 0 ? name.earnedPatron : name.bestPatron
    const entry = totals.byPatron.get(patron) ?? { earned: 0, possible: 0 }
    entry.earned += name.earned
    entry.possible += name.possible
    totals.byPatron.set(patron, entry)
    totals.earned += name.earned
    totals.possible += name.possible
  }
  return totals
}
