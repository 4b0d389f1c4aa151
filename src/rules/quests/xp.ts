// Quest XP for the website tracker (GAME-RULES.md "XP"): the catalog XP of a remake at a Play on
// setting, and the estimate of a completion logged without `xpEarned`. Every bonus percent lives
// in the one table below (sources disagree on some of them: change them there, nowhere else).

import type { PlayOn } from '../character/levels'
import type { Setting } from './completion'
import { type LoggedCompletion, type TrackerRow, VERSION_TIERS } from './tracker'

export type XpRow = Pick<TrackerRow, 'soloXP' | 'normalXP' | 'hardXP' | 'eliteXP'>

/** The catalog XP column of each Play on value: reaper uses elite's figure, and so does `any` (the best case). */
const XP_COLUMN: Readonly<Record<PlayOn, keyof XpRow>> = {
  casual: 'soloXP',
  normal: 'normalXP',
  hard: 'hardXP',
  elite: 'eliteXP',
  reaper: 'eliteXP',
  any: 'eliteXP',
}

/** Base XP of a remake at a Play on setting; null when the wiki does not know it. */
export function rowXp(row: XpRow, playOn: PlayOn): number | null {
  return row[XP_COLUMN[playOn]]
}

/**
 * Base XP of a completion's setting. `unknown` uses the normal column, as favor counts it as
 * normal (see favor.ts): the plain figure, neither the casual low nor the elite high.
 */
export function settingXp(row: XpRow, setting: Setting): number | null {
  return rowXp(row, setting === 'unknown' ? 'normal' : setting)
}

/**
 * Where a bonus is kept in progress: `boost` in `xpBoosts` (always on while the player has it),
 * `optional` in `optionalPursuit` (earned per run). Additive bonuses add up on base XP;
 * multiplicative ones multiply the subtotal.
 */
export interface XpBonus {
  key: string
  label: string
  group: 'boost' | 'optional'
  stacking: 'additive' | 'multiplicative'
  /** Percent when switched on with `true`; per setting when it depends on the setting. */
  percent: number | Readonly<Record<Setting, number>>
  /** The player types the percent (an elixir comes in several strengths); stored as a number. */
  custom?: boolean
}

/**
 * The one table of XP bonuses. Values from GAME-RULES.md; tome of learning, daily bonus and the
 * elixir's strength are not given there: tome of learning uses the common +25% first-time tome,
 * the daily bonus +10%, the elixir whatever percent the player enters (10 when just switched on).
 * Any entry stored as a number in progress overrides the percent here.
 */
export const XP_BONUSES = [
  {
    key: 'firstTime',
    label: 'First time',
    group: 'optional',
    stacking: 'additive',
    percent: { casual: 20, normal: 20, hard: 20, elite: 45, reaper: 45, unknown: 20 },
  },
  { key: 'conquest', label: 'Conquest', group: 'optional', stacking: 'additive', percent: 25 },
  {
    key: 'ingeniousDebilitation',
    label: 'Ingenious debilitation',
    group: 'optional',
    stacking: 'additive',
    percent: 30,
  },
  { key: 'ransack', label: 'Ransack', group: 'optional', stacking: 'additive', percent: 15 },
  { key: 'persistence', label: 'Persistence', group: 'optional', stacking: 'additive', percent: 10 },
  { key: 'flawless', label: 'Flawless', group: 'optional', stacking: 'additive', percent: 10 },
  { key: 'tomeOfLearning', label: 'Tome of learning', group: 'boost', stacking: 'additive', percent: 25 },
  { key: 'dailyBonus', label: 'Daily bonus', group: 'boost', stacking: 'additive', percent: 10 },
  { key: 'vip', label: 'VIP', group: 'boost', stacking: 'multiplicative', percent: 10 },
  { key: 'voiceOfTheMaster', label: 'Voice of the master', group: 'boost', stacking: 'multiplicative', percent: 5 },
  { key: 'shipBuff', label: 'Ship buff', group: 'boost', stacking: 'multiplicative', percent: 5 },
  { key: 'xpElixir', label: 'XP elixir', group: 'boost', stacking: 'multiplicative', percent: 10, custom: true },
] as const satisfies readonly XpBonus[]

