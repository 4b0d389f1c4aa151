// Build document -> DDO Builder file: the planned life with its build, after the lives history
// (one life each, with a build of its class split), in the element layout of the planner's own
// files. What the document does not hold (gear, reaper tree order, the planner's UI state) the
// planner fills with its defaults on opening.
import { XMLBuilder } from 'fast-xml-parser'
import { ABILITIES } from '../../../rules/character/gameData'
import { isPastLife } from '../../../rules/character/pastLives'
import { pointsToRaises } from './abilityPoints'
import type { BuildDocument, BuildSection, SpecialFeatInput, Tomes, Trees } from './document'
import { isNode } from './nodes'
import {
  BUMP_LEVELS,
  FAVOR_FEAT_TYPE,
  NEW_CHARACTER,
  NO_CLASS,
  REAPER_TREES,
  ROOT,
  SKILL_TOME_ELEMENTS,
  SPEND_ELEMENTS,
  TOME_ELEMENTS,
} from './vocabulary'
import { NOT_XML_CHAR } from './xml'

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
/** A class name, or the planner's word for none. */
const className = (value: unknown) => str(value, NO_CLASS) || NO_CLASS

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

/** Skill tomes: every skill the planner knows, 0 where the document has none. */
const skillTomeEntries = (tomes: Tomes) =>
  Object.fromEntries(Object.entries(SKILL_TOME_ELEMENTS).map(([tag, skill]) => [tag, num(tomes.skills?.[skill])]))

/**
 * A completed quest as the planner keeps it on a build: its name, the level of the remake (the
 * planner tells a quest's heroic and epic versions apart by it; null when unknown) and its
 * difficulty word (`Elite`, `R5`).
 */
export interface PlannerQuest {
  name: string
  level: number | null
  difficulty: string
}

/** The build element: classes, spend, levels, spells, stances, trees, an empty gear set, favor, quests, notes. */
function buildElement(build: BuildSection, favor: { name: string; type: string }[], quests: readonly PlannerQuest[]) {
  const spend = build.abilitySpend ?? {}
  const classes = build.classes ?? []
  const bumps = build.levelAbilityBumps ?? {}
  const reaperSpend = spendEntries(build.reaper?.spend)
  const reaperTrees = [
    ...reaperSpend.map((tree) => tree.TreeName),
    ...REAPER_TREES.filter((name) => !reaperSpend.some((tree) => tree.TreeName === name)),
  ]
  return {
    '@_version': '1',
    Level: num(build.level, (build.levels ?? []).length),
    Class1: className(classes[0]),
    Class2: className(classes[1]),
    Class3: className(classes[2]),
    AbilitySpend: {
      AvailableSpend: num(spend.available, NEW_CHARACTER.availableSpend),
      ...Object.fromEntries(ABILITIES.map((a) => [SPEND_ELEMENTS[a], pointsToRaises(num(spend[a]))])),
    },
    LevelTraining: (build.levels ?? []).map((level, index) => ({
      Class: className(level.class),
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
    ActiveGear: NEW_CHARACTER.gearSet,
    EquippedGear: { Name: NEW_CHARACTER.gearSet },
    FavorFeats: { TrainedFeat: featList(favor, 0) },
    CompletedQuest: quests.map((q) => ({
      Name: clean(q.name),
      ...(q.level === null ? {} : { Level: num(q.level) }),
      Difficulty: clean(q.difficulty),
    })),
    Notes: str(build.notes),
    ...Object.fromEntries(
      BUMP_LEVELS.filter((level) => typeof bumps[String(level)] === 'string').map((level) => [
        `Level${level}`,
        str(bumps[String(level)]),
      ]),
    ),
  }
}

/** A finished life of the history, as the export writes it. */
export interface HistoryLife {
  name: string
  race: string
  alignment: string
  classes: readonly { name: string; levels: number }[]
  specialFeats: readonly SpecialFeatInput[]
}

/**
 * A finished life: its name, race and alignment, its own special feats (its past lives are the
 * character's, written once on <Character>), and one build training its class split in order.
 */
function historyLife(life: HistoryLife) {
  const classes = life.classes.filter((c) => num(c.levels) > 0)
  const own = life.specialFeats.filter((f) => !isPastLife(String(f.type ?? '')))
  return {
    '@_version': '1',
    Name: str(life.name),
    Race: str(life.race, NEW_CHARACTER.race),
    Alignment: str(life.alignment, NEW_CHARACTER.alignment),
    SpecialFeats: { TrainedFeat: featList(specialFeatEntries([...own]), 0) },
    Build: {
      '@_version': '1',
      Level: classes.reduce((n, c) => n + num(c.levels), 0),
      Class1: className(classes[0]?.name),
      Class2: className(classes[1]?.name),
      Class3: className(classes[2]?.name),
      LevelTraining: classes.flatMap((c) =>
        Array.from({ length: Math.min(num(c.levels), MAX_EXPORT_LEVELS) }, () => ({ Class: str(c.name) })),
      ),
    },
  }
}

/** Levels written per class of a finished life at most (the game has 20 heroic levels). */
const MAX_EXPORT_LEVELS = 40

/**
 * Writes a build document as a DDO Builder character file the planner opens; `history`, the
 * character's finished lives oldest first, come before it, and the planned life is the active one,
 * its build holding `quests` as its completed quests.
 */
export function toDdoBuilder(
  document: BuildDocument,
  history: readonly HistoryLife[] = [],
  quests: readonly PlannerQuest[] = [],
): string {
  const life = document.life ?? {}
  const tomes = document.tomes ?? {}
  const feats = life.specialFeats ?? []
  const special = specialFeatEntries(feats.filter((f) => f.type !== FAVOR_FEAT_TYPE))
  const favor = specialFeatEntries(feats.filter((f) => f.type === FAVOR_FEAT_TYPE))
  const character = {
    '@_version': '1',
    ...Object.fromEntries(ABILITIES.map((a) => [TOME_ELEMENTS[a], num(tomes[a])])),
    SpecialFeats: { TrainedFeat: featList(special, 0) },
    SkillTomes: skillTomeEntries(tomes),
    Life: [
      ...history.map(historyLife),
      {
        '@_version': '1',
        Name: str(life.name),
        Race: str(life.race, NEW_CHARACTER.race),
        Alignment: str(life.alignment, NEW_CHARACTER.alignment),
        SpecialFeats: '',
        Build: buildElement(document.build ?? {}, favor, quests),
      },
    ],
    ActiveLifeIndex: history.length,
    ActiveBuildIndex: 0,
  }
  return builder.build({ [ROOT]: { Character: character } })
}
