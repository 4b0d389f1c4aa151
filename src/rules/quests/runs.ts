// Runs and lives: which life a run belongs to, and the server's quest times (the median run of a
// remake and setting over every character that shares its runs). Pure functions over plain data.

/**
 * What a life says about when it ran: its window [createdAt, archivedAt), and the quest life it
 * is in (the lifeIndex of the life that began it: an epic or lesser reincarnation keeps the quest
 * life, a true one begins its own).
 */
export interface LifeWindow {
  lifeIndex: number
  questLife: number
  isCurrent: boolean
  createdAt: string
  archivedAt: string | null
}

/**
 * A life's window is known when it was lived on this server: archived after it started. Lives
 * written whole by an imported history start and end at the moment of the import, so they say
 * nothing about when their quests were run.
 */
const knownWindow = (life: LifeWindow): life is LifeWindow & { archivedAt: string } =>
  life.archivedAt !== null && life.archivedAt > life.createdAt

/** The current life's index (1 before any life is recorded: the first is opened as 1). */
export const currentLifeOf = (lives: readonly LifeWindow[]): number =>
  lives.find((life) => life.isCurrent)?.lifeIndex ?? 1

/**
 * The current life's quest life: whose completions the tracker, favor, first-time bonuses, the
 * navigation and the CSV count, and where a run goes now (1 before any life is recorded).
 */
export const currentQuestLifeOf = (lives: readonly LifeWindow[]): number =>
  lives.find((life) => life.isCurrent)?.questLife ?? 1

/**
 * The quest life a run at `completedAt` was logged in: that of the archived life whose known
 * window holds it; when it is older than every known window, that of the earliest of those lives
 * (the server saw the character before it recorded lives); else the current one; else 1 (no life
 * recorded yet: the first life is opened as 1). The game client re-sends runs it could not
 * deliver, so a run of a finished life may arrive after the reincarnation: it still goes to its
 * own life's quest life.
 */
export function lifeOfRun(lives: readonly LifeWindow[], completedAt: string): number {
  const known = lives.filter(knownWindow)
  const holding = known.find((life) => completedAt >= life.createdAt && completedAt < life.archivedAt)
  if (holding) return holding.questLife
  const earliest = known.reduce<LifeWindow | undefined>(
    (first, life) => (first === undefined || life.lifeIndex < first.lifeIndex ? life : first),
    undefined,
  )
  if (earliest && completedAt < earliest.createdAt) return earliest.questLife
  return currentQuestLifeOf(lives)
}

/** The median of `values` (the mean of the middle two when their count is even); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** A figure shows only from this many runs ... */
export const MIN_RUNS_FOR_FIGURE = 3
/** ... by at least this many characters: one player's runs are not the server's time. */
export const MIN_CHARACTERS_FOR_FIGURE = 2

/** One run as the quest times see it: whose it was, how long it took, the XP it gave. */
export interface TimedRun {
  characterId: number
  durationSeconds: number | null
  xpEarned: number | null
}

export interface QuestTimeFigures {
  /** Runs with a duration, and the characters they are of. */
  timedRuns: number
  timedCharacters: number
  /** Null until MIN_RUNS_FOR_FIGURE timed runs by MIN_CHARACTERS_FOR_FIGURE characters. */
  medianDurationSeconds: number | null
  /** Runs with a duration and XP, and their characters. */
  xpRuns: number
  xpCharacters: number
  /** XP per minute of each such run, its median; null under the same threshold. */
  medianXpPerMinute: number | null
}

const enough = (runs: number, characters: number) =>
  runs >= MIN_RUNS_FOR_FIGURE && characters >= MIN_CHARACTERS_FOR_FIGURE

/**
 * The quest times of one remake and setting from its runs. A run of 0 s (a client that did not
 * time it) is untimed. XP per minute is each run's own (its XP over its minutes), so one long
 * run does not weigh more than the others; its median is rounded to a tenth.
 */
export function questTimeFigures(runs: readonly TimedRun[]): QuestTimeFigures {
  const timed = runs.filter((run) => run.durationSeconds !== null && run.durationSeconds > 0)
  const withXp = timed.filter((run) => run.xpEarned !== null)
  const timedCharacters = new Set(timed.map((run) => run.characterId)).size
  const xpCharacters = new Set(withXp.map((run) => run.characterId)).size
  const duration = median(timed.map((run) => run.durationSeconds as number))
  const rate = median(withXp.map((run) => (run.xpEarned as number) / ((run.durationSeconds as number) / 60)))
  return {
    timedRuns: timed.length,
    timedCharacters,
    medianDurationSeconds: enough(timed.length, timedCharacters) ? duration : null,
    xpRuns: withXp.length,
    xpCharacters,
    medianXpPerMinute: enough(withXp.length, xpCharacters) && rate !== null ? Math.round(rate * 10) / 10 : null,
  }
}
