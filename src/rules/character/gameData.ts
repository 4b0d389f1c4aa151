// The game data, as data (GAME-RULES.md "Character sheet numbers", "Past lives and
// reincarnation"): the numbers the breakdown and validation use, and the one table of classes
// (archetypes with their base class) and of races (iconic or not, modifiers, build points, past
// life) that picklists, breakdowns and reincarnation all read. Where a number is not in
// GAME-RULES.md its source is noted beside it. Change a number here, never in the formulas.

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

export const MAX_CLASSES = 3
export const MAX_CLASS_LEVEL = 20
export const MAX_HEROIC_LEVEL = 20
export const MAX_EPIC_LEVELS = 30
export const MAX_TOTAL_LEVEL = 34
export const MAX_PAST_LIFE_STACKS = 3

/** Hit points per epic or legendary level (21–34). */
export const EPIC_HP_PER_LEVEL = 10

export type Save = 'fortitude' | 'reflex' | 'will'

// ---------------------------------------------------------------------------------------------
// Classes and races: one table each, read by the picklists (GET /characters/meta), the planned
// breakdown and validation, and reincarnation. docs/game-data.md lists where these rows differ
// from DDO Builder's data files and the DDO wiki, and which one each row follows.

/**
 * Lookup key of a class or race name: case, surrounding spaces and runs of spaces do not matter
 * ("shadar-kai" is "Shadar-Kai"); any other difference is a different name, unless it is an alias.
 */
export const gameNameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase()

export interface ClassData {
  /** The game's spelling: what the picklist shows and what is stored. */
  name: string
  /** Other spellings clients send (DDO Builder's, the wiki's), resolved to this row. */
  aliases: readonly string[]
  /** Archetypes only: the class they are a variant of. */
  baseClass?: string
  hpPerLevel: number
  /** Class spell points at class level 1 and at 20 (GAME-RULES.md gives only these two). */
  spellPoints: readonly [number, number]
  /** Saves with the good progression; the others use the poor one. */
  goodSaves: readonly Save[]
  /** The heroic past life a life of this class grants, as DDO Builder spells the feat. */
  pastLife: string
}

const cls = (
  name: string,
  hpPerLevel: number,
  spellPoints: readonly [number, number],
  goodSaves: readonly Save[],
  more: { baseClass?: string; aliases?: readonly string[]; pastLifeName?: string } = {},
): ClassData => {
  const pastLifeName = more.pastLifeName ?? name
  return {
    name,
    aliases: more.aliases ?? [],
    ...(more.baseClass ? { baseClass: more.baseClass } : {}),
    hpPerLevel,
    spellPoints,
    goodSaves,
    // DDO Builder names an archetype's past life after its class first.
    pastLife: more.baseClass ? `Past Life: ${more.baseClass} - ${pastLifeName}` : `Past Life: ${pastLifeName}`,
  }
}

// HP and spell points of the base classes: GAME-RULES.md. Good saves: DDO Builder's class files
// (Type2 = good), which agree with the D&D 3.5 tables for the 3.5 classes. Archetypes carry their
// own numbers (DDO Builder's class files); they equal their class's except where noted.
export const CLASSES: readonly ClassData[] = [
  cls('Alchemist', 6, [50, 845], ['fortitude', 'reflex']),
  cls('Artificer', 8, [50, 845], ['will']),
  cls('Barbarian', 12, [0, 0], ['fortitude']),
  cls('Bard', 8, [50, 525], ['reflex', 'will']),
  cls('Cleric', 8, [50, 1125], ['fortitude', 'will']),
  cls('Druid', 8, [50, 1125], ['fortitude', 'will']),
  cls('Favored Soul', 8, [100, 1650], ['fortitude', 'reflex', 'will']),
  cls('Fighter', 10, [0, 0], ['fortitude']),
  cls('Monk', 8, [0, 0], ['fortitude', 'reflex', 'will']),
  cls('Paladin', 10, [0, 260], ['fortitude']),
  cls('Ranger', 10, [0, 260], ['fortitude', 'reflex']),
  cls('Rogue', 8, [0, 0], ['reflex']),
  cls('Sorcerer', 6, [100, 1650], ['will']),
  cls('Warlock', 6, [50, 525], ['will']),
  cls('Wizard', 6, [50, 1125], ['will']),
  cls('Acolyte of the Skin', 6, [50, 525], ['will'], { baseClass: 'Warlock' }),
  // Spell points from level 3 (20) to 260 at 20: DDO Builder (Rogue has none).
  cls('Arcane Trickster', 8, [0, 260], ['reflex'], { baseClass: 'Rogue' }),
  // The wiki's and the game's one word; DDO Builder writes "Blight Caster".
  cls('Blightcaster', 8, [50, 1125], ['fortitude', 'will'], {
    baseClass: 'Druid',
    aliases: ['Blight Caster'],
    pastLifeName: 'Blight Caster',
  }),
  cls('Dark Apostate', 8, [50, 1125], ['fortitude', 'will'], { baseClass: 'Cleric' }),
  cls('Dark Hunter', 10, [0, 260], ['fortitude', 'reflex'], { baseClass: 'Ranger' }),
  // Spell points 20 at level 1 to 350 at 20: DDO Builder (Monk has none).
  cls('Dragon Disciple', 8, [20, 350], ['fortitude', 'reflex', 'will'], { baseClass: 'Monk' }),
  // The wiki: the game still uses the Fighter's poor Will save (the Update 66 notes and DDO
  // Builder say good Will).
  cls('Dragon Lord', 10, [0, 0], ['fortitude'], { baseClass: 'Fighter' }),
  cls('Sacred Fist', 10, [0, 260], ['fortitude'], { baseClass: 'Paladin' }),
  cls('Stormsinger', 8, [50, 525], ['reflex', 'will'], { baseClass: 'Bard' }),
  cls('Wild Mage', 6, [100, 1650], ['will'], { baseClass: 'Sorcerer' }),
]

