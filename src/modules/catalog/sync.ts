// The one catalog sync, used by the cron job, by the first start with an empty catalog and by
// `quest-tracker catalog sync [--from URL_OR_PATH]`. It reads the source (a URL, fetched with a
// timeout and a size cap, or a local file), parses it (wiki HTML or JSON, by content), and swaps
// the whole catalog and its catalog_state row in one transaction. A failed fetch, a page that
// does not parse, or a result under half the current rows keeps the catalog as it is and logs
// one line; the result says why. Completions, routes and notes refer to quests by name, so the
// swap never touches a player's data.
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cron } from '@elysiajs/cron'
import { count } from 'drizzle-orm'
import type { AnyElysia, Elysia } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { catalogState, quests } from '../../db/schema'
import type { Logger } from '../../logger'
import { CatalogParseError, type ParsedCatalog, parseCatalog, type QuestRow } from './parse'
import { publishCatalogIndex, readCatalogRows } from './service'

export const SOURCE_TIMEOUT_MS = 30_000
/** The wiki page is about 1 MB; anything far larger is not it. */
export const SOURCE_MAX_BYTES = 16 * 1024 * 1024
const USER_AGENT = 'QuestTracker/0.1 (self-hosted DDO quest tracker; catalog sync once a day)'

export interface SyncDeps {
  db: DB
  clock: Clock
  logger: Logger
}

export interface SourceOptions {
  /** Whole fetch, body included. */
  timeoutMs?: number
  maxBytes?: number
  /** Aborts a fetch in progress (e.g. at shutdown). */
  signal?: AbortSignal
}

export interface QuestKey {
  name: string
  difficulty: string
}

export interface SyncReport {
  ok: true
  /** The URL, or the absolute path of the file. */
  source: string
  format: 'html' | 'json'
  /** Rows in the catalog now. */
  rows: number
  added: number
  removed: number
  changed: number
  /** Source rows that could not be read (no name, no level, repeated) and were left out. */
  skipped: number
  syncedAt: string
  details: { added: QuestKey[]; removed: QuestKey[]; changed: QuestKey[]; skipped: string[] }
}

export interface SyncFailure {
  ok: false
  source: string
  /** One sentence: why the catalog was kept. */
  error: string
  /** Rows in the (kept) catalog. */
  rows: number
}

export type SyncResult = SyncReport | SyncFailure

/** The source could not be read (fetch failed, timed out, too large, file missing). */
export class CatalogSourceError extends Error {}
/** The source was read and parsed but is not trusted to replace the catalog. */
class CatalogRefused extends Error {}

