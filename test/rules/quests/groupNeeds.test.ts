// The group's needs counted from each character's done ranks (kept between requests) answer what
// questNeed answers from the completions themselves, for every row, setting and character.
import { describe, expect, test } from 'bun:test'
import type { Difficulty, Setting } from '../../../src/rules/quests/completion'
import {
  doneRanks,
  type NeedsCharacter,
  partyQuests,
  questNeed,
  rankedNeed,
} from '../../../src/rules/quests/groupNeeds'
import { levelRange } from '../../../src/rules/quests/levelBand'
import { indexCompletions, type TrackerRow } from '../../../src/rules/quests/tracker'

const SETTINGS: Setting[] = ['unknown', 'casual', 'normal', 'hard', 'elite', 'reaper']
const TIERS: Difficulty[] = ['Heroic', 'Epic', 'Legendary', 'Unknown']
const NAMES = ['Bell Tower', 'Crypt', 'Archive']
const rows = NAMES.flatMap((name) =>
  (['Heroic', 'Epic', 'Legendary'] as const).map((difficulty) => ({ name, difficulty, level: 5 })),
)

describe('rankedNeed', () => {
  test('answers as questNeed does, for 200 characters of random completions, at every setting', () => {
    let seed = 7
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const characters = Array.from({ length: 200 }, (_, id) => {
      const completions = Array.from({ length: Math.floor(next() * 8) }, () => ({
        name: NAMES[Math.floor(next() * NAMES.length)] as string,
        difficulty: TIERS[Math.floor(next() * TIERS.length)] as Difficulty,
        setting: SETTINGS[Math.floor(next() * SETTINGS.length)] as Setting,
      }))
      return { id, index: indexCompletions(completions), level: 10, packState: {} } satisfies NeedsCharacter
    })
    const ranked = characters.map((c) => ({ id: c.id, ranks: doneRanks(rows, c.index) }))
    for (const setting of SETTINGS) {
      rows.forEach((row, i) => {
        expect(rankedNeed(row, i, ranked, setting)).toEqual(questNeed(row, characters, setting))
      })
    }
  })

  test('reaper counts as elite, a tier Unknown for every remake of the name; a row nobody ran is needed by all', () => {
    const index = indexCompletions([
      { name: 'Crypt', difficulty: 'Unknown' as Difficulty, setting: 'reaper' as Setting },
      { name: 'Bell Tower', difficulty: 'Heroic' as Difficulty, setting: 'hard' as Setting },
    ])
    const ranks = doneRanks(rows, index)
    const one = [{ id: 1, ranks }]
    const at = (name: string, difficulty: string, setting: Setting) => {
      const i = rows.findIndex((r) => r.name === name && r.difficulty === difficulty)
      return rankedNeed(rows[i] as (typeof rows)[number], i, one, setting).doneBy
    }
    expect(at('Crypt', 'Epic', 'elite')).toEqual([1])
    expect(at('Bell Tower', 'Heroic', 'hard')).toEqual([1])
    expect(at('Bell Tower', 'Heroic', 'elite')).toEqual([])
    expect(at('Bell Tower', 'Epic', 'casual')).toEqual([])
    expect(at('Archive', 'Heroic', 'casual')).toEqual([])
  })

  describe('a character needs only what is in its own band (issue 42, section 3)', () => {
    const at = (level: number, difficulty: Difficulty) => ({ name: 'Crypt', difficulty, level })
    const fresh = () => doneRanks([at(5, 'Heroic')], indexCompletions([]))
    const done = () =>
      doneRanks([at(5, 'Heroic')], indexCompletions([{ name: 'Crypt', difficulty: 'Heroic', setting: 'elite' }]))
    const cases: [string, ReturnType<typeof at>, number, 'needed' | 'done' | 'neither'][] = [
      ['level 7 on elite (4 to 9): a level 5 quest', at(5, 'Heroic'), 7, 'needed'],
      ['level 30 (27 to 32): a level 5 quest', at(5, 'Heroic'), 30, 'neither'],
      ['level 7: a level 10 quest', at(10, 'Heroic'), 7, 'neither'],
      ['level 19: an epic 20', at(20, 'Epic'), 19, 'neither'],
      ['level 20: an epic 20', at(20, 'Epic'), 20, 'needed'],
    ]
    for (const [what, row, level, expected] of cases) {
      test(what, () => {
        const answer = rankedNeed(row, 0, [{ id: 1, ranks: fresh(), band: levelRange(level, 'elite') }], 'elite')
        expect(answer.neededBy.length > 0 ? 'needed' : answer.doneBy.length > 0 ? 'done' : 'neither').toBe(expected)
      })
    }
    test('done outside its band still counts as done', () => {
      const answer = rankedNeed(at(5, 'Heroic'), 0, [{ id: 1, ranks: done(), band: levelRange(30, 'elite') }], 'elite')
      expect(answer).toMatchObject({ neededBy: [], doneBy: [1] })
    })
  })
})

describe('partyQuests', () => {
  test("each quest's XP is the catalog's base XP at the setting (reaper: elite's), null where the wiki has none", () => {
    const row = (name: string, xp: Partial<TrackerRow>): TrackerRow => ({
      name,
      difficulty: 'Heroic',
      level: 6,
      pack: 'Harbor',
      patron: 'The Coin Lords',
      favor: 3,
      duration: 'Short',
      soloXP: 600,
      normalXP: 1200,
      hardXP: 1260,
      eliteXP: 1320,
      ...xp,
    })
    const rows = [row('Bell Tower', {}), row('Unknown Tower', { hardXP: null, eliteXP: null })]
    const party: NeedsCharacter[] = [{ id: 1, index: indexCompletions([]), level: 7, packState: {} }]
    const xp = (setting: 'hard' | 'elite' | 'reaper') =>
      Object.fromEntries(partyQuests(rows, party, setting).map((q) => [q.name, q.xp]))
    expect(xp('hard')).toEqual({ 'Bell Tower': 1260, 'Unknown Tower': null })
    expect(xp('elite')).toEqual({ 'Bell Tower': 1320, 'Unknown Tower': null })
    expect(xp('reaper')).toEqual({ 'Bell Tower': 1320, 'Unknown Tower': null })
  })
})
