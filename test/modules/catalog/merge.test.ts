// How a source's rows merge into the catalog (src/modules/catalog/merge.ts), as a table: which
// catalog row a source row is, what it updates and what it keeps; and how a name a client
// sends finds its catalog row (CatalogIndex.resolveName).
import { describe, expect, test } from 'bun:test'
import { mergeCatalog } from '../../../src/modules/catalog/merge'
import type { QuestRow } from '../../../src/modules/catalog/parse'
import { CatalogIndex } from '../../../src/modules/catalog/search'
import { withFacts } from '../../catalogFixture'

const quest = (name: string, difficulty: QuestRow['difficulty'], more: Partial<QuestRow> = {}): QuestRow =>
  withFacts({
    name,
    difficulty,
    level: difficulty === 'Heroic' ? 8 : difficulty === 'Epic' ? 26 : 32,
    soloXP: 1000,
    normalXP: 2000,
    hardXP: 2100,
    eliteXP: 2200,
    duration: 'Long',
    pack: 'A Pack',
    patron: 'The Gatekeepers',
    favor: 5,
    ...more,
  })

const CATALOG: QuestRow[] = [
  quest("Misery's Peak", 'Heroic'),
  quest('Tangled Depths (quest)', 'Heroic', { level: 11 }),
  quest('Tangled Depths (raid)', 'Heroic', { level: 12 }),
  quest('Devil Assault (quest)', 'Heroic'),
  quest('Return to Gianthold Tor', 'Epic', { level: 24 }),
  quest('Gianthold Tor', 'Heroic', { level: 14 }),
  quest('The Deadly Package: Agent of the Darguul', 'Heroic', { level: 5 }),
  quest('ToEE: Fire Node', 'Legendary', { level: 34 }),
]

describe('which catalog row a source row is', () => {
  test.each([
    ['the same name', "Misery's Peak", 'Heroic', "Misery's Peak"],
    ['another case', "MISERY'S PEAK", 'Heroic', "Misery's Peak"],
    ["the game's curly apostrophe", 'Misery\u2019s Peak', 'Heroic', "Misery's Peak"],
    ['no "(quest)"', 'Devil Assault', 'Heroic', 'Devil Assault (quest)'],
    [
      'spacing around ":"',
      'The Deadly Package:Agent of the Darguul',
      'Heroic',
      'The Deadly Package: Agent of the Darguul',
    ],
    ['a known name of the game for an epic version', 'Gianthold Tor', 'Epic', 'Return to Gianthold Tor'],
    ['a known name of the game', 'Temple of Elemental Evil: Fire Node', 'Legendary', 'ToEE: Fire Node'],
    [
      'the level, between two pages of one name (a raid\'s " (R)")',
      'Tangled Depths (R)',
      'Heroic',
      'Tangled Depths (raid)',
    ],
  ])('%s: "%s" (%s) updates "%s"', (_, name, tier, expected) => {
    const merged = mergeCatalog(CATALOG, [
      quest(name, tier as QuestRow['difficulty'], {
        level: CATALOG.find((r) => r.name === expected)?.level,
        eliteXP: 9999,
      }),
    ])
    expect(merged.added).toEqual([])
    expect(merged.changed).toEqual([{ name: expected, difficulty: tier }])
    expect(merged.rows.find((r) => r.name === expected && r.difficulty === tier)?.eliteXP).toBe(9999)
    expect(merged.rows).toHaveLength(CATALOG.length)
  })

  test('a name the catalog has in another tier only is a new remake of it', () => {
    const merged = mergeCatalog(CATALOG, [quest("Misery's Peak", 'Legendary')])
    expect(merged.added).toEqual([{ name: "Misery's Peak", difficulty: 'Legendary' }])
  })

  test('a name the catalog does not know is added, after every row the catalog had', () => {
    const merged = mergeCatalog(CATALOG, [quest('Den of Vipers', 'Legendary', { level: 36 })])
    expect(merged.added).toEqual([{ name: 'Den of Vipers', difficulty: 'Legendary' }])
    expect(merged.rows.at(-1)?.name).toBe('Den of Vipers')
    expect(merged.kept).toBe(CATALOG.length)
  })

  test('two pages of one bare name in one source are both kept, whatever their order', () => {
    const both = [quest('Tangled Depths (raid)', 'Heroic', { level: 12 }), quest('Tangled Depths (quest)', 'Heroic')]
    expect(mergeCatalog([], both).added).toHaveLength(2)
    // Against a catalog with one of them: the other one is new, not a repeat of it.
    const one = mergeCatalog([quest('Tangled Depths (quest)', 'Heroic')], both)
    expect(one.added).toEqual([{ name: 'Tangled Depths (raid)', difficulty: 'Heroic' }])
    expect(one.skipped).toEqual([])
  })

  test('a forgiven spelling that could be either of two rows at other levels is left out, saying which', () => {
    const merged = mergeCatalog(CATALOG, [quest('Tangled Depths', 'Heroic', { level: 15 })])
    expect(merged.added).toEqual([])
    expect(merged.skipped).toEqual([
      '("Tangled Depths", Heroic) could be "Tangled Depths (quest)" or "Tangled Depths (raid)"; left out',
    ])
  })

  test('two spellings of one row in one source: the first updates it, the second is left out', () => {
    const merged = mergeCatalog(CATALOG, [
      quest("Misery's Peak", 'Heroic', { eliteXP: 1 }),
      quest('Misery\u2019s Peak', 'Heroic', { eliteXP: 2 }),
    ])
    expect(merged.rows[0]?.eliteXP).toBe(1)
    expect(merged.skipped).toEqual([`("Misery\u2019s Peak", Heroic) repeats "Misery's Peak"; left out`])
  })

  test('a row only to update (named as its adventure area) that matches nothing is left out', () => {
    const row = quest('Sorrowdusk Isle', 'Heroic')
    expect(mergeCatalog(CATALOG, [row], new Set([row])).added).toEqual([])
    const known = quest("Misery's Peak", 'Heroic', { level: 9 })
    expect(mergeCatalog(CATALOG, [known], new Set([known])).changed).toHaveLength(1)
  })
})

