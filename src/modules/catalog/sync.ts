// The one catalog sync, used by the cron job, by the first start and by `quest-tracker catalog
// sync [--from URL_OR_PATH]`. It tries the configured sources in order (CATALOG_SOURCES: the DDO
// wiki's page, then DDO Audit's quest list, by default) until one is read: a URL, fetched with a
// timeout and a size cap, or a local file; parsed by content (parse.ts); and merged into the
// catalog in one transaction (merge.ts): rows are updated and added, never removed, so a partial
// source loses nothing. A source that refuses the server with a bot challenge, fails, times out,
// answers too much or answers garbage changes nothing, and the next one is tried. How each
// source's last try went is kept with the catalog (catalog_state), for /info, the health check,
// the website and `catalog status`. Completions, routes and notes refer to quests by name, and a
// merged row keeps its name, so a sync never touches a player's data.
import { stat } from 'node:fs/promises'
import { cron } from '@elysiajs/cron'
import { and, count, eq } from 'drizzle-orm'
import type { AnyElysia, Elysia } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { catalogState, quests, type SourceAttempt } from '../../db/schema'
import type { Logger } from '../../logger'
import { type MergedCatalog, mergeCatalog, type QuestKey } from './merge'
import { CatalogParseError, type ParsedCatalog, parseCatalog, type SourceFormat } from './parse'
import { publishCatalogIndex, questColumns, readCatalogRows } from './service'
import { isOtherUrl, isUrl, publicSourceName, sourceLabel } from './sources'

export type { QuestKey }

export const SOURCE_TIMEOUT_MS = 30_000
/** The wiki page is about 1 MB and DDO Audit's list under 1 MB; anything far larger is neither. */
export const SOURCE_MAX_BYTES = 16 * 1024 * 1024
/** A bot challenge page is a few kilobytes: what is read of a refusal to recognise one. */
const CHALLENGE_MAX_BYTES = 256 * 1024
const USER_AGENT = 'QuestTracker/0.1 (self-hosted DDO quest tracker; catalog sync once a day)'

export interface SyncDeps {
  db: DB
  clock: Clock
  logger: Logger
}

export interface SourceOptions {
  /** Whole fetch, body included, per source. */
  timeoutMs?: number
  maxBytes?: number
  /** Aborts a fetch in progress (e.g. at shutdown). */
  signal?: AbortSignal
}

export interface SyncReport {
  ok: true
  /** The URL, or the absolute path of the file, that was read. */
  source: string
  /** Its public name ("DDO Audit", "the DDO wiki", a host, a file's name). */
  name: string
  format: SourceFormat
  /** Rows in the catalog now. */
  rows: number
  added: number
  changed: number
  /** Catalog rows the source does not list, kept as they were. */
  kept: number
  /** Source rows that could not be read or placed (no name, no level, repeated, not a quest). */
  skipped: number
  syncedAt: string
  details: { added: QuestKey[]; changed: QuestKey[]; skipped: string[] }
  /** The sources tried before this one, and why each was not used. */
  refused: SourceAttempt[]
}

export interface SyncFailure {
  ok: false
  /** The sources tried, as one text ("https://ddowiki.com/…, https://api.ddoaudit.com/…"). */
  source: string
  /** Why the catalog was kept: each source's reason ("it answered HTTP 503"; with several, each named). */
  error: string
  /** Rows in the (kept) catalog. */
  rows: number
  attempts: SourceAttempt[]
}

export type SyncResult = SyncReport | SyncFailure

