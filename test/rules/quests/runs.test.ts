// Which life a run belongs to, and the server's quest times from runs, with numbers worked by hand.
import { describe, expect, test } from 'bun:test'
import { type LifeWindow, lifeOfRun, median, questTimeFigures, type TimedRun } from '../../../src/rules/quests/runs'

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
  const run = (characterId: number, durationSeconds: number | null, xpEarned: number | null): TimedRun => ({
    characterId,
    durationSeconds,
    xpEarned,
  })

  test('three runs by two characters: the median run and the median XP per minute', () => {
    // 3000 XP in 10 min = 300/min, in 15 min = 200/min, in 20 min = 150/min: median 200.
    const figures = questTimeFigures([run(1, 600, 3000), run(1, 900, 3000), run(2, 1200, 3000)])
    expect(figures).toEqual({
      timedRuns: 3,
      timedCharacters: 2,
      medianDurationSeconds: 900,
      xpRuns: 3,
      xpCharacters: 2,
      medianXpPerMinute: 200,
    })
  })

  test('three runs of one character show nothing: one player is not the server', () => {
    const figures = questTimeFigures([run(1, 600, 3000), run(1, 900, 3000), run(1, 1200, 3000)])
    expect(figures.medianDurationSeconds).toBeNull()
    expect(figures.medianXpPerMinute).toBeNull()
    expect(figures.timedRuns).toBe(3)
  })

  test('two runs by two characters show nothing yet', () => {
    expect(questTimeFigures([run(1, 600, null), run(2, 900, null)]).medianDurationSeconds).toBeNull()
  })

  test('untimed runs (null or 0 s) are left out; runs without XP time the quest but give no rate', () => {
    const figures = questTimeFigures([
      run(1, 600, null),
      run(2, 720, 2400),
      run(3, 840, null),
      run(3, 0, 5000),
      run(4, null, 5000),
    ])
    expect(figures.timedRuns).toBe(3)
    expect(figures.medianDurationSeconds).toBe(720)
    expect(figures.xpRuns).toBe(1)
    expect(figures.medianXpPerMinute).toBeNull()
  })

  test('XP per minute is rounded to a tenth', () => {
    // 1000 XP in 7 min = 142.857…, 1000 in 7 min, 1000 in 7 min: 142.9.
    expect(questTimeFigures([run(1, 420, 1000), run(2, 420, 1000), run(3, 420, 1000)]).medianXpPerMinute).toBe(142.9)
  })
})