const isUrl = (source: string) => /^https?:\/\//i.test(source)
const isFileUrl = (source: string) => /^file:/i.test(source)
/** ftp://, s3://...: named as given, refused as unsupported. */
const isOtherUrl = (source: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !isUrl(source) && !isFileUrl(source)

/** How a source is named in logs and in catalog_state: URLs as given, files as absolute paths. */
export function sourceLabel(source: string): string {
  if (isUrl(source) || isOtherUrl(source)) return source
  if (!isFileUrl(source)) return resolve(source)
  try {
    return fileURLToPath(source)
  } catch {
    return source // not a usable file URL: reading it fails with a clear line
  }
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`

/** Reads a URL or a local file as text, within the timeout and size cap. */
export async function readSource(source: string, options: SourceOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? SOURCE_MAX_BYTES
  if (!isUrl(source)) {
    if (isOtherUrl(source)) throw new CatalogSourceError(`${source} is neither an http(s) URL nor a file`)
    const path = sourceLabel(source)
    const stats = await stat(path).catch(() => null)
    if (!stats) throw new CatalogSourceError(`the file ${path} does not exist`)
    if (!stats.isFile()) throw new CatalogSourceError(`${path} is not a file`)
    if (stats.size > maxBytes) throw new CatalogSourceError(`the file ${path} is larger than ${mib(maxBytes)}`)
    try {
      return await Bun.file(path).text()
    } catch (error) {
      throw new CatalogSourceError(`could not read ${path}: ${error instanceof Error ? error.message : error}`)
    }
  }
  const timeoutMs = options.timeoutMs ?? SOURCE_TIMEOUT_MS
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])])
  const failed = (error: unknown) => {
    const name = error instanceof Error ? error.name : ''
    if (name === 'TimeoutError') return new CatalogSourceError(`${source} did not answer within ${timeoutMs / 1000} s`)
    if (name === 'AbortError') return new CatalogSourceError(`fetching ${source} was cancelled`)
    const message = error instanceof Error ? error.message : String(error)
    return new CatalogSourceError(`could not fetch ${source}: ${message}`)
  }
  try {
    const response = await fetch(source, {
      signal,
      headers: { accept: 'text/html, application/json;q=0.9, */*;q=0.5', 'user-agent': USER_AGENT },
    })
    if (!response.ok) {
      await response.body?.cancel()
      throw new CatalogSourceError(`${source} answered HTTP ${response.status} ${response.statusText}`.trim())
    }
    const declared = Number(response.headers.get('content-length'))
    if (declared > maxBytes) {
      await response.body?.cancel()
      throw new CatalogSourceError(`${source} is larger than ${mib(maxBytes)}`)
    }
    // Counted while reading: a missing or false Content-Length (or a compressed body) cannot
    // make us hold more than the cap.
    const chunks: Uint8Array[] = []
    let total = 0
    if (response.body) {
      for await (const chunk of response.body) {
        total += chunk.byteLength
        if (total > maxBytes) throw new CatalogSourceError(`${source} is larger than ${mib(maxBytes)}`)
        chunks.push(chunk)
      }
    }
    return new TextDecoder().decode(Buffer.concat(chunks))
  } catch (error) {
    throw error instanceof CatalogSourceError ? error : failed(error)
  }
}

const ROW_FIELDS = [
  'level',
  'soloXP',
  'normalXP',
  'hardXP',
  'eliteXP',
  'duration',
  'pack',
  'patron',
  'favor',
] as const satisfies (keyof QuestRow)[]

const keyOf = (row: QuestKey) => `${row.name}\u0000${row.difficulty}`

/** Rows added, removed and changed between two catalogs; (name, difficulty) is the identity. */
export function diffCatalogs(before: readonly QuestRow[], after: readonly QuestRow[]) {
  const old = new Map(before.map((row) => [keyOf(row), row]))
  const seen = new Set<string>()
  const added: QuestKey[] = []
  const changed: QuestKey[] = []
  for (const row of after) {
    const key = keyOf(row)
    seen.add(key)
    const previous = old.get(key)
    if (!previous) added.push({ name: row.name, difficulty: row.difficulty })
    else if (ROW_FIELDS.some((field) => previous[field] !== row[field]))
      changed.push({ name: row.name, difficulty: row.difficulty })
  }
  const removed = before
    .filter((row) => !seen.has(keyOf(row)))
    .map((row) => ({ name: row.name, difficulty: row.difficulty }))
  return { added, removed, changed }
}

const INSERT_CHUNK = 200

/** The transaction: refuse or swap. Synchronous, so nothing interleaves with it. */
function replaceCatalog(db: DB, clock: Clock, source: string, parsed: ParsedCatalog): SyncReport {
  return db.transaction(
    (tx) => {
      const current = readCatalogRows(tx)
      if (parsed.rows.length < current.length / 2) {
        throw new CatalogRefused(
          `the source has ${parsed.rows.length} rows, under half of the current ${current.length} (most likely a broken page, not real removals)`,
        )
      }
      const diff = diffCatalogs(current, parsed.rows)
      const syncedAt = isoNow(clock)
      tx.delete(quests).run()
      for (let i = 0; i < parsed.rows.length; i += INSERT_CHUNK) {
        tx.insert(quests)
          .values(
            parsed.rows.slice(i, i + INSERT_CHUNK).map((row) => ({
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
            })),
          )
          .run()
      }
      const state = { source, syncedAt, rows: parsed.rows.length }
      tx.insert(catalogState)
        .values({ id: 1, ...state })
        .onConflictDoUpdate({ target: catalogState.id, set: state })
        .run()
      return {
        ok: true as const,
        source,
        format: parsed.format,
        rows: parsed.rows.length,
        added: diff.added.length,
        removed: diff.removed.length,
        changed: diff.changed.length,
        skipped: parsed.skipped.length,
        syncedAt,
        details: { ...diff, skipped: parsed.skipped },
      }
    },
    { behavior: 'immediate' },
  )
}

function currentRows(db: DB): number {
  try {
    return db.select({ n: count() }).from(quests).get()?.n ?? 0
  } catch {
    return 0
  }
}

/**
 * One sync from `source` (a URL or a file path). Never rejects: a failure keeps the catalog,
 * logs one warning line and comes back as `{ok: false, error}`.
 */
export async function syncCatalog(deps: SyncDeps, source: string, options: SourceOptions = {}): Promise<SyncResult> {
  const { db, clock, logger } = deps
  const label = sourceLabel(source)
  try {
    const parsed = parseCatalog(await readSource(source, options))
    if (parsed.rows.length === 0) throw new CatalogRefused('the source has no readable quest rows')
    const report = replaceCatalog(db, clock, label, parsed)
    publishCatalogIndex(db, parsed.rows)
    logger.info(syncSummary(report))
    return report
  } catch (error) {
    const expected =
      error instanceof CatalogSourceError || error instanceof CatalogParseError || error instanceof CatalogRefused
    const reason = expected ? error.message : `unexpected error: ${error instanceof Error ? error.message : error}`
    const rows = currentRows(db)
    const failure: SyncFailure = { ok: false, source: label, error: reason, rows }
    if (expected) logger.warn(syncSummary(failure))
    else logger.error(syncSummary(failure))
    return failure
  }
}

/** The one line a sync logs: what changed, or why the catalog was kept. */
export function syncSummary(result: SyncResult): string {
  if (!result.ok)
    return `Catalog sync from ${result.source} failed; the current catalog (${result.rows} rows) is kept: ${result.error}.`
  const skipped = result.skipped ? `, ${result.skipped} unreadable source rows left out` : ''
  return `Catalog synced from ${result.source}: ${result.rows} rows (${result.added} added, ${result.removed} removed, ${result.changed} changed${skipped}).`
}

/** The rows behind the counts, one per line ("added: Tower of Despair (Epic)"), for the command line. */
export function syncDetails(report: SyncReport): string[] {
  const lines = (what: string, keys: QuestKey[]) => keys.map((key) => `${what}: ${key.name} (${key.difficulty})`)
  return [
    ...lines('added', report.details.added),
    ...lines('removed', report.details.removed),
    ...lines('changed', report.details.changed),
    ...report.details.skipped.map((reason) => `left out: ${reason}`),
  ]
}

/** After the n-th failed first sync (0-based): 1 min, 2, 4, ... up to once an hour. */
export const firstSyncRetryDelayMs = (attempt: number): number => Math.min(60_000 * 2 ** attempt, 3_600_000)

export interface FirstSyncOptions extends SourceOptions {
  /** Test hook; the default is firstSyncRetryDelayMs. */
  retryDelayMs?: (attempt: number) => number
  /** CATALOG_SYNC_CRON=off: the log line says why this sync runs all the same. */
  scheduleOff?: boolean
}

const inWords = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`)

/** Resolves after `ms`, or at once when `signal` aborts (the server stops). */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal?.aborted) return done()
    const timer = setTimeout(done, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        done()
      },
      { once: true },
    )
  })
}

