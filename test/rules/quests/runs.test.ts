// Which life a run belongs to, and the server's quest times from runs, with numbers worked by hand.
import { describe, expect, test } from 'bun:test'
import {
  type LifeWindow,
  lifeOfRun,
  median,
  questTimeFigures,
  RUNS_COUNTED_PER_CHARACTER,
  type TimedRun,
} from '../../../src/rules/quests/runs'

const life = (lifeIndex: number, createdAt: string, archivedAt: string | null): LifeWindow => ({
  lifeIndex,
  questLife: lifeIndex,
  isCurrent: archivedAt === null,
  createdAt,
  archivedAt,
})

describe('lifeOfRun', () => {
  // Life 1 from 1 Nov to 10 Nov, life 2 from 10 Nov to 20 Nov, life 3 since 20 Nov.
  const lives = [
    life(1, '2026-11-01T00:00:00.000Z', '2026-11-10T00:00:00.000Z'),
    life(2, '2026-11-10T00:00:00.000Z', '2026-11-20T00:00:00.000Z'),
    life(3, '2026-11-20T00:00:00.000Z', null),
  ]

  test('the archived life whose window holds the run; its end belongs to the next life', () => {
    expect(lifeOfRun(lives, '2026-11-05T12:00:00.000Z')).toBe(1)
    expect(lifeOfRun(lives, '2026-11-10T00:00:00.000Z')).toBe(2)
    expect(lifeOfRun(lives, '2026-11-19T23:59:59.999Z')).toBe(2)
  })

  test('after the last reincarnation, or in the future: the current life', () => {
    expect(lifeOfRun(lives, '2026-11-20T00:00:00.000Z')).toBe(3)
    expect(lifeOfRun(lives, '2027-01-01T00:00:00.000Z')).toBe(3)
  })

  test('older than every known life: the earliest (the server saw it before it kept lives)', () => {
    expect(lifeOfRun(lives, '2026-10-01T00:00:00.000Z')).toBe(1)
  })

  test('lives of an imported history (start = end) say nothing: the current life', () => {
    const imported = [
      life(1, '2026-11-21T00:00:00.000Z', '2026-11-21T00:00:00.000Z'),
      life(2, '2026-11-21T00:00:00.000Z', '2026-11-21T00:00:00.000Z'),
      life(3, '2026-11-21T00:00:00.000Z', null),
    ]
    expect(lifeOfRun(imported, '2026-10-01T00:00:00.000Z')).toBe(3)
  })

  test('no life recorded yet: life 1', () => {
    expect(lifeOfRun([], '2026-11-21T00:00:00.000Z')).toBe(1)
  })
})

describe('median', () => {
  test('odd count: the middle; even: the mean of the middle two; none: null', () => {
    expect(median([900, 600, 1200])).toBe(900)
    expect(median([600, 1200, 900, 300])).toBe(750)
    expect(median([])).toBeNull()
  })
})

