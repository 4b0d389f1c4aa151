// The quest catalog that ships inside the program (snapshot.json, made by `npm run
// catalog:snapshot`): a database whose catalog is empty is filled from it at once, before any
// network call, so a first start shows every quest offline, and a server every source refuses
// still has its quests. A sync merges into it; the snapshot never replaces a synced catalog.
import { count } from 'drizzle-orm'
import { catalogState, quests } from '../../db/schema'
import { type ParsedCatalog, parseCatalogData, QUEST_TRACKER_FORMAT } from './parse'
import { publishCatalogIndex, questColumns } from './service'
import snapshot from './snapshot.json'
import type { SyncDeps } from './sync'

/** Where the snapshot's rows come from, as its header says (and the README and /docs repeat). */
export interface SnapshotHeader {
  format: typeof QUEST_TRACKER_FORMAT
  title: string
  /** The page or list the rows were read from. */
  source: string
  /** When that source was read (ISO 8601). */
  retrieved: string
  licence: string
  attribution: string
}

export const SNAPSHOT: SnapshotHeader = {
  format: QUEST_TRACKER_FORMAT,
  title: snapshot.title,
  source: snapshot.source,
  retrieved: snapshot.retrieved,
  licence: snapshot.licence,
  attribution: snapshot.attribution,
}

let parsed: ParsedCatalog | undefined

/** The snapshot's rows, read (and checked like any source) on first use. */
export function snapshotCatalog(): ParsedCatalog {
  parsed ??= parseCatalogData(snapshot)
  return parsed
}

/**
 * Fills an empty catalog from the snapshot, in one transaction, and returns how many rows it
 * holds now; null (and nothing written) when the catalog already has rows.
 */
export function fillFromSnapshot({ db, logger }: Pick<SyncDeps, 'db' | 'logger'>): number | null {
  const rows = snapshotCatalog().rows
  const filled = db.transaction(
    (tx) => {
      if ((tx.select({ n: count() }).from(quests).get()?.n ?? 0) > 0) return false
      for (let i = 0; i < rows.length; i += 200) {
        tx.insert(quests)
          .values(rows.slice(i, i + 200).map(questColumns))
          .run()
      }
      const state = {
        source: SNAPSHOT.source,
        syncedAt: SNAPSHOT.retrieved,
        rows: rows.length,
        origin: 'snapshot' as const,
      }
      tx.insert(catalogState)
        .values({ id: 1, ...state })
        .onConflictDoUpdate({ target: catalogState.id, set: state })
        .run()
      return true
    },
    { behavior: 'immediate' },
  )
  if (!filled) return null
  publishCatalogIndex(db, rows)
  logger.info(
    `The quest catalog was empty: filled with the ${rows.length} quests that ship with Quest Tracker (${SNAPSHOT.title}, ${SNAPSHOT.source}, as of ${SNAPSHOT.retrieved.slice(0, 10)}; ${SNAPSHOT.licence}).`,
  )
  return rows.length
}
