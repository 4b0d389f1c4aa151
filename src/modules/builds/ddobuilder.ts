// DDO Builder (Maetrim/DDOBuilderV2) character files (`.DDOBuild`, XML) to and from our build
// document. Pure: `fromDdoBuilder` reads a file into a planned build plus warnings for what the
// document cannot hold; `toDdoBuilder` writes a planned build back as a file the planner opens.
//
// The file format has no published schema: the element names are those of the planner's
// DL_* property macros (Character.h, Life.h, Build.h, LevelTraining.h, TrainedEnhancement.h)
// and of real files (a full character among the project's fixtures, outside this repository;
// test/fixtures/*.DDOBuild follow its layout). Older files keep tomes, skill tomes and special
// feats on <Character>, newer ones on <Life>; both are read.
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser'
import { BadRequest } from '../../http/errors'
import { scoreForSpend } from '../../rules/breakdown'
import { ABILITIES, ABILITY_INCREASE_LEVELS, type Ability, BASE_SCORE, POINT_BUY_COST } from '../../rules/gameData'
import { MAX_IMPORT_BODY_BYTES } from './limits'
import type { BuildDocument, SpecialFeatInput } from './model'

/** The longest file read (characters): no more than the import's body can hold anyway. */
export const MAX_XML_CHARS = MAX_IMPORT_BODY_BYTES

/** DDO Builder nests about 8 deep (gear augments); anything far deeper is not one of its files. */
const MAX_DEPTH = 64

export interface DdoBuilderImport {
  document: BuildDocument
  warnings: string[]
}

// ---------------------------------------------------------------------------------------------
// Reading XML safely

const BUILT_IN_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** A character reference XML allows (Char production of XML 1.0), as a string; else undefined. */
function fromCodePoint(code: number): string | undefined {
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  return allowed ? String.fromCodePoint(code) : undefined
}

/**
 * Expands only what every XML document may use without a DTD: the five built-in entities and
 * character references. Entities a DOCTYPE declares are never expanded (no billion laughs, no
 * external entities); the parser's own decoder would also take HTML names like `&nbsp;`.
 */
const xmlEntityDecoder = {
  setExternalEntities: (_entities: Record<string, string>) => {},
  addInputEntities: (_entities: Record<string, string>) => {},
  reset: () => {},
  setXmlVersion: (_version: number) => {},
  decode: (text: string) =>
    text.includes('&')
      ? text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,4});/g, (whole, name: string) => {
          if (name.startsWith('#x')) return fromCodePoint(Number.parseInt(name.slice(2), 16)) ?? whole
          if (name.startsWith('#')) return fromCodePoint(Number.parseInt(name.slice(1), 10)) ?? whole
          return BUILT_IN_ENTITIES[name] ?? whole
        })
      : text,
}