/** Build points for ability spend by number of heroic or racial past lives (0, 1, 2 or more). */
export interface BuildPoints {
  none: number
  /** The 32-point option for a character with no past lives. */
  champion: number
  one: number
  twoOrMore: number
}

/** GAME-RULES.md and DDO Builder's race files (`BuildPoints 28 32 34 36`). */
export const STANDARD_BUILD_POINTS: BuildPoints = { none: 28, champion: 32, one: 34, twoOrMore: 36 }
/** Drow pay for their +6/-2 racial modifiers (DDO Builder: `28 28 30 32`; GAME-RULES.md). */
const DROW_BUILD_POINTS: BuildPoints = { none: 28, champion: 28, one: 30, twoOrMore: 32 }

export interface RaceData {
  /** The game's spelling: what the picklist shows and what is stored. */
  name: string
  /** Other spellings clients send (DDO Builder's, the wiki's short names), resolved to this row. */
  aliases: readonly string[]
  /**
   * Iconic races start at level 15 with this first class; reincarnating out of one grants an
   * IconicPastLife, out of any other race a RacialPastLife.
   */
  iconicClass?: string
  modifiers: Partial<Record<Ability, number>>
  buildPoints: BuildPoints
  /** The racial or iconic past life the race grants, as DDO Builder spells the feat. */
  pastLife: string
}

const race = (
  name: string,
  modifiers: Partial<Record<Ability, number>>,
  more: { iconicClass?: string; aliases?: readonly string[]; pastLife?: string; buildPoints?: BuildPoints } = {},
): RaceData => ({
  name,
  aliases: more.aliases ?? [],
  ...(more.iconicClass ? { iconicClass: more.iconicClass } : {}),
  modifiers,
  buildPoints: more.buildPoints ?? STANDARD_BUILD_POINTS,
  pastLife: more.pastLife ?? `Past Life: ${name}`,
})

// Modifiers: GAME-RULES.md (Dwarf, Human), DDO Builder's race files and the DDO wiki race pages,
// which agree. Aliases: DDO Builder's names and short names, the wiki's short names.
export const RACES: readonly RaceData[] = [
  race('Aasimar', { wis: 2 }),
  race('Dhampir', { str: 2 }),
  race('Dragonborn', { str: 2, dex: -2, cha: 2 }),
  // The game's "Drow Elf"; DDO Builder and its past life say "Drow".
  race(
    'Drow Elf',
    { dex: 2, con: -2, int: 2, cha: 2 },
    {
      aliases: ['Drow'],
      pastLife: 'Past Life: Drow',
      buildPoints: DROW_BUILD_POINTS,
    },
  ),
  race('Dwarf', { con: 2, cha: -2 }),
  race('Eladrin', { dex: 2 }),
  race('Elf', { dex: 2, con: -2 }),
  race('Gnome', { str: -2, int: 2 }),
  race('Half-Elf', {}, { aliases: ['H-elf'] }),
  race('Half-Orc', { str: 2, int: -2, cha: -2 }, { aliases: ['H-orc'] }),
  race('Halfling', { str: -2, dex: 2 }),
  race('Human', {}),
  race('Shifter', { dex: 2, int: -2 }),
  race('Tabaxi', { dex: 2 }),
  race('Tiefling', { cha: 2 }),
  race('Warforged', { con: 2, wis: -2, cha: -2 }),
  // No past life of its own: a Wood Elf completes the Elf past life (DDO wiki; DDO Builder
  // marks the race NoPastLife).
  race('Wood Elf', { dex: 2, int: -2 }, { aliases: ['W-Elf'], pastLife: 'Past Life: Elf' }),
  race('Aasimar Scourge', { wis: 2 }, { iconicClass: 'Ranger', aliases: ['Scourge'] }),
  race('Bladeforged', { dex: -2, con: 2, wis: -2 }, { iconicClass: 'Paladin' }),
  race('Deep Gnome', { str: -2, int: 2, wis: 2, cha: -2 }, { iconicClass: 'Wizard' }),
  // The wiki's and the game's name; DDO Builder names the race and its past life "Dark Bargainer".
  race(
    'Dhampir Dark Bargainer',
    { int: 1, cha: 1 },
    {
      iconicClass: 'Warlock',
      aliases: ['Dark Bargainer'],
      pastLife: 'Past Life: Dark Bargainer',
    },
  ),
  race('Eladrin Chaosmancer', { cha: 2 }, { iconicClass: 'Wild Mage', aliases: ['Chaosmancer'] }),
  race('Morninglord', { con: -2, int: 2 }, { iconicClass: 'Cleric' }),
  race('Purple Dragon Knight', {}, { iconicClass: 'Fighter', aliases: ['PDK'] }),
  race('Razorclaw Shifter', { str: 2, int: -2 }, { iconicClass: 'Barbarian', aliases: ['Razorclaw'] }),
  // The wiki's and the game's lower-case k; DDO Builder writes "Shadar-Kai" (same key).
  race('Shadar-kai', { dex: 2, cha: -2 }, { iconicClass: 'Rogue', pastLife: 'Past Life: Shadar-Kai' }),
  race('Tabaxi Trailblazer', { dex: 2 }, { iconicClass: 'Monk', aliases: ['Trailblazer'] }),
  race('Tiefling Scoundrel', { cha: 2 }, { iconicClass: 'Bard', aliases: ['Scoundrel'] }),
]

