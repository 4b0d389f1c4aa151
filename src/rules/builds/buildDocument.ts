// The build document as the rules read it (breakdown, validation, level summary): plain data,
// every part optional. The builds module's schema (src/modules/builds/model.ts) is checked
// against this type when the project compiles, so the two cannot drift apart.
import type { Ability } from '../character/gameData'

/** A special feat as a document holds it: any part may be missing. */
export interface DocumentFeat {
  name?: string
  type?: string
  stacks?: number
}

export interface DocumentLevel {
  class?: string
  feats?: { name?: string; type?: string }[]
  skills?: string[]
}

/** A tree's spend as the document holds it; the live/plan comparison reads it (buildDiff.ts). */
export interface DocumentTrees {
  spend?: unknown[]
}

export interface BuildDocument {
  /** `incomplete`: the domains a live snapshot has not read yet (buildDiff.ts leaves them out). */
  meta?: { incomplete?: string[] }
  life?: { name?: string; race?: string; alignment?: string; specialFeats?: DocumentFeat[] }
  tomes?: Partial<Record<Ability, number>> & { skills?: Record<string, number> }
  build?: {
    level?: number
    classes?: (string | null)[]
    abilitySpend?: Partial<Record<Ability | 'available', number>>
    levelAbilityBumps?: Record<string, string>
    levels?: DocumentLevel[]
    enhancementTrees?: DocumentTrees
    destinyTrees?: DocumentTrees
    reaper?: { spend?: unknown[] }
    trainedSpells?: { class?: string; level?: number; name?: string }[]
  }
}
