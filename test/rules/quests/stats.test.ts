// Table tests of the stats page's series: XP per minute by quest (reported XP first, else the
// estimate), completions and XP by day with running totals, reaper XP, favor by patron.
import { describe, expect, test } from 'bun:test'
import type { Difficulty, Setting } from '../../../src/rules/quests/completion'
import {
  activityByDay,
  favorByPatron,
  reaperSkullsByQuest,
  type StatsCompletion,
  utcDay,
  xpPerMinute,
} from '../../../src/rules/quests/stats'
import { rowsByName, type TrackerRow } from '../../../src/rules/quests/tracker'

const row = (name: string, difficulty: Difficulty, normalXP: number, eliteXP: number, patron = 'P', favor = 10) =>
  ({
    name,
    difficulty,
    level: 5,
    soloXP: null,
    normalXP,
    hardXP: null,
    eliteXP,
    duration: '',
    pack: '',
    patron,
    favor,
  }) satisfies TrackerRow

const CATALOG = [
  row('The Pit', 'Heroic', 1500, 1700, 'The Coin Lords', 6),
  row('Tempest', 'Heroic', 7000, 7800, 'The Twelve', 10),
  row('Tempest', 'Epic', 60000, 66000, 'The Twelve', 20),
  row('No Patron', 'Heroic', 100, 200, '', 2),
]
const BY_NAME = rowsByName(CATALOG)
const NO_BONUS = { xpBoosts: {}, optionalPursuit: {} }

function run(
  name: string,
  difficulty: Difficulty,
  setting: Setting,
  extra: Partial<StatsCompletion> = {},
): StatsCompletion {
  return {
    name,
    difficulty,
    setting,
    completedAt: '2026-03-01T10:00:00.000Z',
    durationSeconds: null,
    xpEarned: null,
    reaperXpEarned: null,
    ...extra,
  }
}

describe('xpPerMinute', () => {
  test('reported XP over minutes of play, best first; estimated ones are marked', () => {
    const result = xpPerMinute(
      [
        run('The Pit', 'Heroic', 'elite', { durationSeconds: 600, xpEarned: 3000 }),
        run('The Pit', 'Heroic', 'normal', { durationSeconds: 300, xpEarned: 1500 }),
        // 7800 estimated (elite column, no bonuses) over 13 minutes = 600 a minute
        run('Tempest', 'Heroic', 'elite', { durationSeconds: 780 }),
      ],
      BY_NAME,
      NO_BONUS,
    )
    expect(result.rates).toEqual([
      {
        name: 'Tempest',
        difficulty: 'Heroic',
        runs: 1,
        minutes: 13,
        xp: 7800,
        xpPerMinute: 600,
        estimated: true,
      },
      // (3000 + 1500) / 15 minutes = 300
      { name: 'The Pit', difficulty: 'Heroic', runs: 2, minutes: 15, xp: 4500, xpPerMinute: 300, estimated: false },
    ])
    expect(result.untimed).toBe(0)
    expect(result.unknownXp).toBe(0)
  })

  test('the estimate takes the bonuses on', () => {
    const { rates } = xpPerMinute([run('The Pit', 'Heroic', 'normal', { durationSeconds: 60 })], BY_NAME, {
      xpBoosts: { vip: true },
      optionalPursuit: {},
    })
    // 1500 × 1.10
    expect(rates[0]?.xpPerMinute).toBe(1650)
  })

  test('untimed runs and runs of unknown XP are counted, not plotted; remakes stay apart', () => {
    const result = xpPerMinute(
      [
        run('The Pit', 'Heroic', 'elite'),
        run('The Pit', 'Heroic', 'elite', { durationSeconds: 0, xpEarned: 10 }),
        run('Not In Catalog', 'Heroic', 'elite', { durationSeconds: 60 }),
        run('Tempest', 'Heroic', 'normal', { durationSeconds: 60, xpEarned: 100 }),
        run('Tempest', 'Epic', 'normal', { durationSeconds: 60, xpEarned: 200 }),
      ],
      BY_NAME,
      NO_BONUS,
    )
    expect(result.untimed).toBe(2)
    expect(result.unknownXp).toBe(1)
    expect(result.rates.map((r) => `${r.name}/${r.difficulty}/${r.xpPerMinute}`)).toEqual([
      'Tempest/Epic/200',
      'Tempest/Heroic/100',
    ])
  })
})

