// The catalog's read operations (full list, search, lookup, scorecards) and the scorecards
// import. Reads answer from the in-memory CatalogIndex; the index is rebuilt by each sync in
// this process, and also when the catalog_state row shows that another process (the
// `catalog sync` command against the same database file) has synced since it was built.
import { asc, count, eq, sql } from 'drizzle-orm'
import type { Clock } from '../../clock'
import type { DB } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { catalogState, quests, type SourceAttempt, scorecards } from '../../db/schema'
import { BadRequest, NotFound } from '../../http/errors'
import { isPlainObject } from '../../json'
import { type QuestIndex, questIndex } from '../../rules/quests/questMatch'
import type { QuestTier } from '../../rules/quests/questTiers'
import { DEFAULT_SEARCH_LIMIT } from './limits'
import { QUEST_TRACKER_FORMAT, type QuestRow, TIERS, tierOf } from './parse'
import { questTimesByRemake, questTimesVersion, remakeKey } from './questTimes'
import { CatalogIndex } from './search'
import { publicSourceName } from './sources'

// ---------------------------------------------------------------------------------------------
// The index, one per database handle.

interface CachedIndex {
  stamp: string
  /** A short tag that changes whenever a sync commits: the catalog's ETag, hashed once per sync. */
  version: string
  index: CatalogIndex
  /** The whole catalog as sent, made on its first request (catalogAnswer). */
  answer?: CatalogAnswer
  /** The catalog for other servers (GET /api/catalog), made on its first request (catalogExport). */
  exported?: CatalogAnswer
  /** The forgiving name index for names from other sources, made on its first use (catalogMatcher). */
  matcher?: QuestIndex
}

const indexes = new WeakMap<DB, CachedIndex>()

// Every catalog read checks the stamp: prepared once per database, not built per request.
const stampStatement = preparedOnce((db: DB) =>
  db
    .select()
    .from(catalogState)
    .where(eq(catalogState.id, sql.placeholder('id')))
    .prepare(),
)

/** What changes whenever a sync commits: one primary-key read, cheap enough for every request. */
function catalogStamp(db: DB): string {
  const state = stampStatement(db).get({ id: 1 })
  return state ? `${state.syncedAt}\u0000${state.rows}\u0000${state.source}` : 'never synced'
}

const cacheEntry = (stamp: string, rows: readonly QuestRow[]): CachedIndex => ({
  stamp,
  version: new Bun.CryptoHasher('sha1').update(stamp).digest('base64url').slice(0, 16),
  index: new CatalogIndex(rows),
})

/** The index and version of the catalog as it is now, rebuilt only when it changed under them. */
function current(db: DB): CachedIndex {
  const stamp = catalogStamp(db)
  const cached = indexes.get(db)
  if (cached && cached.stamp === stamp) return cached
  const entry = cacheEntry(stamp, readCatalogRows(db))
  indexes.set(db, entry)
  return entry
}

/** Where the catalog came from, as /info, the health check, the website and `catalog status` show it. */
export interface CatalogProvenance {
  rows: number
  /** `snapshot`: the copy that ships with the program, never synced since; `none`: empty, never filled. */
  origin: 'snapshot' | 'sync' | 'none'
  /** The public name of its source: "the DDO wiki", "DDO Audit", a host, a file's name. */
  source: string
  /** When the last successful sync finished; null before the first. */
  syncedAt: string | null
  /** When its source was read: the snapshot's date, or the last sync's time; null when empty. */
  asOf: string | null
  /** The last try of each source, newest first. */
  attempts: SourceAttempt[]
}

/** One primary-key read (the prepared stamp statement): cheap enough for every health check. */
export function catalogProvenance(db: DB, configuredSources: readonly string[]): CatalogProvenance {
  const state = stampStatement(db).get({ id: 1 })
  if (!state) {
    const rows = db.select({ n: count() }).from(quests).get()?.n ?? 0
    const first = configuredSources[0]
    return {
      rows,
      origin: 'none',
      source: first ? publicSourceName(first) : '',
      syncedAt: null,
      asOf: null,
      attempts: [],
    }
  }
  return {
    rows: state.rows,
    origin: state.origin,
    source: publicSourceName(state.source),
    syncedAt: state.origin === 'sync' ? state.syncedAt : null,
    asOf: state.syncedAt,
    attempts: state.attempts,
  }
}

/** The catalog rows in catalog order (as first added); `db` may be a transaction. */
export function readCatalogRows(db: Pick<DB, 'select'>): QuestRow[] {
  return db
    .select()
    .from(quests)
    .orderBy(asc(quests.id))
    .all()
    .map((row) => ({
      name: row.name,
      difficulty: tierOf(row.difficulty) ?? 'Heroic',
      level: row.level,
      soloXP: row.soloXp,
      normalXP: row.normalXp,
      hardXP: row.hardXp,
      eliteXP: row.eliteXp,
      duration: row.duration,
      pack: row.pack,
      patron: row.patron,
      favor: row.favor,
      questId: row.questId,
      groupSize: row.groupSize,
      freeToVip: row.freeToVip,
    }))
}

