// Who in a group still needs what (issue 24): for each quest, the characters that have not done it
// at a setting (or a harder one) in their current life, and those that have; and the party
// planner's list, the quests every character of a party can run for full XP, most needed first.
// Pure functions over the catalog and each character's completions of this life.
import { minLevel, type PlayOn } from '../character/levels'
import type { Setting } from './completion'
import { favorFor } from './favor'
import { inRange, type LevelRange } from './levelBand'
import { type CompletionIndex, completionsFor, isDoneAt, SETTING_RANK, type TrackerRow } from './tracker'
import { settingXp } from './xp'

/** Characters in one party: a DDO party is six. */
export const MAX_PARTY_SIZE = 6

/** A character as these rules see it. */
export interface NeedsCharacter {
  id: number
  /** The current life's completions, indexed by name. */
  index: CompletionIndex
  level: number
  /** `{ "<pack>": false }`: a pack the character does not have. */
  packState: Readonly<Record<string, unknown>>
}

export interface QuestNeed {
  name: string
  difficulty: TrackerRow['difficulty']
  /** Characters that have not done it at the setting or a harder one, in the given order. */
  neededBy: number[]
  doneBy: number[]
}

export function questNeed(
  row: Pick<TrackerRow, 'name' | 'difficulty'>,
  characters: readonly NeedsCharacter[],
  setting: Setting,
): QuestNeed {
  const neededBy: number[] = []
  const doneBy: number[] = []
  for (const character of characters) {
    if (isDoneAt(row, character.index, setting)) doneBy.push(character.id)
    else neededBy.push(character.id)
  }
  return { name: row.name, difficulty: row.difficulty, neededBy, doneBy }
}

/**
 * What a character has done of each of `rows` in its current life, for many questions over the
 * same rows (a group's needs at every setting): per row, 1 + the rank of the hardest setting that
 * counts for it (isDoneAt's: its own tier or `Unknown`), 0 for none. One byte a row: kept per
 * character between requests, 718 bytes for the whole catalog.
 */
export function doneRanks(
  rows: readonly Pick<TrackerRow, 'name' | 'difficulty'>[],
  index: CompletionIndex,
): Uint8Array {
  const ranks = new Uint8Array(rows.length)
  rows.forEach((row, i) => {
    for (const completion of completionsFor(row, index)) {
      ranks[i] = Math.max(ranks[i] as number, SETTING_RANK[completion.setting] + 1)
    }
  })
  return ranks
}

/** A character as the group's needs over the catalog see it: its doneRanks of the catalog's rows. */
export interface RankedCharacter {
  id: number
  ranks: Uint8Array
  /**
   * Its level band (levelBand.ts levelRange): it needs only the quests inside it (issue 42,
   * section 3). Omitted or null: every level.
   */
  band?: LevelRange | null
}

/**
 * questNeed of row `i` of the rows the characters' ranks were made from: the same answer, by
 * lookups; but a character whose band the row is outside of is not among those that need it
 * (it is among those that have done it when it has).
 */
export function rankedNeed(
  row: Pick<TrackerRow, 'name' | 'difficulty' | 'level'>,
  i: number,
  characters: readonly RankedCharacter[],
  setting: Setting,
): QuestNeed {
  const needed = SETTING_RANK[setting] + 1
  const neededBy: number[] = []
  const doneBy: number[] = []
  for (const character of characters) {
    if ((character.ranks[i] as number) >= needed) doneBy.push(character.id)
    else if (inRange(row.level, row.difficulty, character.band ?? null)) neededBy.push(character.id)
  }
  return { name: row.name, difficulty: row.difficulty, neededBy, doneBy }
}

export interface PartyQuest extends QuestNeed {
  level: number
  patron: string
  pack: string
  duration: string
  /** The quest's base favor at the setting (what a first completion there is worth). */
  favor: number
  /** The catalog's base XP at the setting (reaper: elite's), null when the wiki does not give it. */
  xp: number | null
}

/**
 * The band of base quest levels that gives every character full XP at `setting`: from the
 * highest of their lowest full-XP levels up to the lowest character level (a party runs what its
 * lowest member is at home in, narrower than each character's own band of levelBand.ts).
 */
export function partyBand(characters: readonly Pick<NeedsCharacter, 'level'>[], setting: PlayOn) {
  return {
    from: Math.max(1, ...characters.map((c) => minLevel(c.level, setting))),
    to: Math.min(...characters.map((c) => c.level)),
  }
}

/**
 * The quests every character of the party can run for full XP at `setting`: inside the party's
 * band and in a pack each of them has. Most needed first, then the higher level (more XP), then
 * by name; quests nobody needs stay at the end, for a party that runs for fun.
 */
export function partyQuests(
  rows: readonly TrackerRow[],
  party: readonly NeedsCharacter[],
  setting: Exclude<Setting, 'unknown'>,
): PartyQuest[] {
  if (party.length === 0) return []
  const band = partyBand(party, setting)
  const quests: PartyQuest[] = []
  for (const row of rows) {
    if (row.level < band.from || row.level > band.to) continue
    if (party.some((c) => c.packState[row.pack] === false)) continue
    quests.push({
      ...questNeed(row, party, setting),
      level: row.level,
      patron: row.patron,
      pack: row.pack,
      duration: row.duration,
      favor: favorFor(row.favor, setting),
      xp: settingXp(row, setting),
    })
  }
  return quests.sort(
    (a, b) => b.neededBy.length - a.neededBy.length || b.level - a.level || a.name.localeCompare(b.name),
  )
}
