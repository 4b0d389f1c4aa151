// DDO Builder file -> build document: one build of the file (the planner's active one unless a
// caller chooses another), read area by area, and the outline of every life and build. The areas
// are read in one fixed order, so a file with several faults is refused for the same one every
// time.
import { type LevelSummary, summarizeLevels } from '../../../rules/builds/buildLevels'
import { ABILITIES } from '../../../rules/character/gameData'
import { DdoBuilderFormatError } from './formatError'
import type {
  AbilitySpend,
  BuildDocument,
  BuildSection,
  DdoBuilderImport,
  Level,
  LifeSection,
  SpecialFeatInput,
  Tomes,
  TrainedSpell,
  TreeSpend,
  Trees,
} from './vocabulary'
import {
  BUILD_READ,
  BUMP_LEVELS,
  CHARACTER_READ,
  LIFE_READ,
  MAX_RAISES,
  NO_CLASS,
  NOT_RUN,
  plannerSetting,
  plannerSkulls,
  ROOT,
  raisesToPoints,
  SKILL_TOME_ELEMENTS,
  SPEND_ELEMENTS,
  TOME_ELEMENTS,
  TREE_ELEMENTS,
} from './vocabulary'
import { child, children, isNode, parseXml, text, texts, whole, type XmlNode } from './xml'

/** A file read: its outline, and a plan read from any of its builds (parsed once). */
export interface DdoBuilderFile extends DdoBuilderOutline {
  /** The plan of build `number` (default: the planner's active one), with what it left out. */
  plan(number?: number): DdoBuilderImport & { build: number }
}

/** Reads a DDO Builder character file: every life and build, and a plan from the build chosen. */
export function readDdoBuilder(xml: string): DdoBuilderFile {
  const outline = readOutline(parseXml(xml))
  const { lives, characterFeats, activeBuild } = outline
  return { lives, characterFeats, activeBuild, plan: (number) => planOf(chooseBuild(outline, number)) }
}

/** Reads the planner's active build of a DDO Builder character file into a planned build document. */
export function fromDdoBuilder(xml: string): DdoBuilderImport {
  const { document, warnings } = readDdoBuilder(xml).plan()
  return { document, warnings }
}

function planOf({ character, life, build, number, warnings }: ChosenBuild): DdoBuilderImport & { build: number } {
  const tomes = readTomes(character, life)
  const abilitySpend = readAbilitySpend(build)
  const levelAbilityBumps = readAbilityBumps(life, build)
  const levels = readLevels(build)
  const trainedSpells = readSpells(build)
  const reaperSpend = readReaperSpend(build)
  const level = readLevel(build, levels)
  const enhancementTrees = readTrees(build, 'enhancement')
  const destinyTrees = readTrees(build, 'destiny')
  const document: BuildDocument = {
    schemaVersion: 1,
    meta: { source: 'DDO Builder file', gameCharacterId: null },
    life: readLife(character, life, build),
    tomes,
    build: {
      level,
      classes: readClasses(build),
      abilitySpend,
      levelAbilityBumps,
      levels,
      enhancementTrees,
      destinyTrees,
      reaper: { spend: reaperSpend },
      trainedSpells,
      stances: readStances(build),
      notes: text(build, 'Notes') ?? '',
    },
  }
  return { document, build: number, warnings: [...warnings, ...leftOutWarnings(character, life, build)] }
}

// What a whole file holds, beyond the one build a plan is read from: every life (name, race,
// alignment, its own special feats) and every build of each (level, class split, notes, completed
// quests), in the file's order, and which build is the planner's active one. A leveling guide
// holds a build per level; a player's file holds a life per reincarnation.
/** A quest the file marks as completed: its name and level as the planner writes them. */
export interface FileQuest {
  name: string
  /** The quest's level in the planner (it names one quest at several levels); null when absent. */
  level: number | null
  /** The planner's difficulty word, and our setting for it (`Solo` is casual, `R1`…`R10` reaper). */
  difficulty: string
  setting: ReturnType<typeof plannerSetting>
  /** The skulls of a reaper difficulty (`R2`: 2); null for any other. */
  reaperSkulls: number | null
}

export interface FileBuild {
  /** 1-based, over every build of the file in order (life 1's builds first). */
  number: number
  /** 1-based index of its life. */
  life: number
  level: number
  classes: LevelSummary['classes']
  notes: string
  completedQuests: FileQuest[]
}

