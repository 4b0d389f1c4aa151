// The series behind the website's stats page: XP per minute of play by quest, completions and
// XP by day, favor by patron against what the catalog offers, reaper XP by day and the most
// reaper skulls by quest. Pure
// functions over a character's completions and the catalog; the page plots them and shows the
// same numbers as tables.
import { type Difficulty, mostSkulls } from './completion'
import { favorTotals } from './favor'
import { indexCompletions, type TrackerRow } from './tracker'
import { completionXp, type XpCompletion, type XpRowsByName } from './xp'

export interface StatsCompletion extends XpCompletion {
  completedAt: string
  durationSeconds: number | null
  reaperXpEarned: number | null
  /** Reaper only: the most skulls of its runs (null: none given). Older answers have none. */
  reaperSkulls?: number | null
}

export interface XpSettings {
  xpBoosts: Readonly<Record<string, unknown>>
  optionalPursuit: Readonly<Record<string, unknown>>
}

/** XP per minute of one remake over its timed runs. */
export interface QuestRate {
  name: string
  difficulty: Difficulty
  /** Timed runs counted (those with a duration and a known XP). */
  runs: number
  minutes: number
  xp: number
  xpPerMinute: number
  /** Some of the XP is the catalog estimate (the game did not report it for every run). */
  estimated: boolean
}

export interface XpRates {
  /** Best XP per minute first. */
  rates: QuestRate[]
  /** Completions left out: no duration (or 0 s), or XP neither reported nor estimable. */
  untimed: number
  unknownXp: number
}

/** XP per minute of play by quest remake: Σ XP / Σ minutes of its timed runs. */
export function xpPerMinute(
  completions: readonly StatsCompletion[],
  rowsByName: XpRowsByName,
  settings: XpSettings,
): XpRates {
  const byRemake = new Map<string, QuestRate>()
  let untimed = 0
  let unknownXp = 0
  for (const c of completions) {
    if (c.durationSeconds === null || c.durationSeconds <= 0) {
      untimed++
      continue
    }
    const { xp, source } = completionXp(c, rowsByName, settings.xpBoosts, settings.optionalPursuit)
    if (xp === null) {
      unknownXp++
      continue
    }
    const key = `${c.difficulty}\u0000${c.name}`
    const rate = byRemake.get(key) ?? {
      name: c.name,
      difficulty: c.difficulty,
      runs: 0,
      minutes: 0,
      xp: 0,
      xpPerMinute: 0,
      estimated: false,
    }
    rate.runs++
    rate.minutes += c.durationSeconds / 60
    rate.xp += xp
    rate.estimated ||= source === 'estimated'
    byRemake.set(key, rate)
  }
  const rates = [...byRemake.values()]
    .map((r) => ({ ...r, xpPerMinute: Math.round(r.xp / r.minutes) }))
    .sort((a, b) => b.xpPerMinute - a.xpPerMinute || a.name.localeCompare(b.name))
  return { rates, untimed, unknownXp }
}

/** A calendar day's completions and XP, with the running totals up to and including it. */
export interface DayActivity {
  /** `YYYY-MM-DD` as `dayOf` names it. */
  day: string
  completions: number
  xp: number
  /** Of `xp`, how much is the catalog estimate. */
  estimatedXp: number
  reaperRuns: number
  reaperXp: number
  totalCompletions: number
  totalXp: number
  totalReaperXp: number
}

/** The UTC calendar day of a timestamp (the page passes the browser's local day instead). */
export const utcDay = (iso: string): string => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso.slice(0, 10) : date.toISOString().slice(0, 10)
}

/**
 * Completions, XP and reaper XP per day, oldest day first, with running totals. A completion
 * whose XP is unknown counts as a completion with 0 XP. Reaper XP is only what the game reported
 * (`reaperXpEarned`): the catalog has no reaper XP to estimate from.
 */
export function activityByDay(
  completions: readonly StatsCompletion[],
  rowsByName: XpRowsByName,
  settings: XpSettings,
  dayOf: (iso: string) => string = utcDay,
): DayActivity[] {
  const days = new Map<string, DayActivity>()
  for (const c of completions) {
    const day = dayOf(c.completedAt)
    const entry = days.get(day) ?? {
      day,
      completions: 0,
      xp: 0,
      estimatedXp: 0,
      reaperRuns: 0,
      reaperXp: 0,
      totalCompletions: 0,
      totalXp: 0,
      totalReaperXp: 0,
    }
    const { xp, source } = completionXp(c, rowsByName, settings.xpBoosts, settings.optionalPursuit)
    entry.completions++
    entry.xp += xp ?? 0
    if (source === 'estimated') entry.estimatedXp += xp ?? 0
    if (c.setting === 'reaper') entry.reaperRuns++
    entry.reaperXp += c.reaperXpEarned ?? 0
    days.set(day, entry)
  }
  const sorted = [...days.values()].sort((a, b) => a.day.localeCompare(b.day))
  let completionsSoFar = 0
  let xpSoFar = 0
  let reaperSoFar = 0
  for (const entry of sorted) {
    completionsSoFar += entry.completions
    xpSoFar += entry.xp
    reaperSoFar += entry.reaperXp
    entry.totalCompletions = completionsSoFar
    entry.totalXp = xpSoFar
    entry.totalReaperXp = reaperSoFar
  }
  return sorted
}

export interface PatronFavor {
  /** '' for the catalog rows with no patron. */
  patron: string
  earned: number
  possible: number
}

/**
 * Favor earned per patron against the favor the catalog offers that patron (favor.ts counts
 * both: best setting once per quest name). Most favor available first.
 */
export function favorByPatron(
  rows: readonly Pick<TrackerRow, 'name' | 'difficulty' | 'patron' | 'favor'>[],
  completions: readonly XpCompletion[],
): PatronFavor[] {
  const totals = favorTotals(rows, indexCompletions(completions))
  return [...totals.byPatron]
    .map(([patron, t]) => ({ patron, earned: t.earned, possible: t.possible }))
    .sort((a, b) => b.possible - a.possible || a.patron.localeCompare(b.patron))
}

/** A quest remake run on reaper, and the most skulls it was logged with. */
export interface QuestSkulls {
  name: string
  difficulty: Difficulty
  /** Null: run on reaper, but no run said how many skulls. */
  skulls: number | null
}

/**
 * The most reaper skulls per quest remake (a completion of tier Unknown is its own line: it says
 * no more), most skulls first, then by name; remakes run on reaper without a count last.
 */
export function reaperSkullsByQuest(completions: readonly StatsCompletion[]): QuestSkulls[] {
  const byRemake = new Map<string, QuestSkulls>()
  for (const c of completions) {
    if (c.setting !== 'reaper') continue
    const key = `${c.difficulty}\u0000${c.name}`
    const entry = byRemake.get(key) ?? { name: c.name, difficulty: c.difficulty, skulls: null }
    entry.skulls = mostSkulls(entry.skulls, c.reaperSkulls)
    byRemake.set(key, entry)
  }
  return [...byRemake.values()].sort(
    (a, b) =>
      (b.skulls ?? 0) - (a.skulls ?? 0) || a.name.localeCompare(b.name) || a.difficulty.localeCompare(b.difficulty),
  )
}
