// Table tests of the live/plan comparison (the build page's "what differs"): each area on its
// own, what is left out when the snapshot has not read it, and the next thing to do in game.
import { describe, expect, test } from 'bun:test'
import {
  type BuildDifference,
  DIFF_AREAS,
  diffBuilds,
  diffWithProfile,
  treeRanks,
  unreadAreas,
} from '../../../src/rules/builds/buildDiff'
import type { BuildDocument } from '../../../src/rules/builds/buildDocument'

const levels = (...classes: string[]) => classes.map((c) => ({ class: c }))

const base: BuildDocument = {
  life: { name: 'Stonefist', race: 'Dwarf', alignment: 'Lawful Good', specialFeats: [] },
  build: { level: 4, classes: ['Fighter', null, null], levels: levels('Fighter', 'Fighter', 'Fighter', 'Fighter') },
}

const with_ = (patch: {
  life?: BuildDocument['life']
  build?: BuildDocument['build']
  tomes?: BuildDocument['tomes']
}) =>
  ({
    ...base,
    ...patch,
    life: { ...base.life, ...patch.life },
    build: { ...base.build, ...patch.build },
  }) satisfies BuildDocument

const only = (d: BuildDifference[]) => d.map(({ subject, live, planned, todo }) => ({ subject, live, planned, todo }))

