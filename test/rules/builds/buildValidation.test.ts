// validationErrors: one readable sentence per impossible thing in a planned build.
import { describe, expect, test } from 'bun:test'
import type { BuildDocument } from '../../../src/modules/builds/model'
import { summarizeLevels } from '../../../src/rules/builds/buildLevels'
import { validateBuild } from '../../../src/rules/builds/buildValidation'
import { dwarfFighter, humanSplit } from '../../fixtures/builds'

const levels = (...classes: string[]) => classes.map((c) => ({ class: c }))
const many = (n: number, c: string) => Array.from({ length: n }, () => ({ class: c }))

describe('summarizeLevels', () => {
  test('counts the levels reached, in class-slot order, epic levels above 20', () => {
    expect(
      summarizeLevels({
        level: 23,
        classes: ['Rogue', 'Fighter', null],
        levels: [...many(2, 'Fighter'), ...many(18, 'Rogue'), ...many(3, 'Epic'), ...many(2, 'Epic')],
      }),
    ).toEqual({
      level: 23,
      classes: [
        { name: 'Rogue', levels: 18 },
        { name: 'Fighter', levels: 2 },
      ],
      epicLevels: 3,
      classesKnown: true,
    })
  })
  test('levels planned beyond the level reached do not count', () => {
    expect(summarizeLevels({ level: 2, levels: levels('Fighter', 'Rogue', 'Rogue') }).classes).toEqual([
      { name: 'Fighter', levels: 1 },
      { name: 'Rogue', levels: 1 },
    ])
  })
  test('without build.level the number of levels is the level', () => {
    expect(summarizeLevels({ levels: levels('Wizard', 'Wizard', 'Unknown') }).level).toBe(3)
  })
  test('one class slot and a level: all heroic levels are that class', () => {
    expect(summarizeLevels({ level: 26, classes: ['Monk', null, null] })).toEqual({
      level: 26,
      classes: [{ name: 'Monk', levels: 20 }],
      epicLevels: 6,
      classesKnown: true,
    })
  })
  test('several classes and no levels: the split is unknown', () => {
    expect(summarizeLevels({ level: 10, classes: ['Monk', 'Rogue', null] }).classesKnown).toBe(false)
  })
  test('nothing known', () => {
    expect(summarizeLevels(undefined)).toEqual({ level: null, classes: [], epicLevels: 0, classesKnown: false })
  })
})

describe('validateBuild', () => {
  test('the hand-worked builds are possible', () => {
    expect(validateBuild(dwarfFighter)).toEqual([])
    expect(validateBuild(humanSplit)).toEqual([])
  })

  test.each<[string, BuildDocument, string[]]>([
    [
      'ability spend over the available build points',
      { build: { abilitySpend: { available: 28, str: 16, con: 10, dex: 4 } } },
      ['Ability spend totals 30 build points, but only 28 are available.'],
    ],
    [
      'without "available", a spend over what the past lives can give (32 with none, Champion included)',
      { build: { abilitySpend: { str: 16, con: 16, dex: 1 } } },
      ['Ability spend totals 33 build points, but with 0 heroic or racial past lives at most 32 are available.'],
    ],
    [
      'a spend above the point-buy cap',
      { build: { abilitySpend: { available: 32, str: 20 } } },
      ['Strength has 20 build points spent, above the point-buy cap (16 points buy 18).'],
    ],
    [
      'a spend that buys no score',
      { build: { abilitySpend: { wis: 7 } } },
      ['Wisdom has 7 build points spent, which buys no score (possible spends: 0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 16).'],
    ],
    [
      'more build points than the past lives give',
      {
        life: { specialFeats: [{ name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 1 }] },
        build: { abilitySpend: { available: 36 } },
      },
      ['The build claims 36 build points, but with 1 heroic or racial past life at most 34 are available.'],
    ],
    [
      'more than 3 classes',
      { build: { level: 4, levels: levels('Fighter', 'Rogue', 'Wizard', 'Cleric') } },
      ['The build has 4 classes (Fighter, Rogue, Wizard, Cleric); a character can have at most 3.'],
    ],
    [
      'class levels over 20',
      { build: { level: 22, levels: many(22, 'Fighter') } },
      [
        'Fighter has 22 levels; a class can have at most 20.',
        'The class levels add up to 22; heroic levels add up to at most 20.',
      ],
    ],
    ['a level above the cap', { build: { level: 40 } }, ['Level 40 is outside 1 to 34.']],
    [
      'feats at levels the character does not reach',
      {
        build: {
          level: 2,
          levels: [{ class: 'Fighter' }, { class: 'Fighter' }, { class: 'Fighter', feats: [{ name: 'Cleave' }] }],
        },
      },
      ['Feat "Cleave" is taken at level 3, but the build only reaches level 2.'],
    ],
    [
      'past-life stacks over 3',
      {
        life: {
          specialFeats: [
            { name: 'Past Life: Wizard', type: 'HeroicPastLife', stacks: 3 },
            { name: 'Past Life: Wizard', type: 'HeroicPastLife', stacks: 1 },
            { name: 'Inherent Spell Power', type: 'Special', stacks: 4 },
          ],
        },
      },
      ['Past life "Past Life: Wizard" has 4 stacks; a past life stacks at most 3 times.'],
    ],
    [
      'tomes over their caps',
      { tomes: { str: 9, skills: { Spot: 6 } } },
      ['A Strength tome of +9 is outside 0 to +8.', 'A Spot tome of +6 is outside 0 to +5.'],
    ],
    [
      'an ability increase at a level that gives none, and one naming no ability',
      { build: { level: 8, levelAbilityBumps: { '5': 'str', '8': 'Luck', '36': 'wis' } } },
      [
        '"5" in levelAbilityBumps is not an ability-increase level (4, 8, 12, 16, 20, 24, 28, 32).',
        'The ability increase at level 8 names "Luck", which is not an ability.',
      ],
    ],
  ])('%s', (_, document, errors) => {
    expect(validateBuild(document)).toEqual(errors)
  })

  test('a partial document has nothing to complain about', () => {
    expect(validateBuild({})).toEqual([])
    expect(validateBuild({ tomes: { str: 3 } })).toEqual([])
  })
})
