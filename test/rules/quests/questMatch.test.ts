// Matching quest names from other sources to catalog remakes: every spelling real DDO Builder
// files were seen to use (the planner's own example file), and the planner's one-name-several-
// levels against the wiki's "(epic)" names.
import { describe, expect, test } from 'bun:test'
import {
  MAX_SUGGESTIONS,
  type MatchRow,
  matchQuest,
  questIndex,
  questNameKey,
  suggestNames,
} from '../../../src/rules/quests/questMatch'
import { readRows, SHARED_718, sharedExists } from '../../catalogFixtures'

const row = (name: string, difficulty: MatchRow['difficulty'], level: number): MatchRow => ({ name, difficulty, level })
const CATALOG = [
  row('Redemption (quest)', 'Heroic', 1),
  row("The Kobolds' New Ringleader", 'Heroic', 2),
  row("Durk's Got A Secret", 'Heroic', 2),
  row('The Cloven-jaw Scourge: Blockade', 'Heroic', 3),
  row("Setting the Wards: The Patriarchs' Crypt", 'Heroic', 3),
  row("Setting the Wards: The Patriarchs' Crypt", 'Epic', 23),
  row("Yarkuch's War-plans", 'Heroic', 4),
  row('The Deadly Package: Agent of the Darguul', 'Heroic', 5),
  row('Doom of the Witch-doctor: Zulkash, Herald of Woe', 'Heroic', 6),
  row('Doom of the Witch-doctor: The Way to Zulkash', 'Heroic', 6),
  row('Halls of Shan-To-Kor', 'Heroic', 5),
  row('Ghost of a Chance', 'Heroic', 5),
  row('Ghost of a Chance (epic)', 'Epic', 25),
  row('The Pit', 'Heroic', 5),
]
const index = questIndex(CATALOG)

describe('a spelling real files use finds the catalog remake', () => {
  test.each([
    ['Redemption', 1, 'Redemption (quest)', 'Heroic'],
    ["The Kobold's New Ringleader", 2, "The Kobolds' New Ringleader", 'Heroic'],
    ["Durk's Got a Secret", 2, "Durk's Got A Secret", 'Heroic'],
    ['The Cloven-jaw Scourge:Blockade', 3, 'The Cloven-jaw Scourge: Blockade', 'Heroic'],
    ["Setting the Wards: The Patriarch's Crypt", 3, "Setting the Wards: The Patriarchs' Crypt", 'Heroic'],
    ["Yarkuch's War Plans", 4, "Yarkuch's War-plans", 'Heroic'],
    ['The Deadly Package: Agent of Darguul', 5, 'The Deadly Package: Agent of the Darguul', 'Heroic'],
    [
      'Doom Of The Witch Doctor: Zulkash, Herald Of Woe',
      6,
      'Doom of the Witch-doctor: Zulkash, Herald of Woe',
      'Heroic',
    ],
    ['Doom of the Witchdoctor: The Way to Zulkash', 6, 'Doom of the Witch-doctor: The Way to Zulkash', 'Heroic'],
    ['The Halls of Shan-To-Kor', 5, 'Halls of Shan-To-Kor', 'Heroic'],
  ])('%p at level %d is %p (%s)', (name, level, catalogName, difficulty) => {
    expect(matchQuest(index, name, { level })).toEqual({
      kind: 'matched',
      row: row(
        catalogName,
        difficulty as MatchRow['difficulty'],
        CATALOG.find((r) => r.name === catalogName && r.difficulty === difficulty)?.level as number,
      ),
      how: 'spelling',
    })
  })

  test('the catalog spelling itself is an exact match', () => {
    expect(matchQuest(index, 'The Pit', { level: 5 })).toEqual({
      kind: 'matched',
      row: row('The Pit', 'Heroic', 5),
      how: 'exact',
    })
  })
})