describe('activityByDay', () => {
  test('per day, oldest first, with running totals; unknown XP counts 0; reaper XP only as reported', () => {
    const days = activityByDay(
      [
        run('Tempest', 'Heroic', 'reaper', { completedAt: '2026-03-02T09:00:00.000Z', reaperXpEarned: 40 }),
        run('The Pit', 'Heroic', 'elite', { completedAt: '2026-03-01T23:59:00.000Z', xpEarned: 2000 }),
        run('The Pit', 'Heroic', 'normal', { completedAt: '2026-03-01T08:00:00.000Z' }),
        run('Nowhere', 'Heroic', 'reaper', { completedAt: '2026-03-02T10:00:00.000Z' }),
      ],
      BY_NAME,
      NO_BONUS,
    )
    expect(days).toEqual([
      {
        day: '2026-03-01',
        completions: 2,
        xp: 3500,
        estimatedXp: 1500,
        reaperRuns: 0,
        reaperXp: 0,
        totalCompletions: 2,
        totalXp: 3500,
        totalReaperXp: 0,
      },
      {
        day: '2026-03-02',
        completions: 2,
        // reaper uses the elite column: 7800; Nowhere is unknown (0)
        xp: 7800,
        estimatedXp: 7800,
        reaperRuns: 2,
        reaperXp: 40,
        totalCompletions: 4,
        totalXp: 11300,
        totalReaperXp: 40,
      },
    ])
  })

  test('the day is whatever dayOf says (the page passes the local calendar day)', () => {
    const days = activityByDay(
      [run('The Pit', 'Heroic', 'elite', { completedAt: '2026-03-01T23:30:00.000Z', xpEarned: 1 })],
      BY_NAME,
      NO_BONUS,
      () => '2026-03-02',
    )
    expect(days.map((d) => d.day)).toEqual(['2026-03-02'])
  })

  test('utcDay', () => {
    expect(utcDay('2026-03-01T23:30:00.000Z')).toBe('2026-03-01')
    expect(utcDay('2026-03-01T23:30:00-02:00')).toBe('2026-03-02')
    expect(utcDay('not a date')).toBe('not a date')
  })

  test('no completions, no days', () => expect(activityByDay([], BY_NAME, NO_BONUS)).toEqual([]))
})

describe('favorByPatron', () => {
  test('earned against possible (best setting once per name), most available first', () => {
    const result = favorByPatron(CATALOG, [
      run('The Pit', 'Heroic', 'normal'),
      run('The Pit', 'Heroic', 'elite'),
      run('Tempest', 'Epic', 'hard'),
    ])
    expect(result).toEqual([
      // Tempest: the Epic remake's 20 × 3 possible; hard earned 40
      { patron: 'The Twelve', earned: 40, possible: 60 },
      { patron: 'The Coin Lords', earned: 18, possible: 18 },
      { patron: '', earned: 0, possible: 6 },
    ])
  })
})

describe('reaperSkullsByQuest (issue 41 section 3)', () => {
  test('the most skulls per remake, most first; reaper runs without a count last; other settings left out', () => {
    expect(
      reaperSkullsByQuest([
        run('The Pit', 'Heroic', 'reaper', { reaperSkulls: 3 }),
        run('The Pit', 'Heroic', 'reaper', { reaperSkulls: 6 }),
        run('The Pit', 'Heroic', 'elite', { reaperSkulls: 9 }),
        run('Tempest', 'Epic', 'reaper', { reaperSkulls: 2 }),
        run('Tempest', 'Heroic', 'reaper', { reaperSkulls: null }),
        run('Tempest', 'Unknown', 'reaper', { reaperSkulls: 10 }),
        run('No Patron', 'Heroic', 'reaper'),
      ]),
    ).toEqual([
      { name: 'Tempest', difficulty: 'Unknown', skulls: 10 },
      { name: 'The Pit', difficulty: 'Heroic', skulls: 6 },
      { name: 'Tempest', difficulty: 'Epic', skulls: 2 },
      { name: 'No Patron', difficulty: 'Heroic', skulls: null },
      { name: 'Tempest', difficulty: 'Heroic', skulls: null },
    ])
  })
})
