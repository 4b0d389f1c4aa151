// Table tests of the level rules (GAME-RULES.md "Levels and tiers", "Full XP band").
import { describe, expect, test } from 'bun:test'
import { classSummary, heroicLevel, minLevel, type PlayOn, totalLevel } from '../../../src/rules/character/levels'

const fighter = (levels: number) => ({ name: 'Fighter', levels })

describe('totalLevel = min(34, sum of class levels + epicLevels)', () => {
  test.each([
    [[], 0, 0],
    [[fighter(1)], 0, 1],
    [[fighter(12), { name: 'Rogue', levels: 6 }, { name: 'Wizard', levels: 2 }], 0, 20],
    [[fighter(20)], 10, 30],
    [[fighter(20)], 14, 34],
    [[fighter(20)], 30, 34],
    [[fighter(20), { name: 'Rogue', levels: 20 }], 30, 34],
  ])('%j + %i epic -> %i', (classes, epic, expected) => {
    expect(totalLevel(classes, epic)).toBe(expected)
  })
})

describe('heroicLevel: sum of class levels, at most 20', () => {
  test.each([
    [[], 0],
    [[fighter(7)], 7],
    [[fighter(18), { name: 'Rogue', levels: 2 }], 20],
    [[fighter(20), { name: 'Rogue', levels: 20 }], 20],
  ])('%j -> %i', (classes, expected) => expect(heroicLevel(classes)).toBe(expected))
})

describe('minLevel: effective level at the setting >= characterLevel - 1', () => {
  const cases: [number, PlayOn, number][] = [
    [10, 'any', 7], // best case: elite, base + 2
    [10, 'elite', 7],
    [10, 'reaper', 7], // reaper uses elite's level math
    [10, 'hard', 8],
    [10, 'normal', 9],
    [10, 'casual', 10], // casual is base - 1
    [20, 'any', 17],
    [30, 'normal', 29],
    [34, 'elite', 31],
    [1, 'any', 1], // never below 1
    [0, 'casual', 1],
    [3, 'elite', 1],
    [4, 'elite', 1],
    [5, 'elite', 2],
  ]
  for (const [level, playOn, expected] of cases) {
    test(`level ${level} on ${playOn} -> ${expected}`, () => expect(minLevel(level, playOn)).toBe(expected))
  }
})

test('classSummary lists classes in the order given', () => {
  expect(classSummary([fighter(12), { name: 'Rogue', levels: 6 }, { name: 'Wizard', levels: 2 }])).toBe(
    'Fighter 12 / Rogue 6 / Wizard 2',
  )
  expect(classSummary([])).toBe('')
})
