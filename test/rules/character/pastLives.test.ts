// Past-life grants, the 3-stack cap and what a new life carries forward.
import { describe, expect, test } from 'bun:test'
import {
  addFeats,
  dominantClass,
  grantedPastLives,
  heroicPastLife,
  nextLifeFeats,
  normalizeFeats,
  pastLivesByLife,
  racialPastLife,
  replacePastLives,
} from '../../../src/rules/character/pastLives'

describe('dominantClass', () => {
  test.each([
    [[{ name: 'Monk', levels: 20 }], 'Monk'],
    [
      [
        { name: 'Rogue', levels: 6 },
        { name: 'Cleric', levels: 12 },
        { name: 'Wizard', levels: 2 },
      ],
      'Cleric',
    ],
    // a tie goes to the first class
    [
      [
        { name: 'Fighter', levels: 10 },
        { name: 'Paladin', levels: 10 },
      ],
      'Fighter',
    ],
    [[], undefined],
  ])('%j -> %p', (classes, name) => {
    expect(dominantClass(classes)).toBe(name as never)
  })
})

describe('granted feats', () => {
  test.each([
    ['Monk', 'Past Life: Monk'],
    ['Sacred Fist', 'Past Life: Paladin - Sacred Fist'],
    ['Acolyte of the Skin', 'Past Life: Warlock - Acolyte of the Skin'],
  ])('heroic past life of %s is "%s"', (cls, name) => {
    expect(heroicPastLife(cls)).toEqual({ name, type: 'HeroicPastLife', stacks: 1 })
  })
  test.each([
    ['Elf', { name: 'Past Life: Elf', type: 'RacialPastLife', stacks: 1 }],
    ['Bladeforged', { name: 'Past Life: Bladeforged', type: 'IconicPastLife', stacks: 1 }],
    ['shadar-kai', { name: 'Past Life: Shadar-Kai', type: 'IconicPastLife', stacks: 1 }],
  ])('racial past life of %s', (race, feat) => {
    expect(racialPastLife(race)).toEqual(feat)
  })
})

describe('stacks', () => {
  test('normalizeFeats merges repeated entries and defaults stacks to 1', () => {
    expect(
      normalizeFeats([
        { name: 'Past Life: Monk', type: 'HeroicPastLife' },
        { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 2 },
        { name: 'Tome of Destiny', type: 'Special' },
        { name: '', type: 'Special' },
      ]),
    ).toEqual([
      { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 3 },
      { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
    ])
  })
  test('addFeats caps past lives at 3 but not other special feats', () => {
    expect(
      addFeats(
        [
          { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 3 },
          { name: 'Inherent Melee Power', type: 'Special', stacks: 4 },
        ],
        [
          { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 1 },
          { name: 'Inherent Melee Power', type: 'Special', stacks: 1 },
        ],
      ),
    ).toEqual([
      { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 3 },
      { name: 'Inherent Melee Power', type: 'Special', stacks: 5 },
    ])
  })
  test('nextLifeFeats carries everything but favor forward, then adds the grants', () => {
    expect(
      nextLifeFeats(
        [
          { name: 'Past Life: Elf', type: 'RacialPastLife', stacks: 1 },
          { name: 'Total Favor Rewards', type: 'Favor', stacks: 5 },
          { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
        ],
        [
          { name: 'Past Life: Elf', type: 'RacialPastLife', stacks: 1 },
          { name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 1 },
        ],
      ),
    ).toEqual([
      { name: 'Past Life: Elf', type: 'RacialPastLife', stacks: 2 },
      { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
      { name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 1 },
    ])
  })
  test('replacePastLives replaces every past life and keeps other special feats', () => {
    expect(
      replacePastLives(
        [
          { name: 'Past Life: Elf', type: 'RacialPastLife', stacks: 1 },
          { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
        ],
        [{ name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 2 }],
      ),
    ).toEqual([
      { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
      { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 2 },
    ])
  })
})

describe('grantedPastLives: what a finished life gave the next one (the lives timeline)', () => {
  const monk = (stacks: number) => ({ name: 'Past Life: Monk', type: 'HeroicPastLife', stacks })
  const human = (stacks: number) => ({ name: 'Past Life: Human', type: 'RacialPastLife', stacks })
  const favor = { name: 'Favor: Coin Lords', type: 'Favor', stacks: 1 }
  const cases: [string, Parameters<typeof grantedPastLives>[0], Parameters<typeof grantedPastLives>[1], unknown][] = [
    ['a first heroic past life', [], [monk(1)], [monk(1)]],
    ['a second stack counts once', [monk(1)], [monk(2)], [monk(1)]],
    ['heroic and racial together', [monk(1)], [monk(2), human(1)], [monk(1), human(1)]],
    ['nothing granted', [monk(2)], [monk(2)], []],
    ['at the cap the grant left nothing to show', [monk(3)], [monk(3)], []],
    ['a favor reward dropped on reincarnation is no grant', [favor], [], []],
    ['a favor reward in the next life is not a past life', [], [favor], []],
    [
      'repeated entries are merged before comparing',
      [monk(1)],
      [
        { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 1 },
        { name: 'Past Life: Monk', type: 'HeroicPastLife', stacks: 1 },
      ],
      [monk(1)],
    ],
  ]
  for (const [title, finished, next, granted] of cases) {
    test(title, () => expect(grantedPastLives(finished, next)).toEqual(granted as never))
  }
})

describe('pastLivesByLife: the past lives each life of a history had', () => {
  const fighter = { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 1 }
  test('each finished life gave its dominant class and its race; epic past lives were there all along', () => {
    const now = [
      { ...fighter, stacks: 2 },
      { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 1 },
      { name: 'Past Life: Human', type: 'RacialPastLife', stacks: 1 },
      { name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife', stacks: 1 },
      { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
    ]
    const finished = [
      { race: 'Dwarf', classes: [{ name: 'Fighter', levels: 20 }] },
      {
        race: 'Human',
        classes: [
          { name: 'Fighter', levels: 12 },
          { name: 'Rogue', levels: 8 },
        ],
      },
    ]
    expect(pastLivesByLife(now, finished)).toEqual([
      [{ name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife', stacks: 1 }],
      [
        { ...fighter, stacks: 1 },
        { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 1 },
        { name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife', stacks: 1 },
      ],
      [
        { ...fighter, stacks: 2 },
        { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 1 },
        { name: 'Past Life: Human', type: 'RacialPastLife', stacks: 1 },
        { name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife', stacks: 1 },
      ],
    ])
  })

  test('a history the feats do not account for is never below none', () => {
    expect(pastLivesByLife([], [{ race: 'Elf', classes: [{ name: 'Wizard', levels: 20 }] }])).toEqual([[], []])
  })
})