export type BonusKey = (typeof XP_BONUSES)[number]['key']

/** What a bonus is worth in percent: off (0) unless stored as `true` or a positive number. */
export function bonusPercent(bonus: XpBonus, stored: unknown, setting: Setting): number {
  if (typeof stored === 'number' && Number.isFinite(stored) && stored > 0) return stored
  if (stored !== true) return 0
  return typeof bonus.percent === 'number' ? bonus.percent : bonus.percent[setting]
}

/** The bonuses switched on, as the two sums the estimate uses. */
export function xpFactor(
  setting: Setting,
  xpBoosts: Readonly<Record<string, unknown>>,
  optionalPursuit: Readonly<Record<string, unknown>>,
): number {
  let additive = 0
  let multiplicative = 1
  for (const bonus of XP_BONUSES) {
    const stored = (bonus.group === 'boost' ? xpBoosts : optionalPursuit)[bonus.key]
    const percent = bonusPercent(bonus, stored, setting)
    if (bonus.stacking === 'additive') additive += percent
    else multiplicative *= 1 + percent / 100
  }
  return (1 + additive / 100) * multiplicative
}

/** Estimate = base XP for the setting × (1 + additive bonuses) × multiplicative bonuses, rounded. */
export function estimateXp(
  row: XpRow,
  setting: Setting,
  xpBoosts: Readonly<Record<string, unknown>>,
  optionalPursuit: Readonly<Record<string, unknown>>,
): number | null {
  const base = settingXp(row, setting)
  return base === null ? null : Math.round(base * xpFactor(setting, xpBoosts, optionalPursuit))
}

export interface XpCompletion extends LoggedCompletion {
  xpEarned: number | null
}

export interface XpTotal {
  /** Reported plus estimated XP. */
  total: number
  /** Completions whose XP the game client reported. */
  reported: number
  /** Completions estimated from the catalog. */
  estimated: number
  /** Completions with neither (quest not in the catalog, or its XP cell unknown): counted as 0. */
  unknown: number
}

const TIER_ORDER: readonly string[] = Object.values(VERSION_TIERS)

export type XpRowsByName = ReadonlyMap<string, readonly (XpRow & Pick<TrackerRow, 'difficulty'>)[]>

/** One completion's XP and where it comes from: reported by the game, estimated, or unknown (null). */
export interface CompletionXp {
  xp: number | null
  source: 'reported' | 'estimated' | 'unknown'
}

/**
 * A completion's XP: `xpEarned` when the game client reported it, else the catalog estimate with
 * the character's boosts and optionals. A completion of tier `Unknown` is estimated on the lowest
 * tier of its name (catalog tiers Heroic, Epic, Legendary): it cannot be told which was run, and
 * the low figure does not overstate.
 */
export function completionXp(
  c: XpCompletion,
  rowsByName: XpRowsByName,
  xpBoosts: Readonly<Record<string, unknown>>,
  optionalPursuit: Readonly<Record<string, unknown>>,
): CompletionXp {
  if (c.xpEarned !== null) return { xp: c.xpEarned, source: 'reported' }
  const remakes = rowsByName.get(c.name) ?? []
  const row =
    c.difficulty === 'Unknown'
      ? [...remakes].sort((a, b) => TIER_ORDER.indexOf(a.difficulty) - TIER_ORDER.indexOf(b.difficulty))[0]
      : remakes.find((r) => r.difficulty === c.difficulty)
  const xp = row ? estimateXp(row, c.setting, xpBoosts, optionalPursuit) : null
  return xp === null ? { xp: null, source: 'unknown' } : { xp, source: 'estimated' }
}

/** XP earned over all completions (each as `completionXp` counts it; an unknown one counts 0). */
export function xpTotal(
  completions: readonly XpCompletion[],
  rowsByName: XpRowsByName,
  xpBoosts: Readonly<Record<string, unknown>>,
  optionalPursuit: Readonly<Record<string, unknown>>,
): XpTotal {
  const result: XpTotal = { total: 0, reported: 0, estimated: 0, unknown: 0 }
  for (const c of completions) {
    const { xp, source } = completionXp(c, rowsByName, xpBoosts, optionalPursuit)
    result[source]++
    result.total += xp ?? 0
  }
  return result
}
