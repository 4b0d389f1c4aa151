// Table tests of the completion rules (plugin-api.md "Completion rules" and "Delete rules").
import { describe, expect, test } from 'bun:test'
import {
  type CompletionInput,
  deleteScope,
  normalizeCompletion,
  normalizeDifficulty,
  normalizeSetting,
  reaperSkullsOf,
} from '../../../src/rules/quests/completion'

describe('normalizeCompletion: difficulty and setting', () => {
  const cases: [string, Omit<CompletionInput, 'name'>, string, string][] = [
    // [why, input, stored difficulty, stored setting]
    ['rule 1: setting omitted is elite', { difficulty: 'Heroic' }, 'Heroic', 'elite'],
    ['rule 1: setting null counts as omitted', { difficulty: 'Epic', setting: null }, 'Epic', 'elite'],
    ['a concrete setting is kept', { difficulty: 'Heroic', setting: 'hard' }, 'Heroic', 'hard'],
    ['settings match in any case', { difficulty: 'Heroic', setting: 'REAPER' }, 'Heroic', 'reaper'],
    ['setting with spaces around', { difficulty: 'Heroic', setting: ' casual ' }, 'Heroic', 'casual'],
    ['rule 2: Unknown is unknown', { difficulty: 'Heroic', setting: 'Unknown' }, 'Heroic', 'unknown'],
    ['rule 2: any is unknown', { difficulty: 'Heroic', setting: 'any' }, 'Heroic', 'unknown'],
    ['rule 2: unrecognised is unknown', { difficulty: 'Heroic', setting: 'nightmare' }, 'Heroic', 'unknown'],
    ['rule 2: empty string is unknown', { difficulty: 'Heroic', setting: '' }, 'Heroic', 'unknown'],
    ['rule 2: a number is unknown', { difficulty: 'Heroic', setting: 3 }, 'Heroic', 'unknown'],
    ['rule 2: an object is unknown', { difficulty: 'Heroic', setting: { a: 1 } }, 'Heroic', 'unknown'],
    ['rule 3: difficulty omitted is Unknown', {}, 'Unknown', 'elite'],
    ['rule 3: difficulty null is Unknown', { difficulty: null, setting: 'normal' }, 'Unknown', 'normal'],
    ['rule 3: junk difficulty is Unknown', { difficulty: 'Mythic', setting: 'normal' }, 'Unknown', 'normal'],
    ['rule 3: numeric difficulty is Unknown', { difficulty: 2, setting: 'normal' }, 'Unknown', 'normal'],
    ['tier words in any case are not junk', { difficulty: 'legendary' }, 'Legendary', 'elite'],
    ['tier words in upper case', { difficulty: 'EPIC' }, 'Epic', 'elite'],
    ['unknown tier in lower case', { difficulty: 'unknown' }, 'Unknown', 'elite'],
    ['rule 4: challenge word moves to setting', { difficulty: 'reaper' }, 'Unknown', 'reaper'],
    ['rule 4: in any case', { difficulty: 'Elite' }, 'Unknown', 'elite'],
    ['rule 4: casual', { difficulty: 'casual' }, 'Unknown', 'casual'],
    ['rule 4: with setting null', { difficulty: 'hard', setting: null }, 'Unknown', 'hard'],
    ['rule 4 only when setting is omitted', { difficulty: 'reaper', setting: 'normal' }, 'Unknown', 'normal'],
    ['rule 4 does not move "any"', { difficulty: 'any' }, 'Unknown', 'elite'],
    ['alias challengeSetting', { difficulty: 'Heroic', challengeSetting: 'hard' }, 'Heroic', 'hard'],
    ['alias challenge_setting', { difficulty: 'Heroic', challenge_setting: 'casual' }, 'Heroic', 'casual'],
    ['setting wins over its aliases', { setting: 'normal', challengeSetting: 'hard' }, 'Unknown', 'normal'],
    ['an alias blocks rule 4', { difficulty: 'reaper', challenge_setting: 'hard' }, 'Unknown', 'hard'],
    [
      'a null setting gives way to an alias',
      { difficulty: 'Heroic', setting: null, challengeSetting: 'hard' },
      'Heroic',
      'hard',
    ],
    [
      'all settings null: omitted, elite',
      { difficulty: 'Heroic', setting: null, challenge_setting: null },
      'Heroic',
      'elite',
    ],
  ]
  for (const [why, input, difficulty, setting] of cases) {
    test(why, () => {
      const out = normalizeCompletion({ name: 'The Pit', ...input })
      expect({ difficulty: out.difficulty, setting: out.setting }).toEqual({ difficulty, setting } as never)
    })
  }
})