describe('what a matched row takes and keeps', () => {
  test.each([
    ['level', { level: 9 }, { level: 9 }],
    ['XP', { eliteXP: 2500, soloXP: 1100 }, { eliteXP: 2500, soloXP: 1100 }],
    ['unknown XP (null) keeps the known', { eliteXP: null }, { eliteXP: 2200 }],
    ['no favor (DDO Audit has none) keeps the wiki favor', { favor: null }, { favor: 5 }],
    ['no duration words keep them', { duration: '' }, { duration: 'Long' }],
    ['an empty pack or patron keeps them', { pack: '', patron: '' }, { pack: 'A Pack', patron: 'The Gatekeepers' }],
    [
      'the facts of a source that has them',
      { questId: 77, groupSize: 'Raid', freeToVip: true },
      { questId: 77, groupSize: 'Raid', freeToVip: true },
    ],
  ] as [string, Partial<QuestRow>, Partial<QuestRow>][])('%s', (_, sent, expected) => {
    const merged = mergeCatalog(CATALOG, [quest('Misery\u2019s Peak', 'Heroic', sent)])
    expect(merged.rows[0]).toMatchObject({ name: "Misery's Peak", ...expected })
  })

  test('a row the source says nothing new of is not "changed"', () => {
    expect(mergeCatalog(CATALOG, [quest("Misery's Peak", 'Heroic', { favor: null, duration: '' })]).changed).toEqual([])
  })
})

describe('a name a client sends finds its catalog row (resolveName)', () => {
  const index = new CatalogIndex(CATALOG)
  test.each([
    ['Misery\u2019s Peak', null, "Misery's Peak"],
    ['misery\u2019s peak', 'Heroic', "Misery's Peak"],
    ['Devil Assault', null, 'Devil Assault (quest)'],
    ['The Deadly Package:Agent of the Darguul', null, 'The Deadly Package: Agent of the Darguul'],
    ['Gianthold Tor', 'Epic', 'Return to Gianthold Tor'],
    ['Gianthold Tor', 'Heroic', 'Gianthold Tor'],
    ['Temple of Elemental Evil: Fire Node', 'Legendary', 'ToEE: Fire Node'],
    // Two pages and nothing to tell them apart: kept as sent.
    ['Tangled Depths', null, 'Tangled Depths'],
    ['A quest of 2027', null, 'A quest of 2027'],
  ] as const)('"%s" (%s) is "%s"', (name, tier, expected) => {
    expect(index.resolveName(name, tier)).toBe(expected)
  })
})
