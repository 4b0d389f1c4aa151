// The loot timers as tables against the cited numbers: the raid timer (66 hours, DDO Audit; none
// for Tempest's Spine, the DDO wiki), and the chest ransack window (the DDO wiki's "Chest
// ransack": 168 hours from the first looting, normal loot the first eight times, ransacked from
// the ninth).
import { describe, expect, test } from 'bun:test'
import {
  NORMAL_LOOT_LOOTINGS,
  questWeeks,
  RAID_TIMER_HOURS,
  RANSACK_TIMER_HOURS,
  raidLockouts,
  type TimerRun,
  timersSince,
} from '../../../src/rules/quests/timers'

const H = 3_600_000
const T0 = Date.parse('2026-11-01T20:00:00.000Z')
const at = (hours: number) => new Date(T0 + hours * H)
const run = (name: string, hours: number, difficulty = 'Heroic'): TimerRun => ({
  name,
  difficulty,
  completedAt: at(hours).toISOString(),
})
const RAIDS = new Set(['The Shroud', 'The Vault of Night', "Tempest's Spine", 'The Codex and the Shroud'])
const isRaid = (name: string) => RAIDS.has(name)

describe('the cited numbers', () => {
  test('66 hours of raid timer, a 168-hour ransack window, eight normal lootings (the ninth ransacked)', () => {
    expect(RAID_TIMER_HOURS).toBe(66)
    expect(RANSACK_TIMER_HOURS).toBe(168)
    expect(NORMAL_LOOT_LOOTINGS).toBe(8)
    expect(timersSince(at(200))).toBe(at(200 - 168).toISOString())
  })
})

describe('raidLockouts', () => {
  const cases: { what: string; runs: TimerRun[]; now: number; expected: [string, number][] }[] = [
    { what: 'no runs', runs: [], now: 0, expected: [] },
    { what: 'a raid just run: locked 66 h', runs: [run('The Shroud', 0)], now: 1, expected: [['The Shroud', 66]] },
    {
      what: 'one millisecond before 66 h: still locked',
      runs: [run('The Shroud', 0)],
      now: 66 - 1 / H,
      expected: [['The Shroud', 66]],
    },
    { what: 'at 66 h exactly: ready', runs: [run('The Shroud', 0)], now: 66, expected: [] },
    { what: 'a quest that is not a raid never locks', runs: [run('Bell Tower', 0)], now: 1, expected: [] },
    {
      what: "Tempest's Spine has no raid timer (the DDO wiki)",
      runs: [run("Tempest's Spine", 0)],
      now: 1,
      expected: [],
    },
    {
      what: 'the latest run counts, whatever its setting or tier (the raid, not the difficulty)',
      runs: [run('The Vault of Night', 0), run('The Vault of Night', 10, 'Epic'), run('The Vault of Night', 5)],
      now: 20,
      expected: [['The Vault of Night', 76]],
    },
    {
      what: 'the legendary Shroud (a quest of its own) is a timer of its own',
      runs: [run('The Shroud', 0), run('The Codex and the Shroud', 30, 'Legendary')],
      now: 70,
      expected: [['The Codex and the Shroud', 96]],
    },
    {
      what: 'soonest ready first',
      runs: [run('The Vault of Night', 20), run('The Shroud', 10)],
      now: 30,
      expected: [
        ['The Shroud', 76],
        ['The Vault of Night', 86],
      ],
    },
  ]
  for (const c of cases) {
    test(c.what, () => {
      const lockouts = raidLockouts(c.runs, isRaid, at(c.now))
      expect(lockouts.map((l) => [l.name, (Date.parse(l.readyAt) - T0) / H])).toEqual(c.expected)
      for (const l of lockouts) expect(Date.parse(l.readyAt) - Date.parse(l.lastRunAt)).toBe(66 * H)
    })
  }
})

describe('questWeeks', () => {
  /** [runs this week, window start (h), resets (h), ransack likely] of one quest, or null for none. */
  const week = (hours: number[], now: number) => {
    const [w] = questWeeks(
      hours.map((h) => run('Bell Tower', h)),
      at(now),
    )
    return w
      ? [w.runsThisWeek, (Date.parse(w.windowStartedAt) - T0) / H, (Date.parse(w.resetsAt) - T0) / H, w.ransackLikely]
      : null
  }
  const cases: { what: string; hours: number[]; now: number; expected: ReturnType<typeof week> }[] = [
    { what: 'one run: a window of 168 h begins', hours: [0], now: 1, expected: [1, 0, 168, false] },
    { what: 'seven runs: normal loot still', hours: [0, 1, 2, 3, 4, 5, 6], now: 7, expected: [7, 0, 168, false] },
    {
      what: 'eight runs: the next is the ninth, likely ransacked',
      hours: [0, 1, 2, 3, 4, 5, 6, 7],
      now: 8,
      expected: [8, 0, 168, true],
    },
    {
      what: 'nine runs: ransacked since the ninth',
      hours: [0, 1, 2, 3, 4, 5, 6, 7, 8],
      now: 9,
      expected: [9, 0, 168, true],
    },
    { what: 'the window ended: nothing runs', hours: [0, 1, 2], now: 168, expected: null },
    {
      what: 'a run at 168 h exactly begins a new window (the old one lasted exactly 7 days)',
      hours: [0, 1, 168],
      now: 169,
      expected: [1, 168, 336, false],
    },
    {
      what: 'the window is the first looting\u2019s, not the last 168 hours (the run at 167 h is the old window\u2019s)',
      hours: [0, 167, 170],
      now: 200,
      expected: [1, 170, 338, false],
    },
    {
      what: 'eight runs late in a window, then one after it: the count starts over',
      hours: [100, 101, 102, 103, 104, 105, 106, 107, 300],
      now: 301,
      expected: [1, 300, 468, false],
    },
  ]
  for (const c of cases) {
    test(c.what, () => {
      expect(week(c.hours, c.now)).toEqual(c.expected)
    })
  }

  test('per quest and tier, every setting together; most runs first', () => {
    const runs = [
      run('Bell Tower', 0),
      run('Bell Tower', 1),
      run('Bell Tower', 2, 'Epic'),
      run('Crypt', 3),
      run('Crypt', 4),
      run('Crypt', 5),
    ]
    expect(questWeeks(runs, at(10)).map((w) => [w.name, w.difficulty, w.runsThisWeek])).toEqual([
      ['Crypt', 'Heroic', 3],
      ['Bell Tower', 'Heroic', 2],
      ['Bell Tower', 'Epic', 1],
    ])
  })
})