describe('normalizeCompletion: XP aliases keep "omitted" apart from "null"', () => {
  const cases: [string, Omit<CompletionInput, 'name'>, number | null | undefined, number | null | undefined][] = [
    // [why, input, xpEarned, reaperXpEarned]; undefined = omitted (keep stored value)
    ['nothing sent: both omitted', {}, undefined, undefined],
    ['xpEarned', { xpEarned: 1200 }, 1200, undefined],
    ['explicit null clears', { xpEarned: null, reaperXpEarned: null }, null, null],
    ['alias xp', { xp: 1 }, 1, undefined],
    ['alias xpReceived', { xpReceived: 2 }, 2, undefined],
    ['alias xp_received', { xp_received: 3 }, 3, undefined],
    ['alias actualXp', { actualXp: 4 }, 4, undefined],
    ['alias actual_xp', { actual_xp: 5 }, 5, undefined],
    ['alias xp_earned', { xp_earned: 6 }, 6, undefined],
    ['canonical wins over aliases', { xpEarned: 7, xp: 8 }, 7, undefined],
    ['a value under an alias wins over a null canonical', { xpEarned: null, xp: 8 }, 8, undefined],
    ['null only when every key sent is null', { xpEarned: null, xp: null, rxp: null }, null, null],
    ['a null alias beside nothing else clears', { reaper_xp: null }, undefined, null],
    ['alias reaperXp', { reaperXp: 10 }, undefined, 10],
    ['alias reaper_xp', { reaper_xp: 11 }, undefined, 11],
    ['alias reaper_xp_earned', { reaper_xp_earned: 12 }, undefined, 12],
    ['alias rxp', { rxp: 13 }, undefined, 13],
    ['alias rxpEarned', { rxpEarned: 14 }, undefined, 14],
    ['alias rxp_earned', { rxp_earned: 15 }, undefined, 15],
    ['both kinds at once', { xp: 100, rxp: 20 }, 100, 20],
  ]
  for (const [why, input, xpEarned, reaperXpEarned] of cases) {
    test(why, () => {
      const out = normalizeCompletion({ name: 'x', ...input })
      expect(out.xpEarned).toBe(xpEarned as never)
      expect(out.reaperXpEarned).toBe(reaperXpEarned as never)
    })
  }

  test('the name is trimmed; completedAt and durationSeconds pass through', () => {
    const out = normalizeCompletion({ name: '  The Pit ', completedAt: '2026-01-01T00:00:00Z', durationSeconds: null })
    expect(out.name).toBe('The Pit')
    expect(out.completedAt).toBe('2026-01-01T00:00:00Z')
    expect(out.durationSeconds).toBeNull()
  })
})

describe('normalizeDifficulty and normalizeSetting', () => {
  test.each([
    ['Heroic', 'Heroic'],
    ['heroic', 'Heroic'],
    ['Legendary ', 'Legendary'],
    ['', 'Unknown'],
    [undefined, 'Unknown'],
    [true, 'Unknown'],
  ])('difficulty %p -> %p', (input, expected) => {
    expect(normalizeDifficulty(input)).toBe(expected as never)
  })
  test.each([
    [undefined, 'elite'],
    [null, 'elite'],
    ['Normal', 'normal'],
    ['unknown', 'unknown'],
    ['*', 'unknown'],
    [false, 'unknown'],
  ])('setting %p -> %p', (input, expected) => {
    expect(normalizeSetting(input)).toBe(expected as never)
  })
})

describe('deleteScope: delete rules 1-3', () => {
  const cases: [string, Parameters<typeof deleteScope>[0], ReturnType<typeof deleteScope>][] = [
    [
      'rule 1: no setting removes the elite row',
      { name: 'A', difficulty: 'Heroic' },
      { name: 'A', difficulty: 'Heroic', setting: 'elite' },
    ],
    [
      'rule 2: a concrete setting',
      { name: 'A', difficulty: 'Heroic', setting: 'Hard' },
      { name: 'A', difficulty: 'Heroic', setting: 'hard' },
    ],
    [
      'rule 2: Unknown setting is the unknown row',
      { name: 'A', difficulty: 'Epic', setting: 'Unknown' },
      { name: 'A', difficulty: 'Epic', setting: 'unknown' },
    ],
    [
      'rule 3: allSettings',
      { name: 'A', difficulty: 'Heroic', setting: 'hard', allSettings: true },
      { name: 'A', difficulty: 'Heroic', setting: null },
    ],
    [
      'rule 3: all',
      { name: 'A', difficulty: 'Heroic', setting: 'all' },
      { name: 'A', difficulty: 'Heroic', setting: null },
    ],
    [
      'rule 3: ANY in any case',
      { name: 'A', difficulty: 'Heroic', setting: 'ANY' },
      { name: 'A', difficulty: 'Heroic', setting: null },
    ],
    [
      'rule 3: *',
      { name: 'A', difficulty: 'Heroic', setting: '*' },
      { name: 'A', difficulty: 'Heroic', setting: null },
    ],
    [
      'allSettings false is not rule 3',
      { name: 'A', difficulty: 'Heroic', allSettings: false },
      { name: 'A', difficulty: 'Heroic', setting: 'elite' },
    ],
    ['difficulty omitted is Unknown', { name: ' A ' }, { name: 'A', difficulty: 'Unknown', setting: 'elite' }],
    [
      'challenge word in difficulty moves',
      { name: 'A', difficulty: 'reaper' },
      { name: 'A', difficulty: 'Unknown', setting: 'reaper' },
    ],
    [
      'challenge word with all settings',
      { name: 'A', difficulty: 'reaper', allSettings: true },
      { name: 'A', difficulty: 'Unknown', setting: null },
    ],
  ]
  for (const [why, input, expected] of cases) {
    test(why, () => expect(deleteScope(input)).toEqual(expected))
  }
})