function byKey<T extends { name: string; aliases: readonly string[] }>(rows: readonly T[]): Map<string, T> {
  const map = new Map<string, T>()
  for (const row of rows) for (const name of [row.name, ...row.aliases]) map.set(gameNameKey(name), row)
  return map
}

const classByKey = byKey(CLASSES)
const raceByKey = byKey(RACES)

/** The class row a name means (its game spelling or an alias, any case), if the table has it. */
export const findClass = (name: string): ClassData | undefined => classByKey.get(gameNameKey(name))

/** The race row a name means (its game spelling or an alias, any case), if the table has it. */
export const findRace = (name: string): RaceData | undefined => raceByKey.get(gameNameKey(name))

/** Level labels in `build.levels` that are not classes (epic and legendary levels, unset levels). */
export const NON_CLASS_LABELS = ['epic', 'legendary', 'unknown', 'none', '']

/** `specialFeats[].type` values that are past lives (capped at 3 stacks each). */
export const PAST_LIFE_TYPES = ['HeroicPastLife', 'RacialPastLife', 'IconicPastLife', 'EpicPastLife'] as const

/** The epic destiny spheres, in the game's order: each has its own epic past lives. */
export const EPIC_SPHERES = ['Arcane', 'Divine', 'Martial', 'Primal'] as const
export type EpicSphere = (typeof EPIC_SPHERES)[number]

export interface EpicPastLifeData {
  /** The feat's own name ("Arcane Alacrity"). */
  name: string
  sphere: EpicSphere
  /** The epic past life as DDO Builder spells the feat ("Past Life: Arcane Sphere: Arcane Alacrity"). */
  pastLife: string
}

const epic = (sphere: EpicSphere, name: string): EpicPastLifeData => ({
  name,
  sphere,
  pastLife: `Past Life: ${sphere} Sphere: ${name}`,
})

/**
 * Every epic past life, by sphere. An epic reincarnation grants one of them, the player's choice
 * in a sphere; each stacks to 3 like any past life. Source: DDO Builder's feat file
 * (`Maetrim/DDOBuilderV2`, `Output/DataFiles/Feats.xml`: the feats with `Acquire` EpicPastLife,
 * their `Sphere`, `MaxTimesAcquire` 3), which agrees with the DDO wiki's "Epic Past Life Feats"
 * page: four per sphere, five in the Arcane and Martial spheres (12 or 15 stacks at most).
 */
export const EPIC_PAST_LIVES: readonly EpicPastLifeData[] = [
  epic('Arcane', 'Ancient Knowledge'),
  epic('Arcane', 'Arcane Alacrity'),
  epic('Arcane', 'Eclipse Power'),
  epic('Arcane', 'Enchant Weapon'),
  epic('Arcane', 'Energy Criticals'),
  epic('Divine', 'Ancient Blessings'),
  epic('Divine', 'Block Energy'),
  epic('Divine', 'Brace'),
  epic('Divine', 'Power Over Life and Death'),
  epic('Martial', 'Ancient Tactics'),
  epic('Martial', 'Doublestrike'),
  epic('Martial', 'Fortification'),
  epic('Martial', 'Skill Mastery'),
  epic('Martial', 'Trap Damage Absorption'),
  epic('Primal', 'Ancient Power'),
  epic('Primal', 'Colors of the Queen'),
  epic('Primal', 'Doubleshot'),
  epic('Primal', 'Fast Healing'),
]

/** Past lives that raise ability build points. */
export const BUILD_POINT_PAST_LIFE_TYPES = ['HeroicPastLife', 'RacialPastLife'] as const
