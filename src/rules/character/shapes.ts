// The plain shapes the rules read and the database stores (a character's and a life's classes,
// a life's special feats). Defined once here: the Drizzle schema types its JSON columns with them.

/** One class of a character and its levels ("Fighter", 12). */
export interface ClassLevels {
  name: string
  levels: number
}

/** A past life or another special feat of a life, with its stacks. */
export interface SpecialFeat {
  name: string
  type: string
  stacks: number
}