/** A catalog row as the quests table stores it: readCatalogRows read backwards. */
export function questColumns(row: QuestRow) {
  return {
    name: row.name,
    difficulty: row.difficulty,
    level: row.level,
    soloXp: row.soloXP,
    normalXp: row.normalXP,
    hardXp: row.hardXP,
    eliteXp: row.eliteXP,
    duration: row.duration,
    pack: row.pack,
    patron: row.patron,
    favor: row.favor,
    questId: row.questId,
    groupSize: row.groupSize,
    freeToVip: row.freeToVip,
  } satisfies typeof quests.$inferInsert
}

/** The current index, rebuilt from the table only when the catalog changed under it. */
export const catalogIndex = (db: DB): CatalogIndex => current(db).index

/**
 * The catalog's rows with their version, a short tag that changes whenever a sync commits: for
 * what is built from the rows and kept (a group's needs), read together.
 */
export function versionedRows(db: DB): { version: string; rows: readonly QuestRow[] } {
  const entry = current(db)
  return { version: entry.version, rows: entry.index.rows }
}

/**
 * The catalog's remakes by forgiving name key (rules/quests/questMatch.ts), for names from other sources
 * (a DDO Builder file, a spreadsheet): built once per sync, on first use.
 */
export function catalogMatcher(db: DB): QuestIndex {
  const entry = current(db)
  entry.matcher ??= questIndex(entry.index.rows)
  return entry.matcher
}

/**
 * The catalog's spelling of quest names typed by players and clients (CatalogIndex.resolveName,
 * the one place names are resolved): completions, route steps and lookups all go through it.
 * `difficulty` is a remake word (Heroic, Epic, Legendary; anything else means no tier). The
 * index is the current one: `catalogIndex` re-reads the catalog_state stamp on every call, and
 * a caller inside an immediate transaction holds SQLite's write lock, so no sync can commit
 * between this read and its write.
 */
export function questNames(db: DB): (name: string, difficulty?: string | null) => string {
  const index = catalogIndex(db)
  return (name, difficulty) => index.resolveName(name, difficulty ? tierOf(difficulty) : null)
}

/** Called by a sync right after its transaction commits. */
export function publishCatalogIndex(db: DB, rows: readonly QuestRow[]): void {
  indexes.set(db, cacheEntry(catalogStamp(db), rows))
}

// ---------------------------------------------------------------------------------------------
// Reads

/** The answer of `GET /quests` and `/api/quests`, ready to send, and its ETag. */
export interface CatalogAnswer {
  etag: string
  json: string
  gzip(): Uint8Array<ArrayBuffer>
}

/**
 * The whole catalog is the same for everyone until the next sync or change of the server's quest
 * times, so it is serialized once per change (and compressed once, on the first request that
 * accepts gzip), not per request.
 */
export function catalogAnswer(db: DB, clock: Clock): CatalogAnswer {
  const entry = current(db)
  const times = questTimesByRemake(db, clock)
  // The server's quest times change between syncs: the answer and its ETag follow them.
  const etag = `"${entry.version}.${questTimesVersion(db)}"`
  if (entry.answer?.etag !== etag) {
    const quests = entry.index.rows.map((row) => ({
      ...row,
      times: times.get(remakeKey(row.name, row.difficulty)) ?? [],
    }))
    const json = JSON.stringify({ count: quests.length, quests })
    let gzip: Uint8Array<ArrayBuffer> | undefined
    entry.answer = { etag, json, gzip: () => (gzip ??= Bun.gzipSync(json)) }
  }
  return entry.answer
}

/**
 * GET /api/catalog: the catalog as another Quest Tracker's sync reads it (parse.ts knows it by its
 * `format`), with where it comes from and its licence; no times (they are this server's players').
 */
export function catalogExport(db: DB, header: { licence: string; attribution: string }): CatalogAnswer {
  const entry = current(db)
  const etag = `"${entry.version}.export"`
  if (entry.exported?.etag !== etag) {
    const { source, origin, syncedAt, asOf } = catalogProvenance(db, [])
    const json = JSON.stringify({
      format: QUEST_TRACKER_FORMAT,
      source,
      origin,
      syncedAt,
      asOf,
      ...header,
      count: entry.index.rows.length,
      quests: entry.index.rows,
    })
    let gzip: Uint8Array<ArrayBuffer> | undefined
    entry.exported = { etag, json, gzip: () => (gzip ??= Bun.gzipSync(json)) }
  }
  return entry.exported
}

/**
 * `difficulty` of search and lookup: one of the three tiers (any case). Empty, `any` and
 * `Unknown` mean no filter (a completion's remake `Unknown` matches every remake of a name).
 */
export function difficultyFilter(value: string | undefined): QuestTier | null {
  if (value === undefined) return null
  const trimmed = value.trim().toLowerCase()
  if (trimmed === '' || trimmed === 'any' || trimmed === 'unknown') return null
  const tier = tierOf(trimmed)
  if (!tier) throw new BadRequest(`Query parameter "difficulty" must be one of ${TIERS.join(', ')}.`)
  return tier
}

