// Table tests of favor (GAME-RULES.md "Favor"): best setting once, casual half rounded down,
// shared between the tiers of a name, Unknown matching every remake, totals per patron.
import { describe, expect, test } from 'bun:test'
import type { Difficulty, Setting } from '../../../src/rules/quests/completion'
import { type FavorRow, favorFor, favorTotals, remakeFavor } from '../../../src/rules/quests/favor'
import { indexCompletions, type LoggedCompletion } from '../../../src/rules/quests/tracker'

const row = (name: string, difficulty: Difficulty, favor: number | null, patron = 'The Coin Lords'): FavorRow => ({
  name,
  difficulty,
  favor,
  patron,
})
const done = (name: string, difficulty: Difficulty, setting: Setting): LoggedCompletion => ({
  name,
  difficulty,
  setting,
})

describe('favorFor: base × multiplier of the setting', () => {
  const cases: [number | null, Setting, number][] = [
    [6, 'casual', 3],
    [5, 'casual', 2], // half, rounded down
    [1, 'casual', 0],
    [5, 'normal', 5],
    [5, 'hard', 10],
    [5, 'elite', 15],
    [5, 'reaper', 15],
    [5, 'unknown', 5], // counted as normal
    [null, 'elite', 0], // unknown base favor
    [0, 'elite', 0],
  ]
  for (const [base, setting, expected] of cases) {
    test(`${base} on ${setting} -> ${expected}`, () => expect(favorFor(base, setting)).toBe(expected))
  }
})

describe('remakeFavor: the best setting logged for the remake, once', () => {
  const pit = row('The Pit', 'Heroic', 6)
  const cases: [string, LoggedCompletion[], number][] = [
    ['nothing', [], 0],
    ['casual only', [done('The Pit', 'Heroic', 'casual')], 3],
    [
      'casual, normal and hard: hard wins, nothing adds up',
      [done('The Pit', 'Heroic', 'casual'), done('The Pit', 'Heroic', 'normal'), done('The Pit', 'Heroic', 'hard')],
      12,
    ],
    ['elite and reaper: 3× once', [done('The Pit', 'Heroic', 'elite'), done('The Pit', 'Heroic', 'reaper')], 18],
    ['Unknown tier counts for this remake', [done('The Pit', 'Unknown', 'elite')], 18],
    ['another tier does not', [done('The Pit', 'Epic', 'elite')], 0],
  ]
  for (const [what, completions, expected] of cases) {
    test(what, () => expect(remakeFavor(pit, indexCompletions(completions))).toBe(expected))
  }
})

describe('favorTotals', () => {
  const catalog = [
    row('The Pit', 'Heroic', 6),
    row('Devil Assault', 'Heroic', 9, 'The Gatekeepers'),
    row('Devil Assault', 'Epic', 18, 'The Gatekeepers'),
    row('Lone', 'Heroic', null, ''),
  ]

  test('nothing done: 0 earned; possible is every name once at 3×, best remake', () => {
    const totals = favorTotals(catalog, indexCompletions([]))
    expect(totals.earned).toBe(0)
    expect(totals.possible).toBe(6 * 3 + 18 * 3)
    expect(Object.fromEntries(totals.byPatron)).toEqual({
      'The Coin Lords': { earned: 0, possible: 18 },
      'The Gatekeepers': { earned: 0, possible: 54 },
      '': { earned: 0, possible: 0 },
    })
  })

  const cases: [string, LoggedCompletion[], number, number][] = [
    // [what, completions, overall earned, Gatekeepers earned]
    ['heroic elite only', [done('Devil Assault', 'Heroic', 'elite')], 27, 27],
    [
      'heroic elite and epic normal: the larger counts, not the sum',
      [done('Devil Assault', 'Heroic', 'elite'), done('Devil Assault', 'Epic', 'normal')],
      27,
      27,
    ],
    [
      'heroic elite and epic hard: epic hard (36) is larger',
      [done('Devil Assault', 'Heroic', 'elite'), done('Devil Assault', 'Epic', 'hard')],
      36,
      36,
    ],
    ['Unknown tier elite: the best remake at elite', [done('Devil Assault', 'Unknown', 'elite')], 54, 54],
    ['two names add up', [done('Devil Assault', 'Epic', 'casual'), done('The Pit', 'Heroic', 'reaper')], 9 + 18, 9],
    ['a name not in the catalog earns nothing', [done('Nowhere', 'Heroic', 'elite')], 0, 0],
  ]
  for (const [what, completions, overall, gatekeepers] of cases) {
    test(what, () => {
      const totals = favorTotals(catalog, indexCompletions(completions))
      expect(totals.earned).toBe(overall)
      expect(totals.byPatron.get('The Gatekeepers')?.earned).toBe(gatekeepers)
    })
  }
})
