// What to run next (issue 23): the quests worth running now for one character, ranked by the XP
// a minute of play brings (or by how soon they bring the next favor reward), each with one line
// saying why. Pure functions over the catalog, the character's tracker state and completions of
// this life, its own runs and the server's quest times.
import { minLevel as fullXpMinLevel, type PlayOn } from '../character/levels'
import { type GroupSize, isRaid } from './catalogFacts'
import type { Setting } from './completion'
import { favorFor, favorTotals, remakeFavor } from './favor'
import {
  compareFavorSteps,
  type FavorStep,
  favorStepsToReward,
  type NextFavorReward,
  nextFavorRewards,
} from './favorRewards'
import { type BandChoice, inRange, levelRange } from './levelBand'
import {
  type CompletionIndex,
  indexCompletions,
  isDoneAt,
  LEVEL_BAND_ANY,
  type LoggedCompletion,
  rowFilter,
  type TrackerFilters,
  type TrackerRow,
  tiersByName,
} from './tracker'
import { bonusPercent, estimateXp, XP_BONUSES } from './xp'

/**
 * Minutes a run takes when neither the character nor the server has timed it: the catalog's
 * length word. The wiki's words are rough classes, not measurements; these are the middle of
 * what players report for each (a "Medium" quest is a 15 to 25 minute run). Unknown words: 20.
 */
export const ESTIMATED_MINUTES: Readonly<Record<string, number>> = {
  'very short': 5,
  short: 10,
  medium: 20,
  long: 30,
  'very long': 45,
}
export const DEFAULT_ESTIMATED_MINUTES = 20

export type NextBy = 'xp' | 'favor'

/** Where a quest's minutes come from: this character's runs, the server's, or the catalog's word. */
export type TimeSource = 'own' | 'server' | 'estimate'

/** A measured time: the median run in seconds, over how many runs. */
export interface MeasuredTime {
  medianSeconds: number
  runs: number
}

/** A catalog row as the ranking reads it: with its group size where the catalog knows it. */
export type NextRow = TrackerRow & { groupSize?: GroupSize | null }

export interface NextInput {
  rows: readonly NextRow[]
  /** The current life's completions. */
  completions: readonly LoggedCompletion[]
  playOn: PlayOn
  characterLevel: number
  /** The tracker's filters; of the band, the player's range (`levelsBelow`, `levelsAbove`) alone. */
  filters: Pick<TrackerFilters, 'versionFilter' | 'excludedPatrons' | 'packState'> & BandChoice
  xpBoosts: Readonly<Record<string, unknown>>
  optionalPursuit: Readonly<Record<string, unknown>>
  /** The character's own median runs (every life) by timeKey. */
  own: ReadonlyMap<string, MeasuredTime>
  /** The server's median run of a remake on a setting, when it is shown (enough runs). */
  server: (name: string, difficulty: string, setting: Setting) => MeasuredTime | undefined
}

export const timeKey = (name: string, difficulty: string, setting: string) =>
  `${name}\u0000${difficulty}\u0000${setting}`

export interface NextQuest {
  name: string
  difficulty: TrackerRow['difficulty']
  level: number
  setting: Setting
  patron: string
  pack: string
  /** Catalog XP at the setting with the character's boosts and optionals and the first-time bonus. */
  expectedXp: number
  /** The part of expectedXp the first-time bonus brings. */
  firstTimeXp: number
  expectedMinutes: number
  minutesFrom: TimeSource
  /** Runs behind the minutes (0 for an estimate). */
  timedRuns: number
  xpPerMinute: number
  /** Favor this run would add over the best setting already logged for the quest (any tier). */
  favorGain: number
  /** For the favor ranking: the reward the run reaches, or the nearest one it leaves. */
  favorStep: FavorStep | null
  /** A raid (the catalog's group size, or "(raid)"): ranked apart, a guild's evening, not a run alone. */
  raid: boolean
  why: string
}

