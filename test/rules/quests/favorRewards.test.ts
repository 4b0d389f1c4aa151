// Favor rewards (src/rules/quests/favorRewards.ts): the next reward per track, what one run
// reaches or leaves missing, and the order a "next favor reward" ranking sorts runs in. Numbers
// are worked by hand from the tables (e.g. Coin Lords 75/150/400, total 400/1000/...).
import { describe, expect, test } from 'bun:test'
import {
  compareFavorSteps,
  type FavorStep,
  favorStepsToReward,
  nextFavorRewards,
  PATRON_FAVOR_REWARDS,
  patronTiers,
  TOTAL_FAVOR_REWARDS,
} from '../../../src/rules/quests/favorRewards'
import { readRows, SHARED_718, sharedExists } from '../../catalogFixtures'

describe('the tables', () => {
  const tracks = [TOTAL_FAVOR_REWARDS, ...Object.values(PATRON_FAVOR_REWARDS)]
  test('every track is sorted by favor, strictly, with a description per tier', () => {
    for (const tiers of tracks) {
      expect(tiers.length).toBeGreaterThan(0)
      for (let i = 1; i < tiers.length; i++) expect(tiers[i].at).toBeGreaterThan(tiers[i - 1].at)
      for (const tier of tiers) expect(tier.reward.length).toBeGreaterThan(0)
    }
  })

  test('patron names match without regard to case or spacing; unknown names have no tiers', () => {
    expect(patronTiers('  the coin   LORDS ')).toBe(PATRON_FAVOR_REWARDS['The Coin Lords'])
    expect(patronTiers('')).toBeUndefined()
    expect(patronTiers('The Coin Lord')).toBeUndefined()
  })
})

describe.skipIf(!sharedExists)('against the real catalog (../shared/fixtures)', () => {
  // What the catalog offers per patron: each quest name once, its most valuable remake on elite.
  const offered = async () => {
    const best = new Map<string, { favor: number; patron: string }>()
    for (const row of await readRows(SHARED_718)) {
      const favor = (row.favor ?? 0) * 3
      const seen = best.get(row.name)
      if (!seen || favor > seen.favor) best.set(row.name, { favor, patron: row.patron })
    }
    const byPatron = new Map<string, number>()
    for (const { favor, patron } of best.values()) byPatron.set(patron, (byPatron.get(patron) ?? 0) + favor)
    return byPatron
  }

  test('every patron the catalog names has tiers, spelled as the catalog spells it', async () => {
    const patrons = [...(await offered()).keys()].filter((p) => p !== '')
    expect(patrons).toHaveLength(18)
    for (const patron of patrons) expect(Object.keys(PATRON_FAVOR_REWARDS)).toContain(patron)
  })

  test("each tier is within the favor the catalog offers, but Morgrave University's 400 and 450", async () => {
    const byPatron = await offered()
    const beyond: string[] = []
    for (const [patron, max] of byPatron) {
      for (const tier of patronTiers(patron) ?? []) if (tier.at > max) beyond.push(`${patron} ${tier.at}`)
    }
    expect(beyond).toEqual(['Morgrave University 400', 'Morgrave University 450'])
    const total = [...byPatron.values()].reduce((a, b) => a + b, 0)
    expect(TOTAL_FAVOR_REWARDS.at(-1)!.at).toBeLessThanOrEqual(total)
  })
})

