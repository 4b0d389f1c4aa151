// The pure rules behind search ranking, as tables of cases.
import { describe, expect, test } from 'bun:test'
import type { QuestRow } from '../../../src/modules/catalog/parse'
import {
  CatalogIndex,
  fold,
  levelBonus,
  MATCH_SCORE,
  matchScore,
  prepareQuery,
} from '../../../src/modules/catalog/search'
import { isEnterable, preferredTier } from '../../../src/rules/quests/questTiers'
import { readRows, SHARED_718, SMALL_JSON, sharedExists } from '../../catalogFixtures'

describe('levels', () => {
  test.each([
    [1, 'Heroic'],
    [19, 'Heroic'],
    [20, 'Epic'],
    [29, 'Epic'],
    [30, 'Legendary'],
    [34, 'Legendary'],
  ] as const)('character level %p prefers %s', (level, tier) => {
    expect(preferredTier(level)).toBe(tier)
  })

  test.each([
    [5, 5, true],
    [6, 5, true],
    [4, 5, false],
    [29, 30, false],
  ] as const)('character level %p, quest level %p: enterable %p', (character, quest, expected) => {
    expect(isEnterable(character, quest)).toBe(expected)
  })

  test.each([
    [9, 'Heroic', 10, 13],
    [11, 'Heroic', 10, 3],
    [24, 'Epic', 25, 13],
    [24, 'Heroic', 25, 10],
    [31, 'Legendary', 30, 3],
    [31, 'Epic', 30, 0],
  ] as const)('a level %p %s remake at character level %p: bonus %p', (questLevel, difficulty, level, bonus) => {
    expect(levelBonus({ level: questLevel, difficulty }, level)).toBe(bonus)
  })
})

describe('matching', () => {
  test.each([
    ["The Mystery of Delera's Tomb", 'the mystery of deleras tomb'],
    ['Return to Delera’s Tomb (quest)', 'return to deleras tomb quest'],
    ['  Éclat  DU  Mal ', 'eclat du mal'],
    ['And the Dead Shall Rise...', 'and the dead shall rise'],
    ["Secret of the Slavers' Stockade", 'secret of the slavers stockade'],
  ])('fold %p -> %p', (text, folded) => {
    expect(fold(text)).toBe(folded)
  })

  const entry = { name: fold('The Hidden Crypt'), pack: fold('Harbor Tales'), patron: fold('The Coin Lords') }
  test.each([
    ['the hidden crypt', MATCH_SCORE.exactName],
    ['the hid', MATCH_SCORE.namePrefix],
    ['hidden', MATCH_SCORE.nameSubstring],
    ['crypt hidden', MATCH_SCORE.nameWords],
    ['harbor', MATCH_SCORE.pack],
    ['coin', MATCH_SCORE.patron],
    ['kobold', 0],
    ['', 0],
  ])('query %p scores %p', (query, score) => {
    expect(matchScore(entry, prepareQuery(query))).toBe(score)
  })

  test('the score gaps keep every name match above every pack or patron match, whatever the bonuses', () => {
    const maxBonus = levelBonus({ level: 1, difficulty: 'Heroic' }, 1)
    const classes = Object.values(MATCH_SCORE).sort((a, b) => b - a)
    for (let i = 1; i < classes.length; i++)
      expect((classes[i] as number) + maxBonus).toBeLessThan(classes[i - 1] as number)
  })

  test('a query of punctuation only matches nothing rather than everything', () => {
    const row: QuestRow = {
      name: 'X',
      difficulty: 'Heroic',
      level: 1,
      soloXP: null,
      normalXP: null,
      hardXP: null,
      eliteXP: null,
      duration: '',
      pack: '',
      patron: '',
      favor: null,
      questId: null,
      groupSize: null,
      freeToVip: null,
    }
    expect(new CatalogIndex([row]).search({ query: "'", difficulty: null, level: null, limit: 20 }).totalMatches).toBe(
      0,
    )
  })
})

describe('the index finds exactly the rows a full scan would', () => {
  /** The reference: every row, scored one by one. */
  const scan = (rows: QuestRow[], query: string) => {
    const prepared = prepareQuery(query)
    return rows
      .filter(
        (row) => matchScore({ name: fold(row.name), pack: fold(row.pack), patron: fold(row.patron) }, prepared) > 0,
      )
      .map((row) => `${row.name}/${row.difficulty}`)
      .sort()
  }
  const queriesFor = (rows: QuestRow[]) => {
    const words = new Set<string>()
    for (const row of rows)
      for (const text of [row.name, row.pack, row.patron]) for (const word of fold(text).split(' ')) words.add(word)
    const queries = [...words].flatMap((word) => [word, word.slice(0, 3), word.slice(1)])
    queries.push('the of', 'tomb deleras', 'a', 'zzz', 'crypt hidden', 'house j', "delera's", '')
    return queries
  }
  const check = (rows: QuestRow[]) => {
    const index = new CatalogIndex(rows)
    for (const query of queriesFor(rows)) {
      const found = index.search({ query, difficulty: null, level: 20, limit: rows.length })
      const names = found.quests.map((row) => `${row.name}/${row.difficulty}`).sort()
      expect({ query, names }).toEqual({ query, names: scan(rows, query) })
      expect(found.totalMatches).toBe(names.length)
    }
  }

  test('on our small fixture', async () => {
    check(await readRows(SMALL_JSON))
  })

  test.skipIf(!sharedExists)('on the real 718-row catalog', async () => {
    check(await readRows(SHARED_718))
  })
})
