// The game numbers the breakdown and validation use, as data (GAME-RULES.md "Character sheet
// numbers", "Past lives and reincarnation"). Where a number is not in GAME-RULES.md its source
// is noted beside it. Change a number here, never in the formulas.

export const ABILITIES = ['str', 'dex', 'con', 'int', 'wis', 'cha'] as const
export type Ability = (typeof ABILITIES)[number]

export const ABILITY_NAMES: Record<Ability, string> = {
  str: 'Strength',
  dex: 'Dexterity',
  con: 'Constitution',
  int: 'Intelligence',
  wis: 'Wisdom',
  cha: 'Charisma',
}

/** Every ability starts at this score before point buy. */
export const BASE_SCORE = 8

/** Build points it costs to reach each score from 8 (GAME-RULES.md). */
export const POINT_BUY_COST: Readonly<Record<number, number>> = {
  8: 0,
  9: 1,
  10: 2,
  11: 3,
  12: 4,
  13: 5,
  14: 6,
  15: 8,
  16: 10,
  17: 13,
  18: 16,
}

/** The highest score point buy reaches, and what it costs. */
export const POINT_BUY_MAX_SCORE = 18

/** Levels at which one ability point is gained (`levelAbilityBumps` says which ability). */
export const ABILITY_INCREASE_LEVELS = [4, 8, 12, 16, 20, 24, 28, 32] as const

/** Tome caps (GAME-RULES.md: ability up to +8, skill up to +5). */
export const MAX_ABILITY_TOME = 8
export const MAX_SKILL_TOME = 5

/**
 * Build points for ability spend by number of heroic or racial past lives (0, 1, 2 or more).
 * `champion` is the 32-point option for a character with no past lives.
 */
export const BUILD_POINTS = {
  default: { none: 28, champion: 32, one: 34, twoOrMore: 36 },
  Drow: { none: 28, champion: 28, one: 30, twoOrMore: 32 },
} as const

export const MAX_CLASSES = 3
export const MAX_CLASS_LEVEL = 20
export const MAX_HEROIC_LEVEL = 20
export const MAX_EPIC_LEVELS = 30
export const MAX_TOTAL_LEVEL = 34
export const MAX_PAST_LIFE_STACKS = 3

/** Hit points per epic or legendary level (21–34). */
export const EPIC_HP_PER_LEVEL = 10

export type Save = 'fortitude' | 'reflex' | 'will'

export interface ClassData {
  hpPerLevel: number
  /** Class spell points at class level 1 and at 20 (GAME-RULES.md gives only these two). */
  spellPoints: readonly [number, number]
  /** Saves with the good progression; the others use the poor one. */
  goodSaves: readonly Save[]
}

// HP and spell points: GAME-RULES.md. Good saves are not in GAME-RULES.md: the D&D 3.5 class
// tables DDO follows (Barbarian..Wizard), the DDO wiki class pages for Alchemist (Fortitude and
// Reflex) and Artificer (Reflex and Will); Favored Soul and Warlock are from memory of the DDO
// wiki, unverified.
export const CLASSES: Readonly<Record<string, ClassData>> = {
  Barbarian: { hpPerLevel: 12, spellPoints: [0, 0], goodSaves: ['fortitude'] },
  Fighter: { hpPerLevel: 10, spellPoints: [0, 0], goodSaves: ['fortitude'] },
  Paladin: { hpPerLevel: 10, spellPoints: [0, 260], goodSaves: ['fortitude'] },
  Ranger: { hpPerLevel: 10, spellPoints: [0, 260], goodSaves: ['fortitude', 'reflex'] },
  Monk: { hpPerLevel: 8, spellPoints: [0, 0], goodSaves: ['fortitude', 'reflex', 'will'] },
  Rogue: { hpPerLevel: 8, spellPoints: [0, 0], goodSaves: ['reflex'] },
  Bard: { hpPerLevel: 8, spellPoints: [50, 525], goodSaves: ['reflex', 'will'] },
  Cleric: { hpPerLevel: 8, spellPoints: [50, 1125], goodSaves: ['fortitude', 'will'] },
  Druid: { hpPerLevel: 8, spellPoints: [50, 1125], goodSaves: ['fortitude', 'will'] },
  'Favored Soul': { hpPerLevel: 8, spellPoints: [100, 1650], goodSaves: ['fortitude', 'reflex', 'will'] },
  Artificer: { hpPerLevel: 8, spellPoints: [50, 845], goodSaves: ['reflex', 'will'] },
  Alchemist: { hpPerLevel: 6, spellPoints: [50, 845], goodSaves: ['fortitude', 'reflex'] },
  Sorcerer: { hpPerLevel: 6, spellPoints: [100, 1650], goodSaves: ['will'] },
  Wizard: { hpPerLevel: 6, spellPoints: [50, 1125], goodSaves: ['will'] },
  Warlock: { hpPerLevel: 6, spellPoints: [50, 525], goodSaves: ['will'] },
}