describe('questTimeFigures', () => {
  let at = 0
  /** A run of `account`'s `character`, each later than the one before unless `completedAt` says. */
  const run = (
    accountId: number,
    characterId: number,
    durationSeconds: number | null,
    xpEarned: number | null,
    completedAt = new Date(Date.UTC(2026, 10, 1) + ++at * 60_000).toISOString(),
  ): TimedRun => ({ accountId, characterId, completedAt, durationSeconds, xpEarned })

  test("runs of three accounts: the median of the accounts' medians, in whole minutes and two figures", () => {
    // Account 1: 600 s and 900 s (its median 750 s; 3000 XP: 300 and 200 XP/min, its median 250);
    // account 2: 1200 s (150 XP/min); account 3: 1500 s (120 XP/min). Medians of the accounts:
    // 750, 1200, 1500 s -> 1200 s; 250, 150, 120 XP/min -> 150.
    const figures = questTimeFigures([
      run(1, 1, 600, 3000),
      run(1, 2, 900, 3000),
      run(2, 3, 1200, 3000),
      run(3, 4, 1500, 3000),
    ])
    expect(figures).toEqual({
      timedRuns: 4,
      timedCharacters: 4,
      timedAccounts: 3,
      medianDurationSeconds: 1200,
      xpRuns: 4,
      xpCharacters: 4,
      xpAccounts: 3,
      medianXpPerMinute: 150,
    })
  })

  test("one account's two extreme runs beside a victim's one run do not give the victim's run away", () => {
    // Issue 39, item 1: one character posted 1 s and 7 days beside another account's single run of
    // 1234 s; the median of the three runs was the victim's exact duration and XP per minute.
    const attack = [run(1, 1, 1, 100), run(1, 1, 604_800, 100), run(2, 2, 1234, 4321)]
    const two = questTimeFigures(attack)
    expect(two.medianDurationSeconds).toBeNull()
    expect(two.medianXpPerMinute).toBeNull()
    expect(two.timedAccounts).toBe(2)
    // Many characters of one account are still one account.
    const characters = questTimeFigures([...attack, run(1, 5, 900, 100), run(1, 6, 60, 100)])
    expect(characters.timedCharacters).toBe(4)
    expect(characters.medianDurationSeconds).toBeNull()
    // A third account whose vote falls below the victim's makes the victim's run the median of the
    // three votes (the attacker's vote is 3.5 days), but a rounded one: 1234 s shows as 21 minutes
    // (1260 s), its 210.1 XP per minute as 210.
    const three = questTimeFigures([...attack, run(3, 3, 600, 2000)])
    expect(three.medianDurationSeconds).toBe(1260)
    expect(three.medianXpPerMinute).toBe(210)
  })

  test("one account's many runs are one vote: ten 60 s runs do not outvote five accounts' 1300 s", () => {
    // Issue 39, item 2: the median of every run was 60 s, which /next and the party planner used for all.
    const many = Array.from({ length: 10 }, () => run(1, 1, 60, 1000))
    const five = [2, 3, 4, 5, 6].map((account) => run(account, account, 1300, 1000))
    const figures = questTimeFigures([...many, ...five])
    // 1300 s is 21.7 minutes: 22 (1320 s).
    expect(figures).toMatchObject({ timedAccounts: 6, medianDurationSeconds: 1320 })
  })

  test(`a character counts with its latest ${RUNS_COUNTED_PER_CHARACTER} runs of a quest and setting`, () => {
    // Twenty slow runs long ago, then the latest ten at 600 s: the character's pace now.
    const old = Array.from({ length: 20 }, (_, i) => run(1, 1, 3000, 3000, `2025-01-${String(i + 1).padStart(2, '0')}`))
    const recent = Array.from({ length: RUNS_COUNTED_PER_CHARACTER }, () => run(1, 1, 600, 3000))
    const others = [run(2, 2, 600, 3000), run(3, 3, 700, 3000)]
    // Posted in any order (a client re-sends late runs): the latest by completedAt count.
    const figures = questTimeFigures([...recent, ...others, ...old])
    expect(figures).toMatchObject({ timedRuns: RUNS_COUNTED_PER_CHARACTER + 2, medianDurationSeconds: 600 })
    // Another character of the account counts its own latest runs: the account's vote is over both.
    const second = Array.from({ length: 12 }, () => run(1, 9, 1200, 3000))
    const both = questTimeFigures([...recent, ...old, ...second, ...others])
    // Account 1: ten 600 s and ten 1200 s runs, its median 900 s; accounts 2 and 3: 600, 700 -> 700.
    expect(both).toMatchObject({ timedRuns: 2 * RUNS_COUNTED_PER_CHARACTER + 2, medianDurationSeconds: 720 })
  })

  test('runs of two accounts show nothing yet, however many', () => {
    const figures = questTimeFigures([run(1, 1, 600, 3000), run(1, 1, 900, 3000), run(2, 2, 1200, 3000)])
    expect(figures.medianDurationSeconds).toBeNull()
    expect(figures.medianXpPerMinute).toBeNull()
    expect(figures.timedRuns).toBe(3)
  })

  test('untimed runs (null or 0 s) are left out; runs without XP time the quest but give no rate', () => {
    const figures = questTimeFigures([
      run(1, 1, 600, null),
      run(2, 2, 720, 2400),
      run(3, 3, 840, null),
      run(3, 3, 0, 5000),
      run(4, 4, null, 5000),
    ])
    expect(figures.timedRuns).toBe(3)
    expect(figures.timedAccounts).toBe(3)
    expect(figures.medianDurationSeconds).toBe(720)
    expect(figures.xpRuns).toBe(1)
    expect(figures.medianXpPerMinute).toBeNull()
  })

  test('a duration shows in whole minutes, never under one; XP per minute to two significant figures', () => {
    const of = (seconds: number, xp: number) =>
      questTimeFigures([run(1, 1, seconds, xp), run(2, 2, seconds, xp), run(3, 3, seconds, xp)])
    // 1000 XP in 7 min = 142.857… XP/min: 140.
    expect(of(420, 1000)).toMatchObject({ medianDurationSeconds: 420, medianXpPerMinute: 140 })
    // 89 s is 1 min 29 s: one minute; 90 s rounds up to two.
    expect(of(89, 1000).medianDurationSeconds).toBe(60)
    expect(of(90, 1000).medianDurationSeconds).toBe(120)
    // 20 s is still a minute (what to run next divides by it); 1000 XP in 20 s is 3000 XP/min.
    expect(of(20, 1000)).toMatchObject({ medianDurationSeconds: 60, medianXpPerMinute: 3000 })
    // 3 XP in 7 min: 0.43 XP/min; 12,345 XP in one minute: 12,000.
    expect(of(420, 3).medianXpPerMinute).toBe(0.43)
    expect(of(60, 12_345).medianXpPerMinute).toBe(12_000)
  })
})
