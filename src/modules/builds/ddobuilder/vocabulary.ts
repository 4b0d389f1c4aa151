// The words of DDO Builder's character files: element names (the planner's DL_* property macros
// in Character.h, Life.h, Build.h, LevelTraining.h, TrainedEnhancement.h, and real files) and
// the values it writes for "none" and for a new character. Reading and writing both use these.
import { ABILITY_INCREASE_LEVELS, type Ability } from '../../../rules/character/gameData'

/** The root element of every character file. */
export const ROOT = 'DDOBuilderCharacterData'

/** Elements that may repeat: always arrays, so one entry and many read the same way. */
export const REPEATED = new Set([
  'Life',
  'Build',
  'TrainedFeat',
  'LevelTraining',
  'TrainedSkill',
  'TrainedSpell',
  'Stances',
  'TreeName',
  'EnhancementSpendInTree',
  'DestinySpendInTree',
  'ReaperSpendInTree',
  'TrainedEnhancement',
  'EquippedGear',
  'ItemAugment',
  'Filigree',
  'ArtifactFiligree',
  'SelfAndPartyBuffs',
  'CompletedQuest',
])

/** DDO Builder's SkillTomes element names and the skill names its LevelTraining entries use. */
export const SKILL_TOME_ELEMENTS: Readonly<Record<string, string>> = {
  Balance: 'Balance',
  Bluff: 'Bluff',
  Concentration: 'Concentration',
  Diplomacy: 'Diplomacy',
  DisableDevice: 'Disable Device',
  Haggle: 'Haggle',
  Heal: 'Heal',
  Hide: 'Hide',
  Intimidate: 'Intimidate',
  Jump: 'Jump',
  Listen: 'Listen',
  MoveSilently: 'Move Silently',
  OpenLock: 'Open Lock',
  Perform: 'Perform',
  Repair: 'Repair',
  Search: 'Search',
  SpellCraft: 'Spellcraft',
  Spot: 'Spot',
  Swim: 'Swim',
  Tumble: 'Tumble',
  UMD: 'Use Magic Device',
}

export const TOME_ELEMENTS: Readonly<Record<Ability, string>> = {
  str: 'StrTome',
  dex: 'DexTome',
  con: 'ConTome',
  int: 'IntTome',
  wis: 'WisTome',
  cha: 'ChaTome',
}

export const SPEND_ELEMENTS: Readonly<Record<Ability, string>> = {
  str: 'StrSpend',
  dex: 'DexSpend',
  con: 'ConSpend',
  int: 'IntSpend',
  wis: 'WisSpend',
  cha: 'ChaSpend',
}

/** The levels DDO Builder writes an ability increase for (Level4 … Level40). */
export const BUMP_LEVELS = [...ABILITY_INCREASE_LEVELS, 36, 40]

/** The elements of a build holding each kind of tree: the trees chosen, and the points spent. */
export const TREE_ELEMENTS = {
  enhancement: { selected: 'Enhancement_SelectedTrees', spend: 'EnhancementSpendInTree' },
  destiny: { selected: 'Destiny_SelectedTrees', spend: 'DestinySpendInTree' },
  reaper: { selected: 'Reaper_SelectedTrees', spend: 'ReaperSpendInTree' },
} as const

/** The reaper trees every character has, in the planner's order. */
export const REAPER_TREES = ['Dire Thaumaturge', 'Dread Adversary', 'Grim Barricade']

/**
 * The planner's quest difficulties (QuestDifficultyTypes.h) as our settings: `Solo` is casual
 * (the planner's word for the solo difficulty), `R1` to `R10` are reaper, and anything else
 * (`N Star`, `Unknown`) is unknown. `Not Run` marks a quest not done and is no completion.
 */
const PLANNER_SETTINGS: Readonly<Record<string, 'casual' | 'normal' | 'hard' | 'elite' | 'reaper'>> = {
  solo: 'casual',
  casual: 'casual',
  normal: 'normal',
  hard: 'hard',
  elite: 'elite',
}

export const NOT_RUN = 'Not Run'

export function plannerSetting(difficulty: string): 'casual' | 'normal' | 'hard' | 'elite' | 'reaper' | 'unknown' {
  return plannerSkulls(difficulty) === null
    ? (PLANNER_SETTINGS[difficulty.trim().toLowerCase()] ?? 'unknown')
    : 'reaper'
}

/** The skulls of the planner's reaper difficulties: `R7` is 7; null for any other word. */
export function plannerSkulls(difficulty: string): number | null {
  const match = /^r(10|[1-9])$/.exec(difficulty.trim().toLowerCase())
  return match ? Number(match[1]) : null
}

/** Our settings as the planner's words, for the export; reaper is `R<skulls>`. */
const PLANNER_WORDS = { casual: 'Casual', normal: 'Normal', hard: 'Hard', elite: 'Elite' } as const

/**
 * The planner's difficulty word for a completion: `R1`…`R10` for reaper (a reaper run logged
 * without a count is `R1`, the least reaper there is: the planner has no reaper without skulls);
 * null for a setting it has no word for (`unknown`).
 */
export function plannerDifficulty(setting: string, skulls: number | null): string | null {
  if (setting === 'reaper') return `R${skulls ?? 1}`
  return PLANNER_WORDS[setting as keyof typeof PLANNER_WORDS] ?? null
}

/** A class slot (or a level's class) that holds no class. */
export const NO_CLASS = 'Unknown'

/** The special feat type of favor rewards, which the planner keeps on the build (FavorFeats). */
export const FAVOR_FEAT_TYPE = 'Favor'

/** What the planner gives a new character: its race, alignment, build points and gear set name. */
export const NEW_CHARACTER = {
  race: 'Human',
  alignment: 'Lawful Good',
  availableSpend: 28,
  gearSet: 'Standard',
} as const

// Elements the import reads (or knowingly skips as derived data); any other one is reported.
export const CHARACTER_READ = new Set([
  ...Object.values(TOME_ELEMENTS),
  'SpecialFeats',
  'SkillTomes',
  'Life',
  'ActiveLifeIndex',
  'ActiveBuildIndex',
  'GuildLevel',
  'ApplyGuildBuffs',
])
export const LIFE_READ = new Set([
  'Name',
  'Race',
  'Alignment',
  'SpecialFeats',
  'SkillTomes',
  'Build',
  'SelfAndPartyBuffs',
  'TreeCollapsed', // the planner's UI state
  ...Object.values(TOME_ELEMENTS),
  ...BUMP_LEVELS.map((level) => `Level${level}`),
])
export const BUILD_READ = new Set([
  'Level',
  'Class1',
  'Class2',
  'Class3',
  'AbilitySpend',
  'LevelTraining',
  'TrainedSpell',
  'ActiveStances',
  'Destiny_SelectedTrees',
  'Enhancement_SelectedTrees',
  'Reaper_SelectedTrees',
  'EnhancementSpendInTree',
  'ReaperSpendInTree',
  'DestinySpendInTree',
  'ActiveAttackChain',
  'ActiveGear',
  'EquippedGear',
  'FavorFeats',
  'CompletedQuest',
  'Notes',
  ...BUMP_LEVELS.map((level) => `Level${level}`),
])