export interface NextResult {
  setting: Setting
  /** The quests a character runs alone or with a party, ranked. */
  quests: NextQuest[]
  /** The raids, ranked the same way apart from them (a raid takes a group of up to 12). */
  raids: NextQuest[]
  /** The rewards nearest now (total favor and each patron's), nearest first. */
  nextRewards: NextFavorReward[]
}

/** The setting a Play on value is run at: `any` is the best case, elite. */
export const runSetting = (playOn: PlayOn): Setting => (playOn === 'any' ? 'elite' : playOn)

const minutesText = (minutes: number) => `${Math.round(minutes)} min`
const thousands = (n: number) => Math.round(n).toLocaleString('en-US')

function timeOf(input: NextInput, row: TrackerRow, setting: Setting) {
  const key = timeKey(row.name, row.difficulty, setting)
  const own = input.own.get(key)
  if (own) return { minutes: own.medianSeconds / 60, from: 'own' as const, runs: own.runs }
  const server = input.server(row.name, row.difficulty, setting)
  if (server) return { minutes: server.medianSeconds / 60, from: 'server' as const, runs: server.runs }
  const minutes = ESTIMATED_MINUTES[row.duration.trim().toLowerCase()] ?? DEFAULT_ESTIMATED_MINUTES
  return { minutes, from: 'estimate' as const, runs: 0 }
}

function timeWhy(time: ReturnType<typeof timeOf>, row: TrackerRow): string {
  if (time.from === 'own')
    return `your median run ${minutesText(time.minutes)} (${time.runs} run${time.runs === 1 ? '' : 's'})`
  if (time.from === 'server') return `this server's median run ${minutesText(time.minutes)} (${time.runs} runs)`
  return `about ${minutesText(time.minutes)} (the wiki calls it ${row.duration.trim() || 'of unknown length'})`
}

function rewardWhy(step: FavorStep, patron: string): string {
  const reached = step.reaches[0]
  if (reached)
    return `reaches ${reached.kind === 'total' ? 'total favor' : reached.patron} ${reached.at}: ${reached.reward}`
  if (step.closest) {
    const { reward, missingAfter } = step.closest
    return `then ${missingAfter} short of ${reward.kind === 'total' ? 'total favor' : reward.patron} ${reward.at}`
  }
  return `no reward of ${patron || 'its patron'} left to reach`
}

/**
 * The ranking. Candidates: the catalog rows the tracker's filters show (packs owned, patrons not
 * excluded, tiers), not yet done at the Play on setting (or a harder one) in this life, inside the
 * character's level band (levelBand.ts: the player's range, else from the Full XP minimum to
 * DEFAULT_LEVELS_ABOVE above its level) whatever the tracker's own `levelBand` shows, and at most
 * the character's level unless the player set the band's top (`levelsAbove`): a quest above it is
 * in reach but harder, and XP per minute, which knows nothing of that, would always rank it first.
 * By `xp`: never below the Full XP minimum either (the XP it ranks by has no over-level penalty),
 * best expected XP per minute first. By `favor`: any level up to that top (favor has no level
 * penalty), only runs that add favor, ranked by the next reward (compareFavorSteps), then by the
 * shorter run.
 */
