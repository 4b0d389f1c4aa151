// Tomes and skill tomes: on the life in newer files, on the character in older ones.
import { ABILITIES } from '../../../rules/character/gameData'
import type { Tomes } from './document'
import { child, whole, type XmlNode } from './nodes'
import { SKILL_TOME_ELEMENTS, TOME_ELEMENTS } from './vocabulary'

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

export function readTomes(character: XmlNode, life: XmlNode): Tomes {
  const holder = ABILITIES.some((a) => Object.hasOwn(life, TOME_ELEMENTS[a])) ? life : character
  const tomes: Tomes = {}
  for (const ability of ABILITIES) {
    tomes[ability] = whole(holder, TOME_ELEMENTS[ability], holder === life ? 'Life' : 'Character') ?? 0
  }
  const skills = skillTomes(character, life)
  if (skills) tomes.skills = skills
  return tomes
}