describe('normalizeCompletion: reaper skulls (issue 41 section 3)', () => {
  const cases: [string, Omit<CompletionInput, 'name'>, string, number | null | undefined][] = [
    // [why, input, stored setting, reaperSkulls]; undefined = not sent (or not a reaper run)
    ['an older client: reaper alone has no count', { setting: 'reaper' }, 'reaper', undefined],
    ['reaperSkulls on a reaper run', { setting: 'reaper', reaperSkulls: 7 }, 'reaper', 7],
    ['alias skulls', { setting: 'reaper', skulls: 3 }, 'reaper', 3],
    ['alias reaper_skulls', { setting: 'reaper', reaper_skulls: 4 }, 'reaper', 4],
    ['alias reaperLevel', { setting: 'reaper', reaperLevel: 5 }, 'reaper', 5],
    ['alias reaper_level', { setting: 'reaper', reaper_level: 6 }, 'reaper', 6],
    ['canonical wins over aliases', { setting: 'reaper', reaperSkulls: 2, skulls: 9 }, 'reaper', 2],
    ['a null canonical gives way to an alias', { setting: 'reaper', reaperSkulls: null, skulls: 9 }, 'reaper', 9],
    ['null when every key sent is null', { setting: 'reaper', reaperSkulls: null, skulls: null }, 'reaper', null],
    ['setting R5: reaper with 5 skulls', { setting: 'R5' }, 'reaper', 5],
    ['setting r10 in lower case', { setting: 'r10' }, 'reaper', 10],
    ['setting "reaper 3"', { setting: 'reaper 3' }, 'reaper', 3],
    ['setting "Reaper3"', { setting: 'Reaper3' }, 'reaper', 3],
    ['setting " R1 " with spaces around', { setting: ' R1 ' }, 'reaper', 1],
    ['a count field wins over the setting word', { setting: 'R5', skulls: 8 }, 'reaper', 8],
    ['a null count field gives way to the setting word', { setting: 'R5', skulls: null }, 'reaper', 5],
    ['alias challengeSetting R4', { challengeSetting: 'R4' }, 'reaper', 4],
    ['rule 4: R6 in difficulty moves to setting', { difficulty: 'R6' }, 'reaper', 6],
    ['rule 4: "reaper 2" in difficulty', { difficulty: 'reaper 2', skulls: null }, 'reaper', 2],
    ['R0 is no setting the game has: unknown', { setting: 'R0' }, 'unknown', undefined],
    ['R11 is no setting the game has: unknown', { setting: 'R11' }, 'unknown', undefined],
    ['R05 is not a skull count: unknown', { setting: 'R05' }, 'unknown', undefined],
    ['skulls on an elite run are ignored', { setting: 'elite', skulls: 4 }, 'elite', undefined],
    ['skulls with the setting omitted (elite) are ignored', { reaperSkulls: 4 }, 'elite', undefined],
    ['skulls on an unknown setting are ignored', { setting: 'mythic', skulls: 4 }, 'unknown', undefined],
  ]
  for (const [why, input, setting, reaperSkulls] of cases) {
    test(why, () => {
      const out = normalizeCompletion({ name: 'The Pit', ...input })
      expect(out.setting).toBe(setting as never)
      expect(out.reaperSkulls).toBe(reaperSkulls as never)
    })
  }

  test('deleteScope: R7 names the reaper row', () => {
    expect(deleteScope({ name: 'A', difficulty: 'Heroic', setting: 'R7' })).toEqual({
      name: 'A',
      difficulty: 'Heroic',
      setting: 'reaper',
    })
  })

  test('normalizeSetting reads the skull forms as reaper', () => {
    expect(['R1', 'r9', 'reaper 10', 'REAPER4'].map(normalizeSetting)).toEqual(['reaper', 'reaper', 'reaper', 'reaper'])
    expect(reaperSkullsOf('R7')).toBe(7)
    expect(reaperSkullsOf('reaper')).toBeNull()
    expect(reaperSkullsOf(7)).toBeNull()
  })
})
