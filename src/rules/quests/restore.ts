// Putting back a completion that was deleted (the tracker's undo): what the delete answered (the
// completion, its count of runs and the runs kept of it) merged with whatever the life holds of
// the same quest, difficulty and setting by then. Idempotent: restoring the same completion again
// changes nothing. Pure: the service reads the stored row and writes the plan.
import { type Difficulty, mostSkulls, type Setting } from './completion'

/** One run's time and what the game reported for it. */
export interface RunFigures {
  completedAt: string
  durationSeconds: number | null
  xpEarned: number | null
  reaperXpEarned: number | null
  /** Its skulls (reaper only); absent in what a browser kept from before skulls were kept. */
  reaperSkulls?: number | null
}

/** A deleted completion as the delete answered it: its latest run's figures, its count, its runs. */
export interface RemovedCompletion extends RunFigures {
  /** As a completion stores it, the most skulls of its runs. */
  reaperSkulls?: number | null
  /** How many times it was logged (runs older than the kept ones, or logged without one, count here only). */
  runs: number
  /** The runs kept of it (`runList`, as the account export names them). */
  runList: readonly RunFigures[]
}

/** A removed completion with its quest, remake and setting: what the server keeps of a DELETE. */
export interface RemovedTriple extends RemovedCompletion {
  name: string
  difficulty: Difficulty
  setting: Setting
}

/** What the life holds of the triple now: its figures, its count, and the times of its kept runs. */
export interface StoredTriple {
  latest: RunFigures
  runs: number
  runTimes: ReadonlySet<string>
  /** The most skulls of its runs. */
  reaperSkulls: number | null
}

/** What to write: the row's figures and count, and the runs to add to it. */
export interface RestorePlan {
  latest: RunFigures
  runs: number
  newRuns: RunFigures[]
  /** The completion's skull count: the most of both. */
  reaperSkulls: number | null
}

const figuresOf = ({
  completedAt,
  durationSeconds,
  xpEarned,
  reaperXpEarned,
  reaperSkulls,
}: RunFigures): RunFigures => ({
  completedAt,
  durationSeconds,
  xpEarned,
  reaperXpEarned,
  reaperSkulls: reaperSkulls ?? null,
})

/**
 * The restore of `removed` over `stored` (null: the triple is not there). Not there: it comes
 * back as it was. There: its runs are added where the stored row lacks a run at the same time (a
 * run at the same time is the same run), the count grows by the removed count less the runs
 * already there, and the figures are the later run's. null when there is nothing to do: every run
 * is there already and the stored count is as high (restored before, or never deleted).
 */
export function restorePlan(stored: StoredTriple | null, removed: RemovedCompletion): RestorePlan | null {
  const count = Math.max(removed.runs, removed.runList.length)
  const skulls = mostSkulls(removed.reaperSkulls, ...removed.runList.map((run) => run.reaperSkulls))
  if (stored === null) {
    return { latest: figuresOf(removed), runs: count, newRuns: removed.runList.map(figuresOf), reaperSkulls: skulls }
  }
  const newRuns = removed.runList.filter((run) => !stored.runTimes.has(run.completedAt)).map(figuresOf)
  if (newRuns.length === 0 && count <= stored.runs) return null
  const present = removed.runList.length - newRuns.length
  return {
    latest: removed.completedAt > stored.latest.completedAt ? figuresOf(removed) : stored.latest,
    runs: stored.runs + count - present,
    newRuns,
    reaperSkulls: mostSkulls(stored.reaperSkulls, skulls),
  }
}
