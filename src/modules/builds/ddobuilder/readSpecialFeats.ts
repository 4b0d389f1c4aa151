// Special feats: past lives and other feats of the character and of the life, then the favor
// rewards the planner keeps on the build.
import type { SpecialFeatInput } from './document'
import { child, children, text, type XmlNode } from './nodes'

/** Special feats of FeatsListObjects, each (type, name) once with its number of entries as stacks. */
export function collectFeats(lists: (XmlNode | undefined)[]): SpecialFeatInput[] {
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
export function readSpecialFeats(character: XmlNode, life: XmlNode, build: XmlNode): SpecialFeatInput[] {
  return collectFeats([child(character, 'SpecialFeats'), child(life, 'SpecialFeats'), child(build, 'FavorFeats')])
}
