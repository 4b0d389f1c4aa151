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

/**
 * `count` heroic quests whose levels run 1 to 20 in turn, alike but for their names (100 XP solo,
 * 200/220/240 on normal/hard/elite, Short, Free to Play, The Coin Lords, 3 favor): a list longer
 * than a first draw, in an order the tests know. As a catalog file holds them (withFacts to load).
 */
export function generatedHeroics(count: number, nameOf: (i: number) => string): Partial<QuestRow>[] {
  return Array.from({ length: count }, (_, i) => ({
    name: nameOf(i),
    difficulty: 'Heroic',
    level: 1 + (i % 20),
    soloXP: 100,
    normalXP: 200,
    hardXP: 220,
    eliteXP: 240,
    duration: 'Short',
    pack: 'Free to Play',
    patron: 'The Coin Lords',
    favor: 3,
  }))
}

export function loadCatalog(db: DB, rows: QuestRow[]): void {
  db.transaction((tx) => {
    for (const r of rows)
      tx.insert(quests)
        .values(questColumns(withFacts(r)))
        .run()
  })
}
