// The parts of the build document the codec reads into and writes from (its schema is
// ../model.ts; only its types are used here, so the codec stays plain data in, plain data out).
import type { BuildDocument, SpecialFeatInput } from '../model'

export type { BuildDocument, SpecialFeatInput }

/** A file read: the planned build, and one sentence per kind of thing the document cannot hold. */
export interface DdoBuilderImport {
  document: BuildDocument
  warnings: string[]
}

export type LifeSection = NonNullable<BuildDocument['life']>
export type Tomes = NonNullable<BuildDocument['tomes']>
export type BuildSection = NonNullable<BuildDocument['build']>
export type AbilitySpend = NonNullable<BuildSection['abilitySpend']>
export type Level = NonNullable<BuildSection['levels']>[number]
export type Trees = NonNullable<BuildSection['enhancementTrees']>
export type TreeSpend = NonNullable<Trees['spend']>[number]
export type TrainedSpell = NonNullable<BuildSection['trainedSpells']>[number]
