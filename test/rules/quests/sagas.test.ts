// The saga table (src/rules/quests/sagaTable.ts) held to its two sources, copied with their MIT
// licences in test/fixtures/sagas/: every saga, NPC, level range and quest as yourddo has them;
// ddoapps/data's sagas cross-checked where the two overlap, its reward XP taken exactly where its
// saga is the same; every saga quest resolved to a row of the shipped catalog snapshot by the
// imports' matcher, or listed as missing. Then the progress: table tests of sagaProgress.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { snapshotCatalog } from '../../../src/modules/catalog/snapshot'
import type { Setting } from '../../../src/rules/quests/completion'
import { type MatchRow, matchQuest, questIndex, questNameKey } from '../../../src/rules/quests/questMatch'
import { type SagaCompletion, sagaProgress } from '../../../src/rules/quests/sagas'
import { SAGAS, type Saga, type SagaTier } from '../../../src/rules/quests/sagaTable'

const SOURCES = join(import.meta.dir, '..', '..', 'fixtures', 'sagas')
const read = <T>(file: string): Promise<T> => Bun.file(join(SOURCES, file)).json() as Promise<T>

interface YourddoSaga {
  id: string
  name: string
  levelRange: string
  npc: string
}
interface YourddoQuest {
  name: string
  sagas: string[]
}
interface DdoappsTier {
  quests: string[]
  normal: { xp: number }
  hard: { xp: number }
  elite: { xp: number }
  true_elite: { xp: number }
}
interface DdoappsSaga {
  id: string
  name: string
  heroic?: DdoappsTier
  epic?: DdoappsTier
}

const yourddoSagas = await read<YourddoSaga[]>('yourddo-sagas.json')
const yourddoQuests = await read<YourddoQuest[]>('yourddo-quests.json')
const ddoappsSagas = await read<DdoappsSaga[]>('ddoapps-sagas.json')
const ddoappsNames = new Map(
  (await read<{ id: string; name: string }[]>('ddoapps-quest-names.json')).map((q) => [q.id, q.name]),
)

const TIER_WORD: Record<string, SagaTier> = { heroic: 'Heroic', epic: 'Epic', legendary: 'Legendary' }

describe('the saga table is yourddo’s, fact for fact', () => {
  test('every saga, in its order: id, name, tier, NPC, levels, and its quests in their order', () => {
    const expected = yourddoSagas.map((s) => ({
      id: s.id,
      name: s.name.replace(/ \([HEL]\)$/, ''),
      tier: TIER_WORD[s.id.slice(s.id.lastIndexOf('-') + 1)],
      npc: s.npc,
      levels: s.levelRange,
      quests: yourddoQuests.filter((q) => q.sagas.includes(s.id)).map((q) => q.name.replace(/ \([HEL]\)$/, '')),
    }))
    expect(SAGAS.map(({ rewardXp: _, ...saga }) => saga)).toEqual(expected)
  })

  test('the tier a quest name carries is its saga’s', () => {
    const letter: Record<SagaTier, string> = { Heroic: 'H', Epic: 'E', Legendary: 'L' }
    for (const q of yourddoQuests) {
      for (const id of q.sagas) {
        const saga = SAGAS.find((s) => s.id === id)
        expect({ quest: q.name, saga: id, tier: q.name.slice(-2, -1) }).toEqual({
          quest: q.name,
          saga: id,
          tier: letter[saga?.tier ?? 'Heroic'],
        })
      }
    }
  })
})

/** ddoapps's saga names where yourddo spells the saga otherwise (the same quests). */
const DDOAPPS_NAMES: Record<string, string> = {
  'Honor of the Huntsilver': 'Honor the Huntsilver',
  "The Planeswalker's Path": "The Planewalker's Path",
}
/** ddoapps's "epic" of these is the legendary saga of the table (the catalog has no epic remake of their quests). */
const EPIC_THAT_IS_LEGENDARY = new Set([
  'Cogs',
  'Masterminds of Sharn',
  'Mists of Ravenloft',
  'Fables of the Feywild',
  'Isle of Dread',
])
/** Where the two sources list different quests: the quests only yourddo lists (the table takes yourddo's). */
const ONLY_IN_YOURDDO: Record<string, string[]> = {
  'fables-of-the-feywild-heroic': ['The Legend of the Lost Locket', 'Wake Me Up Inside'],
  'fables-of-the-feywild-legendary': ['The Legend of the Lost Locket', 'Wake Me Up Inside'],
}