/**
 * At start: when the catalog is empty, sync it from the configured source in the background and
 * return the promise without waiting for it (the server answers at once); null when the catalog
 * has rows. A failure is retried with back-off (an offline home server may get its network a
 * few minutes after boot, and an empty catalog until tomorrow's cron is a broken tracker), and
 * each failure names the way out for a server with no internet. It ends at the first success,
 * when the catalog was filled meanwhile (`catalog sync --from`), or when `signal` aborts.
 */
export function syncIfEmpty(
  deps: SyncDeps,
  source: string,
  options: FirstSyncOptions = {},
): Promise<SyncResult> | null {
  if (currentRows(deps.db) > 0) return null
  const { logger } = deps
  const { retryDelayMs = firstSyncRetryDelayMs, scheduleOff = false, ...sourceOptions } = options
  logger.info(
    scheduleOff
      ? `The quest catalog is empty; syncing it once from ${source} in the background. CATALOG_SYNC_CRON=off stops only the daily sync: a tracker without a catalog has no quests. To stay offline, set CATALOG_SOURCE_URL to a saved file, or load one with: quest-tracker catalog sync --from FILE`
      : `The quest catalog is empty; syncing it from ${source} in the background.`,
  )
  return (async () => {
    for (let attempt = 0; ; attempt++) {
      const result = await syncCatalog(deps, source, sourceOptions)
      if (result.ok || options.signal?.aborted) return result
      const delay = retryDelayMs(attempt)
      logger.warn(
        `The quest catalog is still empty; trying again in ${inWords(delay)}. Without internet access, load a saved copy of the wiki page or a JSON file of quests: quest-tracker catalog sync --from FILE`,
      )
      await wait(delay, options.signal)
      if (options.signal?.aborted) return result
      if (currentRows(deps.db) > 0) {
        logger.info('The quest catalog was filled meanwhile; no more first-start tries.')
        return result
      }
    }
  })()
}

/**
 * The scheduled sync as an Elysia plugin, for main.ts to `.use()` (the cron job starts at that
 * moment, which is why createApp never uses it). With `CATALOG_SYNC_CRON=off` it adds nothing. The job is reachable as `store.cron.catalogSync` (to stop it).
 */
/** `pattern` null (CATALOG_SYNC_CRON=off): no job. */
export function catalogCron(deps: SyncDeps, pattern: string | null, source: string): (app: Elysia) => AnyElysia {
  if (pattern === null) return (app) => app
  return cron({
    name: 'catalogSync',
    pattern,
    // A run still going (a slow wiki) makes the next tick skip instead of overlapping.
    protect: true,
    run: () => syncCatalog(deps, source),
  })
}