describe('nextFavorRewards', () => {
  test('the next tier of the total and of each patron, fewest missing first', () => {
    const next = nextFavorRewards({ 'The Coin Lords': 95, 'House Kundarak': 140, 'The Summer Court': 30 }, 395)
    expect(next).toEqual([
      { kind: 'total', at: 400, have: 395, missing: 5, reward: 'Warforged race unlocked on the server' },
      {
        kind: 'patron',
        patron: 'House Kundarak',
        at: 150,
        have: 140,
        missing: 10,
        reward: 'Character bank: 20 more slots for 8,000 pp',
      },
      {
        kind: 'patron',
        patron: 'The Summer Court',
        at: 45,
        have: 30,
        missing: 15,
        reward: 'Feat: +2 saves against fey creatures',
      },
      {
        kind: 'patron',
        patron: 'The Coin Lords',
        at: 150,
        have: 95,
        missing: 55,
        reward: 'Another inventory tab (a Collapsed Portable Hole and 10,000 pp, or 6 Astral Shards)',
      },
    ])
  })

  test('a tier reached exactly is behind: the next one counts', () => {
    const [coin] = nextFavorRewards({ 'The Coin Lords': 75 }, 7500 + 1)
    expect(coin).toMatchObject({ patron: 'The Coin Lords', at: 150, missing: 75 })
  })

  test('patrons past every tier, names without tiers, and the total past 7,500 are left out', () => {
    const next = nextFavorRewards({ 'House Kundarak': 150, 'The Yugoloth': 111, '': 40, 'Someone New': 3 }, 7500)
    expect(next).toEqual([])
  })

  test('only the patrons passed are listed (a patron no quest serves never shows)', () => {
    const next = nextFavorRewards({}, 0)
    expect(next).toEqual([
      { kind: 'total', at: 400, have: 0, missing: 400, reward: 'Warforged race unlocked on the server' },
    ])
  })

  test("The Twelve's tier at 0 is never next: at 0 favor the next is 40", () => {
    const [twelve] = nextFavorRewards({ 'The Twelve': 0 }, 9999)
    expect(twelve).toMatchObject({ at: 40, have: 0, missing: 40 })
  })

  test('ties: the total first, then patrons by name, whatever the input order', () => {
    const next = nextFavorRewards({ 'The Harpers': 120, 'House Deneith': 70 }, 995)
    expect(next.map((r) => [r.kind, r.patron, r.missing])).toEqual([
      ['total', undefined, 5],
      ['patron', 'House Deneith', 5],
      ['patron', 'The Harpers', 5],
    ])
  })

  test('a patron name is matched loosely but reported as the caller spelled it', () => {
    const [coin] = nextFavorRewards({ 'the coin lords': 10 }, 9999)
    expect(coin).toMatchObject({ kind: 'patron', patron: 'the coin lords', at: 75, missing: 65 })
  })
})

describe('favorStepsToReward', () => {
  const coinLords95 = { 'The Coin Lords': 95 }

  test('The Twelve at 95 with a tier at 100: a run adding 6 reaches it', () => {
    const step = favorStepsToReward({ patron: 'The Twelve', favor: 6 }, { 'The Twelve': 95 }, 0)
    expect(step.reaches).toEqual([{ kind: 'patron', patron: 'The Twelve', at: 100, reward: 'Large ingredients bag' }])
    // After: The Twelve 101 (400 is 299 away), total 6 (400 is 394 away).
    expect(step.closest).toEqual({
      reward: { kind: 'patron', patron: 'The Twelve', at: 400, reward: 'Feat: +2 saves against spells' },
      missingAfter: 299,
    })
  })

  test('one adding 3 leaves 2 missing', () => {
    const step = favorStepsToReward({ patron: 'The Twelve', favor: 3 }, { 'The Twelve': 95 }, 0)
    expect(step.reaches).toEqual([])
    expect(step.closest).toEqual({
      reward: { kind: 'patron', patron: 'The Twelve', at: 100, reward: 'Large ingredients bag' },
      missingAfter: 2,
    })
  })

  test('landing exactly on a tier reaches it', () => {
    const step = favorStepsToReward({ patron: 'The Twelve', favor: 5 }, { 'The Twelve': 95 }, 0)
    expect(step.reaches.map((r) => r.at)).toEqual([100])
  })

  test('total 395, milestone 400: any patron adding 5 reaches it, even one without tiers', () => {
    const step = favorStepsToReward({ patron: '', favor: 5 }, {}, 395)
    expect(step.reaches).toEqual([{ kind: 'total', at: 400, reward: 'Warforged race unlocked on the server' }])
    expect(step.closest).toEqual({
      reward: { kind: 'total', at: 1000, reward: 'New characters on the server may start at level 4' },
      missingAfter: 600,
    })
  })

  test('total 395 and Coin Lords 95: adding 3 leaves the total 2 short, nearer than the patron (52)', () => {
    const step = favorStepsToReward({ patron: 'The Coin Lords', favor: 3 }, coinLords95, 395)
    expect(step.reaches).toEqual([])
    expect(step.closest?.reward.kind).toBe('total')
    expect(step.closest?.missingAfter).toBe(2)
  })

  test('one run can reach several rewards: patron tiers first, then the total, each lowest first', () => {
    // Coin Lords 70 -> 160 passes 75 and 150; total 390 -> 480 passes 400.
    const step = favorStepsToReward({ patron: 'The Coin Lords', favor: 90 }, { 'The Coin Lords': 70 }, 390)
    expect(step.reaches.map((r) => [r.kind, r.at])).toEqual([
      ['patron', 75],
      ['patron', 150],
      ['total', 400],
    ])
    // After: Coin Lords 160 (400 is 240 away), total 480 (1000 is 520 away).
    expect(step.closest).toMatchObject({ reward: { patron: 'The Coin Lords', at: 400 }, missingAfter: 240 })
  })

  test('a tie between the total and the patron goes to the total', () => {
    const step = favorStepsToReward({ patron: 'House Deneith', favor: 1 }, { 'House Deneith': 69 }, 994)
    expect(step.closest).toMatchObject({ reward: { kind: 'total', at: 1000 }, missingAfter: 5 })
  })

  test('a patron missing from favorByPatron starts at 0', () => {
    const step = favorStepsToReward({ patron: 'The Summer Court', favor: 45 }, {}, 0)
    expect(step.reaches).toEqual([
      { kind: 'patron', patron: 'The Summer Court', at: 45, reward: 'Feat: +2 saves against fey creatures' },
    ])
  })

  test('a run adding no favor brings nothing closer', () => {
    expect(favorStepsToReward({ patron: 'The Coin Lords', favor: 0 }, coinLords95, 395)).toEqual({
      reaches: [],
      closest: null,
    })
  })

  test('past every tier on both tracks: nothing to reach, no closest', () => {
    const step = favorStepsToReward({ patron: 'The Yugoloth', favor: 9 }, { 'The Yugoloth': 100 }, 8000)
    expect(step).toEqual({ reaches: [], closest: null })
  })

  test('a patron past its tiers still moves the total', () => {
    const step = favorStepsToReward({ patron: 'The Yugoloth', favor: 9 }, { 'The Yugoloth': 100 }, 2495)
    expect(step.reaches).toEqual([{ kind: 'total', at: 2500, reward: 'Favored Soul class unlocked on the server' }])
  })
})