describe('the level picks the remake', () => {
  test('one name, two tiers: the tier at that level', () => {
    expect(matchQuest(index, "Setting the Wards: The Patriarchs' Crypt", { level: 23 })).toMatchObject({
      kind: 'matched',
      row: { difficulty: 'Epic', level: 23 },
      how: 'exact',
    })
  })

  test('the planner names the epic version like the heroic one; its level finds "(epic)"', () => {
    expect(matchQuest(index, 'Ghost of a Chance', { level: 25 })).toEqual({
      kind: 'matched',
      row: row('Ghost of a Chance (epic)', 'Epic', 25),
      how: 'spelling',
    })
    expect(matchQuest(index, 'Ghost of a Chance', { level: 5 })).toEqual({
      kind: 'matched',
      row: row('Ghost of a Chance', 'Heroic', 5),
      how: 'exact',
    })
  })

  test("no level (0 or null): the exact spelling decides; a quest with several tiers is the player's choice", () => {
    expect(matchQuest(index, 'Ghost of a Chance', { level: 0 })).toMatchObject({
      kind: 'matched',
      row: { name: 'Ghost of a Chance' },
    })
    expect(matchQuest(index, "Setting the Wards: The Patriarchs' Crypt", { level: null })).toEqual({
      kind: 'ambiguous',
      candidates: [
        row("Setting the Wards: The Patriarchs' Crypt", 'Heroic', 3),
        row("Setting the Wards: The Patriarchs' Crypt", 'Epic', 23),
      ],
    })
  })

  test("a tier the source gives picks the remake; a tier the quest lacks is the player's choice", () => {
    expect(matchQuest(index, "Setting the Wards: The Patriarch's Crypt", { difficulty: 'Epic' })).toEqual({
      kind: 'matched',
      row: row("Setting the Wards: The Patriarchs' Crypt", 'Epic', 23),
      how: 'spelling',
    })
    expect(matchQuest(index, 'The Pit', { difficulty: 'Legendary' })).toEqual({
      kind: 'ambiguous',
      candidates: [row('The Pit', 'Heroic', 5)],
    })
    expect(matchQuest(index, 'The Pit', { difficulty: 'Unknown' })).toMatchObject({ kind: 'matched', how: 'exact' })
  })

  test('a level no remake has: the nearest', () => {
    expect(matchQuest(index, "Setting the Wards: The Patriarchs' Crypt", { level: 20 })).toMatchObject({
      row: { difficulty: 'Epic' },
    })
  })

  test('two quests one spelling apart and no level or exact name to choose by: ambiguous, both listed', () => {
    const two = questIndex([row('Ghost of a Chance', 'Heroic', 5), row('Ghost of a Chance (epic)', 'Epic', 25)])
    expect(matchQuest(two, 'ghost of a chance', { level: 12 })).toEqual({
      kind: 'ambiguous',
      candidates: [row('Ghost of a Chance', 'Heroic', 5), row('Ghost of a Chance (epic)', 'Epic', 25)],
    })
  })
})

test('a name in no spelling of the catalog is unmatched', () => {
  expect(matchQuest(index, 'Sleeping with the Fishes', { level: 3 })).toEqual({ kind: 'unmatched' })
})

test('the key keeps what tells quests apart', () => {
  expect(questNameKey('Weapons Shipment')).not.toBe(questNameKey('Weapon Shipment'))
  expect(questNameKey('Théâtre')).toBe('théâtre')
  expect(questNameKey('The Pit')).toBe(questNameKey('pit'))
})

// The real catalog: every remake is found again from its own name and level, so no two of its
// names collapse into one spelling that the level cannot tell apart. The only exceptions are
// quests whose heroic and epic remakes have the same level (20): a name and a level cannot tell
// those apart, and the lower tier is taken.
test.skipIf(!sharedExists)('on the real 718-row catalog, every remake matches itself exactly', async () => {
  const rows = await readRows(SHARED_718)
  const real = questIndex(rows)
  const twin = (r: (typeof rows)[number]) =>
    rows.find((o) => o !== r && o.name === r.name && o.level === r.level && o.difficulty === 'Heroic')
  const found = rows.map((r) => {
    const match = matchQuest(real, r.name, { level: r.level })
    return match.kind === 'matched' && match.how === 'exact' ? match.row : null
  })
  const misses = rows.filter((r, i) => found[i] !== (twin(r) ?? r))
  expect(misses.map((r) => `${r.name} (${r.difficulty} ${r.level})`)).toEqual([])
  expect(rows.filter((r) => twin(r)).map((r) => r.name)).toEqual([
    'The Lord of Blades',
    'Tower of Despair',
    'The Dreaming Dark (quest)',
  ])
})

describe('did you mean: the catalog names nearest a name it does not have', () => {
  const more = questIndex([
    ...CATALOG,
    row('A Cabal for One', 'Heroic', 14),
    row('Return to Cabal for One', 'Epic', 30),
    row('The Pit', 'Heroic', 5),
  ])
  test.each([
    // A letter too many, a word left out, a letter swapped: one edit of the forgiving key.
    ['The Pitt', ['The Pit']],
    ['Cabal for One', ['A Cabal for One', 'Return to Cabal for One']],
    ['Ghost of a Chanse', ['Ghost of a Chance', 'Ghost of a Chance (epic)']],
    ['Yarkuchs Warplans', ["Yarkuch's War-plans"]],
    // Nothing near: no guess.
    ['Sleeping with the Fishes', []],
    ['Pi', []],
  ])('%p -> %p', (name, names) => {
    expect(suggestNames(more, name)).toEqual(names)
  })

  test(`at most ${MAX_SUGGESTIONS}, nearest first`, () => {
    const many = questIndex(
      ['Bell Tower', 'Bell Towers', 'Ball Tower', 'Bell Flower', 'Bill Tower'].map((n) => row(n, 'Heroic', 3)),
    )
    expect(suggestNames(many, 'Bell Tover')).toEqual(['Bell Tower', 'Ball Tower', 'Bell Towers'])
  })
})
