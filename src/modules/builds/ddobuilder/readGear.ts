// Gear, read only to say what is left out: the build document has no gear, so the items,
// augments, filigrees and sentient gems of the gear sets become warnings with their counts.
import { children, isNode, text, type XmlNode } from './nodes'

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

export function gearWarnings(build: XmlNode): string[] {
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
