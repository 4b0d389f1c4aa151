// The breakdown formulas against hand-worked numbers (GAME-RULES.md "Character sheet numbers").
import { describe, expect, test } from 'bun:test'
import {
  abilityKey,
  abilityScores,
  baseSaves,
  breakdown,
  classSpellPoints,
  defaultBuildPoints,
  hitPoints,
  maxBuildPoints,
  modifier,
  scoreForSpend,
  spellPoints,
} from '../../../src/rules/builds/breakdown'
import { dwarfFighter, humanSplit } from '../../fixtures/builds'

describe('point buy: points spent -> score', () => {
  // The cost table: 9:1, 10:2, 11:3, 12:4, 13:5, 14:6, 15:8, 16:10, 17:13, 18:16.
  test.each([
    [0, 8],
    [1, 9],
    [6, 14],
    [8, 15],
    [10, 16],
    [13, 17],
    [16, 18],
  ])('%i points buy %i', (points, score) => {
    expect(scoreForSpend(points)).toBe(score)
  })
  test.each([7, 9, 11, 12, 14, 15, 17, 20, -1])('%i points buy no score', (points) => {
    expect(scoreForSpend(points)).toBeUndefined()
  })
})

describe('ability modifier = floor((score - 10) / 2)', () => {
  test.each([
    [7, -2],
    [8, -1],
    [9, -1],
    [10, 0],
    [11, 0],
    [18, 4],
    [25, 7],
    [36, 13],
  ])('score %i -> %i', (score, mod) => {
    expect(modifier(score)).toBe(mod)
  })
})

describe('ability names in levelAbilityBumps', () => {
  test.each([
    ['Wisdom', 'wis'],
    ['wis', 'wis'],
    [' STRENGTH ', 'str'],
    ['Cha', 'cha'],
    ['Luck', undefined],
    [4, undefined],
  ])('%p -> %p', (value, key) => {
    expect(abilityKey(value)).toBe(key as never)
  })
})

describe('ability scores: point buy + racial + level-ups + tomes', () => {
  test('Elf at level 8 with two bumps in Dexterity and a +1 tome', () => {
    // Dex: 10 points -> 16; Elf +2; levels 4 and 8 -> +2; tome +1 = 21 (mod +5).
    // Con: 6 points -> 14; Elf -2 = 12 (mod +1).
    const lines = abilityScores(
      {
        life: { race: 'Elf' },
        tomes: { dex: 1 },
        build: { abilitySpend: { dex: 10, con: 6 }, levelAbilityBumps: { '4': 'Dexterity', '8': 'dex' } },
      },
      8,
    )
    expect(lines.dex).toEqual({ spend: 10, pointBuy: 16, racial: 2, levelUps: 2, tome: 1, score: 21, modifier: 5 })
    expect(lines.con).toEqual({ spend: 6, pointBuy: 14, racial: -2, levelUps: 0, tome: 0, score: 12, modifier: 1 })
  })
  test('a bump above the level reached does not count', () => {
    const lines = abilityScores({ build: { levelAbilityBumps: { '4': 'str', '8': 'str' } } }, 7)
    expect(lines.str.levelUps).toBe(1)
    expect(lines.str.score).toBe(9)
  })
  test('a race not in the table adds nothing', () => {
    expect(abilityScores({ life: { race: 'Kobold' }, build: { abilitySpend: { str: 2 } } }, 1).str.score).toBe(10)
  })
  test.each([
    ['Dhampir Dark Bargainer', 'int', 1],
    ['Dark Bargainer', 'cha', 1],
    ['drow', 'dex', 2],
    ['Wood Elf', 'int', -2],
  ] as const)('%s (any spelling the table knows) has %s %i', (race, ability, racial) => {
    expect(abilityScores({ life: { race } }, 1)[ability].racial).toBe(racial)
  })
})

describe('hit points = class HP x levels + 10 x epic levels + Con modifier x level', () => {
  test.each([
    // Fighter 20 (200) + Con +5 x 20 (100) = 300
    [[{ name: 'Fighter', levels: 20 }], 0, 20, 5, 300],
    // Wizard 1 (6) + Con -1 x 1 = 5
    [[{ name: 'Wizard', levels: 1 }], 0, 1, -1, 5],
    // Barbarian 20 (240) + 10 epic (100) + Con +4 x 30 (120) = 460
    [[{ name: 'Barbarian', levels: 20 }], 10, 30, 4, 460],
    // Sorcerer 10 (60) + Rogue 5 (40) + Con 0 = 100
    [
      [
        { name: 'Sorcerer', levels: 10 },
        { name: 'Rogue', levels: 5 },
      ],
      0,
      15,
      0,
      100,
    ],
  ])('%j, %i epic, level %i, Con %i -> %i', (classes, epic, level, con, total) => {
    expect(hitPoints(classes, epic, level, con).total).toBe(total)
  })
})

describe('class spell points (level 1 and 20 from the table, straight line between, rounded down)', () => {
  test.each([
    ['Wizard', 1, 50],
    ['Wizard', 20, 1125],
    // 100 + floor(1550 x 9 / 19) = 100 + floor(734.2) = 834
    ['Sorcerer', 10, 834],
    ['Paladin', 1, 0],
    // 0 + floor(260 x 3 / 19) = floor(41.05) = 41
    ['Paladin', 4, 41],
    ['Paladin', 20, 260],
    ['Sacred Fist', 20, 260],
    // Archetypes with spell points of their own (DDO Builder): their classes have none.
    ['Dragon Disciple', 1, 20],
    ['Dragon Disciple', 20, 350],
    ['Arcane Trickster', 20, 260],
    ['Fighter', 20, 0],
    ['Favored Soul', 20, 1650],
    ['Bard', 20, 525],
    ['Unknown Class', 20, 0],
  ])('%s %i -> %i', (name, levels, sp) => {
    expect(classSpellPoints(name, levels)).toBe(sp)
  })
  test('a multiclass sums its classes', () => {
    // Cleric 12: 672; Wizard 2: 106 (see fixtures/builds.ts)
    expect(
      spellPoints([
        { name: 'Cleric', levels: 12 },
        { name: 'Rogue', levels: 6 },
        { name: 'Wizard', levels: 2 },
      ]),
    ).toBe(778)
  })
})

