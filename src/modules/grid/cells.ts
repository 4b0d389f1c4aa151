// Each character's cells of the quests × characters grid (rules/quests/grid.ts characterCells),
// kept by the character's change tag and the catalog's version: a grid read after one completion
// reads that character's completions again, not every character's (20 characters of 10,000
// completions each are 200,000 rows). One store for the account's grid and every group's. In
// memory and bounded (limits.ts); a write of another process (the CLI) changes every tag (the
// change feed's outside count), so nothing kept outlives it.
import type { DB } from '../../db/client'
import { type CharacterCells, characterCells } from '../../rules/quests/grid'
import type { LoggedCompletion } from '../../rules/quests/tracker'
import type { versionedRows } from '../catalog/service'
import { currentQuestLife } from '../completions/service'
import type { ChangeFeed } from '../events/feed'
import { lifeCompletionsStatement } from '../groups/needs'
import { MAX_KEPT_GRID_CHARACTERS } from './limits'

type Catalog = ReturnType<typeof versionedRows>

export class GridCells {
  private readonly kept = new Map<number, { tag: string; cells: CharacterCells }>()

  constructor(private readonly changes: ChangeFeed) {}

  /** The character's cells over `catalog`: kept while its change tag and the catalog's version stand. */
  of(db: DB, characterId: number, catalog: Catalog): CharacterCells {
    const tag = `${this.changes.characterTag(characterId)}.${catalog.version}`
    const kept = this.kept.get(characterId)
    if (kept?.tag === tag) return kept.cells
    const life = currentQuestLife(db, characterId)
    const done = lifeCompletionsStatement(db).all({ characterId, life }) as LoggedCompletion[]
    const cells = characterCells(catalog.rows, done)
    if (!kept && this.kept.size >= MAX_KEPT_GRID_CHARACTERS) this.kept.clear()
    this.kept.set(characterId, { tag, cells })
    return cells
  }
}