export interface SearchInput {
  q?: string
  query?: string
  name?: string
  difficulty?: string
  level?: number
  characterLevel?: number
  cl?: number
  limit?: number
}

/** The first alias that was given. */
const firstDefined = (...values: (number | undefined)[]): number | null =>
  values.find((value) => value !== undefined) ?? null

const firstText = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v.trim() !== '')

export function searchQuests(db: DB, input: SearchInput) {
  // Aliases fold into the canonical field here: q > query > name, level > characterLevel > cl.
  const query = firstText(input.q, input.query, input.name)
  if (query === undefined) throw new BadRequest('Query parameter "q" (or "query", "name") is required.')
  const difficulty = difficultyFilter(input.difficulty)
  const level = firstDefined(input.level, input.characterLevel, input.cl)
  const limit = input.limit ?? DEFAULT_SEARCH_LIMIT
  const result = catalogIndex(db).search({ query: query.trim(), difficulty, level, limit })
  return {
    query: query.trim(),
    count: result.quests.length,
    totalMatches: result.totalMatches,
    level,
    quests: result.quests,
  }
}

export function lookupQuest(db: DB, name: string, difficultyParam: string | undefined) {
  if (name.trim() === '') throw new BadRequest('Query parameter "name" is required.')
  const difficulty = difficultyFilter(difficultyParam)
  const index = catalogIndex(db)
  const remakes = index.remakesOf(index.resolveName(name, difficulty))
  if (remakes.length === 0) {
    const candidates = index.namesFor(name)
    if (candidates.length > 1) {
      throw new NotFound(`"${name.trim()}" could mean ${candidates.join(' or ')}; look it up by its full name.`)
    }
    throw new NotFound(`No quest named "${name.trim()}" in the catalog.`)
  }
  const matching = difficulty ? remakes.filter((row) => row.difficulty === difficulty) : remakes
  if (matching.length === 0) {
    const tiers = remakes.map((row) => row.difficulty).join(', ')
    throw new NotFound(`"${remakes[0]?.name}" has no ${difficulty} remake in the catalog (it has: ${tiers}).`)
  }
  return {
    quests: matching.map(({ name, difficulty, level, pack, patron, favor }) => ({
      name,
      difficulty,
      level,
      pack,
      patron,
      favor,
    })),
    remakes: remakes.map(({ name, difficulty, level, pack, patron }) => ({ name, difficulty, level, pack, patron })),
    remakeCount: remakes.length,
  }
}

// ---------------------------------------------------------------------------------------------
// Scorecards

export function listScorecards(db: DB) {
  const all: Record<string, Record<string, unknown>> = {}
  for (const row of db.select().from(scorecards).orderBy(asc(scorecards.questName)).all()) all[row.questName] = row.data
  return { scorecards: all }
}

export const SCORECARDS_MAX_BYTES = 16 * 1024 * 1024

/**
 * Replaces every stored scorecard with the contents of a JSON file: an object keyed by quest
 * name whose values are objects (stored and served unchanged), or that object wrapped as
 * `{"scorecards": {...}}` (what GET /scorecards answers, so an export re-imports). All or
 * nothing. Throws BadRequest with a one-sentence reason when the file is not usable.
 */
export async function importScorecards(db: DB, filePath: string): Promise<{ count: number; notInCatalog: string[] }> {
  const file = Bun.file(filePath)
  if (!(await file.exists())) throw new BadRequest(`Scorecards file ${filePath} does not exist.`)
  if (file.size > SCORECARDS_MAX_BYTES) throw new BadRequest(`Scorecards file ${filePath} is larger than 16 MiB.`)
  let data: unknown
  try {
    data = JSON.parse((await file.text()).replace(/^\uFEFF/, ''))
  } catch {
    throw new BadRequest(`Scorecards file ${filePath} is not valid JSON.`)
  }
  if (isPlainObject(data) && Object.keys(data).length === 1 && isPlainObject(data.scorecards)) data = data.scorecards
  if (!isPlainObject(data))
    throw new BadRequest(`Scorecards file ${filePath} must hold a JSON object keyed by quest name.`)
  const entries: { questName: string; data: Record<string, unknown> }[] = []
  for (const [name, value] of Object.entries(data)) {
    if (name.trim() === '') throw new BadRequest(`Scorecards file ${filePath} has an entry with an empty quest name.`)
    if (!isPlainObject(value))
      throw new BadRequest(`Scorecard "${name}" in ${filePath} must be an object of thresholds.`)
    entries.push({ questName: name.trim(), data: value })
  }
  db.transaction((tx) => {
    tx.delete(scorecards).run()
    for (const entry of entries)
      tx.insert(scorecards)
        .values(entry)
        .onConflictDoUpdate({ target: scorecards.questName, set: { data: entry.data } })
        .run()
  })
  const index = catalogIndex(db)
  const notInCatalog = entries.map((e) => e.questName).filter((name) => index.remakesOf(name).length === 0)
  return { count: entries.length, notInCatalog }
}
