// Table tests of putting a deleted completion back (the tracker's undo): as it was when the
// triple is gone, merged run by run when the life holds it again, nothing when it is back already.
import { describe, expect, test } from 'bun:test'
import {
  type RemovedCompletion,
  type RestorePlan,
  type RunFigures,
  restorePlan,
  type StoredTriple,
} from '../../../src/rules/quests/restore'

const run = (hour: number, xpEarned: number | null = null, durationSeconds: number | null = null): RunFigures => ({
  completedAt: `2026-11-20T${String(hour).padStart(2, '0')}:00:00.000Z`,
  durationSeconds,
  xpEarned,
  reaperXpEarned: null,
  reaperSkulls: null,
})

/** Removed with these runs kept (the latest run's figures on the completion) and `count` runs in all. */
const removed = (history: RunFigures[], count = history.length): RemovedCompletion => ({
  ...(history.at(-1) ?? run(1)),
  runs: count,
  runList: history,
})

const stored = (history: RunFigures[], count = history.length): StoredTriple => ({
  latest: history.at(-1) ?? run(1),
  runs: count,
  runTimes: new Set(history.map((r) => r.completedAt)),
  reaperSkulls: null,
})

describe('restorePlan', () => {
  const three = [run(8, 3000, 600), run(9, 3100, 540), run(10, 2900, 660)]
  const cases: [string, StoredTriple | null, RemovedCompletion, RestorePlan | null][] = [
    // [why, what the life holds now, what the delete answered, the plan]
    [
      'gone: back as it was, its runs and their XP',
      null,
      removed(three),
      { latest: run(10, 2900, 660), runs: 3, newRuns: three, reaperSkulls: null },
    ],
    [
      'gone, with runs counted beyond those kept: the count comes back whole',
      null,
      removed(three, 7),
      { latest: run(10, 2900, 660), runs: 7, newRuns: three, reaperSkulls: null },
    ],
    [
      'gone, logged without a run (a list import): one, no run',
      null,
      removed([], 1),
      { latest: run(1), runs: 1, newRuns: [], reaperSkulls: null },
    ],
    ['back already (the same restore again): nothing', stored(three), removed(three), null],
    ['back already, counted beyond its runs: nothing', stored(three, 7), removed(three, 7), null],
    [
      're-ticked since (one run now): the old runs join it, counts add, the later figures stay',
      stored([run(12)]),
      removed(three),
      { latest: run(12), runs: 4, newRuns: three, reaperSkulls: null },
    ],
    [
      'the game re-sent one of the runs since: that run counts once',
      stored([run(10, 2900, 660)]),
      removed(three),
      { latest: run(10, 2900, 660), runs: 3, newRuns: [run(8, 3000, 600), run(9, 3100, 540)], reaperSkulls: null },
    ],
    [
      'an older run logged since: the removed latest run wins the figures',
      stored([run(5)]),
      removed(three, 3),
      { latest: run(10, 2900, 660), runs: 4, newRuns: three, reaperSkulls: null },
    ],
    [
      'no run kept of it, a higher count: the count is added',
      stored([run(12)]),
      removed([], 2),
      { latest: run(12), runs: 3, newRuns: [], reaperSkulls: null },
    ],
  ]
  for (const [why, now, gone, plan] of cases) {
    test(why, () => expect(restorePlan(now, gone)).toEqual(plan))
  }

  test('skulls: the completion takes the most of the stored count, the removed count and its runs', () => {
    const skulled = (hour: number, reaperSkulls: number | null) => ({ ...run(hour), reaperSkulls })
    const gone = { ...removed([skulled(8, 6), skulled(9, 2)]), reaperSkulls: 6 }
    expect(restorePlan(null, gone)?.reaperSkulls).toBe(6)
    expect(restorePlan({ ...stored([run(12)]), reaperSkulls: 9 }, gone)?.reaperSkulls).toBe(9)
    expect(restorePlan({ ...stored([run(12)]), reaperSkulls: null }, gone)?.reaperSkulls).toBe(6)
    // A removed completion kept by a browser from before skulls: its runs say nothing either.
    const { reaperSkulls: _, ...old } = removed([run(8)])
    const plan = restorePlan(null, { ...old, runList: [{ ...run(8), reaperSkulls: undefined }] })
    expect(plan?.reaperSkulls).toBeNull()
    expect(plan?.newRuns[0]?.reaperSkulls).toBeNull()
  })

  test('applying a plan and restoring again changes nothing', () => {
    const plan = restorePlan(stored([run(12)]), removed(three)) as RestorePlan
    const after = stored([run(12), ...plan.newRuns], plan.runs)
    expect(restorePlan({ ...after, latest: plan.latest }, removed(three))).toBeNull()
  })
})
