// Table tests of the level band (issue 42, section 3): its bottom (the Full XP rule), its top
// (DEFAULT_LEVELS_ABOVE above the character's level), a player's range, the epic content a heroic
// character cannot enter, and `levelBand` 255 showing every level as the contract says.
import { describe, expect, test } from 'bun:test'
import type { PlayOn } from '../../../src/rules/character/levels'
import type { Difficulty } from '../../../src/rules/quests/completion'
import {
  type BandChoice,
  DEFAULT_LEVELS_ABOVE,
  FIRST_EPIC_LEVEL,
  inLevelBand,
  inRange,
  levelRange,
  shownRange,
} from '../../../src/rules/quests/levelBand'

describe('levelRange: from the Full XP minimum to DEFAULT_LEVELS_ABOVE above, or the player range', () => {
  const cases: [string, number, PlayOn, BandChoice, [number, number, boolean]][] = [
    // The level-7 character on the default Play on: quests 4 to 9, not 10 to 34.
    ['level 7, any: 7 - 1 - 2 = 4 up to 7 + 2', 7, 'any', {}, [4, 9, false]],
    ['level 7, elite: as any', 7, 'elite', {}, [4, 9, false]],
    ['level 7, reaper: elite level math', 7, 'reaper', {}, [4, 9, false]],
    ['level 7, hard: 7 - 1 - 1', 7, 'hard', {}, [5, 9, false]],
    ['level 7, normal: 7 - 1', 7, 'normal', {}, [6, 9, false]],
    ['level 7, casual: 7 - 1 + 1', 7, 'casual', {}, [7, 9, false]],
    ['level 1, elite: never below 1', 1, 'elite', {}, [1, 3, false]],
    ['level 0 (no class levels yet): every level, every tier', 0, 'any', {}, [1, 34, true]],
    ['level 0 with a top set: that top', 0, 'any', { levelsAbove: 5 }, [1, 5, true]],
    ['level 19: still heroic', 19, 'any', {}, [16, 21, false]],
    [`level ${FIRST_EPIC_LEVEL}: epic content opens`, FIRST_EPIC_LEVEL, 'elite', {}, [17, 22, true]],
    ['level 30, normal', 30, 'normal', {}, [29, 32, true]],
    ['levelsBelow 5: 7 - 5', 7, 'any', { levelsBelow: 5 }, [2, 9, false]],
    ['levelsBelow 0: from the character level', 7, 'any', { levelsBelow: 0 }, [7, 9, false]],
    ['levelsBelow past 1: 1', 7, 'any', { levelsBelow: 20 }, [1, 9, false]],
    ['levelsAbove 4', 7, 'any', { levelsAbove: 4 }, [4, 11, false]],
    ['levelsAbove 0: up to the character level', 7, 'elite', { levelsAbove: 0 }, [4, 7, false]],
    ['both set; Play on no longer moves the bottom', 7, 'casual', { levelsBelow: 3, levelsAbove: 1 }, [4, 8, false]],
    ['null is the default', 7, 'any', { levelsBelow: null, levelsAbove: null }, [4, 9, false]],
    ['casual at level 1 with levelsAbove 0: 1 to 1', 1, 'casual', { levelsAbove: 0 }, [1, 1, false]],
    ['the top never below the bottom (level 0, levelsAbove 0)', 0, 'any', { levelsAbove: 0 }, [1, 1, true]],
  ]
  for (const [what, level, playOn, choice, [from, to, epicContent]] of cases) {
    test(what, () => expect(levelRange(level, playOn, choice)).toEqual({ from, to, epicContent }))
  }

  test(`the default top is ${DEFAULT_LEVELS_ABOVE} above`, () => expect(DEFAULT_LEVELS_ABOVE).toBe(2))
})

describe('inLevelBand(questLevel, tier, characterLevel, band): the rule a grid or a mark asks', () => {
  const cases: [string, number, Difficulty, number, (BandChoice & { playOn: PlayOn }) | undefined, boolean][] = [
    ['level 7: a level 4 quest (the bottom)', 4, 'Heroic', 7, undefined, true],
    ['level 7: a level 3 quest (over-level penalty)', 3, 'Heroic', 7, undefined, false],
    ['level 7: a level 9 quest (the top)', 9, 'Heroic', 7, undefined, true],
    ['level 7: a level 10 quest', 10, 'Heroic', 7, undefined, false],
    ['level 7: a Legendary raid at 34', 34, 'Legendary', 7, undefined, false],
    ['level 7 on normal: a level 5 quest', 5, 'Heroic', 7, { playOn: 'normal' }, false],
    ['level 7 on normal: a level 6 quest', 6, 'Heroic', 7, { playOn: 'normal' }, true],
    ['level 19: a heroic level 20 quest', 20, 'Heroic', 19, undefined, true],
    [
      'level 19: an epic level 20 quest (heroic characters cannot enter epic content)',
      20,
      'Epic',
      19,
      undefined,
      false,
    ],
    ['level 19: a legendary quest, range or not', 21, 'Legendary', 19, { playOn: 'any', levelsAbove: 20 }, false],
    ['level 20: an epic level 20 quest', 20, 'Epic', 20, { playOn: 'elite' }, true],
    ['level 30: a level 5 quest', 5, 'Heroic', 30, { playOn: 'elite' }, false],
    ['level 30: a legendary 32', 32, 'Legendary', 30, { playOn: 'elite' }, true],
    ['level 5: a level 5 quest', 5, 'Heroic', 5, { playOn: 'elite' }, true],
    ['a tier Unknown row counts as heroic', 20, 'Unknown', 19, undefined, true],
    ['level 0 (no class levels yet): a Legendary raid at 34', 34, 'Legendary', 0, undefined, true],
    [
      'level 7 with the range 2 to 11: a level 11',
      11,
      'Heroic',
      7,
      { playOn: 'any', levelsBelow: 5, levelsAbove: 4 },
      true,
    ],
    [
      'level 7 with the range 2 to 11: a level 12',
      12,
      'Heroic',
      7,
      { playOn: 'any', levelsBelow: 5, levelsAbove: 4 },
      false,
    ],
    ['levelBand 255: a Legendary raid at 34 for level 7', 34, 'Legendary', 7, { playOn: 'any', levelBand: 255 }, true],
    ['levelBand 255: a level 1 quest for level 30', 1, 'Heroic', 30, { playOn: 'elite', levelBand: 255 }, true],
    ['levelBand 255 ignores a range', 30, 'Epic', 7, { playOn: 'any', levelBand: 255, levelsAbove: 0 }, true],
    ['levelBand 0: the band', 34, 'Legendary', 7, { playOn: 'any', levelBand: 0 }, false],
    [
      'another levelBand value: every level, as the tracker reads it',
      34,
      'Legendary',
      7,
      { playOn: 'any', levelBand: 7 },
      true,
    ],
  ]
  for (const [what, questLevel, tier, characterLevel, band, expected] of cases) {
    test(what, () => expect(inLevelBand(questLevel, tier, characterLevel, band)).toBe(expected))
  }

  test('shownRange is null (every level) at 255, and inRange(null) is always true', () => {
    expect(shownRange(7, 'any', { levelBand: 255 })).toBeNull()
    expect(inRange(34, 'Legendary', null)).toBe(true)
    expect(shownRange(7, 'any', { levelBand: 0 })).toEqual(levelRange(7, 'any'))
  })
})