/** Elements that may repeat: always arrays, so one entry and many read the same way. */
const REPEATED = new Set([
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

const parser = new XMLParser({
  ignoreAttributes: true, // the planner's only attributes are format versions
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false, // numbers are read (and refused) by this module, not guessed
  trimValues: false, // names are matched exactly by the planner ("Aasimar Scourge " has a space)
  isArray: (name) => REPEATED.has(name),
  jPath: false, // callbacks get no path string: building one per element costs a third of the parse
  maxNestedTags: MAX_DEPTH,
  // Limits for the DOCTYPE reader in case one slipped past the check below; nothing it declares
  // is expanded anyway (see xmlEntityDecoder).
  processEntities: { enabled: true, maxEntitySize: 1, maxEntityCount: 1, maxTotalExpansions: 1 },
  entityDecoder: xmlEntityDecoder,
})

type XmlNode = { readonly [tag: string]: unknown }

const isNode = (value: unknown): value is XmlNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The values of a child element (own keys only, so `toString` never finds Object's method). */
function all(node: XmlNode | undefined, tag: string): unknown[] {
  if (!node || !Object.hasOwn(node, tag)) return []
  const value = node[tag]
  return Array.isArray(value) ? value : [value]
}

/** A child element with children; an empty one (`<SpecialFeats/>`) reads as no children. */
function child(node: XmlNode | undefined, tag: string): XmlNode | undefined {
  const value = all(node, tag)[0]
  if (isNode(value)) return value
  return value === '' ? {} : undefined
}

const children = (node: XmlNode | undefined, tag: string): XmlNode[] =>
  all(node, tag)
    .map((value) => (isNode(value) ? value : value === '' ? {} : undefined))
    .filter(isNode)

/** The text of a child element, as written (untrimmed); undefined when absent or not text. */
function text(node: XmlNode | undefined, tag: string): string | undefined {
  const value = all(node, tag)[0]
  return typeof value === 'string' ? value : undefined
}

const texts = (node: XmlNode | undefined, tag: string): string[] =>
  all(node, tag).filter((value): value is string => typeof value === 'string')

/** A whole number of a child element; absent or empty is undefined, anything else is a 400. */
function whole(node: XmlNode | undefined, tag: string, where: string): number | undefined {
  const value = text(node, tag)?.trim()
  if (value === undefined || value === '') return undefined
  if (!/^\d{1,9}$/.test(value)) {
    throw new BadRequest(`${where} > ${tag} must be a whole number, not "${value.slice(0, 40)}".`)
  }
  return Number(value)
}

/** One character XML 1.0 does not allow (the complement of its Char production). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u

function parseXml(xml: string): XmlNode {
  if (xml.length > MAX_XML_CHARS) {
    throw new BadRequest(
      `The file is larger than ${MAX_XML_CHARS / 1024 / 1024} MiB; DDO Builder files are far smaller.`,
    )
  }
  if (xml.trim() === '') throw new BadRequest('The file is empty: expected a DDO Builder character file (.DDOBuild).')
  // DDO Builder never writes a DTD; one here can only be an attempt at entity tricks.
  if (/<!DOCTYPE/i.test(xml)) {
    throw new BadRequest('The file declares a DOCTYPE, which DDO Builder files never have; it is not read.')
  }
  // XML 1.0 allows neither control characters nor U+FFFE/U+FFFF (nor lone surrogates); the
  // parser would pass them on and the export could not write them back.
  const illegal = NOT_XML_CHAR.exec(xml)
  if (illegal) {
    const code = illegal[0].codePointAt(0) ?? 0
    const line = xml.slice(0, illegal.index).split('\n').length
    throw new BadRequest(
      `The file is not well-formed XML: character U+${code.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML (line ${line}).`,
    )
  }
  let parsed: unknown
  try {
    // The parser first: it stops at the nesting limit at once, where the validator would walk
    // the whole file.
    parsed = parser.parse(xml)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (/nested/i.test(reason)) {
      throw new BadRequest(`The file nests elements more than ${MAX_DEPTH} deep; it is not a DDO Builder file.`)
    }
    // The parser refuses element names like __proto__ or constructor (prototype pollution).
    const reserved = /^\[SECURITY\].*?"([^"]{0,60})"/.exec(reason)
    if (reserved) {
      throw new BadRequest(
        `The file has an element named "${reserved[1]}", which no DDO Builder file has; it is not read.`,
      )
    }
    throw new BadRequest(`The file is not well-formed XML: ${reason.replace(/\.?$/, '.')}`)
  }
  // The parser tolerates mismatched tags; the validator does not, and says where.
  const valid = XMLValidator.validate(xml)
  if (valid !== true) {
    const { msg, line, col } = valid.err
    throw new BadRequest(
      `The file is not well-formed XML: ${msg.replace(/\.?$/, '')} (line ${line}${col ? `, column ${col}` : ''}).`,
    )
  }
  if (!isNode(parsed)) throw new BadRequest('The file is not XML: expected a DDO Builder character file (.DDOBuild).')
  return parsed
}

// ---------------------------------------------------------------------------------------------
// DDO Builder file -> document

const ROOT = 'DDOBuilderCharacterData'

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

const TOME_ELEMENTS: Readonly<Record<Ability, string>> = {
  str: 'StrTome',
  dex: 'DexTome',
  con: 'ConTome',
  int: 'IntTome',
  wis: 'WisTome',
  cha: 'ChaTome',
}

const SPEND_ELEMENTS: Readonly<Record<Ability, string>> = {
  str: 'StrSpend',
  dex: 'DexSpend',
  con: 'ConSpend',
  int: 'IntSpend',
  wis: 'WisSpend',
  cha: 'ChaSpend',
}

/** The levels DDO Builder writes an ability increase for (Level4 … Level40). */
const BUMP_LEVELS = [...ABILITY_INCREASE_LEVELS, 36, 40]

/** Raises above 8 that point buy allows (10: score 18). */
const MAX_RAISES = Math.max(...Object.keys(POINT_BUY_COST).map(Number)) - BASE_SCORE

/**
 * DDO Builder stores each ability's spend as raises above 8 (its AbilitySpend.cpp adds the costs
 * 1,1,1,1,1,1,2,2,3,3 per raise); our document holds build points (GAME-RULES.md): 9 raises
 * (score 17) are 13 points.
 */
export function raisesToPoints(raises: number): number | undefined {
  return POINT_BUY_COST[BASE_SCORE + raises]
}

/** Points back to raises for the export; a spend that buys no score is written as what it affords. */
export function pointsToRaises(points: number): number {
  const exact = scoreForSpend(points)
  if (exact !== undefined) return exact - BASE_SCORE
  let best = 0
  for (const [score, cost] of Object.entries(POINT_BUY_COST)) if (cost <= points) best = Math.max(best, Number(score))
  return Math.max(0, best - BASE_SCORE)
}

// Elements the import reads (or knowingly skips as derived data); any other one is reported.
const CHARACTER_READ = new Set([
  ...Object.values(TOME_ELEMENTS),
  'SpecialFeats',
  'SkillTomes',
  'Life',
  'ActiveLifeIndex',
  'ActiveBuildIndex',
  'GuildLevel',
  'ApplyGuildBuffs',
])
const LIFE_READ = new Set([
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
const BUILD_READ = new Set([
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

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`

/** Special feats of a FeatsListObject, each (type, name) once with its number of entries as stacks. */
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

type Trees = NonNullable<NonNullable<BuildDocument['build']>['enhancementTrees']>
type TreeSpend = NonNullable<Trees['spend']>[number]

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

function selectedTrees(node: XmlNode | undefined, spends: XmlNode[], where: string): Trees {
  return {
    selected: texts(node, 'TreeName'),
    tier5: text(node, 'Tier5Tree') ?? null,
    spend: treeSpend(spends, where),
  }
}

function unknownElements(node: XmlNode, known: Set<string>, where: string, warnings: string[]): void {
  for (const tag of Object.keys(node)) {
    if (known.has(tag) || tag === '#text') continue
    warnings.push(`${where} > ${tag} is not something a build document holds; it is not imported.`)
  }
}

function gearWarnings(build: XmlNode, warnings: string[]): void {
  const sets = children(build, 'EquippedGear')
  let items = 0
  let augments = 0
  let filigrees = 0
  let gems = 0
  for (const set of sets) {
    for (const [tag, value] of Object.entries(set)) {
      if (tag === 'Filigree' || tag === 'ArtifactFiligree') {
        filigrees += children(set, tag).filter((f) => (text(f, 'Name') ?? '').trim() !== '').length
        continue
      }
      // An item is a slot element with a name; the set's own Name and counters are text.
      const slotItems = (Array.isArray(value) ? value : [value]).filter(isNode).filter((v) => Object.hasOwn(v, 'Name'))
      items += slotItems.length
      for (const item of slotItems) {
        augments += children(item, 'ItemAugment').filter((a) => Object.hasOwn(a, 'SelectedAugment')).length
      }
    }
    if ((text(set, 'Personality') ?? '').trim() !== '') gems += 1
  }
  // An empty set is what every new build has (and what the export writes): nothing lost.
  if (items > 0) {
    warnings.push(
      `Gear (${plural(items, 'item')} in ${plural(sets.length, 'gear set')}) is not imported: the build document has no gear.`,
    )
  }
  if (augments > 0) warnings.push(`Augments (${plural(augments, 'slotted augment')}) are not imported.`)
  if (filigrees > 0) warnings.push(`Filigrees (${filigrees}) are not imported.`)
  if (gems > 0) warnings.push(`Sentient gem personalities (${gems}) are not imported.`)
}

/** Reads a DDO Builder character file into a planned build document, with what it left out. */
export function fromDdoBuilder(xml: string): DdoBuilderImport {
  const parsed = parseXml(xml)
  const rootName = Object.keys(parsed).find((key) => key !== '#text')
  if (rootName === undefined) {
    throw new BadRequest('The file has no XML element: expected a DDO Builder character file (.DDOBuild).')
  }
  if (rootName !== ROOT) {
    throw new BadRequest(
      `The file is XML but not a DDO Builder character: its root element is <${rootName.slice(0, 60)}>, not <${ROOT}>.`,
    )
  }
  const character = child(child(parsed, ROOT), 'Character')
  if (!character) throw new BadRequest(`The DDO Builder file has no character (${ROOT} > Character).`)
  const lives = children(character, 'Life')
  if (lives.length === 0) {
    throw new BadRequest('The DDO Builder character has no life (Character > Life), so there is no build to import.')
  }
  const warnings: string[] = []

  const lifeIndex = whole(character, 'ActiveLifeIndex', 'Character') ?? 0
  const life = lives[lifeIndex] ?? lives[0]
  if (!lives[lifeIndex]) warnings.push(`The active life (${lifeIndex + 1}) is not in the file; life 1 is imported.`)
  if (lives.length > 1) {
    warnings.push(
      `The file has ${lives.length} lives; only the active one (life ${lives.indexOf(life) + 1}) is imported.`,
    )
  }
  const builds = children(life, 'Build')
  if (builds.length === 0) {
    throw new BadRequest(
      'The DDO Builder character has no build in its life (Character > Life > Build), so there is nothing to import.',
    )
  }
  const buildIndex = whole(character, 'ActiveBuildIndex', 'Character') ?? 0
  const build = builds[buildIndex] ?? builds[0]
  if (!builds[buildIndex])
    warnings.push(`The active build (${buildIndex + 1}) is not in the file; build 1 is imported.`)
  if (builds.length > 1) {
    warnings.push(
      `The life has ${builds.length} builds; only the active one (build ${builds.indexOf(build) + 1}) is imported.`,
    )
  }

  // Tomes and skill tomes: on the life in newer files, on the character in older ones.
  const tomeHolder = ABILITIES.some((a) => Object.hasOwn(life, TOME_ELEMENTS[a])) ? life : character
  const tomes: NonNullable<BuildDocument['tomes']> = {}
  for (const ability of ABILITIES) {
    tomes[ability] = whole(tomeHolder, TOME_ELEMENTS[ability], tomeHolder === life ? 'Life' : 'Character') ?? 0
  }
  const skillTomes = child(life, 'SkillTomes') ?? child(character, 'SkillTomes')
  if (skillTomes) {
    const skills: Record<string, number> = {}
    for (const tag of Object.keys(skillTomes)) {
      if (tag === '#text') continue
      const value = whole(skillTomes, tag, 'SkillTomes') ?? 0
      if (value > 0) skills[SKILL_TOME_ELEMENTS[tag] ?? tag] = value
    }
    // The planner writes every skill at 0; only tomes actually read are worth keeping.
    if (Object.keys(skills).length > 0) tomes.skills = skills
  }

  const spendNode = child(build, 'AbilitySpend')
  const abilitySpend: NonNullable<NonNullable<BuildDocument['build']>['abilitySpend']> = {}
  const available = whole(spendNode, 'AvailableSpend', 'AbilitySpend')
  if (available !== undefined) abilitySpend.available = available
  for (const ability of ABILITIES) {
    const raises = whole(spendNode, SPEND_ELEMENTS[ability], 'AbilitySpend') ?? 0
    const points = raisesToPoints(raises)
    if (points === undefined) {
      throw new BadRequest(
        `AbilitySpend > ${SPEND_ELEMENTS[ability]} is ${raises} raises; point buy allows at most ${MAX_RAISES} (score 18).`,
      )
    }
    abilitySpend[ability] = points
  }

  // Ability increases: on the build in the files seen, on the life in some planner versions.
  const levelAbilityBumps: Record<string, string> = {}
  for (const holder of [life, build]) {
    for (const level of BUMP_LEVELS) {
      const ability = text(holder, `Level${level}`)?.trim()
      if (ability) levelAbilityBumps[String(level)] = ability
    }
  }

  const slot = (n: number) => {
    const name = text(build, `Class${n}`)
    return name && name.trim() !== '' && name.trim() !== 'Unknown' ? name : null
  }

  const levels = children(build, 'LevelTraining').map((level) => ({
    class: text(level, 'Class') ?? 'Unknown',
    feats: children(level, 'TrainedFeat').map((feat) => ({
      name: text(feat, 'FeatName') ?? '',
      type: text(feat, 'Type') ?? '',
    })),
    skills: children(level, 'TrainedSkill').flatMap((skill) => texts(skill, 'Skill')),
  }))

  const trainedSpells = children(build, 'TrainedSpell').map((spell) => ({
    class: text(spell, 'Class') ?? '',
    level: whole(spell, 'Level', 'TrainedSpell') ?? 0,
    name: text(spell, 'SpellName') ?? '',
  }))

  const reaperSpend = treeSpend(children(build, 'ReaperSpendInTree'), 'ReaperSpendInTree')

  const document: BuildDocument = {
    schemaVersion: 1,
    meta: { source: 'DDO Builder file', gameCharacterId: null },
    life: {
      name: text(life, 'Name') ?? '',
      race: text(life, 'Race') ?? '',
      alignment: text(life, 'Alignment') ?? '',
      // Past lives and other special feats (character-wide, then the life's), then favor rewards.
      specialFeats: collectFeats([
        child(character, 'SpecialFeats'),
        child(life, 'SpecialFeats'),
        child(build, 'FavorFeats'),
      ]),
    },
    tomes,
    build: {
      level: whole(build, 'Level', 'Build') ?? levels.length,
      classes: [slot(1), slot(2), slot(3)],
      abilitySpend,
      levelAbilityBumps,
      levels,
      enhancementTrees: selectedTrees(
        child(build, 'Enhancement_SelectedTrees'),
        children(build, 'EnhancementSpendInTree'),
        'EnhancementSpendInTree',
      ),
      destinyTrees: selectedTrees(
        child(build, 'Destiny_SelectedTrees'),
        children(build, 'DestinySpendInTree'),
        'DestinySpendInTree',
      ),
      // The file holds no reaper point total (the planner has none); only what is spent.
      reaper: { spend: reaperSpend },
      trainedSpells,
      stances: texts(child(build, 'ActiveStances'), 'Stances'),
      notes: text(build, 'Notes') ?? '',
    },
  }

  gearWarnings(build, warnings)
  const chains = child(build, 'ActiveAttackChain')
  if ((chains && Object.keys(chains).length > 0) || (text(build, 'ActiveAttackChain') ?? '').trim() !== '') {
    warnings.push('Attack chains are not imported.')
  }
  const buffs = texts(life, 'SelfAndPartyBuffs').filter((b) => b.trim() !== '')
  if (buffs.length > 0) warnings.push(`Self and party buffs (${buffs.length}) are not imported.`)
  const quests = children(build, 'CompletedQuest').length
  if (quests > 0) {
    warnings.push(
      `Completed quests (${quests}) are not imported: log completions in the tracker, where favor is counted.`,
    )
  }
  const guildLevel = whole(character, 'GuildLevel', 'Character') ?? 0
  if (guildLevel > 0) warnings.push(`Guild level ${guildLevel} and its guild buffs are not imported.`)
  unknownElements(character, CHARACTER_READ, 'Character', warnings)
  unknownElements(life, LIFE_READ, 'Character > Life', warnings)
  unknownElements(build, BUILD_READ, 'Character > Life > Build', warnings)
  return { document, warnings }
}

// ---------------------------------------------------------------------------------------------
// Document -> DDO Builder file

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true, // `<SpecialFeats/>`, `<IsTier5/>` as the planner writes them
  processEntities: true, // escapes & < > " in text
})

/** Characters XML 1.0 cannot hold at all (not even as references) are dropped from the export. */
const clean = (value: string) => value.replace(new RegExp(NOT_XML_CHAR.source, 'gu'), '')

const str = (value: unknown, fallback = '') => clean(typeof value === 'string' ? value : fallback)
const num = (value: unknown, fallback = 0) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : fallback

function featList(feats: { name: string; type: string }[], level: number) {
  return feats.map((feat) => ({ FeatName: str(feat.name), Type: str(feat.type), LevelTrainedAt: level }))
}

/**
 * Stacks written per special feat at most: past lives stop at 3 and the planner's "Inherent"
 * feats at a few more; the cap keeps a document with absurd stacks from making a huge file.
 */
const MAX_EXPORT_STACKS = 10

function specialFeatEntries(feats: SpecialFeatInput[]) {
  return feats.flatMap((feat) =>
    Array.from({ length: Math.min(num(feat.stacks, 1), MAX_EXPORT_STACKS) }, () => ({
      name: str(feat.name),
      type: str(feat.type),
    })),
  )
}

function spendEntries(spend: unknown) {
  if (!Array.isArray(spend)) return []
  return spend.filter(isNode).map((tree) => ({
    TreeName: str(tree.treeName),
    ...(typeof tree.treeVersion === 'number' ? { TreeVersion: num(tree.treeVersion) } : {}),
    TrainedEnhancement: (Array.isArray(tree.trained) ? tree.trained : []).filter(isNode).map((item) => ({
      EnhancementName: str(item.enhancementName),
      ...(typeof item.selection === 'string' ? { Selection: clean(item.selection) } : {}),
      Ranks: num(item.ranks),
      ...(item.isTier5 === true ? { IsTier5: '' } : {}),
    })),
  }))
}

function selectedEntries(trees: Trees | undefined) {
  return {
    TreeName: (trees?.selected ?? []).map((name) => str(name)),
    ...(typeof trees?.tier5 === 'string' ? { Tier5Tree: clean(trees.tier5) } : {}),
  }
}

/** The reaper trees every character has, in the planner's order. */
const REAPER_TREES = ['Dire Thaumaturge', 'Dread Adversary', 'Grim Barricade']

/**
 * Writes a build document as a DDO Builder character file: one life with one build, in the
 * element layout of the planner's own files. What the document does not hold (gear, reaper
 * tree order, the planner's UI state) the planner fills with its defaults on opening.
 */
export function toDdoBuilder(document: BuildDocument): string {
  const life = document.life ?? {}
  const build = document.build ?? {}
  const tomes = document.tomes ?? {}
  const spend = build.abilitySpend ?? {}
  const feats = life.specialFeats ?? []
  const special = specialFeatEntries(feats.filter((f) => f.type !== 'Favor'))
  const favor = specialFeatEntries(feats.filter((f) => f.type === 'Favor'))
  const skillTomes = Object.fromEntries(
    Object.entries(SKILL_TOME_ELEMENTS).map(([tag, skill]) => [tag, num(tomes.skills?.[skill])]),
  )
  const classes = build.classes ?? []
  const bumps = build.levelAbilityBumps ?? {}
  const reaperSpend = spendEntries(build.reaper?.spend)
  const reaperTrees = [
    ...reaperSpend.map((tree) => tree.TreeName),
    ...REAPER_TREES.filter((name) => !reaperSpend.some((tree) => tree.TreeName === name)),
  ]

  const characterXml = {
    '@_version': '1',
    ...Object.fromEntries(ABILITIES.map((a) => [TOME_ELEMENTS[a], num(tomes[a])])),
    SpecialFeats: { TrainedFeat: featList(special, 0) },
    SkillTomes: skillTomes,
    Life: {
      '@_version': '1',
      Name: str(life.name),
      Race: str(life.race, 'Human'),
      Alignment: str(life.alignment, 'Lawful Good'),
      SpecialFeats: '',
      Build: {
        '@_version': '1',
        Level: num(build.level, (build.levels ?? []).length),
        Class1: str(classes[0], 'Unknown') || 'Unknown',
        Class2: str(classes[1], 'Unknown') || 'Unknown',
        Class3: str(classes[2], 'Unknown') || 'Unknown',
        AbilitySpend: {
          AvailableSpend: num(spend.available, 28),
          ...Object.fromEntries(ABILITIES.map((a) => [SPEND_ELEMENTS[a], pointsToRaises(num(spend[a]))])),
        },
        LevelTraining: (build.levels ?? []).map((level, index) => ({
          Class: str(level.class, 'Unknown') || 'Unknown',
          TrainedFeat: featList(
            (level.feats ?? []).map((f) => ({ name: str(f.name), type: str(f.type) })),
            index,
          ),
          TrainedSkill: (level.skills ?? []).map((skill) => ({ Skill: str(skill) })),
        })),
        TrainedSpell: (build.trainedSpells ?? []).map((spell) => ({
          Class: str(spell.class),
          Level: num(spell.level),
          SpellName: str(spell.name),
        })),
        ActiveStances: { Stances: (build.stances ?? []).map((s) => str(s)) },
        Destiny_SelectedTrees: selectedEntries(build.destinyTrees),
        Enhancement_SelectedTrees: selectedEntries(build.enhancementTrees),
        Reaper_SelectedTrees: { TreeName: reaperTrees },
        EnhancementSpendInTree: spendEntries(build.enhancementTrees?.spend),
        ReaperSpendInTree: reaperSpend,
        DestinySpendInTree: spendEntries(build.destinyTrees?.spend),
        // An empty gear set under the planner's default name, as a new build of its own has.
        ActiveGear: 'Standard',
        EquippedGear: { Name: 'Standard' },
        FavorFeats: { TrainedFeat: featList(favor, 0) },
        Notes: str(build.notes),
        ...Object.fromEntries(
          BUMP_LEVELS.filter((level) => typeof bumps[String(level)] === 'string').map((level) => [
            `Level${level}`,
            str(bumps[String(level)]),
          ]),
        ),
      },
    },
    ActiveLifeIndex: 0,
    ActiveBuildIndex: 0,
  }
  return builder.build({ [ROOT]: { Character: characterXml } })
}
