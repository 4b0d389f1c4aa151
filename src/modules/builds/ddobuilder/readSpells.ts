// The spells the build trains, by class and spell level.
import type { TrainedSpell } from './document'
import { children, text, whole, type XmlNode } from './nodes'

export function readSpells(build: XmlNode): TrainedSpell[] {
  return children(build, 'TrainedSpell').map((spell) => ({
    class: text(spell, 'Class') ?? '',
    level: whole(spell, 'Level', 'TrainedSpell') ?? 0,
    name: text(spell, 'SpellName') ?? '',
  }))
}