export function nextQuests(input: NextInput, by: NextBy, limit: number): NextResult {
  const setting = runSetting(input.playOn)
  const index: CompletionIndex = indexCompletions(input.completions)
  const tiers = tiersByName(input.rows)
  const filters: TrackerFilters = {
    versionFilter: input.filters.versionFilter,
    excludedPatrons: input.filters.excludedPatrons,
    packState: input.filters.packState,
    // The band is this ranking's to apply, not the tracker's.
    levelBand: LEVEL_BAND_ANY,
    levels: { from: 1, to: Number.MAX_SAFE_INTEGER, epicContent: true },
    search: '',
    hideCompleted: false,
  }
  const shows = rowFilter(filters, index, tiers)
  const band = levelRange(input.characterLevel, input.playOn, input.filters)
  const to = (input.filters.levelsAbove ?? null) === null ? Math.min(band.to, input.characterLevel) : band.to
  const from = by === 'xp' ? Math.max(band.from, fullXpMinLevel(input.characterLevel, input.playOn)) : 1
  const ranked = { ...band, from, to }
  const totals = favorTotals(input.rows, index)
  const favorByPatron: Record<string, number> = {}
  for (const [patron, total] of totals.byPatron) if (patron !== '') favorByPatron[patron] = total.earned
  // Favor already earned per quest name: its best remake's (favor.ts counts a name once).
  const earnedByName = new Map<string, number>()
  for (const row of input.rows) {
    earnedByName.set(row.name, Math.max(earnedByName.get(row.name) ?? 0, remakeFavor(row, index)))
  }
  // Not done at this setting in this life: the first-time bonus is the run's, whatever the tracker says.
  const withFirstTime = { ...input.optionalPursuit, firstTime: true }
  const withoutFirstTime = { ...input.optionalPursuit, firstTime: false }
  const firstTime = XP_BONUSES.find((bonus) => bonus.key === 'firstTime')
  const firstPercent = firstTime ? bonusPercent(firstTime, true, setting) : 0
  const candidates: NextQuest[] = []
  for (const row of input.rows) {
    if (!shows(row) || !inRange(row.level, row.difficulty, ranked)) continue
    if (isDoneAt(row, index, setting)) continue
    const favorGain = Math.max(0, favorFor(row.favor, setting) - (earnedByName.get(row.name) ?? 0))
    if (by === 'favor' && favorGain === 0) continue
    const withFirst = estimateXp(row, setting, input.xpBoosts, withFirstTime)
    if (by === 'xp' && withFirst === null) continue
    const without = estimateXp(row, setting, input.xpBoosts, withoutFirstTime)
    const time = timeOf(input, row, setting)
    const expectedXp = withFirst ?? 0
    const xpPerMinute = Math.round((expectedXp / time.minutes) * 10) / 10
    const favorStep =
      by === 'favor' ? favorStepsToReward({ patron: row.patron, favor: favorGain }, favorByPatron, totals.earned) : null
    const parts = [
      `${thousands(xpPerMinute)} XP/min`,
      `${thousands(expectedXp)} XP with the first-time ${setting} bonus (+${firstPercent}%)`,
      timeWhy(time, row),
    ]
    if (favorGain > 0) parts.push(`+${favorGain} ${row.patron || 'favor'} favor`)
    const raid = isRaid({ name: row.name, groupSize: row.groupSize ?? null, difficulty: row.difficulty }) === true
    if (raid) parts.push('a raid: needs a group')
    if (favorStep) parts.unshift(rewardWhy(favorStep, row.patron))
    candidates.push({
      name: row.name,
      difficulty: row.difficulty,
      level: row.level,
      setting,
      patron: row.patron,
      pack: row.pack,
      expectedXp,
      firstTimeXp: expectedXp - (without ?? 0),
      expectedMinutes: Math.round(time.minutes * 10) / 10,
      minutesFrom: time.from,
      timedRuns: time.runs,
      xpPerMinute,
      favorGain,
      favorStep,
      raid,
      why: parts.join(' · '),
    })
  }
  const byXp = (a: NextQuest, b: NextQuest) => b.xpPerMinute - a.xpPerMinute || a.name.localeCompare(b.name)
  candidates.sort(
    by === 'xp'
      ? byXp
      : (a, b) =>
          compareFavorSteps(a.favorStep as FavorStep, b.favorStep as FavorStep) ||
          a.expectedMinutes - b.expectedMinutes ||
          byXp(a, b),
  )
  return {
    setting,
    quests: candidates.filter((quest) => !quest.raid).slice(0, limit),
    raids: candidates.filter((quest) => quest.raid).slice(0, limit),
    nextRewards: nextFavorRewards(favorByPatron, totals.earned).slice(0, 5),
  }
}
