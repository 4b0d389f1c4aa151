// Enhancement, destiny and reaper trees: the trees chosen and the ranks trained in each.
import type { TreeSpend, Trees } from './document'
import { child, children, text, texts, whole, type XmlNode } from './nodes'
import { TREE_ELEMENTS } from './vocabulary'

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

/** Enhancement or destiny trees: the trees chosen, the tier-5 one, and the ranks spent. */
export function readTrees(build: XmlNode, kind: 'enhancement' | 'destiny'): Trees {
  const { selected, spend } = TREE_ELEMENTS[kind]
  const chosen = child(build, selected)
  return {
    selected: texts(chosen, 'TreeName'),
    tier5: text(chosen, 'Tier5Tree') ?? null,
    spend: treeSpend(children(build, spend), spend),
  }
}

/** Reaper trees: the file holds no reaper point total (the planner has none), only what is spent. */
export function readReaperSpend(build: XmlNode): TreeSpend[] {
  const { spend } = TREE_ELEMENTS.reaper
  return treeSpend(children(build, spend), spend)
}