describe('diffBuilds', () => {
  test('the same document: nothing differs', () => {
    expect(diffBuilds(base, base)).toEqual({ differences: [], notRead: [] })
  })

  const cases: [string, BuildDocument, BuildDocument, ReturnType<typeof only>][] = [
    [
      'race and alignment differ (the name is shown, with nothing to do)',
      base,
      with_({ life: { name: 'Stonefist II', race: 'Human', alignment: 'True Neutral' } }),
      [
        { subject: 'Name', live: 'Stonefist', planned: 'Stonefist II', todo: null },
        { subject: 'Race', live: 'Dwarf', planned: 'Human', todo: 'Reincarnate as a Human' },
        {
          subject: 'Alignment',
          live: 'Lawful Good',
          planned: 'True Neutral',
          todo: 'Change alignment to True Neutral',
        },
      ],
    ],
    [
      // One table per fact (gameData.ts RACES): DDO Builder's "Drow" and "Shadar-Kai" are the game's races.
      'a race spelt another way is the same race: nothing differs',
      with_({ life: { race: 'Drow Elf' } }),
      with_({ life: { race: 'Drow' } }),
      [],
    ],
    [
      'races differing are named as the table spells them',
      with_({ life: { race: 'Drow' } }),
      with_({ life: { race: 'Shadar-Kai' } }),
      [{ subject: 'Race', live: 'Drow Elf', planned: 'Shadar-kai', todo: 'Reincarnate as a Shadar-kai' }],
    ],
    [
      'a race that starts with a vowel takes "an"',
      base,
      with_({ life: { race: 'Aasimar' } }),
      [{ subject: 'Race', live: 'Dwarf', planned: 'Aasimar', todo: 'Reincarnate as an Aasimar' }],
    ],
    [
      'the plan is ahead: the next level, its class, ability increase and feats',
      with_({ build: { level: 3, levels: levels('Fighter', 'Fighter', 'Fighter') } }),
      with_({
        build: {
          level: 6,
          levels: [...levels('Fighter', 'Fighter', 'Fighter'), { class: 'Rogue', feats: [{ name: 'Cleave' }] }],
          levelAbilityBumps: { '4': 'Strength' },
        },
      }),
      [
        {
          subject: 'Level',
          live: '3',
          planned: '6',
          todo: 'Level up (3 levels to go): take level 4 in Rogue, raise Strength, train Cleave',
        },
      ],
    ],
    [
      'levels already taken in another class, in runs',
      with_({ build: { levels: levels('Fighter', 'Rogue', 'Rogue', 'Fighter') } }),
      with_({ build: { levels: levels('Fighter', 'Fighter', 'Fighter', 'Fighter') } }),
      [
        {
          subject: 'Levels 2–3 class',
          live: 'Rogue',
          planned: 'Fighter',
          todo: 'Rebuild levels 2–3 as Fighter (lesser reincarnation)',
        },
      ],
    ],
    [
      'point buy and a reached ability increase',
      with_({
        build: { abilitySpend: { str: 10, dex: 6 }, levelAbilityBumps: { '4': 'Dexterity', '8': 'Dexterity' } },
      }),
      with_({ build: { abilitySpend: { str: 16, dex: 6 }, levelAbilityBumps: { '4': 'str', '8': 'Strength' } } }),
      [
        {
          subject: 'Strength point buy',
          live: '10 points (16)',
          planned: '16 points (18)',
          todo: 'Rebuild the point buy (lesser reincarnation)',
        },
        {
          subject: 'Level 4 ability increase',
          live: 'Dexterity',
          planned: 'Strength',
          todo: 'Rebuild the level 4 increase as Strength (lesser reincarnation)',
        },
      ],
    ],
    [
      'tomes: read the bigger one; a bigger one in game needs nothing',
      with_({ tomes: { str: 2, con: 3, skills: { Search: 1 } } }),
      with_({ tomes: { str: 3, con: 1, skills: { Search: 2, Spot: 1 } } }),
      [
        { subject: 'Strength tome', live: '+2', planned: '+3', todo: 'Read a +3 Strength tome' },
        { subject: 'Constitution tome', live: '+3', planned: '+1', todo: null },
        { subject: 'Search tome', live: '+1', planned: '+2', todo: 'Read a +2 Search tome' },
        { subject: 'Spot tome', live: '0', planned: '+1', todo: 'Read a +1 Spot tome' },
      ],
    ],
    [
      'past lives by stacks (other special feats are not past lives)',
      with_({
        life: {
          specialFeats: [
            { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 1 },
            { name: 'Favor: Twelve', type: 'Favor', stacks: 1 },
          ],
        },
      }),
      with_({
        life: {
          specialFeats: [
            { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 3 },
            { name: 'Past Life: Dwarf', type: 'RacialPastLife' },
          ],
        },
      }),
      [
        {
          subject: 'Past Life: Dwarf',
          live: '0 stacks',
          planned: '1 stack',
          todo: 'Earn 1 more stack of Past Life: Dwarf',
        },
        {
          subject: 'Past Life: Fighter',
          live: '1 stack',
          planned: '3 stacks',
          todo: 'Earn 2 more stacks of Past Life: Fighter',
        },
      ],
    ],
    [
      'feats and skills of the levels both reached',
      with_({
        build: {
          levels: [
            { class: 'Fighter', feats: [{ name: 'Cleave' }], skills: ['Search', 'Search'] },
            ...levels('Fighter', 'Fighter', 'Fighter'),
          ],
        },
      }),
      with_({
        build: {
          levels: [
            { class: 'Fighter', feats: [{ name: 'Power Attack' }], skills: ['Search', 'Spot'] },
            ...levels('Fighter', 'Fighter', 'Fighter'),
          ],
        },
      }),
      [
        { subject: 'Level 1 feats', live: 'Cleave', planned: 'Power Attack', todo: 'Swap in Power Attack (feat swap)' },
        { subject: 'Search skill', live: '2 points', planned: '1 point', todo: null },
        { subject: 'Spot skill', live: '0 points', planned: '1 point', todo: 'Put 1 more point into Spot' },
      ],
    ],
    [
      'enhancement and destiny trees by ranks, and what to train',
      with_({
        build: {
          enhancementTrees: {
            spend: [{ treeName: 'Kensei', trained: [{ enhancementName: 'Core1', ranks: 1 }] }],
          },
        },
      }),
      with_({
        build: {
          enhancementTrees: {
            spend: [
              {
                treeName: 'Kensei',
                trained: [
                  { enhancementName: 'Core1', ranks: 1 },
                  { enhancementName: 'Strike', ranks: 3 },
                  { enhancementName: 'Focus', selection: 'Swords', ranks: 1 },
                ],
              },
            ],
          },
          destinyTrees: { spend: [{ treeName: 'Legendary Dreadnought', trained: [{ enhancementName: 'LDCore1' }] }] },
        },
      }),
      [
        { subject: 'Kensei tree', live: '1 rank', planned: '5 ranks', todo: 'Train Strike ×3, Focus (Swords)' },
        { subject: 'Legendary Dreadnought tree', live: '0 ranks', planned: '1 rank', todo: 'Train LDCore1' },
      ],
    ],
    [
      'a tree trained in game but not in the plan',
      with_({
        build: { enhancementTrees: { spend: [{ treeName: 'Stalwart', trained: [{ enhancementName: 'S1' }] }] } },
      }),
      base,
      [{ subject: 'Stalwart tree', live: '1 rank', planned: '0 ranks', todo: 'Reset 1 enhancement not in the plan' }],
    ],
    [
      'spells by class and spell level',
      with_({ build: { trainedSpells: [{ class: 'Cleric', level: 1, name: 'Bless' }] } }),
      with_({
        build: {
          trainedSpells: [
            { class: 'Cleric', level: 1, name: 'Cure Light Wounds' },
            { class: 'Cleric', level: 2, name: 'Aid' },
          ],
        },
      }),
      [
        {
          subject: 'Cleric level 1 spells',
          live: 'Bless',
          planned: 'Cure Light Wounds',
          todo: 'Train Cure Light Wounds',
        },
        { subject: 'Cleric level 2 spells', live: '—', planned: 'Aid', todo: 'Train Aid' },
      ],
    ],
  ]
  for (const [title, live, planned, expected] of cases) {
    test(title, () => expect(only(diffBuilds(live, planned).differences)).toEqual(expected))
  }

  test('areas the snapshot has not read are not compared, and are listed', () => {
    const live = with_({ tomes: { str: 0 } })
    live.meta = { incomplete: ['tomes', 'enhancements', 'Feats', 'nonsense'] }
    const planned = with_({
      tomes: { str: 3 },
      build: {
        level: 5,
        levels: [
          ...levels('Fighter', 'Fighter', 'Fighter', 'Fighter'),
          { class: 'Fighter', feats: [{ name: 'Cleave' }] },
        ],
        enhancementTrees: { spend: [{ treeName: 'Kensei', trained: [{ enhancementName: 'Core1' }] }] },
      },
    })
    const diff = diffBuilds(live, planned)
    expect(diff.notRead).toEqual(['tomes', 'feats', 'enhancements'])
    // The next level's feats are not named while feats are unread.
    expect(only(diff.differences)).toEqual([
      { subject: 'Level', live: '4', planned: '5', todo: 'Level up (1 level to go): take level 5 in Fighter' },
    ])
  })

  test('unreadAreas ignores domains it does not know', () => {
    expect(unreadAreas({ meta: { incomplete: ['reaper', 'gear'] } })).toEqual(['reaper'])
    expect(unreadAreas({})).toEqual([])
  })

  test('treeRanks skips what is not a tree and counts missing ranks as 1', () => {
    const trees = treeRanks([null, 'x', { treeName: '' }, { treeName: 'A', trained: [{ enhancementName: 'a' }, 5] }])
    expect([...trees.keys()]).toEqual(['A'])
    expect(trees.get('A')?.total).toBe(1)
  })
})