export interface FileLife {
  /** 1-based, in the file's order: the planner adds lives oldest first. */
  number: number
  name: string
  race: string
  alignment: string
  /** The life's own special feats (the character's past lives are the file's `pastLives`). */
  specialFeats: SpecialFeatInput[]
  builds: FileBuild[]
}

export interface DdoBuilderOutline {
  lives: FileLife[]
  /** The character's special feats, past lives among them, as the file holds them now. */
  characterFeats: SpecialFeatInput[]
  /** The number of the planner's active build (its ActiveLifeIndex and ActiveBuildIndex). */
  activeBuild: number
}

/** The element of a parsed file the outline and the plan are read from: its Character. */
function characterOf(file: XmlNode): XmlNode {
  const rootName = Object.keys(file).find((key) => key !== '#text')
  if (rootName === undefined) {
    throw new DdoBuilderFormatError('The file has no XML element: expected a DDO Builder character file (.DDOBuild).')
  }
  if (rootName !== ROOT) {
    throw new DdoBuilderFormatError(
      `The file is XML but not a DDO Builder character: its root element is <${rootName.slice(0, 60)}>, not <${ROOT}>.`,
    )
  }
  const character = child(child(file, ROOT), 'Character')
  if (!character) throw new DdoBuilderFormatError(`The DDO Builder file has no character (${ROOT} > Character).`)
  return character
}

function completedQuests(build: XmlNode): FileQuest[] {
  return children(build, 'CompletedQuest')
    .map((quest) => {
      const difficulty = (text(quest, 'Difficulty') ?? '').trim()
      return {
        name: (text(quest, 'Name') ?? '').trim(),
        level: whole(quest, 'Level', 'CompletedQuest') ?? null,
        difficulty,
        setting: plannerSetting(difficulty),
        reaperSkulls: plannerSkulls(difficulty),
      }
    })
    .filter((quest) => quest.name !== '' && quest.difficulty !== NOT_RUN)
}

/** Every life and build of the file's character; a file without a life or a build is refused. */
function readOutline(file: XmlNode): DdoBuilderOutline & { character: XmlNode; elements: XmlNode[][] } {
  const character = characterOf(file)
  const lifeElements = children(character, 'Life')
  if (lifeElements.length === 0) {
    throw new DdoBuilderFormatError(
      'The DDO Builder character has no life (Character > Life), so there is no build to import.',
    )
  }
  let number = 0
  const elements: XmlNode[][] = []
  const lives = lifeElements.map((life, i): FileLife => {
    const buildElements = children(life, 'Build')
    elements.push(buildElements)
    return {
      number: i + 1,
      name: text(life, 'Name') ?? '',
      race: text(life, 'Race') ?? '',
      alignment: text(life, 'Alignment') ?? '',
      specialFeats: collectFeats([child(life, 'SpecialFeats')]),
      builds: buildElements.map((build) => {
        const levels = readLevels(build)
        const level = readLevel(build, levels)
        return {
          number: ++number,
          life: i + 1,
          level,
          classes: summarizeLevels({ level, classes: readClasses(build), levels }).classes,
          notes: text(build, 'Notes') ?? '',
          completedQuests: completedQuests(build),
        }
      }),
    }
  })
  if (number === 0) {
    throw new DdoBuilderFormatError(
      'The DDO Builder character has no build in its life (Character > Life > Build), so there is nothing to import.',
    )
  }
  const lifeIndex = whole(character, 'ActiveLifeIndex', 'Character') ?? 0
  const buildIndex = whole(character, 'ActiveBuildIndex', 'Character') ?? 0
  const activeLife = lives[lifeIndex] ?? lives.find((life) => life.builds.length > 0)
  const active = activeLife?.builds[buildIndex] ?? activeLife?.builds[0] ?? lives.flatMap((l) => l.builds)[0]
  return {
    lives,
    characterFeats: collectFeats([child(character, 'SpecialFeats')]),
    activeBuild: active?.number ?? 1,
    character,
    elements,
  }
}

// The character, life and build a plan is read from: the build a caller chose by number (every
// build of the file, in order: see readOutline above), or the planner's active one.
/** The three elements every area of the document is read from. */
interface ChosenBuild {
  character: XmlNode
  life: XmlNode
  build: XmlNode
  /** Its number among the file's builds. */
  number: number
  warnings: string[]
}