describe('cross-checked with ddoapps/data where the two overlap', () => {
  const pairs = ddoappsSagas.flatMap((d) =>
    (['heroic', 'epic'] as const).flatMap((word) => {
      const tier = d[word]
      if (!tier) return []
      const name = DDOAPPS_NAMES[d.name] ?? d.name
      const ours = word === 'epic' && EPIC_THAT_IS_LEGENDARY.has(name) ? 'Legendary' : TIER_WORD[word]
      const saga = SAGAS.find((s) => s.name === name && s.tier === ours)
      return [{ label: `${d.name} (${word})`, word, tier, saga }]
    }),
  )

  test('every saga of ddoapps is one of the table’s', () => {
    expect(pairs.filter((p) => p.saga === undefined).map((p) => p.label)).toEqual([])
    expect(pairs).toHaveLength(21)
  })

  for (const { label, word, tier, saga } of pairs) {
    test(`${label}: the same quests (or the difference listed); its XP taken only where it is the same saga`, () => {
      const s = saga as Saga
      const theirs = tier.quests.map((id) => questNameKey(ddoappsNames.get(id) ?? id)).sort()
      const ours = s.quests.map(questNameKey)
      const missing = s.quests.filter((q) => !theirs.includes(questNameKey(q)))
      expect({ label, extra: theirs.filter((k) => !ours.includes(k)) }).toEqual({ label, extra: [] })
      expect({ label, missing }).toEqual({ label, missing: ONLY_IN_YOURDDO[s.id] ?? [] })
      const sameSaga = missing.length === 0 && TIER_WORD[word] === s.tier
      expect({ label, rewardXp: s.rewardXp }).toEqual({
        label,
        rewardXp: sameSaga
          ? { normal: tier.normal.xp, hard: tier.hard.xp, elite: tier.elite.xp, trueElite: tier.true_elite.xp }
          : null,
      })
    })
  }

  test('no reward XP comes from anywhere else', () => {
    const taken = new Set(pairs.filter((p) => p.saga?.rewardXp).map((p) => p.saga?.id))
    expect(SAGAS.filter((s) => s.rewardXp !== null && !taken.has(s.id)).map((s) => s.id)).toEqual([])
    expect(taken.size).toBe(15)
  })
})

describe('every saga quest is a row of the shipped catalog, or listed as missing', () => {
  const index = questIndex(snapshotCatalog().rows)
  /** Quests of packs newer than the snapshot (the DDO wiki's list as of 2023-08-05). */
  const MISSING: Record<string, readonly string[]> = {
    'Chill of Ravenloft': [
      'The Body Snatchers',
      'Special Delivery',
      'A Miner Sacrifice',
      'Beneath the City Streets',
      'The Proper Authorities',
      'The Wish',
      'Ends and Means',
      'Cold Snap',
      'Locked Away (pt 1)',
      'Locked Away (pt 2)',
      'Snowfall and Sunlight',
      'Zoo Creeper',
      'A Light in the Attic',
    ],
    'Terror of Demogorgon': [
      'Demon in the Rough',
      'Tower of Vengeance',
      'A Blood Pact',
      'Hideous to Behold',
      'The Price of an Egg',
      'For Want of a Heart',
      'Flocked Together',
      'The Fetid Wedding',
      'Stealing from Sorcere',
      'Back to the Abyss',
      'A Long Way to Mushrooms',
      "If It Wasn't For Bad Luck",
    ],
    'Myth Drannor': [
      'The Safehold',
      'Ettercap Incursion',
      'Death Hosts This Banquet',
      'The Key to the Mythal',
      'Secrets of the Red Wizards',
      'The House of Gems',
      'Times Long Past',
      "The Zulkir's Plan",
      'Book Burning',
      'Seeds of Decay',
      'Portal to Below',
      'Voices of the Dead',
      "Oghma's Song",
    ],
    'Vecna Unleashed': [
      'Vecna Unleashed',
      'Vecna Denied',
      'Taken in Hand',
      'The Devils to Pay',
      'Turn the Page',
      'Grand Theft Aureon',
      'The Evil We Know',
      'Law and Order',
      'Paper Trail',
      'Party 101',
      'What Dreams May Come',
    ],
  }

  for (const saga of SAGAS) {
    test(`${saga.name} (${saga.tier})`, () => {
      const missing = saga.quests.filter(
        (name) => matchQuest(index, name, { difficulty: saga.tier }).kind !== 'matched',
      )
      // The order of the table may differ from the lists above: compare as sets.
      expect(missing.sort()).toEqual([...(MISSING[saga.name] ?? [])].sort())
      for (const name of saga.quests) {
        const match = matchQuest(index, name, { difficulty: saga.tier })
        if (match.kind === 'matched') expect(match.row.difficulty).toBe(saga.tier)
      }
    })
  }

  test('a name the catalog spells otherwise resolves to its row (the epic Gianthold Tor is "Return to Gianthold Tor")', () => {
    const epic = SAGAS.find((s) => s.id === 'in-the-wastes-of-gianthold-epic') as Saga
    expect(epic.quests).toContain('Return to Gianthold Tor')
    const [progress] = sagaProgress([epic], index, [])
    expect(progress?.quests.every((q) => q.catalog?.difficulty === 'Epic')).toBe(true)
  })
})

