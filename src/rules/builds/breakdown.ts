// The planned-build breakdown (GAME-RULES.md "Character sheet numbers"): ability scores, hit
// points, spell points and saves, as pure functions over a build document. The numbers come
// from gameData.ts; the formulas are here.

import {
  ABILITIES,
  ABILITY_INCREASE_LEVELS,
  ABILITY_NAMES,
  type Ability,
  BASE_SCORE,
  BUILD_POINT_PAST_LIFE_TYPES,
  EPIC_HP_PER_LEVEL,
  findClass,
  findRace,
  MAX_CLASS_LEVEL,
  MAX_TOTAL_LEVEL,
  POINT_BUY_COST,
  POINT_BUY_MAX_SCORE,
  type Save,
  STANDARD_BUILD_POINTS,
} from '../character/gameData'
import type { ClassLevels } from '../character/shapes'
import { count } from '../words'
import type { BuildDocument } from './buildDocument'
import { type LevelSummary, summarizeLevels } from './buildLevels'

export interface AbilityLine {
  spend: number
  pointBuy: number
  racial: number
  levelUps: number
  tome: number
  score: number
  modifier: number
}

export interface SaveLine {
  base: number
  abilityModifier: number
  total: number
}

export interface Breakdown {
  level: number
  classes: ClassLevels[]
  epicLevels: number
  buildPoints: { available: number; spent: number }
  abilities: Record<Ability, AbilityLine>
  hp: number
  hpDetail: { classes: number; epicLevels: number; constitution: number }
  sp: number
  saves: Record<Save, SaveLine>
  notes: string[]
}

export const modifier = (score: number) => Math.floor((score - 10) / 2)

/** The score a point-buy spend reaches, or undefined when no score costs exactly that much. */
export function scoreForSpend(spend: number): number | undefined {
  const hit = Object.entries(POINT_BUY_COST).find(([, cost]) => cost === spend)
  return hit ? Number(hit[0]) : undefined
}

/** The highest score a spend can pay for (what an invalid spend is shown as). */
function affordableScore(spend: number): number {
  let best = BASE_SCORE
  for (const [score, cost] of Object.entries(POINT_BUY_COST)) if (cost <= spend) best = Math.max(best, Number(score))
  return Math.min(best, POINT_BUY_MAX_SCORE)
}

/** "Wisdom", "wis", "WIS" -> "wis"; anything else undefined. */
export function abilityKey(value: unknown): Ability | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.trim().toLowerCase()
  return ABILITIES.find((a) => a === text || ABILITY_NAMES[a].toLowerCase() === text)
}

export function racialModifiers(race: string | undefined): Partial<Record<Ability, number>> | undefined {
  return race ? findRace(race)?.modifiers : undefined
}

/** Heroic plus racial past-life stacks: what raises the build points. */
export function buildPointPastLives(document: BuildDocument): number {
  const types: readonly string[] = BUILD_POINT_PAST_LIFE_TYPES
  return (document.life?.specialFeats ?? [])
    .filter((feat) => types.includes(feat.type ?? ''))
    .reduce((sum, feat) => sum + (feat.stacks ?? 1), 0)
}

/** The race's build points; a race the table does not know gets the standard ones. */
function buildPointTable(race: string | undefined) {
  return (race ? findRace(race)?.buildPoints : undefined) ?? STANDARD_BUILD_POINTS
}

/** Build points without the Champion option, by past lives (28 / 34 / 36; Drow 28 / 30 / 32). */
export function defaultBuildPoints(race: string | undefined, pastLives: number): number {
  const table = buildPointTable(race)
  return pastLives >= 2 ? table.twoOrMore : pastLives === 1 ? table.one : table.none
}

/** The most build points a character with these past lives can have (Champion included). */
export function maxBuildPoints(race: string | undefined, pastLives: number): number {
  const table = buildPointTable(race)
  return pastLives >= 2 ? table.twoOrMore : pastLives === 1 ? table.one : Math.max(table.none, table.champion)
}

/** Levels of `levelAbilityBumps` that count at this level, with the ability each raises. */
export function reachedBumps(document: BuildDocument, level: number): Ability[] {
  const bumps = document.build?.levelAbilityBumps ?? {}
  return ABILITY_INCREASE_LEVELS.filter((at) => at <= level)
    .map((at) => abilityKey(bumps[String(at)]))
    .filter((a): a is Ability => a !== undefined)
}