/**
 * The build numbered `number` (default: the planner's active one). An active index that names no
 * build is said in a warning, and the first build is taken; a number the file has not is refused.
 */
function chooseBuild(
  outline: DdoBuilderOutline & { character: XmlNode; elements: XmlNode[][] },
  number?: number,
): ChosenBuild {
  const { character, elements, lives } = outline
  const warnings: string[] = []
  if (number === undefined) {
    const lifeIndex = whole(character, 'ActiveLifeIndex', 'Character') ?? 0
    const buildIndex = whole(character, 'ActiveBuildIndex', 'Character') ?? 0
    if (!elements[lifeIndex]?.[buildIndex]) {
      warnings.push(
        `The planner's active build (life ${lifeIndex + 1}, build ${buildIndex + 1}) is not in the file; build ${outline.activeBuild} is imported.`,
      )
    }
  }
  const wanted = number ?? outline.activeBuild
  const file = lives.flatMap((life) => life.builds).find((build) => build.number === wanted)
  if (!file) {
    const count = lives.reduce((n, life) => n + life.builds.length, 0)
    throw new DdoBuilderFormatError(
      `The file has ${count} build${count === 1 ? '' : 's'}; there is no build ${wanted}.`,
    )
  }
  const lifeBuilds = elements[file.life - 1] ?? []
  const before = lives.slice(0, file.life - 1).reduce((n, life) => n + life.builds.length, 0)
  const life = lifeElement(character, file.life - 1)
  return { character, life, build: lifeBuilds[file.number - before - 1] as XmlNode, number: file.number, warnings }
}

function lifeElement(character: XmlNode, index: number): XmlNode {
  const lives = character.Life
  return (Array.isArray(lives) ? lives[index] : lives) as XmlNode
}

// The build's classes and its levels: each level's class, the feats trained at it and the skill
// ranks bought at it (LevelTraining), and the character level the build reaches.
/** The three class slots (Class1 … Class3), null where the planner has none. */
function readClasses(build: XmlNode): BuildSection['classes'] {
  const slot = (n: number) => {
    const name = text(build, `Class${n}`)
    return name && name.trim() !== '' && name.trim() !== NO_CLASS ? name : null
  }
  return [slot(1), slot(2), slot(3)]
}

function readLevels(build: XmlNode): Level[] {
  return children(build, 'LevelTraining').map((level) => ({
    class: text(level, 'Class') ?? NO_CLASS,
    feats: children(level, 'TrainedFeat').map((feat) => ({
      name: text(feat, 'FeatName') ?? '',
      type: text(feat, 'Type') ?? '',
    })),
    skills: children(level, 'TrainedSkill').flatMap((skill) => texts(skill, 'Skill')),
  }))
}

/** The build's level; a file without one reaches as many levels as it trains. */
function readLevel(build: XmlNode, levels: Level[]): number {
  return whole(build, 'Level', 'Build') ?? levels.length
}

// The document's life: the name, race and alignment of the active life, and its special feats.
function readLife(character: XmlNode, life: XmlNode, build: XmlNode): LifeSection {
  return {
    name: text(life, 'Name') ?? '',
    race: text(life, 'Race') ?? '',
    alignment: text(life, 'Alignment') ?? '',
    specialFeats: readSpecialFeats(character, life, build),
  }
}

// Special feats: past lives and other feats of the character and of the life, then the favor
// rewards the planner keeps on the build.
/** Special feats of FeatsListObjects, each (type, name) once with its number of entries as stacks. */
function collectFeats(lists: (XmlNode | undefined)[]): SpecialFeatInput[] {
  const feats = new Map<string, { name: string; type: string; stacks: number }>()
  for (const list of lists) {
    for (const feat of children(list, 'TrainedFeat')) {
      const name = text(feat, 'FeatName') ?? ''
      const type = text(feat, 'Type') ?? ''
      const key = `${type}\u0000${name}`
      const found = feats.get(key)
      if (found) found.stacks += 1
      else feats.set(key, { name, type, stacks: 1 })
    }
  }
  return [...feats.values()]
}

/** Character-wide special feats, then the life's, then favor rewards. */
function readSpecialFeats(character: XmlNode, life: XmlNode, build: XmlNode): SpecialFeatInput[] {
  return collectFeats([child(character, 'SpecialFeats'), child(life, 'SpecialFeats'), child(build, 'FavorFeats')])
}

