// Favor rewards (GAME-RULES.md "Favor"; docs/game-data.md "Favor rewards"): the favor at which
// each patron and the character's total favor unlock a reward, and which reward a character, or
// one more run of a quest, comes closest to. Pure functions over plain data; the tables are the
// only place these numbers live.
//
// Source: the DDO wiki's Favor page, https://ddowiki.com/page/Favor — its reward table gives,
// per patron and for total favor, the favor of each reward tier and what it grants (a tier a
// patron's quests cannot reach reads "Unreachable" there; those cells are left out here). The
// stored copy of the page this project could read ends before that table, so the numbers were
// read from a public transcription of it (Kiytan/DDOQT, `static/favor-tiers.json`), and checked
// against the 718-row catalog: every "Unreachable" tier is above what the catalog offers that
// patron, and every listed tier but Morgrave University's 400 and 450 is within it.
import { gameNameKey } from '../character/gameData'

/** One reward tier: the favor it takes and a short description of what it grants. */
export interface FavorTier {
  at: number
  reward: string
}

/**
 * Total-favor rewards: the character's favor over every patron. Some apply beyond the character
 * (the wiki: future characters of the account on the same server); the tomes are the character's.
 * Not listed: the 25 DDO Points per 100 favor and the one-time points at a server's first 5, 25,
 * 50, 500 and each 1,000 favor (https://ddocompendium.com/w/Favor), which are not in the reward
 * table; a reward every 100 favor would always be the "next" one and drown the others.
 */
export const TOTAL_FAVOR_REWARDS: readonly FavorTier[] = [
  // A 2011 copy of this list has the Drow race at 400; the wiki's current table has Warforged.
  { at: 400, reward: 'Warforged race unlocked on the server' },
  { at: 1000, reward: 'New characters on the server may start at level 4' },
  { at: 1750, reward: '32-point builds on the server, and a +2 ability tome' },
  { at: 2500, reward: 'Favored Soul class unlocked on the server' },
  { at: 3000, reward: 'New characters on the server may start at level 7' },
  { at: 5000, reward: 'A +5 ability tome' },
  { at: 7500, reward: 'A +8 ability tome' },
]

/**
 * Each patron's reward tiers, lowest first, under the catalog's spelling of the patron (the
 * wiki's). Cormanthor Elves has no quest in the 718-row catalog yet; the wiki lists it.
 */
