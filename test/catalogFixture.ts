// Loads QuestRow JSON (our small fixture, or the shared real catalog) into the quests table.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DB } from '../src/db/client'
import { quests } from '../src/db/schema'
import { NO_FACTS, type QuestRow } from '../src/modules/catalog/parse'
import { questColumns } from '../src/modules/catalog/service'

export type { QuestRow }

export const SMALL_CATALOG = join(import.meta.dir, 'fixtures', 'quests-small.json')
export const SHARED_CATALOG = join(import.meta.dir, '..', '..', 'shared', 'fixtures', 'catalog', 'quests-718.json')
export const sharedCatalogExists = existsSync(SHARED_CATALOG)

export function readCatalog(path: string): QuestRow[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as Partial<QuestRow>[]).map(withFacts)
}

/** A row of a fixture file, with the facts the wiki's list does not carry (null). */
export const withFacts = (row: Partial<QuestRow>): QuestRow => ({ ...NO_FACTS, ...row }) as QuestRow

export function loadCatalog(db: DB, rows: QuestRow[]): void {
  db.transaction((tx) => {
    for (const r of rows)
      tx.insert(quests)
        .values(questColumns(withFacts(r)))
        .run()
  })
}