// The build's ability spend (raises in the file, build points in the document) and the ability
// increases it takes at levels 4, 8, ... 40.
/** A spend beyond point buy (more than 10 raises) is refused, naming the ability's element. */
function readAbilitySpend(build: XmlNode): AbilitySpend {
  const spend = child(build, 'AbilitySpend')
  const abilitySpend: AbilitySpend = {}
  const available = whole(spend, 'AvailableSpend', 'AbilitySpend')
  if (available !== undefined) abilitySpend.available = available
  for (const ability of ABILITIES) {
    const raises = whole(spend, SPEND_ELEMENTS[ability], 'AbilitySpend') ?? 0
    const points = raisesToPoints(raises)
    if (points === undefined) {
      throw new DdoBuilderFormatError(
        `AbilitySpend > ${SPEND_ELEMENTS[ability]} is ${raises} raises; point buy allows at most ${MAX_RAISES} (score 18).`,
      )
    }
    abilitySpend[ability] = points
  }
  return abilitySpend
}

/** Level number to the ability raised there: on the build in the files seen, on the life in some planner versions. */
function readAbilityBumps(life: XmlNode, build: XmlNode): Record<string, string> {
  const bumps: Record<string, string> = {}
  for (const holder of [life, build]) {
    for (const level of BUMP_LEVELS) {
      const ability = text(holder, `Level${level}`)?.trim()
      if (ability) bumps[String(level)] = ability
    }
  }
  return bumps
}

// Enhancement, destiny and reaper trees: the trees chosen and the ranks trained in each.
function treeSpend(spends: XmlNode[], where: string): TreeSpend[] {
  return spends.map((spend) => {
    const tree: TreeSpend = { treeName: text(spend, 'TreeName') ?? '' }
    const version = whole(spend, 'TreeVersion', where)
    if (version !== undefined) tree.treeVersion = version
    tree.trained = children(spend, 'TrainedEnhancement').map((item) => {
      const trained: NonNullable<TreeSpend['trained']>[number] = {
        enhancementName: text(item, 'EnhancementName') ?? '',
      }
      const selection = text(item, 'Selection')
      if (selection !== undefined) trained.selection = selection
      trained.ranks = whole(item, 'Ranks', `${where} > TrainedEnhancement`) ?? 0
      // The planner's flag for a rank bought as a tier-5 enhancement: kept so an export can
      // write it back (an extra key, which the document keeps).
      if (Object.hasOwn(item, 'IsTier5')) Object.assign(trained, { isTier5: true })
      return trained
    })
    return tree
  })
}

/** Enhancement or destiny trees: the trees chosen, the tier-5 one, and the ranks spent. */
function readTrees(build: XmlNode, kind: 'enhancement' | 'destiny'): Trees {
  const { selected, spend } = TREE_ELEMENTS[kind]
  const chosen = child(build, selected)
  return {
    selected: texts(chosen, 'TreeName'),
    tier5: text(chosen, 'Tier5Tree') ?? null,
    spend: treeSpend(children(build, spend), spend),
  }
}

/** Reaper trees: the file holds no reaper point total (the planner has none), only what is spent. */
function readReaperSpend(build: XmlNode): TreeSpend[] {
  const { spend } = TREE_ELEMENTS.reaper
  return treeSpend(children(build, spend), spend)
}

// The spells the build trains, by class and spell level.
function readSpells(build: XmlNode): TrainedSpell[] {
  return children(build, 'TrainedSpell').map((spell) => ({
    class: text(spell, 'Class') ?? '',
    level: whole(spell, 'Level', 'TrainedSpell') ?? 0,
    name: text(spell, 'SpellName') ?? '',
  }))
}

// The stances the build has active.
function readStances(build: XmlNode): string[] {
  return texts(child(build, 'ActiveStances'), 'Stances')
}

// Tomes and skill tomes: on the life in newer files, on the character in older ones.
/** Skill name to tome bonus; the planner writes every skill at 0, and only tomes read are kept. */
function skillTomes(character: XmlNode, life: XmlNode): Record<string, number> | undefined {
  const tomes = child(life, 'SkillTomes') ?? child(character, 'SkillTomes')
  if (!tomes) return undefined
  const skills: Record<string, number> = {}
  for (const tag of Object.keys(tomes)) {
    if (tag === '#text') continue
    const value = whole(tomes, tag, 'SkillTomes') ?? 0
    if (value > 0) skills[SKILL_TOME_ELEMENTS[tag] ?? tag] = value
  }
  return Object.keys(skills).length > 0 ? skills : undefined
}