describe('sagaProgress', () => {
  const row = (name: string, difficulty: 'Heroic' | 'Epic' | 'Legendary', level: number): MatchRow => ({
    name,
    difficulty,
    level,
  })
  const index = questIndex([
    row('The Pit', 'Heroic', 5),
    row('The Pit', 'Epic', 25),
    row('Devil Assault (quest)', 'Heroic', 17),
    row('Tempest', 'Heroic', 13),
  ])
  const SAGA: Saga = {
    id: 'test-heroic',
    name: 'Test',
    tier: 'Heroic',
    npc: 'Someone',
    levels: '5-17',
    rewardXp: null,
    quests: ['The Pit', 'Devil Assault', 'Tempest', 'Brand New Quest', 'Locked Away (pt 1)', 'Locked Away (pt 2)'],
  }
  const done = (name: string, difficulty: string, setting: Setting, reaperSkulls: number | null = null) =>
    ({ name, difficulty, setting, reaperSkulls }) satisfies SagaCompletion
  const quest = (completions: SagaCompletion[], name: string) =>
    sagaProgress([SAGA], index, completions)[0]?.quests.find((q) => q.name === name)

  test('nothing done: every quest listed, the catalog rows and the missing ones', () => {
    const [progress] = sagaProgress([SAGA], index, [])
    expect(progress).toMatchObject({ id: 'test-heroic', done: 0, total: 6 })
    expect(progress?.quests.map((q) => [q.name, q.catalog?.name ?? null, q.done])).toEqual([
      ['The Pit', 'The Pit', false],
      ['Devil Assault', 'Devil Assault (quest)', false],
      ['Tempest', 'Tempest', false],
      ['Brand New Quest', null, false],
      ['Locked Away (pt 1)', null, false],
      ['Locked Away (pt 2)', null, false],
    ])
  })

  const cases: [string, SagaCompletion[], string, Partial<ReturnType<typeof quest>>][] = [
    // [why, completions, saga quest, what it shows]
    ['done at the saga’s tier', [done('The Pit', 'Heroic', 'elite')], 'The Pit', { done: true, best: 'elite' }],
    ['another tier does not count', [done('The Pit', 'Epic', 'elite')], 'The Pit', { done: false, best: null }],
    [
      'a completion without a tier counts for every tier (domain rule 2)',
      [done('The Pit', 'Unknown', 'normal')],
      'The Pit',
      { done: true, best: 'normal' },
    ],
    [
      'every setting logged, least first; the best is the last; reaper is above elite',
      [done('The Pit', 'Heroic', 'elite'), done('The Pit', 'Heroic', 'casual'), done('The Pit', 'Heroic', 'reaper', 4)],
      'The Pit',
      { settings: ['casual', 'elite', 'reaper'], best: 'reaper', reaperSkulls: 4 },
    ],
    [
      'the most skulls of its reaper completions (its tier’s and Unknown’s)',
      [done('The Pit', 'Heroic', 'reaper', 2), done('The Pit', 'Unknown', 'reaper', 6)],
      'The Pit',
      { reaperSkulls: 6 },
    ],
    [
      'unknown is done, and below every setting',
      [done('Tempest', 'Heroic', 'unknown')],
      'Tempest',
      { best: 'unknown' },
    ],
    [
      'stored in the catalog’s spelling (the game’s bare name resolved)',
      [done('Devil Assault (quest)', 'Heroic', 'hard')],
      'Devil Assault',
      { done: true, best: 'hard' },
    ],
    ['a name in another case', [done('the pit', 'Heroic', 'normal')], 'The Pit', { done: true }],
    [
      'a quest the catalog lacks, logged by the game under its own spelling',
      [done('Brand new quest!', 'Heroic', 'elite')],
      'Brand New Quest',
      { done: true, catalog: null },
    ],
    [
      'two quests that share a spelling are not guessed between',
      [done('Locked Away (Part One)', 'Heroic', 'elite')],
      'Locked Away (pt 1)',
      { done: false },
    ],
    [
      'but their own names count',
      [done('Locked Away (pt 2)', 'Heroic', 'elite')],
      'Locked Away (pt 2)',
      { done: true },
    ],
  ]
  for (const [why, completions, name, expected] of cases) {
    test(why, () => expect(quest(completions, name)).toMatchObject(expected as object))
  }

  test('the saga counts its quests done', () => {
    const [progress] = sagaProgress([SAGA], index, [
      done('The Pit', 'Heroic', 'elite'),
      done('Tempest', 'Heroic', 'hard'),
    ])
    expect([progress?.done, progress?.total]).toEqual([2, 6])
  })
})
