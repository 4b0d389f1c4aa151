// The document's life: the name, race and alignment of the active life, and its special feats.
import type { LifeSection } from './document'
import { text, type XmlNode } from './nodes'
import { readSpecialFeats } from './readSpecialFeats'

export function readLife(character: XmlNode, life: XmlNode, build: XmlNode): LifeSection {
  return {
    name: text(life, 'Name') ?? '',
    race: text(life, 'Race') ?? '',
    alignment: text(life, 'Alignment') ?? '',
    specialFeats: readSpecialFeats(character, life, build),
  }
}
