// The DDO picklists GET /characters/meta returns. Classes and races are read from the game data
// table (gameData.ts: names, aliases, sources); alignments, genders and servers are here. Sources:
// the DDO wiki's server pages and DDO Builder's data files (2025/2026 game state).
import { CLASSES, findClass, findRace, RACES } from './gameData'
import { MAX_CLASS_LEVEL, MAX_EPIC_LEVELS, MAX_MULTICLASS, MAX_TOTAL_LEVEL } from './levels'

/** Every class, archetypes included, in the game's spelling (from the game data table). */
export const CLASS_NAMES: readonly string[] = CLASSES.map((c) => c.name).sort()

/** Every race, iconics included, in the game's spelling (from the game data table). */
export const RACE_NAMES: readonly string[] = RACES.map((r) => r.name).sort()

/** Evil alignments became available to players with the Dhampir race. */
export const ALIGNMENTS = [
  'Lawful Good',
  'Neutral Good',
  'Chaotic Good',
  'Lawful Neutral',
  'True Neutral',
  'Chaotic Neutral',
  'Lawful Evil',
  'Neutral Evil',
  'Chaotic Evil',
] as const

export const GENDERS = ['Male', 'Female'] as const

/**
 * Live worlds after the 2025 move to the 64-bit servers (the older worlds were merged into
 * these), plus the seasonal Hardcore League server. Lamannia, the preview server, is not live.
 */
export const SERVERS = ['Cormyr', 'Moonsea', 'Shadowdale', 'Thrane', 'Hardcore'] as const

/** The body of GET /characters/meta (fresh arrays, so callers cannot alter the lists). */
export interface CharacterMeta {
  classes: string[]
  races: string[]
  alignments: string[]
  genders: string[]
  servers: string[]
  maxMulticlass: typeof MAX_MULTICLASS
  maxClassLevel: typeof MAX_CLASS_LEVEL
  maxEpicLevels: typeof MAX_EPIC_LEVELS
  maxTotalLevel: typeof MAX_TOTAL_LEVEL
}

export function characterMeta(): CharacterMeta {
  return {
    classes: [...CLASS_NAMES],
    races: [...RACE_NAMES],
    alignments: [...ALIGNMENTS],
    genders: [...GENDERS],
    servers: [...SERVERS],
    maxMulticlass: MAX_MULTICLASS,
    maxClassLevel: MAX_CLASS_LEVEL,
    maxEpicLevels: MAX_EPIC_LEVELS,
    maxTotalLevel: MAX_TOTAL_LEVEL,
  }
}

/** The picklist spelling of `value` when it matches one case-insensitively, else `value` as given. */
export function canonicalSpelling(value: string, list: readonly string[]): string {
  const lower = value.toLowerCase()
  return list.find((item) => item.toLowerCase() === lower) ?? value
}

/**
 * The game's spelling of a class: its picklist name for any spelling or alias of it the table
 * knows ("blight caster" -> "Blightcaster"), else `value` as given (the game adds classes faster
 * than the table is updated).
 */
export const canonicalClass = (value: string): string => findClass(value)?.name ?? value

/** The game's spelling of a race, as canonicalClass ("Dark Bargainer" -> "Dhampir Dark Bargainer"). */
export const canonicalRace = (value: string): string => findRace(value)?.name ?? value