function readTomes(character: XmlNode, life: XmlNode): Tomes {
  const holder = ABILITIES.some((a) => Object.hasOwn(life, TOME_ELEMENTS[a])) ? life : character
  const tomes: Tomes = {}
  for (const ability of ABILITIES) {
    tomes[ability] = whole(holder, TOME_ELEMENTS[ability], holder === life ? 'Life' : 'Character') ?? 0
  }
  const skills = skillTomes(character, life)
  if (skills) tomes.skills = skills
  return tomes
}

// What a file holds and the build document cannot: one warning per kind (gear, attack chains,
// buffs, guild level; completed quests are the outline's, imported as completions when chosen)
// and one per element the reader does not know.
function unknownElements(node: XmlNode, known: Set<string>, where: string): string[] {
  return Object.keys(node)
    .filter((tag) => !known.has(tag) && tag !== '#text')
    .map((tag) => `${where} > ${tag} is not something a build document holds; it is not imported.`)
}

function leftOutWarnings(character: XmlNode, life: XmlNode, build: XmlNode): string[] {
  const warnings = gearWarnings(build)
  const chains = child(build, 'ActiveAttackChain')
  if ((chains && Object.keys(chains).length > 0) || (text(build, 'ActiveAttackChain') ?? '').trim() !== '') {
    warnings.push('Attack chains are not imported.')
  }
  const buffs = texts(life, 'SelfAndPartyBuffs').filter((b) => b.trim() !== '')
  if (buffs.length > 0) warnings.push(`Self and party buffs (${buffs.length}) are not imported.`)
  const guildLevel = whole(character, 'GuildLevel', 'Character') ?? 0
  if (guildLevel > 0) warnings.push(`Guild level ${guildLevel} and its guild buffs are not imported.`)
  return [
    ...warnings,
    ...unknownElements(character, CHARACTER_READ, 'Character'),
    ...unknownElements(life, LIFE_READ, 'Character > Life'),
    ...unknownElements(build, BUILD_READ, 'Character > Life > Build'),
  ]
}

// Gear, read only to say what is left out: the build document has no gear, so the items,
// augments, filigrees and sentient gems of the gear sets become warnings with their counts.
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`

interface GearCount {
  items: number
  augments: number
  filigrees: number
  gems: number
}

function countSet(set: XmlNode, count: GearCount): void {
  for (const [tag, value] of Object.entries(set)) {
    if (tag === 'Filigree' || tag === 'ArtifactFiligree') {
      count.filigrees += children(set, tag).filter((f) => (text(f, 'Name') ?? '').trim() !== '').length
      continue
    }
    // An item is a slot element with a name; the set's own Name and counters are text.
    const slotItems = (Array.isArray(value) ? value : [value]).filter(isNode).filter((v) => Object.hasOwn(v, 'Name'))
    count.items += slotItems.length
    for (const item of slotItems) {
      count.augments += children(item, 'ItemAugment').filter((a) => Object.hasOwn(a, 'SelectedAugment')).length
    }
  }
  if ((text(set, 'Personality') ?? '').trim() !== '') count.gems += 1
}

function gearWarnings(build: XmlNode): string[] {
  const sets = children(build, 'EquippedGear')
  const count: GearCount = { items: 0, augments: 0, filigrees: 0, gems: 0 }
  for (const set of sets) countSet(set, count)
  const { items, augments, filigrees, gems } = count
  const warnings: string[] = []
  // An empty set is what every new build has (and what the export writes): nothing lost.
  if (items > 0) {
    warnings.push(
      `Gear (${plural(items, 'item')} in ${plural(sets.length, 'gear set')}) is not imported: the build document has no gear.`,
    )
  }
  if (augments > 0) warnings.push(`Augments (${plural(augments, 'slotted augment')}) are not imported.`)
  if (filigrees > 0) warnings.push(`Filigrees (${filigrees}) are not imported.`)
  if (gems > 0) warnings.push(`Sentient gem personalities (${gems}) are not imported.`)
  return warnings
}