/** The source could not be read (fetch failed, timed out, too large, file missing). */
export class CatalogSourceError extends Error {}
/** The source answered a bot challenge (AWS WAF) instead of its content. */
export class BotChallengeError extends CatalogSourceError {}
/** The source was read and parsed but holds nothing to merge. */
class CatalogRefused extends Error {}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`

/**
 * An AWS WAF bot challenge instead of the page: since 2026 the DDO wiki answers programs that are
 * not a full browser with HTTP 202 and a small page that sets `window.gokuProps` and
 * `awsWafCookieDomainList` and loads `challenge.js` (the same wall stands before its api.php).
 */
export function isBotChallenge(status: number, body: string): boolean {
  if (status !== 200 && status !== 202 && status !== 403) return false
  const marked = /gokuProps|awsWafCookieDomainList|AwsWafIntegration|challenge\.js/.test(body)
  return marked || status === 202
}

const CHALLENGE_SENTENCE = 'refused this server with a bot challenge (AWS WAF) instead of the quest list'

/** Reads a body up to `maxBytes`; past it, throws or (truncate) stops. */
async function readBody(response: Response, maxBytes: number, truncate = false): Promise<string> {
  const chunks: Uint8Array[] = []
  let total = 0
  if (response.body) {
    for await (const chunk of response.body) {
      total += chunk.byteLength
      if (total > maxBytes) {
        if (truncate) break
        throw new CatalogSourceError(`is larger than ${mib(maxBytes)}`)
      }
      chunks.push(chunk)
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

/**
 * Reads a URL or a local file as text, within the timeout and size cap. A failure is a
 * CatalogSourceError whose message says what the source did, without naming it ("answered HTTP
 * 500", "did not answer within 30 s"): the log line puts the full address before it, /info its
 * public name.
 */
export async function readSource(source: string, options: SourceOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? SOURCE_MAX_BYTES
  if (!isUrl(source)) {
    if (isOtherUrl(source)) throw new CatalogSourceError('is neither an http(s) URL nor a file')
    const path = sourceLabel(source)
    const stats = await stat(path).catch(() => null)
    if (!stats) throw new CatalogSourceError('does not exist')
    if (!stats.isFile()) throw new CatalogSourceError('is not a file')
    if (stats.size > maxBytes) throw new CatalogSourceError(`is larger than ${mib(maxBytes)}`)
    try {
      return await Bun.file(path).text()
    } catch (error) {
      throw new CatalogSourceError(`could not be read: ${error instanceof Error ? error.message : error}`)
    }
  }
  const timeoutMs = options.timeoutMs ?? SOURCE_TIMEOUT_MS
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])])
  const failed = (error: unknown) => {
    const name = error instanceof Error ? error.name : ''
    if (name === 'TimeoutError') return new CatalogSourceError(`did not answer within ${timeoutMs / 1000} s`)
    if (name === 'AbortError') return new CatalogSourceError('was not read: the sync was cancelled')
    const message = error instanceof Error ? error.message : String(error)
    return new CatalogSourceError(`could not be fetched: ${message}`)
  }
  try {
    const response = await fetch(source, {
      signal,
      headers: { accept: 'text/html, application/json;q=0.9, */*;q=0.5', 'user-agent': USER_AGENT },
    })
    if (response.status === 202 || response.status === 403) {
      const page = await readBody(response, CHALLENGE_MAX_BYTES, true)
      if (isBotChallenge(response.status, page)) throw new BotChallengeError(CHALLENGE_SENTENCE)
    }
    if (!response.ok || response.status === 202) {
      await response.body?.cancel().catch(() => {})
      throw new CatalogSourceError(`answered HTTP ${response.status} ${response.statusText}`.trim())
    }
    const declared = Number(response.headers.get('content-length'))
    if (declared > maxBytes) {
      await response.body?.cancel()
      throw new CatalogSourceError(`is larger than ${mib(maxBytes)}`)
    }
    // Counted while reading: a missing or false Content-Length (or a compressed body) cannot
    // make us hold more than the cap.
    const text = await readBody(response, maxBytes)
    if (isBotChallenge(response.status, text.slice(0, CHALLENGE_MAX_BYTES)) && !/<table/i.test(text))
      throw new BotChallengeError(CHALLENGE_SENTENCE)
    return text
  } catch (error) {
    throw error instanceof CatalogSourceError ? error : failed(error)
  }
}

const INSERT_CHUNK = 200

/** The stored last try of each source, with this sync's tries over them (newest first). */
function withAttempts(db: Pick<DB, 'select'>, attempts: readonly SourceAttempt[]): SourceAttempt[] {
  const stored = db.select({ attempts: catalogState.attempts }).from(catalogState).get()?.attempts ?? []
  const tried = new Set(attempts.map((attempt) => attempt.source))
  return [...attempts, ...stored.filter((attempt) => !tried.has(attempt.source))]
}

/** The transaction: merge the source's rows in. Synchronous, so nothing interleaves with it. */
function mergeInto(
  db: DB,
  clock: Clock,
  read: { label: string; name: string; parsed: ParsedCatalog },
  attempts: readonly SourceAttempt[],
): { report: SyncReport; merged: MergedCatalog } {
  const { label, name, parsed } = read
  return db.transaction(
    (tx) => {
      const merged = mergeCatalog(readCatalogRows(tx), parsed.rows, parsed.updateOnly)
      const syncedAt = isoNow(clock)
      const changed = new Set(merged.changed.map((key) => `${key.name}\u0000${key.difficulty}`))
      const added = merged.rows.slice(merged.rows.length - merged.added.length)
      for (const row of merged.rows) {
        if (!changed.has(`${row.name}\u0000${row.difficulty}`)) continue
        tx.update(quests)
          .set(questColumns(row))
          .where(and(eq(quests.name, row.name), eq(quests.difficulty, row.difficulty)))
          .run()
      }
      for (let i = 0; i < added.length; i += INSERT_CHUNK) {
        tx.insert(quests)
          .values(added.slice(i, i + INSERT_CHUNK).map(questColumns))
          .run()
      }
      const state = {
        source: label,
        syncedAt,
        rows: merged.rows.length,
        origin: 'sync' as const,
        attempts: withAttempts(tx, attempts),
      }
      tx.insert(catalogState)
        .values({ id: 1, ...state })
        .onConflictDoUpdate({ target: catalogState.id, set: state })
        .run()
      const report: SyncReport = {
        ok: true,
        source: label,
        name,
        format: parsed.format,
        rows: merged.rows.length,
        added: merged.added.length,
        changed: merged.changed.length,
        kept: merged.kept,
        skipped: parsed.skipped.length + merged.skipped.length,
        syncedAt,
        details: {
          added: merged.added,
          changed: merged.changed,
          skipped: [...parsed.skipped, ...merged.skipped],
        },
        refused: attempts.filter((attempt) => attempt.outcome !== 'ok'),
      }
      return { report, merged }
    },
    { behavior: 'immediate' },
  )
}

/** Keeps this sync's tries when no source was read (there is a catalog_state row to keep them in). */
function recordAttempts(db: DB, attempts: readonly SourceAttempt[]): void {
  db.update(catalogState)
    .set({ attempts: withAttempts(db, attempts) })
    .where(eq(catalogState.id, 1))
    .run()
}

function currentRows(db: DB): number {
  try {
    return db.select({ n: count() }).from(quests).get()?.n ?? 0
  } catch {
    return 0
  }
}

/** `quests.json` -> a list of one; CATALOG_SOURCES already is a list. */
const asList = (sources: string | readonly string[]) => (typeof sources === 'string' ? [sources] : [...sources])

/**
 * One sync from `sources` (URLs or file paths), tried in order until one is read. Never rejects:
 * each source that fails logs one warning line; when none is read the catalog is kept, the
 * result is `{ok: false, error}` and one more line says so.
 */
export async function syncCatalog(
  deps: SyncDeps,
  sources: string | readonly string[],
  options: SourceOptions = {},
): Promise<SyncResult> {
  const { db, clock, logger } = deps
  const list = asList(sources)
  const attempts: SourceAttempt[] = []
  /** Why each source was not used, with its full address (for the log). */
  const reasons: string[] = []
  for (const [i, source] of list.entries()) {
    const label = sourceLabel(source)
    const name = publicSourceName(source)
    try {
      const parsed = parseCatalog(await readSource(source, options))
      if (parsed.rows.length === 0) throw new CatalogRefused('it has no readable quest rows')
      const read: SourceAttempt = {
        source: name,
        at: isoNow(clock),
        outcome: 'ok',
        detail: `${parsed.rows.length} quest rows read`,
      }
      const { report, merged } = mergeInto(db, clock, { label, name, parsed }, [...attempts, read])
      publishCatalogIndex(db, merged.rows)
      logger.info(syncSummary(report))
      return report
    } catch (error) {
      const expected =
        error instanceof CatalogSourceError || error instanceof CatalogParseError || error instanceof CatalogRefused
      const reason = !expected
        ? `failed: ${error instanceof Error ? error.message : error}`
        : error instanceof CatalogSourceError
          ? error.message
          : `could not be read as a quest list: ${error.message}`
      attempts.push({
        source: name,
        at: isoNow(clock),
        outcome: error instanceof BotChallengeError ? 'challenge' : 'failed',
        detail: expected ? reason : 'failed with an unexpected error (the server log has it)',
      })
      reasons.push(list.length === 1 ? `it ${reason}` : `${label} ${reason}`)
      // The last source's reason is in the summary line below.
      if (i + 1 < list.length) {
        const line = `Catalog source ${label} ${reason}; trying the next source.`
        if (expected) logger.warn(line)
        else logger.error(line)
      } else if (!expected) logger.error(`Catalog source ${label} ${reason}.`)
    }
  }
  const rows = currentRows(db)
  try {
    recordAttempts(db, attempts)
  } catch {
    // No catalog_state yet, or a database that refuses writes: the log has the tries.
  }
  const failure: SyncFailure = {
    ok: false,
    source: list.map(sourceLabel).join(', '),
    error: reasons.join('; '),
    rows,
    attempts,
  }
  logger.warn(syncSummary(failure))
  return failure
}

const FORMAT_NAMES: Record<SourceFormat, string> = {
  html: "the wiki's page",
  json: 'quest rows',
  'ddo-audit': "DDO Audit's list",
  'quest-tracker': 'another Quest Tracker',
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** "The DDO wiki refused this server with a bot challenge; DDO Audit did not answer within 30 s." */
export function attemptsSentence(attempts: readonly SourceAttempt[]): string {
  return attempts.map((attempt) => `${capitalized(attempt.source)} ${attempt.detail}`).join('; ')
}

/** The one line a sync logs: what changed, or why the catalog was kept. */
export function syncSummary(result: SyncResult): string {
  if (!result.ok)
    return `Catalog sync from ${result.source} failed; the current catalog (${result.rows} rows) is kept: ${result.error}.`
  const skipped = result.skipped ? `, ${result.skipped} source rows left out` : ''
  const line = `Catalog synced from ${result.source} (${FORMAT_NAMES[result.format]}): ${result.rows} rows (${result.added} added, ${result.changed} changed, ${result.kept} not listed there kept${skipped}).`
  if (result.refused.length === 0) return line
  return `${line} ${attemptsSentence(result.refused)}, so ${result.name} was used instead.`
}

/** The rows behind the counts, one per line ("added: Tower of Despair (Epic)"), for the command line. */
export function syncDetails(report: SyncReport): string[] {
  const lines = (what: string, keys: QuestKey[]) => keys.map((key) => `${what}: ${key.name} (${key.difficulty})`)
  return [
    ...lines('added', report.details.added),
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

/** Whether the catalog has never been synced: empty, or only the snapshot that ships with the program. */
export function neverSynced(db: DB): boolean {
  const state = db.select({ origin: catalogState.origin }).from(catalogState).get()
  return state?.origin !== 'sync' || currentRows(db) === 0
}

/**
 * At start: when the catalog was never synced (empty, or only the snapshot the program carries),
 * sync it from the configured sources in the background and return the promise without waiting
 * for it (the server answers at once); null when it was synced before (the schedule keeps it
 * current). A failure is retried with back-off (an offline home server may get its network a few
 * minutes after boot), and says how to load a file. It ends at the first success, when a sync by
 * other means (`catalog sync --from`) succeeded meanwhile, or when `signal` aborts.
 */
export function syncIfNeverSynced(
  deps: SyncDeps,
  sources: string | readonly string[],
  options: FirstSyncOptions = {},
): Promise<SyncResult> | null {
  if (!neverSynced(deps.db)) return null
  const { logger } = deps
  const { retryDelayMs = firstSyncRetryDelayMs, scheduleOff = false, ...sourceOptions } = options
  const names = asList(sources).map(sourceLabel).join(', then ')
  logger.info(
    scheduleOff
      ? `The quest catalog was never synced; syncing it once from ${names} in the background. CATALOG_SYNC_CRON=off stops only the daily sync. To stay offline, load a file with: quest-tracker catalog sync --from FILE`
      : `The quest catalog was never synced; syncing it from ${names} in the background.`,
  )
  return (async () => {
    for (let attempt = 0; ; attempt++) {
      const result = await syncCatalog(deps, sources, sourceOptions)
      if (result.ok || options.signal?.aborted) return result
      const delay = retryDelayMs(attempt)
      const rows = currentRows(deps.db)
      const now = rows > 0 ? `The quest catalog keeps its ${rows} rows meanwhile` : 'The quest catalog is still empty'
      logger.warn(
        `${now}; trying the sources again in ${inWords(delay)}. Without internet access, or when every source refuses this server, load a saved copy of the wiki page or a JSON file of quests: quest-tracker catalog sync --from FILE`,
      )
      await wait(delay, options.signal)
      if (options.signal?.aborted) return result
      if (!neverSynced(deps.db)) {
        logger.info('The quest catalog was synced meanwhile; no more first-start tries.')
        return result
      }
    }
  })()
}

/**
 * The scheduled sync as an Elysia plugin, for main.ts to `.use()` (the cron job starts at that
 * moment, which is why createApp never uses it). `pattern` null (CATALOG_SYNC_CRON=off): no job.
 * The job is reachable as `store.cron.catalogSync` (to stop it).
 */
export function catalogCron(
  deps: SyncDeps,
  pattern: string | null,
  sources: readonly string[],
): (app: Elysia) => AnyElysia {
  if (pattern === null) return (app) => app
  return cron({
    name: 'catalogSync',
    pattern,
    // A run still going (a slow source) makes the next tick skip instead of overlapping.
    protect: true,
    run: () => syncCatalog(deps, sources),
  })
}
