// The build's ability spend (raises in the file, build points in the document) and the ability
// increases it takes at levels 4, 8, ... 40.
import { ABILITIES } from '../../../rules/character/gameData'
import { MAX_RAISES, raisesToPoints } from './abilityPoints'
import type { AbilitySpend } from './document'
import { DdoBuilderFormatError } from './formatError'
import { child, text, whole, type XmlNode } from './nodes'
import { BUMP_LEVELS, SPEND_ELEMENTS } from './vocabulary'

/** A spend beyond point buy (more than 10 raises) is refused, naming the ability's element. */
export function readAbilitySpend(build: XmlNode): AbilitySpend {
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
export function readAbilityBumps(life: XmlNode, build: XmlNode): Record<string, string> {
  const bumps: Record<string, string> = {}
  for (const holder of [life, build]) {
    for (const level of BUMP_LEVELS) {
      const ability = text(holder, `Level${level}`)?.trim()
      if (ability) bumps[String(level)] = ability
    }
  }
  return bumps
}
