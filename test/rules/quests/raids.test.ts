// Which quests are raids where the catalog has no group size: the DDO wiki's raids
// (src/rules/quests/raids.ts), so that a fresh install, whose catalog is the wiki's list as it
// ships, knows its raids.
import { describe, expect, test } from 'bun:test'
import { snapshotCatalog } from '../../../src/modules/catalog/snapshot'
import { isRaid } from '../../../src/rules/quests/catalogFacts'
import { isListedRaid, WIKI_RAIDS } from '../../../src/rules/quests/raids'

const rows = snapshotCatalog().rows

describe('the shipped catalog (the wiki, no group size)', () => {
  test('knows its raids: every tier of each', () => {
    const raids = rows.filter((row) => isRaid(row) === true).map((row) => `${row.name} (${row.difficulty})`)
    expect(raids).toContain('The Shroud (Heroic)')
    expect(raids).toContain('The Codex and the Shroud (Legendary)')
    expect(raids).toContain("Tempest's Spine (Heroic)")
    expect(raids).toContain("Legendary Tempest's Spine (Legendary)")
    expect(raids).toContain('The Vault of Night (Heroic)')
    expect(raids).toContain('The Vault of Night (Epic)')
    expect(raids).toContain('The Lord of Blades (Epic)')
    expect(raids).toContain('Skeletons in the Closet (Legendary)')
    // 42 rows: the raids of DDO Audit's list (group size `Raid`) that the shipped catalog has,
    // matched as the merge matches names (raids.ts, header).
    expect(raids).toHaveLength(42)
    expect(rows.every((row) => row.groupSize === null)).toBe(true)
  })

  test('every listed raid but the three newer ones is in it', () => {
    const names = new Set(rows.map((row) => row.name))
    expect(WIKI_RAIDS.filter((name) => !names.has(name))).toEqual([
      'Fire Over Morgrave',
      'Threats Old and New',
      'Den of Vipers',
    ])
  })

  test('quests of the same words are not raids: a "(quest)" page, a party quest', () => {
    for (const name of ['Against the Demon Queen (quest)', 'Sins of Attrition', 'Eye of the Titan', 'Bell Tower']) {
      const row = rows.find((r) => r.name === name)
      if (row) expect(isRaid(row)).toBeNull()
    }
    expect(isListedRaid('Against the Demon Queen (quest)')).toBe(false)
  })
})

describe('isRaid', () => {
  const cases: [string, Parameters<typeof isRaid>[0], boolean | null][] = [
    ["a source's group size wins", { name: 'The Shroud', groupSize: 'Party' }, false],
    ['a Raid group size', { name: 'Crypt', groupSize: 'Raid' }, true],
    ['the wiki\u2019s "(raid)"', { name: 'Tangled Depths (raid)', groupSize: null }, true],
    ['a listed raid, spelt otherwise', { name: 'the lord of blades', groupSize: null }, true],
    ['a raid\'s " (R)"', { name: 'The Shroud (R)', groupSize: null }, true],
    [
      "the game's name of a wiki raid, in its tier",
      { name: 'The Legendary Shroud', groupSize: null, difficulty: 'Legendary' },
      true,
    ],
    ['unknown', { name: 'Crypt', groupSize: null }, null],
  ]
  for (const [what, row, expected] of cases) {
    test(what, () => {
      expect(isRaid(row)).toBe(expected)
    })
  }
})