describe('diffWithProfile: a plan and no live snapshot, compared with the character as its profile has it', () => {
  const plan = with_({
    life: { name: 'Stonefist', race: 'Drow', alignment: 'Lawful Good' },
    build: {
      level: 6,
      levels: levels('Fighter', 'Fighter', 'Rogue', 'Fighter', 'Fighter', 'Fighter'),
    },
  })
  const profile = (p: Partial<Parameters<typeof diffWithProfile>[0]> = {}) => ({
    race: 'Dwarf',
    alignment: 'Lawful Good',
    classes: [{ name: 'Fighter', levels: 4 }],
    level: 4,
    ...p,
  })

  test('race, level and the split of classes; every other area is not known without a snapshot', () => {
    const diff = diffWithProfile(profile(), plan)
    expect(only(diff.differences)).toEqual([
      { subject: 'Race', live: 'Dwarf', planned: 'Drow Elf', todo: 'Reincarnate as a Drow Elf' },
      { subject: 'Level', live: '4', planned: '6', todo: 'Level up (2 levels to go): take level 5 in Fighter' },
      { subject: 'Fighter levels', live: '4', planned: '3', todo: null },
      { subject: 'Rogue levels', live: '0', planned: '1', todo: 'Rebuild with 1 Rogue level (lesser reincarnation)' },
    ])
    expect(diff.notRead).toEqual(DIFF_AREAS.filter((a) => a !== 'life' && a !== 'levels'))
  })

  test('the character as planned so far: nothing differs', () => {
    const same = profile({
      race: 'Drow Elf',
      classes: [
        { name: 'Fighter', levels: 5 },
        { name: 'Rogue', levels: 1 },
      ],
      level: 6,
    })
    expect(diffWithProfile(same, plan).differences).toEqual([])
  })

  test('no race or no class levels in the profile: nothing to say of them', () => {
    expect(only(diffWithProfile(profile({ race: '', classes: [], level: 0 }), plan).differences)).toEqual([
      { subject: 'Level', live: '0', planned: '6', todo: 'Level up (6 levels to go): take level 1 in Fighter' },
    ])
  })
})
