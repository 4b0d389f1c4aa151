// The level band (issue 42, section 3): the base quest levels a character's tracker shows at
// `levelBand` 0, that "what to run next" ranks and that a group's needs count the character for.
// The bottom is the Full XP rule (GAME-RULES.md "Effective quest level and the Full XP band",
// from the DDO wiki's "Experience point" page, https://ddowiki.com/page/Experience_point); the
// top, DEFAULT_LEVELS_ABOVE, is this project's choice, reasoned below. A player may move either
// end (`levelsBelow`, `levelsAbove`, relative to the character's level so the band follows it as
// it levels). Pure functions over plain data; the tracker builds a range once per filter change
// and then only compares.
import { MAX_TOTAL_LEVEL, minLevel, type PlayOn } from '../character/levels'
import type { Difficulty } from './completion'

/** `levelBand` 0: the band (the Full XP filter of the contract). */
export const LEVEL_BAND_FULL_XP = 0
/** `levelBand` 255: every level. The contract shows no other value; the tracker reads any other as this. */
export const LEVEL_BAND_ANY = 255

/**
 * How far above the character's level the band reaches by default, in base quest levels.
 * Quests above your level give full XP (the over-level penalty is for quests below it) but are
 * harder: the DDO wiki's "Difficulty" page (https://ddowiki.com/page/Difficulty) has higher
 * settings more challenging, and GAME-RULES.md's effective levels (from the wiki) put elite at
 * base + 2. So a quest two levels above you run on normal is as hard as one at your level on
 * elite, the hardest setting the game tunes short of reaper; three above on normal is already
 * harder than anything at your own level. Two, then: what the character can run now.
 */
export const DEFAULT_LEVELS_ABOVE = 2

/**
 * The lowest character level that may enter Epic and Legendary remakes. The DDO wiki's "Heroic"
 * page (https://ddowiki.com/page/Heroic): "Heroic characters cannot enter epic content", and a
 * character stops being heroic when it takes level 20.
 */
export const FIRST_EPIC_LEVEL = 20

/** The player's range, kept on the character: each end relative to its level; null = the default. */
export interface BandChoice {
  /** 0 = the band; 255 (any other value) = every level. Omitted: the band. */
  levelBand?: number
  /** The bottom is the character's level minus this; null or omitted: the Full XP minimum at Play on. */
  levelsBelow?: number | null
  /** The top is the character's level plus this; null or omitted: DEFAULT_LEVELS_ABOVE. */
  levelsAbove?: number | null
}

/** The band of one character, ready to compare against (build it once, test many rows). */
export interface LevelRange {
  /** Lowest base quest level in the band. */
  from: number
  /** Highest base quest level in the band. */
  to: number
  /** Whether Epic and Legendary remakes may be in it (the character is level 20 or more). */
  epicContent: boolean
}

/**
 * The band's base levels for a character at `characterLevel` playing on `playOn` (the setting
 * its Full XP minimum is counted at), whatever `levelBand` says: the band `levelBand` 0 shows.
 * Never below 1; the top never below the bottom. A character with no level yet (0: no class
 * levels recorded, as a character made on the website starts) has no default top and may be at
 * any tier: nothing says what it can run, so its band hides nothing a player did not ask to hide.
 */
export function levelRange(characterLevel: number, playOn: PlayOn, choice: BandChoice = {}): LevelRange {
  const known = characterLevel >= 1
  const below = choice.levelsBelow ?? null
  const above = choice.levelsAbove ?? null
  const from = below === null ? minLevel(characterLevel, playOn) : Math.max(1, characterLevel - below)
  const top = above !== null ? characterLevel + above : known ? characterLevel + DEFAULT_LEVELS_ABOVE : MAX_TOTAL_LEVEL
  return { from, to: Math.max(from, top), epicContent: !known || characterLevel >= FIRST_EPIC_LEVEL }
}

/** Is a remake at `questLevel` of tier `tier` inside `range`? `null` is every level (`levelBand` 255). */
export function inRange(questLevel: number, tier: Difficulty, range: LevelRange | null): boolean {
  if (range === null) return true
  if (!range.epicContent && (tier === 'Epic' || tier === 'Legendary')) return false
  return questLevel >= range.from && questLevel <= range.to
}

/** The range `choice` shows for the character: `null` (every level) unless `levelBand` is 0 or omitted. */
export function shownRange(characterLevel: number, playOn: PlayOn, choice: BandChoice = {}): LevelRange | null {
  const band = choice.levelBand ?? LEVEL_BAND_FULL_XP
  return band === LEVEL_BAND_FULL_XP ? levelRange(characterLevel, playOn, choice) : null
}

/**
 * Is a remake in a character's band? One call for one question (a grid cell, a mark): the
 * tracker, the ranking and a group's needs build the range once (levelRange) and use inRange.
 * `band` omitted or `{ playOn }` alone is the default band: what the character can run for full
 * XP now, up to DEFAULT_LEVELS_ABOVE above its level.
 */
export function inLevelBand(
  questLevel: number,
  tier: Difficulty,
  characterLevel: number,
  band: BandChoice & { playOn: PlayOn } = { playOn: 'any' },
): boolean {
  return inRange(questLevel, tier, shownRange(characterLevel, band.playOn, band))
}