export const PATRON_FAVOR_REWARDS: Readonly<Record<string, readonly FavorTier[]>> = {
  'Agents of Argonnessen': [
    { at: 75, reward: 'One item from a list' },
    { at: 150, reward: 'Feat: +10 hit points' },
    { at: 400, reward: 'Feat: +2 saves against dragons' },
  ],
  'Cormanthor Elves': [
    { at: 75, reward: 'Feat: +1 saves against spells' },
    { at: 150, reward: 'Feat: +5 hit points' },
  ],
  'House Cannith': [
    { at: 50, reward: 'Patron vendor: crafting XP potion, crafting success booster, Mark of House Cannith' },
    { at: 150, reward: 'Artificer unlock' },
  ],
  'House Deneith': [
    { at: 75, reward: 'Feat: +2 Intimidate and Search' },
    { at: 150, reward: 'Feat: +5 hit points' },
  ],
  'House Jorasco': [
    { at: 75, reward: 'One-hour divine buffs (weak); feat: +2 Heal and Diplomacy' },
    { at: 150, reward: 'One-hour divine buffs (moderate); feat: +5 hit points' },
  ],
  'House Kundarak': [
    { at: 75, reward: 'Character bank: 20 slots for 2,000 pp' },
    { at: 150, reward: 'Character bank: 20 more slots for 8,000 pp' },
  ],
  'House Phiarlan': [
    { at: 75, reward: 'One-hour arcane buffs; feat: +2 Hide and Perform' },
    { at: 150, reward: 'Clicky: +50% run speed in public areas' },
  ],
  'Keepers of the Feather': [
    { at: 60, reward: 'Feat: +2 saves against undead' },
    { at: 120, reward: 'Small augment bag' },
    { at: 180, reward: 'Vistani Knife Fighter unlock' },
    { at: 240, reward: 'Feat: +2 Listen and Hide' },
  ],
  'Morgrave University': [
    { at: 75, reward: 'Feat: +2 Search and Spellcraft' },
    { at: 150, reward: 'Feat: +5 hit points' },
    { at: 400, reward: 'Feat: +2 saves against magical beasts' },
    { at: 450, reward: 'Feat: +2 Use Magic Device' },
  ],
  'Purple Dragon Knights': [
    { at: 125, reward: 'Clicky: teleport to Eveningstar' },
    { at: 250, reward: 'Spotted Wolf Pup; feat: +5 hit points' },
    { at: 375, reward: 'A set bonus added to certain items' },
    { at: 500, reward: 'Feat: +2 saves against evil creatures' },
  ],
  'Sharn City Council': [
    { at: 75, reward: 'Feat: +2 Bluff and Haggle' },
    { at: 150, reward: 'Feat: +5 hit points' },
    { at: 225, reward: 'Inquisitive unlock' },
  ],
  'The Coin Lords': [
    { at: 75, reward: 'Character inventory tab' },
    { at: 150, reward: 'Another inventory tab (a Collapsed Portable Hole and 10,000 pp, or 6 Astral Shards)' },
    { at: 400, reward: 'Feat: +2 Diplomacy and Intimidate' },
  ],
  'The Free Agents': [
    { at: 75, reward: 'Patron vendor: +2 tools, trapmaking ingredients' },
    { at: 150, reward: 'Patron vendor: +4 tools, empty vials' },
    { at: 400, reward: 'Repairs with a lower chance of permanent damage' },
    { at: 700, reward: 'Falconry unlock' },
  ],
  'The Gatekeepers': [
    { at: 75, reward: 'Feat: +2 Spot and Concentration' },
    { at: 150, reward: 'Feat: +5 hit points' },
    { at: 400, reward: 'Horizon Walker unlock' },
    { at: 700, reward: 'Feat: +2 saves against extraplanar creatures' },
  ],
  'The Harpers': [
    { at: 125, reward: 'Lesser Harper Pin; feat: +2 Perform and Bluff' },
    { at: 250, reward: 'Greater Harper Pin; feat: +5 hit points' },
    { at: 310, reward: 'Harper Agent unlock' },
  ],
  'The Silver Flame': [
    { at: 75, reward: 'Spirit binders at half cost' },
    { at: 150, reward: 'Nearly double passive regeneration in taverns' },
    { at: 400, reward: 'Silver ammunition; healing potions (with a penalty)' },
  ],
  'The Summer Court': [
    { at: 45, reward: 'Feat: +2 saves against fey creatures' },
    { at: 90, reward: 'Feat: +5 hit points' },
    { at: 135, reward: 'Feydark Illusionist unlock' },
    { at: 180, reward: 'Feat: +2 Diplomacy and Perform' },
  ],
  'The Twelve': [
    // At 0 favor: every character has it, so it is never a "next" reward.
    { at: 0, reward: 'Small ingredients bag' },
    { at: 40, reward: 'The crafting altar and shard vendor in Meridia' },
    { at: 100, reward: 'Large ingredients bag' },
    { at: 400, reward: 'Feat: +2 saves against spells' },
  ],
  'The Yugoloth': [{ at: 75, reward: 'Essence potions' }],
}

const TIERS_BY_KEY = new Map(Object.entries(PATRON_FAVOR_REWARDS).map(([name, tiers]) => [gameNameKey(name), tiers]))

/** A patron's tiers; case and spacing of the name do not matter. Undefined for a patron the wiki has no tiers for. */
export function patronTiers(patron: string): readonly FavorTier[] | undefined {
  return TIERS_BY_KEY.get(gameNameKey(patron))
}

/** A reward: of the total (`patron` absent) or of one patron (the name as the caller spelled it). */
export interface FavorReward {
  kind: 'total' | 'patron'
  patron?: string
  at: number
  reward: string
}

/** The next reward on one track, with the favor the character has on it and what is missing. */
export interface NextFavorReward extends FavorReward {
  have: number
  missing: number
}

/** The first tier above `have`, or undefined when `have` is at or past every tier. */
function nextTier(tiers: readonly FavorTier[], have: number): FavorTier | undefined {
  return tiers.find((tier) => tier.at > have)
}

function rewardOf(tier: FavorTier, patron: string | undefined): FavorReward {
  return patron === undefined
    ? { kind: 'total', at: tier.at, reward: tier.reward }
    : { kind: 'patron', patron, at: tier.at, reward: tier.reward }
}

/** Ties: the total before patrons, then patrons by name, so the order never depends on input order. */
function byMissing(a: NextFavorReward, b: NextFavorReward): number {
  if (a.missing !== b.missing) return a.missing - b.missing
  if (a.kind !== b.kind) return a.kind === 'total' ? -1 : 1
  const [pa, pb] = [a.patron ?? '', b.patron ?? '']
  return pa < pb ? -1 : pa > pb ? 1 : 0
}