export function abilityScores(document: BuildDocument, level: number): Record<Ability, AbilityLine> {
  const spend = document.build?.abilitySpend ?? {}
  const racial = racialModifiers(document.life?.race) ?? {}
  const bumps = reachedBumps(document, level)
  const tomes = document.tomes ?? {}
  const lines = {} as Record<Ability, AbilityLine>
  for (const ability of ABILITIES) {
    const spent = spend[ability] ?? 0
    const pointBuy = scoreForSpend(spent) ?? affordableScore(spent)
    const line = {
      spend: spent,
      pointBuy,
      racial: racial[ability] ?? 0,
      levelUps: bumps.filter((a) => a === ability).length,
      tome: tomes[ability] ?? 0,
    }
    const score = line.pointBuy + line.racial + line.levelUps + line.tome
    lines[ability] = { ...line, score, modifier: modifier(score) }
  }
  return lines
}

/** HP = Σ class HP per level + 10 per epic level + Constitution modifier × character level. */
export function hitPoints(classes: ClassLevels[], epicLevels: number, level: number, conModifier: number) {
  const fromClasses = classes.reduce((sum, c) => sum + c.levels * (classData(c.name)?.hpPerLevel ?? 0), 0)
  const detail = { classes: fromClasses, epicLevels: epicLevels * EPIC_HP_PER_LEVEL, constitution: conModifier * level }
  return { total: detail.classes + detail.epicLevels + detail.constitution, detail }
}

/**
 * Class spell points at a class level. GAME-RULES.md gives level 1 and level 20 only; levels in
 * between are interpolated on a straight line and rounded down.
 */
export function classSpellPoints(className: string, levels: number): number {
  const data = classData(className)
  if (!data || levels < 1) return 0
  const [first, last] = data.spellPoints
  const at = Math.min(levels, MAX_CLASS_LEVEL)
  return first + Math.floor(((last - first) * (at - 1)) / (MAX_CLASS_LEVEL - 1))
}

export function spellPoints(classes: ClassLevels[]): number {
  return classes.reduce((sum, c) => sum + classSpellPoints(c.name, c.levels), 0)
}

/** Base saves: good = 2 + ⌊level/2⌋, poor = ⌊level/3⌋, summed over the classes. */
export function baseSaves(classes: ClassLevels[]): Record<Save, number> {
  const saves: Record<Save, number> = { fortitude: 0, reflex: 0, will: 0 }
  for (const c of classes) {
    const good = classData(c.name)?.goodSaves ?? []
    for (const save of Object.keys(saves) as Save[]) {
      saves[save] += good.includes(save) ? 2 + Math.floor(c.levels / 2) : Math.floor(c.levels / 3)
    }
  }
  return saves
}

const SAVE_ABILITY: Record<Save, Ability> = { fortitude: 'con', reflex: 'dex', will: 'wis' }

/** A class or archetype row: archetypes carry their own numbers (gameData.ts). */
const classData = findClass

export function breakdown(document: BuildDocument, summary: LevelSummary = summarizeLevels(document.build)): Breakdown {
  const heroic = summary.classes.reduce((sum, c) => sum + c.levels, 0)
  const level = Math.min(MAX_TOTAL_LEVEL, summary.level ?? heroic + summary.epicLevels)
  const abilities = abilityScores(document, level)
  const notes: string[] = []
  const hp = hitPoints(summary.classes, summary.epicLevels, level, abilities.con.modifier)
  const base = baseSaves(summary.classes)
  const saves = {} as Record<Save, SaveLine>
  for (const save of Object.keys(base) as Save[]) {
    const abilityModifier = abilities[SAVE_ABILITY[save]].modifier
    saves[save] = { base: base[save], abilityModifier, total: base[save] + abilityModifier }
  }
  const pastLives = buildPointPastLives(document)
  const spend = document.build?.abilitySpend
  const available = spend?.available ?? defaultBuildPoints(document.life?.race, pastLives)
  const spent = ABILITIES.reduce((sum, a) => sum + (spend?.[a] ?? 0), 0)

  if (!summary.classesKnown && level > 0) {
    notes.push(
      'The split of levels between classes is unknown (no build.levels), so class hit points, spell points and saves are left out.',
    )
  }
  for (const c of summary.classes) {
    if (!classData(c.name))
      notes.push(`"${c.name}" is not a class these rules know; its levels add no hit points, spell points or saves.`)
  }
  const missing = Math.min(level, 20) - heroic
  if (summary.classesKnown && missing > 0) {
    notes.push(
      `${count(missing, 'heroic level has', 'heroic levels have')} no class yet; they add no class hit points.`,
    )
  }
  const race = document.life?.race
  if (race && !racialModifiers(race))
    notes.push(`Race "${race}" is not in the racial modifier table; no racial modifiers applied.`)

  return {
    level,
    classes: summary.classes,
    epicLevels: summary.epicLevels,
    buildPoints: { available, spent },
    abilities,
    hp: hp.total,
    hpDetail: hp.detail,
    sp: spellPoints(summary.classes),
    saves,
    notes,
  }
}
