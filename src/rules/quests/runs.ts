// Runs and lives: which life a run belongs to, and the server's quest times (the median run of a
// remake and setting over every account that shares its runs, one vote each). Pure functions over
// plain data.

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

/**
 * A figure shows only from the runs of this many accounts, each one vote (its own median): one
 * account's runs are not the server's time, and with two, one of them posting a very short and a
 * very long run made the median the other's run, exact (issue 39). An account, not a character:
 * an account makes as many characters as it likes. Three still let two accounts working together
 * learn a third's single run, which is why what is shown is rounded (below).
 */
export const MIN_ACCOUNTS_FOR_FIGURE = 3

/**
 * Runs of one character that count in the quest times of one remake and setting: its latest, by
 * the time it ran them. A character's recent runs say how long the quest takes it now (its level,
 * gear and knowledge of the quest); and what one character contributes to its account's vote is
 * bounded, so a character that farms a quest hundreds of times does not drown out its account's
 * other characters, nor its old runs the new.
 */
export const RUNS_COUNTED_PER_CHARACTER = 10

/** One run as the quest times see it: whose it was (account and character), when, how long, the XP. */
export interface TimedRun {
  accountId: number
  characterId: number
  completedAt: string
  durationSeconds: number | null
  xpEarned: number | null
}

export interface QuestTimeFigures {
  /** Runs with a duration, and the characters and accounts they are of. */
  timedRuns: number
  timedCharacters: number
  timedAccounts: number
  /** Null until runs of MIN_ACCOUNTS_FOR_FIGURE accounts; whole minutes (shownSeconds). */
  medianDurationSeconds: number | null
  /** Runs with a duration and XP, and their characters and accounts. */
  xpRuns: number
  xpCharacters: number
  xpAccounts: number
  /** Null under the same threshold; two significant figures (shownRate). */
  medianXpPerMinute: number | null
}

/**
 * A duration as the server shows it: in whole minutes (a multiple of 60 s), never under one (what
 * to run next divides XP by it). Seconds would tell one player's run from a median of few.
 */
export const shownSeconds = (seconds: number): number => Math.max(1, Math.round(seconds / 60)) * 60

/** An XP per minute as the server shows it: two significant figures (142.857 -> 140, 0.4286 -> 0.43). */
export const shownRate = (rate: number): number => Number(rate.toPrecision(2))

/** The median over accounts of each account's median of `value` (its runs where it is not null). */
function accountsMedian(
  runs: readonly TimedRun[],
  value: (run: TimedRun) => number | null,
): { runs: number; characters: number; accounts: number; median: number | null } {
  const byAccount = new Map<number, number[]>()
  const characters = new Set<number>()
  let counted = 0
  for (const run of runs) {
    const v = value(run)
    if (v === null) continue
    counted++
    characters.add(run.characterId)
    const values = byAccount.get(run.accountId)
    if (values) values.push(v)
    else byAccount.set(run.accountId, [v])
  }
  const medians = [...byAccount.values()].map((values) => median(values) as number)
  return { runs: counted, characters: characters.size, accounts: byAccount.size, median: median(medians) }
}

/** Each character's latest RUNS_COUNTED_PER_CHARACTER of `runs` (by completedAt). */
function latestOfEachCharacter(runs: readonly TimedRun[]): TimedRun[] {
  const byCharacter = new Map<number, TimedRun[]>()
  for (const run of runs) {
    const list = byCharacter.get(run.characterId)
    if (list) list.push(run)
    else byCharacter.set(run.characterId, [run])
  }
  return [...byCharacter.values()].flatMap((list) =>
    list.length <= RUNS_COUNTED_PER_CHARACTER
      ? list
      : list
          .sort((a, b) => (a.completedAt < b.completedAt ? 1 : a.completedAt > b.completedAt ? -1 : 0))
          .slice(0, RUNS_COUNTED_PER_CHARACTER),
  )
}

/**
 * The quest times of one remake and setting from its runs. A run of 0 s (a client that did not
 * time it) is untimed; of the timed, each character's latest RUNS_COUNTED_PER_CHARACTER count.
 * Each account's counted runs make its median (of durations; of each run's own XP per minute, so
 * one long run does not weigh more than the others), and the figure is the median of those
 * medians, shown from MIN_ACCOUNTS_FOR_FIGURE accounts and rounded (shownSeconds, shownRate): an
 * account that posts many runs, or extreme ones, moves its own vote only.
 */
export function questTimeFigures(runs: readonly TimedRun[]): QuestTimeFigures {
  const timed = latestOfEachCharacter(runs.filter((run) => run.durationSeconds !== null && run.durationSeconds > 0))
  const duration = accountsMedian(timed, (run) => run.durationSeconds)
  const rate = accountsMedian(timed, (run) =>
    run.xpEarned === null ? null : run.xpEarned / ((run.durationSeconds as number) / 60),
  )
  return {
    timedRuns: duration.runs,
    timedCharacters: duration.characters,
    timedAccounts: duration.accounts,
    medianDurationSeconds:
      duration.accounts >= MIN_ACCOUNTS_FOR_FIGURE && duration.median !== null ? shownSeconds(duration.median) : null,
    xpRuns: rate.runs,
    xpCharacters: rate.characters,
    xpAccounts: rate.accounts,
    medianXpPerMinute: rate.accounts >= MIN_ACCOUNTS_FOR_FIGURE && rate.median !== null ? shownRate(rate.median) : null,
  }
}
