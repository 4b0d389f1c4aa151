// Table tests of tracker XP (GAME-RULES.md "XP"): the column per Play on value, the one bonus
// table, and the XP-earned total (reported xpEarned first, else the estimate).
import { describe, expect, test } from 'bun:test'
import type { PlayOn } from '../../../src/rules/character/levels'
import type { Difficulty, Setting } from '../../../src/rules/quests/completion'
import { rowsByName } from '../../../src/rules/quests/tracker'
import {
  bonusPercent,
  estimateXp,
  rowXp,
  settingXp,
  XP_BONUSES,
  type XpCompletion,
  xpFactor,
  xpTotal,
} from '../../../src/rules/quests/xp'

const ROW = { soloXP: 900, normalXP: 1500, hardXP: 1600, eliteXP: 1700 }

describe('rowXp: the catalog column of each Play on value', () => {
  const cases: [PlayOn, number][] = [
    ['casual', 900],
    ['normal', 1500],
    ['hard', 1600],
    ['elite', 1700],
    ['reaper', 1700],
    ['any', 1700],
  ]
  for (const [playOn, expected] of cases)
    test(`${playOn} -> ${expected}`, () => expect(rowXp(ROW, playOn)).toBe(expected))
  test('an unknown cell is null', () => expect(rowXp({ ...ROW, soloXP: null }, 'casual')).toBeNull())
  test('setting unknown reads the normal column', () => expect(settingXp(ROW, 'unknown')).toBe(1500))
})

describe('the bonus table', () => {
  test('keys are unique and each names its group and stacking', () => {
    const keys = XP_BONUSES.map((b) => b.key)
    expect(new Set(keys).size).toBe(keys.length)
    expect(XP_BONUSES.filter((b) => b.group === 'optional').map((b) => b.key)).toEqual([
      'firstTime',
      'conquest',
      'ingeniousDebilitation',
      'ransack',
      'persistence',
      'flawless',
    ])
    expect(XP_BONUSES.filter((b) => b.stacking === 'multiplicative').map((b) => b.key)).toEqual([
      'vip',
      'voiceOfTheMaster',
      'shipBuff',
      'xpElixir',
    ])
  })

  const firstTime = XP_BONUSES[0]
  const cases: [unknown, Setting, number][] = [
    [true, 'normal', 20],
    [true, 'hard', 20],
    [true, 'elite', 45],
    [true, 'reaper', 45],
    [false, 'elite', 0],
    [undefined, 'elite', 0],
    ['yes', 'elite', 0], // only true or a number switch it on
    [30, 'normal', 30], // a number overrides the table
    [0, 'normal', 0],
    [-5, 'normal', 0],
  ]
  for (const [stored, setting, expected] of cases) {
    test(`first time ${JSON.stringify(stored)} on ${setting} -> ${expected}%`, () =>
      expect(bonusPercent(firstTime, stored, setting)).toBe(expected))
  }
})

describe('estimateXp = base × (1 + additive) × multiplicative', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, Setting, number][] = [
    ['nothing on', {}, {}, 'elite', 1700],
    ['first time on elite', {}, { firstTime: true }, 'elite', Math.round(1700 * 1.45)],
    ['first time on normal', {}, { firstTime: true }, 'normal', Math.round(1500 * 1.2)],
    [
      'every optional: 45+25+30+15+10+10 = 135%',
      {},
      {
        firstTime: true,
        conquest: true,
        ingeniousDebilitation: true,
        ransack: true,
        persistence: true,
        flawless: true,
      },
      'elite',
      Math.round(1700 * 2.35),
    ],
    ['VIP multiplies', { vip: true }, {}, 'hard', Math.round(1600 * 1.1)],
    [
      'additive then multiplicative',
      { vip: true, shipBuff: true, tomeOfLearning: true },
      { conquest: true },
      'normal',
      Math.round(1500 * 1.5 * 1.1 * 1.05),
    ],
    ['elixir percent as stored', { xpElixir: 50 }, {}, 'normal', Math.round(1500 * 1.5)],
    ['unknown keys are ignored', { doubleXpWeekend: true }, { bogus: 99 }, 'normal', 1500],
  ]
  for (const [what, boosts, optionals, setting, expected] of cases) {
    test(what, () => expect(estimateXp(ROW, setting, boosts, optionals)).toBe(expected))
  }
  test('a null cell estimates nothing', () => expect(estimateXp({ ...ROW, soloXP: null }, 'casual', {}, {})).toBeNull())
  test('xpFactor with nothing on is 1', () => expect(xpFactor('elite', {}, {})).toBe(1))
})

describe('xpTotal', () => {
  const catalog = [
    { name: 'The Pit', difficulty: 'Heroic' as Difficulty, ...ROW },
    {
      name: 'Devil Assault',
      difficulty: 'Heroic' as Difficulty,
      soloXP: null,
      normalXP: 9000,
      hardXP: 9500,
      eliteXP: 10000,
    },
    {
      name: 'Devil Assault',
      difficulty: 'Epic' as Difficulty,
      soloXP: null,
      normalXP: 60000,
      hardXP: 63000,
      eliteXP: 66000,
    },
  ]
  const byName = rowsByName(catalog)
  const c = (name: string, difficulty: Difficulty, setting: Setting, xpEarned: number | null = null): XpCompletion => ({
    name,
    difficulty,
    setting,
    xpEarned,
  })

  test('reported xpEarned wins over the estimate', () => {
    expect(xpTotal([c('The Pit', 'Heroic', 'elite', 1234)], byName, { vip: true }, {})).toEqual({
      total: 1234,
      reported: 1,
      estimated: 0,
      unknown: 0,
    })
  })
  test('estimates use the remake of the completion tier, with boosts and optionals', () => {
    const total = xpTotal([c('Devil Assault', 'Epic', 'hard')], byName, { vip: true }, { conquest: true })
    expect(total.total).toBe(Math.round(63000 * 1.25 * 1.1))
    expect(total.estimated).toBe(1)
  })
  test('tier Unknown is estimated on the lowest tier of the name', () => {
    expect(xpTotal([c('Devil Assault', 'Unknown', 'elite')], byName, {}, {}).total).toBe(10000)
  })
  test('not in the catalog, or an unknown cell: counted as unknown, 0 XP', () => {
    const total = xpTotal([c('Nowhere', 'Heroic', 'elite'), c('Devil Assault', 'Heroic', 'casual')], byName, {}, {})
    expect(total).toEqual({ total: 0, reported: 0, estimated: 0, unknown: 2 })
  })
  test('sums over completions', () => {
    const total = xpTotal(
      [c('The Pit', 'Heroic', 'casual'), c('The Pit', 'Heroic', 'elite', 2000), c('Devil Assault', 'Heroic', 'normal')],
      byName,
      {},
      {},
    )
    expect(total).toEqual({ total: 900 + 2000 + 9000, reported: 1, estimated: 2, unknown: 0 })
  })
})