/** Archetypes (names as DDO Builder files spell them) and the class whose numbers they use. */
export const ARCHETYPES: Readonly<Record<string, string>> = {
  Stormsinger: 'Bard',
  'Dark Apostate': 'Cleric',
  'Blight Caster': 'Druid',
  'Dragon Lord': 'Fighter',
  'Dragon Disciple': 'Monk',
  'Sacred Fist': 'Paladin',
  'Dark Hunter': 'Ranger',
  'Wild Mage': 'Sorcerer',
  'Acolyte of the Skin': 'Warlock',
}

/** Level labels in `build.levels` that are not classes (epic and legendary levels, unset levels). */
export const NON_CLASS_LABELS = ['epic', 'legendary', 'unknown', 'none', '']

/**
 * Racial ability modifiers. Dwarf and Human are from GAME-RULES.md; the others from the DDO
 * wiki race pages. A race not listed has no modifier (the breakdown says so in `notes`).
 */
export const RACIAL_MODIFIERS: Readonly<Record<string, Partial<Record<Ability, number>>>> = {
  Human: {},
  'Half-Elf': {},
  'Purple Dragon Knight': {},
  Dwarf: { con: 2, cha: -2 },
  Elf: { dex: 2, con: -2 },
  Halfling: { dex: 2, str: -2 },
  'Half-Orc': { str: 2, int: -2, cha: -2 },
  Gnome: { int: 2, str: -2 },
  Drow: { dex: 2, int: 2, cha: 2, con: -2 },
  Warforged: { con: 2, wis: -2, cha: -2 },
  Bladeforged: { con: 2, dex: -2, wis: -2 },
  Dragonborn: { str: 2, cha: 2, dex: -2 },
  Aasimar: { wis: 2 },
  Tiefling: { cha: 2 },
  Morninglord: { int: 2, con: -2 },
  'Shadar-Kai': { dex: 2, cha: -2 },
  'Deep Gnome': { int: 2, wis: 2, str: -2, cha: -2 },
}

/** Iconic races: reincarnating out of one grants an IconicPastLife rather than a RacialPastLife. */
export const ICONIC_RACES = [
  'Aasimar Scourge',
  'Bladeforged',
  'Dark Bargainer',
  'Deep Gnome',
  'Eladrin Chaosmancer',
  'Morninglord',
  'Purple Dragon Knight',
  'Razorclaw Shifter',
  'Shadar-Kai',
  'Tabaxi Trailblazer',
  'Tiefling Scoundrel',
]

/** `specialFeats[].type` values that are past lives (capped at 3 stacks each). */
export const PAST_LIFE_TYPES = ['HeroicPastLife', 'RacialPastLife', 'IconicPastLife', 'EpicPastLife'] as const

/** Past lives that raise ability build points. */
export const BUILD_POINT_PAST_LIFE_TYPES = ['HeroicPastLife', 'RacialPastLife'] as const
