// The DDO picklists GET /characters/meta returns, as data in one place. Sources: the DDO
// wiki's class, race and server pages and DDO Builder's data files (2025/2026 game state).
import { MAX_CLASS_LEVEL, MAX_EPIC_LEVELS, MAX_MULTICLASS, MAX_TOTAL_LEVEL } from './levels'

export const BASE_CLASSES = [
  'Alchemist',
  'Artificer',
  'Barbarian',
  'Bard',
  'Cleric',
  'Druid',
  'Favored Soul',
  'Fighter',
  'Monk',
  'Paladin',
  'Ranger',
  'Rogue',
  'Sorcerer',
  'Warlock',
  'Wizard',
] as const

/** Archetypes are separate classes in game (own class past life), each a variant of a base class. */
export const ARCHETYPES: Readonly<Record<string, string>> = {
  'Acolyte of the Skin': 'Warlock',
  'Arcane Trickster': 'Rogue',
  Blightcaster: 'Druid',
  'Dark Apostate': 'Cleric',
  'Dark Hunter': 'Ranger',
  'Dragon Disciple': 'Sorcerer',
  'Dragon Lord': 'Fighter',
  'Sacred Fist': 'Paladin',
  Stormsinger: 'Bard',
  'Wild Mage': 'Wizard',
}

export const CLASSES: readonly string[] = [...BASE_CLASSES, ...Object.keys(ARCHETYPES)].sort()

export const BASE_RACES = [
  'Aasimar',
  'Dhampir',
  'Dragonborn',
  'Drow Elf',
  'Dwarf',
  'Eladrin',
  'Elf',
  'Gnome',
  'Half-Elf',
  'Half-Orc',
  'Halfling',
  'Human',
  'Shifter',
  'Tabaxi',
  'Tiefling',
  'Warforged',
  'Wood Elf',
] as const

/** Iconic races start above level 1 with a fixed first class; each has its own past life. */
export const ICONIC_RACES = [
  'Aasimar Scourge',
  'Bladeforged',
  'Deep Gnome',
  'Dhampir Dark Bargainer',
  'Eladrin Chaosmancer',
  'Morninglord',
  'Purple Dragon Knight',
  'Razorclaw Shifter',
  'Shadar-kai',
  'Tabaxi Trailblazer',
  'Tiefling Scoundrel',
] as const

export const RACES: readonly string[] = [...BASE_RACES, ...ICONIC_RACES].sort()

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
    classes: [...CLASSES],
    races: [...RACES],
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