describe('compareFavorSteps: the ranking of candidate runs', () => {
  // A character with Coin Lords 95, Silver Flame 70, total 300; candidate runs by patron and favor.
  const have = { 'The Coin Lords': 95, 'The Silver Flame': 70 }
  const run = (patron: string, favor: number) => ({
    name: `${patron} +${favor}`,
    step: favorStepsToReward({ patron, favor }, have, 300),
  })
  const ranked = (runs: { name: string; step: FavorStep }[]) =>
    runs.sort((a, b) => compareFavorSteps(a.step, b.step)).map((r) => r.name)

  test('reaching first (more rewards first), then the smallest gap left, then runs adding nothing', () => {
    const runs = [
      run('The Coin Lords', 0), // nothing
      run('The Coin Lords', 3), // Coin Lords 98: 52 to 150; total 303: 97 to 400 -> 52
      run('The Silver Flame', 3), // Silver Flame 73: 2 to 75 -> 2
      run('The Silver Flame', 6), // reaches 75
      run('The Silver Flame', 100), // reaches 75 and 150 (Silver Flame 170) and the total's 400: three
      run('The Coin Lords', 9), // Coin Lords 104: 46 to 150 -> 46
    ]
    expect(ranked(runs)).toEqual([
      'The Silver Flame +100',
      'The Silver Flame +6',
      'The Silver Flame +3',
      'The Coin Lords +9',
      'The Coin Lords +3',
      'The Coin Lords +0',
    ])
  })

  test('among runs reaching as many rewards, the one left nearer the next reward first', () => {
    const a = favorStepsToReward({ patron: 'The Silver Flame', favor: 6 }, have, 300) // 76: 74 to 150
    const b = favorStepsToReward({ patron: 'The Silver Flame', favor: 70 }, have, 300) // 140: 10 to 150
    expect(compareFavorSteps(b, a)).toBeLessThan(0)
    expect(compareFavorSteps(a, b)).toBeGreaterThan(0)
  })

  test('equal runs compare 0, so a stable sort keeps the caller order', () => {
    const a = favorStepsToReward({ patron: 'The Coin Lords', favor: 3 }, have, 300)
    expect(compareFavorSteps(a, { ...a })).toBe(0)
    const none = { reaches: [], closest: null }
    expect(compareFavorSteps(none, { reaches: [], closest: null })).toBe(0)
  })
})