/**
 * The next reward of the total and of each patron in `favorByPatron` (the caller's patrons, e.g.
 * the catalog's: a patron missing from it is not listed, so one no quest serves never shows),
 * sorted by favor missing, fewest first. Patrons past every tier, and names with no tiers (the
 * catalog's '' for quests without a patron), are left out; so is the total past 7,500.
 */
export function nextFavorRewards(
  favorByPatron: Readonly<Record<string, number>>,
  totalFavor: number,
): NextFavorReward[] {
  const next: NextFavorReward[] = []
  const total = nextTier(TOTAL_FAVOR_REWARDS, totalFavor)
  if (total) next.push({ ...rewardOf(total, undefined), have: totalFavor, missing: total.at - totalFavor })
  for (const [patron, have] of Object.entries(favorByPatron)) {
    const tier = nextTier(patronTiers(patron) ?? [], have)
    if (tier) next.push({ ...rewardOf(tier, patron), have, missing: tier.at - have })
  }
  return next.sort(byMissing)
}

/** What one run would do for favor rewards (see `compareFavorSteps` for how runs rank). */
export interface FavorStep {
  /** Rewards the run reaches: the patron's tiers, then the total's, each lowest first. */
  reaches: FavorReward[]
  /**
   * After the run, the nearer of the two next rewards the run moves (the patron's and the
   * total's; the total wins a tie) and the favor it still misses. Null when the run adds no
   * favor (it brings nothing closer) or when both tracks are past every tier.
   */
  closest: { reward: FavorReward; missingAfter: number } | null
}

/**
 * What a run adding `gain.favor` to `gain.patron` (and so to the total) would reach, and how
 * close it leaves the character to the next reward it moves. A patron with no tiers ('' or one
 * the wiki does not list) still moves the total. Favor already earned for the quest is the
 * caller's to subtract: `gain.favor` is what the run adds.
 */
export function favorStepsToReward(
  gain: { patron: string; favor: number },
  favorByPatron: Readonly<Record<string, number>>,
  totalFavor: number,
): FavorStep {
  if (!(gain.favor > 0)) return { reaches: [], closest: null }
  const tiers = patronTiers(gain.patron) ?? []
  const had = favorByPatron[gain.patron] ?? 0
  const [patronAfter, totalAfter] = [had + gain.favor, totalFavor + gain.favor]
  const reached = (list: readonly FavorTier[], before: number, after: number) =>
    list.filter((tier) => tier.at > before && tier.at <= after)
  const reaches = [
    ...reached(tiers, had, patronAfter).map((tier) => rewardOf(tier, gain.patron)),
    ...reached(TOTAL_FAVOR_REWARDS, totalFavor, totalAfter).map((tier) => rewardOf(tier, undefined)),
  ]
  const candidates: { reward: FavorReward; missingAfter: number }[] = []
  const total = nextTier(TOTAL_FAVOR_REWARDS, totalAfter)
  if (total) candidates.push({ reward: rewardOf(total, undefined), missingAfter: total.at - totalAfter })
  const patron = nextTier(tiers, patronAfter)
  if (patron) candidates.push({ reward: rewardOf(patron, gain.patron), missingAfter: patron.at - patronAfter })
  const closest = candidates.reduce<FavorStep['closest']>(
    (best, c) => (best === null || c.missingAfter < best.missingAfter ? c : best),
    null,
  )
  return { reaches, closest }
}

/**
 * Order of runs for "brings the character soonest to its next favor reward" (a sort comparator,
 * best first):
 *   1. a run that reaches a reward before one that reaches none;
 *   2. among runs that reach rewards, more rewards reached first;
 *   3. then the smaller favor still missing to the next reward after the run (`missingAfter`);
 *   4. a run with no `closest` (it adds no favor, or nothing is left to reach) last of its group.
 * Equal runs compare 0, so a stable sort keeps the caller's order (e.g. by XP) among them.
 */
export function compareFavorSteps(a: FavorStep, b: FavorStep): number {
  const reachA = a.reaches.length > 0
  const reachB = b.reaches.length > 0
  if (reachA !== reachB) return reachA ? -1 : 1
  if (a.reaches.length !== b.reaches.length) return b.reaches.length - a.reaches.length
  if (a.closest === null || b.closest === null) {
    if (a.closest === b.closest) return 0
    return a.closest === null ? 1 : -1
  }
  return a.closest.missingAfter - b.closest.missingAfter
}
