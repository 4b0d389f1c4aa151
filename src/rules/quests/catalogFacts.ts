// Facts about catalog rows that sources other than the DDO wiki's list carry, and how such a
// source's levels map onto the wiki's remake tiers. Pure.
import type { QuestTier } from './questTiers'
import { isListedRaid } from './raids'

/** How many players a quest is made for (DDO Audit's `group_size`); a `Raid` is a raid. */
export type GroupSize = 'Solo' | 'Party' | 'Raid'

export const GROUP_SIZES: readonly GroupSize[] = ['Solo', 'Party', 'Raid']

/**
 * Heroic quests are levels 1 to 20 (GAME-RULES.md "Levels and tiers": Heroic 1-20; the DDO wiki's "Quests
 * by level and XP" lists no heroic remake above 20).
 */
export const MAX_HEROIC_QUEST_LEVEL = 20

/**
 * The wiki's tier of a source's epic version, which knows only "epic": its Legendary remakes are
 * those of level 30 and above (in the wiki's list of 2023 every Legendary row is at 30 to 34 and
 * every Epic row at 20 to 29, and no quest has both an Epic and a Legendary row; GAME-RULES.md "Levels and tiers": Epic 20-29, Legendary 30-34).
 */
export function tierOfEpicLevel(level: number): QuestTier {
  return level >= 30 ? 'Legendary' : 'Epic'
}

/**
 * Whether a row is a raid: its group size where its source said one (only DDO Audit's list and
 * another Quest Tracker carry it); else the wiki's "(raid)" disambiguator, or the wiki's raids
 * (raids.ts: the catalog that ships, from the wiki, has no group size, so a fresh install knows
 * its raids from there); null: unknown.
 */
export function isRaid(row: { name: string; groupSize: GroupSize | null; difficulty?: string }): boolean | null {
  if (row.groupSize !== null) return row.groupSize === 'Raid'
  if (/\(raid\)\s*$/i.test(row.name)) return true
  return isListedRaid(row.name, row.difficulty) ? true : null
}