describe('base saves: good = 2 + floor(level/2), poor = floor(level/3)', () => {
  test.each([
    [[{ name: 'Monk', levels: 20 }], { fortitude: 12, reflex: 12, will: 12 }],
    [[{ name: 'Fighter', levels: 1 }], { fortitude: 2, reflex: 0, will: 0 }],
    [[{ name: 'Rogue', levels: 3 }], { fortitude: 1, reflex: 3, will: 1 }],
    // Will only (DDO Builder and the DDO wiki; the table said Reflex and Will before).
    [[{ name: 'Artificer', levels: 20 }], { fortitude: 6, reflex: 6, will: 12 }],
    [
      [
        { name: 'Fighter', levels: 3 },
        { name: 'Rogue', levels: 1 },
      ],
      { fortitude: 3, reflex: 3, will: 1 },
    ],
  ])('%j -> %j', (classes, saves) => {
    expect(baseSaves(classes)).toEqual(saves)
  })
})

describe('build points by past lives', () => {
  test.each([
    ['Human', 0, 28, 32],
    ['Human', 1, 34, 34],
    ['Human', 2, 36, 36],
    ['Human', 7, 36, 36],
    ['Drow', 0, 28, 28],
    ['Drow', 1, 30, 30],
    ['Drow', 2, 32, 32],
    // The picklist spelling: the same row.
    ['Drow Elf', 0, 28, 28],
    ['Drow Elf', 2, 32, 32],
  ])('%s with %i -> %i by default, at most %i', (race, pastLives, byDefault, most) => {
    expect(defaultBuildPoints(race, pastLives)).toBe(byDefault)
    expect(maxBuildPoints(race, pastLives)).toBe(most)
  })
})

describe('two hand-worked builds, to the point (working in test/fixtures/builds.ts)', () => {
  test('Dwarf Fighter 20', () => {
    const result = breakdown(dwarfFighter)
    expect(result.level).toBe(20)
    expect(result.classes).toEqual([{ name: 'Fighter', levels: 20 }])
    expect(result.buildPoints).toEqual({ available: 28, spent: 28 })
    const scores = Object.fromEntries(Object.entries(result.abilities).map(([k, v]) => [k, [v.score, v.modifier]]))
    expect(scores).toEqual({ str: [23, 6], dex: [10, 0], con: [21, 5], int: [8, -1], wis: [8, -1], cha: [6, -2] })
    expect(result.hp).toBe(300)
    expect(result.hpDetail).toEqual({ classes: 200, epicLevels: 0, constitution: 100 })
    expect(result.sp).toBe(0)
    expect(result.saves).toEqual({
      fortitude: { base: 12, abilityModifier: 5, total: 17 },
      reflex: { base: 6, abilityModifier: 0, total: 6 },
      will: { base: 6, abilityModifier: -1, total: 5 },
    })
    expect(result.notes).toEqual([])
  })

  test('Human Cleric 12 / Rogue 6 / Wizard 2, level 24', () => {
    const result = breakdown(humanSplit)
    expect(result.level).toBe(24)
    expect(result.epicLevels).toBe(4)
    expect(result.classes).toEqual([
      { name: 'Cleric', levels: 12 },
      { name: 'Rogue', levels: 6 },
      { name: 'Wizard', levels: 2 },
    ])
    expect(result.buildPoints).toEqual({ available: 36, spent: 36 })
    const scores = Object.fromEntries(Object.entries(result.abilities).map(([k, v]) => [k, [v.score, v.modifier]]))
    expect(scores).toEqual({ str: [8, -1], dex: [12, 1], con: [20, 5], int: [14, 2], wis: [25, 7], cha: [8, -1] })
    expect(result.hp).toBe(316)
    expect(result.hpDetail).toEqual({ classes: 156, epicLevels: 40, constitution: 120 })
    expect(result.sp).toBe(778)
    expect(result.saves).toEqual({
      fortitude: { base: 10, abilityModifier: 5, total: 15 },
      reflex: { base: 9, abilityModifier: 1, total: 10 },
      will: { base: 13, abilityModifier: 7, total: 20 },
    })
    expect(result.notes).toEqual([])
  })

  test('without build.points available, the past lives decide (2 past lives -> 36)', () => {
    const { available: _, ...spend } = humanSplit.build!.abilitySpend!
    expect(
      breakdown({ ...humanSplit, build: { ...humanSplit.build, abilitySpend: spend } }).buildPoints.available,
    ).toBe(36)
  })

  test('a level with no class yet is noted, and unknown splits leave class numbers out', () => {
    expect(breakdown({ build: { level: 3, levels: [{ class: 'Fighter' }] } }).notes).toEqual([
      '2 heroic levels have no class yet; they add no class hit points.',
    ])
    const unknown = breakdown({ build: { level: 6, classes: ['Fighter', 'Rogue', null] } })
    expect(unknown.classes).toEqual([])
    expect(unknown.notes[0]).toContain('split of levels between classes is unknown')
  })
})
