// Character levels and the Full XP band (GAME-RULES.md, "Levels and tiers" and "Effective
// quest level and the Full XP band"). Pure functions over plain data.

import { MAX_CLASS_LEVEL, MAX_CLASSES, MAX_EPIC_LEVELS, MAX_HEROIC_LEVEL, MAX_TOTAL_LEVEL } from './gameData'
import type { ClassLevels } from './shapes'

// The caps live with the other game numbers in gameData.ts.
export { MAX_CLASS_LEVEL, MAX_EPIC_LEVELS, MAX_HEROIC_LEVEL, MAX_TOTAL_LEVEL }
export const MAX_MULTICLASS = MAX_CLASSES

export const PLAY_ON = ['any', 'casual', 'normal', 'hard', 'elite', 'reaper'] as const
export type PlayOn = (typeof PLAY_ON)[number]

/**
 * Effective level of a remake relative to its base level, by challenge setting. Reaper uses
 * elite's level math; `any` (the website filter) takes the best case, elite/reaper.
 */
export const EFFECTIVE_LEVEL_OFFSET: Readonly<Record<PlayOn, number>> = {
  casual: -1,
  normal: 0,
  hard: 1,
  elite: 2,
  reaper: 2,
  any: 2,
}

/** A character may be one level above a quest's effective level and still get full XP. */
export const FULL_XP_OVER_LEVEL = 1

const sumLevels = (classes: readonly ClassLevels[]) => classes.reduce((sum, c) => sum + c.levels, 0)

/** Sum of class levels, at most 20 (the heroic cap in game). */
export function heroicLevel(classes: readonly ClassLevels[]): number {
  return Math.min(MAX_HEROIC_LEVEL, sumLevels(classes))
}

/** `min(34, sum(class levels) + epicLevels)` — capped, never rejected. */
export function totalLevel(classes: readonly ClassLevels[], epicLevels: number): number {
  return Math.min(MAX_TOTAL_LEVEL, sumLevels(classes) + epicLevels)
}

/**
 * The lowest base quest level that still gives full XP: a remake's effective level at the
 * chosen setting must be at least `characterLevel - 1`. Never below 1.
 */
export function minLevel(characterLevel: number, playOn: PlayOn): number {
  return Math.max(1, characterLevel - FULL_XP_OVER_LEVEL - EFFECTIVE_LEVEL_OFFSET[playOn])
}

/** "Fighter 12 / Rogue 6 / Wizard 2", in the order given; empty when there are no classes. */
export function classSummary(classes: readonly ClassLevels[]): string {
  return classes.map((c) => `${c.name} ${c.levels}`).join(' / ')
}
