// The account's quests × characters grid: every character of the account with its cells (what it
// has done of each catalog row in its current life, compactly: rules/quests/grid.ts), and the view
// the account keeps of it. Ownership in the query: the account's own characters only.
import { asc, eq } from 'drizzle-orm'
import type { Static } from 'elysia'
import { type DB, IMMEDIATE } from '../../db/client'
import { characters, users } from '../../db/schema'
import type { ModuleDeps } from '../../deps'
import { classSummary } from '../../rules/character/levels'
import { DEFAULT_GRID_VIEW, type GridView } from '../../rules/quests/grid'
import { versionedRows } from '../catalog/service'
import { characterName, trackerLevel } from '../characters/service'
import type { GridCells } from './cells'
import type { AccountGrid, GridViewPatch } from './model'

/** The account's character ids, by id: what its grid's tag is made of. */
function characterIds(db: DB, userId: number): number[] {
  return db
    .select({ id: characters.id })
    .from(characters)
    .where(eq(characters.userId, userId))
    .orderBy(asc(characters.id))
    .all()
    .map((row) => row.id)
}

/**
 * The ETag of the account's grid: its characters' change tags with the catalog's version, so a
 * page that holds the grid gets a 304 until one of them (or the catalog) changes.
 */
export function accountGridTag({ db, changes }: Pick<ModuleDeps, 'db' | 'changes'>, userId: number): string {
  return changes.charactersTag(`u${userId}.grid.${versionedRows(db).version}`, characterIds(db, userId))
}

export function accountGrid(db: DB, cells: GridCells, userId: number): Static<typeof AccountGrid> {
  const catalog = versionedRows(db)
  const rows = db.select().from(characters).where(eq(characters.userId, userId)).orderBy(asc(characters.id)).all()
  return {
    catalog: { version: catalog.version, rows: catalog.rows.length },
    characters: rows.map((row) => ({
      id: row.id,
      name: characterName(row),
      level: trackerLevel(row),
      classes: classSummary(row.classes),
      race: row.race,
      server: row.server,
      ...cells.of(db, row.id, catalog),
    })),
  }
}

/** The account's view of its grids: what it stored over the defaults (a field added later reads as its default). */
export function gridView(db: Pick<DB, 'select'>, userId: number): GridView {
  const stored = db.select({ view: users.gridView }).from(users).where(eq(users.id, userId)).get()?.view
  return { ...DEFAULT_GRID_VIEW, ...stored }
}

/** Replaces the fields sent; an id listed twice is kept once. */
export function putGridView(db: DB, userId: number, patch: Static<typeof GridViewPatch>): GridView {
  return db.transaction((tx) => {
    const view: GridView = { ...gridView(tx, userId), ...patch }
    view.order = [...new Set(view.order)]
    view.hidden = [...new Set(view.hidden)]
    tx.update(users).set({ gridView: view }).where(eq(users.id, userId)).run()
    return view
  }, IMMEDIATE)
}
