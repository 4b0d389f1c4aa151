// What makes a planned build impossible, as sentences a player can act on. A build with
// problems is still stored; these are shown beside it (`validationErrors`).

import {
  ABILITIES,
  ABILITY_INCREASE_LEVELS,
  ABILITY_NAMES,
  MAX_ABILITY_TOME,
  MAX_CLASS_LEVEL,
  MAX_CLASSES,
  MAX_HEROIC_LEVEL,
  MAX_PAST_LIFE_STACKS,
  MAX_SKILL_TOME,
  MAX_TOTAL_LEVEL,
  PAST_LIFE_TYPES,
  POINT_BUY_COST,
  POINT_BUY_MAX_SCORE,
} from '../character/gameData'
import { count } from '../words'
import { abilityKey, buildPointPastLives, maxBuildPoints, scoreForSpend } from './breakdown'
import type { BuildDocument } from './buildDocument'
import { classLabel, summarizeLevels } from './buildLevels'

export function validateBuild(document: BuildDocument): string[] {
  return [
    ...abilitySpendErrors(document),
    ...levelErrors(document),
    ...featLevelErrors(document),
    ...pastLifeErrors(document),
    ...tomeErrors(document),
  ]
}

export function abilitySpendErrors(document: BuildDocument): string[] {
  const spend = document.build?.abilitySpend
  if (!spend) return []
  const errors: string[] = []
  const cap = POINT_BUY_COST[POINT_BUY_MAX_SCORE]
  const valid = Object.values(POINT_BUY_COST).join(', ')
  for (const ability of ABILITIES) {
    const points = spend[ability]
    if (points === undefined) continue
    const name = ABILITY_NAMES[ability]
    if (points > cap) {
      errors.push(
        `${name} has ${count(points, 'build point')} spent, above the point-buy cap (${cap} points buy ${POINT_BUY_MAX_SCORE}).`,
      )
    } else if (points < 0 || scoreForSpend(points) === undefined) {
      errors.push(`${name} has ${count(points, 'build point')} spent, which buys no score (possible spends: ${valid}).`)
    }
  }
  const spent = ABILITIES.reduce((sum, a) => sum + (spend[a] ?? 0), 0)
  const pastLives = buildPointPastLives(document)
  const most = maxBuildPoints(document.life?.race, pastLives)
  const lives = `${count(pastLives, 'heroic or racial past life', 'heroic or racial past lives')}`
  if (spend.available !== undefined && spent > spend.available) {
    errors.push(`Ability spend totals ${spent} build points, but only ${spend.available} are available.`)
  } else if (spend.available === undefined && spent > most) {
    // Without `available`, the most the past lives can give (Champion option included) is the limit.
    errors.push(`Ability spend totals ${spent} build points, but with ${lives} at most ${most} are available.`)
  }
  if (spend.available !== undefined && spend.available > most) {
    errors.push(`The build claims ${spend.available} build points, but with ${lives} at most ${most} are available.`)
  }
  return errors
}

export function levelErrors(document: BuildDocument): string[] {
  const errors: string[] = []
  const build = document.build
  const summary = summarizeLevels(build)
  const names = new Set<string>()
  for (const slot of build?.classes ?? []) {
    const name = classLabel(slot)
    if (name) names.add(name)
  }
  for (const c of summary.classes) names.add(c.name)
  if (names.size > MAX_CLASSES) {
    errors.push(
      `The build has ${names.size} classes (${[...names].join(', ')}); a character can have at most ${MAX_CLASSES}.`,
    )
  }
  for (const c of summary.classes) {
    if (c.levels > MAX_CLASS_LEVEL) {
      errors.push(`${c.name} has ${c.levels} levels; a class can have at most ${MAX_CLASS_LEVEL}.`)
    }
  }
  const heroic = summary.classes.reduce((sum, c) => sum + c.levels, 0)
  if (heroic > MAX_HEROIC_LEVEL) {
    errors.push(`The class levels add up to ${heroic}; heroic levels add up to at most ${MAX_HEROIC_LEVEL}.`)
  }
  if (typeof build?.level === 'number' && (build.level < 1 || build.level > MAX_TOTAL_LEVEL)) {
    errors.push(`Level ${build.level} is outside 1 to ${MAX_TOTAL_LEVEL}.`)
  }
  const reached = summary.level ?? 0
  for (const [key, value] of Object.entries(build?.levelAbilityBumps ?? {})) {
    const at = Number(key)
    if (!/^\d+$/.test(key) || at % 4 !== 0 || at === 0) {
      errors.push(
        `"${key}" in levelAbilityBumps is not an ability-increase level (${ABILITY_INCREASE_LEVELS.join(', ')}).`,
      )
    } else if (at <= reached && abilityKey(value) === undefined) {
      errors.push(`The ability increase at level ${key} names "${value}", which is not an ability.`)
    }
  }
  return errors
}

export function featLevelErrors(document: BuildDocument): string[] {
  const levels = document.build?.levels ?? []
  const reached = summarizeLevels(document.build).level ?? levels.length
  const errors: string[] = []
  levels.forEach((entry, index) => {
    const at = index + 1
    if (at <= reached) return
    for (const feat of entry.feats ?? []) {
      errors.push(
        `Feat "${feat.name ?? 'unnamed'}" is taken at level ${at}, but the build only reaches level ${reached}.`,
      )
    }
  })
  return errors
}

export function pastLifeErrors(document: BuildDocument): string[] {
  const types: readonly string[] = PAST_LIFE_TYPES
  const stacks = new Map<string, number>()
  for (const feat of document.life?.specialFeats ?? []) {
    if (!types.includes(feat.type ?? '')) continue
    const name = feat.name ?? ''
    stacks.set(name, (stacks.get(name) ?? 0) + (feat.stacks ?? 1))
  }
  return [...stacks]
    .filter(([, n]) => n > MAX_PAST_LIFE_STACKS)
    .map(
      ([name, n]) => `Past life "${name}" has ${n} stacks; a past life stacks at most ${MAX_PAST_LIFE_STACKS} times.`,
    )
}

export function tomeErrors(document: BuildDocument): string[] {
  const tomes = document.tomes
  if (!tomes) return []
  const errors: string[] = []
  for (const ability of ABILITIES) {
    const value = tomes[ability]
    if (value !== undefined && (value < 0 || value > MAX_ABILITY_TOME)) {
      errors.push(`A ${ABILITY_NAMES[ability]} tome of +${value} is outside 0 to +${MAX_ABILITY_TOME}.`)
    }
  }
  for (const [skill, value] of Object.entries(tomes.skills ?? {})) {
    if (value < 0 || value > MAX_SKILL_TOME)
      errors.push(`A ${skill} tome of +${value} is outside 0 to +${MAX_SKILL_TOME}.`)
  }
  return errors
}
