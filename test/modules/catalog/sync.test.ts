// The catalog sync: from files and URLs, HTML and JSON; merged, never swapped; what it reports
// and logs; what it refuses (and that the catalog is then kept); that players' data survives it.
// Other sources (DDO Audit, bot challenges, another Quest Tracker): sources.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { treaty } from '@elysiajs/eden'
import { Elysia } from 'elysia'
import { loadConfig } from '../../../src/config'
import { openDatabase } from '../../../src/db/client'
import { catalogState, completions, quests, type SourceAttempt } from '../../../src/db/schema'
import { silentLogger } from '../../../src/logger'
import type { QuestRow } from '../../../src/modules/catalog/parse'
import {
  catalogCron,
  firstSyncRetryDelayMs,
  type SyncReport,
  syncCatalog,
  syncDetails,
  syncIfNeverSynced,
} from '../../../src/modules/catalog/sync'
import {
  readRows,
  recordingLogger,
  SHARED_715,
  SHARED_718,
  SHARED_HTML,
  SMALL_HTML,
  SMALL_JSON,
  sharedExists,
  syncDeps,
} from '../../catalogFixtures'
import { insertCharacter, ok, reportInvalidResponse, testApp } from '../../helpers'

const tmp = mkdtempSync(join(tmpdir(), 'qt-sync-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function writeJson(name: string, rows: unknown): string {
  const path = join(tmp, name)
  writeFileSync(path, JSON.stringify(rows))
  return path
}

const storedRows = (t: { db: ReturnType<typeof testApp>['db'] }) => t.db.select().from(quests).all()

/** The catalog as GET /quests shows it. */
/** The catalog as served, its rows without `times` (no runs here: each row's are empty, checked). */
const catalogOverHttp = async (t: ReturnType<typeof testApp>, token: string) => {
  const body = ok(await t.plugin(token).quests.get())
  const quests = body.quests.map(({ times, ...row }) => {
    expect(times).toEqual([])
    return row
  })
  return { count: body.count, quests }
}

describe('sync from files', () => {
  test('a first sync loads every row and fills catalog_state; /info and /quests show it', async () => {
    const t = testApp()
    const token = await t.userWithToken('ann')
    const deps = syncDeps(t)
    const report = (await syncCatalog(deps, SMALL_JSON)) as SyncReport
    expect(report).toMatchObject({ ok: true, format: 'json', rows: 12, added: 12, changed: 0, kept: 0, skipped: 0 })
    expect(report.source).toBe(SMALL_JSON)
    expect(storedRows(t)).toHaveLength(12)
    const attempts: SourceAttempt[] = [
      { source: 'catalog-small.json', at: '2026-11-21T12:00:00.000Z', outcome: 'ok', detail: '12 quest rows read' },
    ]
    expect(t.db.select().from(catalogState).all()).toEqual([
      { id: 1, source: SMALL_JSON, syncedAt: '2026-11-21T12:00:00.000Z', rows: 12, origin: 'sync', attempts },
    ])
    const info = ok(await t.plugin(token).info.get())
    expect(info.questCatalogCount).toBe(12)
    // Every account reads /info: the file's name only, not the admin's path.
    expect(info.catalog).toEqual({
      source: 'catalog-small.json',
      syncedAt: '2026-11-21T12:00:00.000Z',
      rows: 12,
      origin: 'sync',
      asOf: '2026-11-21T12:00:00.000Z',
      attempts,
    })
    expect(await catalogOverHttp(t, token)).toEqual({ count: 12, quests: await readRows(SMALL_JSON) })
    expect(deps.logger.lines).toHaveLength(1)
    expect(deps.logger.lines[0]).toContain(`Catalog synced from ${SMALL_JSON} (quest rows)`)
    expect(deps.logger.lines[0]).toContain('12 rows (12 added, 0 changed, 0 not listed there kept)')
  })

  test('a file:// URL names a file too', async () => {
    const t = testApp()
    expect(await syncCatalog(syncDeps(t), `file://${SMALL_HTML}`)).toMatchObject({ ok: true, source: SMALL_HTML })
  })

  test('the HTML page and the JSON file of our fixture load the same catalog', async () => {
    const fromHtml = testApp()
    const fromJson = testApp()
    const token = await fromHtml.userWithToken('ann')
    const token2 = await fromJson.userWithToken('ann')
    expect(await syncCatalog(syncDeps(fromHtml), SMALL_HTML)).toMatchObject({ ok: true, format: 'html', rows: 12 })
    expect(await syncCatalog(syncDeps(fromJson), SMALL_JSON)).toMatchObject({ ok: true, format: 'json', rows: 12 })
    expect(await catalogOverHttp(fromHtml, token)).toEqual(await catalogOverHttp(fromJson, token2))
  })

  test('a re-sync adds and updates rows, keeps those the source no longer lists, and reports each', async () => {
    const t = testApp()
    const token = await t.userWithToken('ann')
    const deps = syncDeps(t)
    await syncCatalog(deps, SMALL_JSON)
    const rows = await readRows(SMALL_JSON)
    // Read once, so that the answer serialized for this sync exists and must be replaced.
    expect((await catalogOverHttp(t, token)).quests).toEqual(rows)
    const next = rows
      .filter((r) => !(r.name === 'Bell Tower'))
      .map((r) => (r.name === 'Crypt' && r.difficulty === 'Epic' ? { ...r, eliteXP: 22000 } : r))
    next.push({ ...(rows[0] as QuestRow), name: 'New Quest', level: 12 })
    t.clock.advance(86_400_000)
    const report = (await syncCatalog(deps, writeJson('next.json', next))) as SyncReport
    expect(report).toMatchObject({ ok: true, rows: 13, added: 1, kept: 1, changed: 1 })
    expect(report.details).toMatchObject({
      added: [{ name: 'New Quest', difficulty: 'Heroic' }],
      changed: [{ name: 'Crypt', difficulty: 'Epic' }],
    })
    expect(syncDetails(report)).toEqual(['added: New Quest (Heroic)', 'changed: Crypt (Epic)'])
    // In catalog order: the rows as they were (Crypt's Epic XP updated, Bell Tower kept), then the new one.
    const merged = rows.map((r) => (r.name === 'Crypt' && r.difficulty === 'Epic' ? { ...r, eliteXP: 22000 } : r))
    expect((await catalogOverHttp(t, token)).quests).toEqual([...merged, next.at(-1) as QuestRow])
    expect(t.db.select().from(catalogState).get()?.syncedAt).toBe('2026-11-22T12:00:00.000Z')
  })

  test('Heroic, Epic and Legendary rows of one name stay separate rows through a sync', async () => {
    const t = testApp()
    await syncCatalog(syncDeps(t), SMALL_HTML)
    const crypt = storedRows(t).filter((r) => r.name === 'Crypt')
    expect(crypt.map((r) => [r.difficulty, r.level, r.eliteXp])).toEqual([
      ['Heroic', 9, 2200],
      ['Epic', 27, 21948],
      ['Legendary', 31, 33800],
    ])
  })

  test('completions recorded before a sync are all still there after it, unchanged', async () => {
    const t = testApp()
    await t.userWithToken('ann')
    await syncCatalog(syncDeps(t), SMALL_JSON)
    const character = insertCharacter(t.db, 'ann')
    const now = '2026-11-20T20:00:00.000Z'
    const base = { characterId: character.id, completedAt: now, updatedAt: now }
    t.db
      .insert(completions)
      .values([
        { ...base, name: 'Crypt', difficulty: 'Epic', setting: 'elite', xpEarned: 25000 },
        { ...base, name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' },
        { ...base, name: 'A quest the wiki never had', difficulty: 'Unknown', setting: 'unknown' },
      ])
      .run()
    const before = t.db.select().from(completions).all()
    // A sync that drops Bell Tower and changes everything else's XP.
    const next = (await readRows(SMALL_JSON)).filter((r) => r.name !== 'Bell Tower').map((r) => ({ ...r, eliteXP: 1 }))
    expect(await syncCatalog(syncDeps(t), writeJson('drop.json', next))).toMatchObject({ ok: true, kept: 1 })
    expect(t.db.select().from(completions).all()).toEqual(before)
    expect(storedRows(t).find((r) => r.name === 'Bell Tower')).toBeDefined()
  })
})

describe.skipIf(!sharedExists)('sync of the real catalog (../shared/fixtures)', () => {
  test('715 then 718 rows: the real 3-row difference is reported', async () => {
    const t = testApp()
    const deps = syncDeps(t)
    expect(await syncCatalog(deps, SHARED_715)).toMatchObject({ ok: true, rows: 715, added: 715 })
    const report = (await syncCatalog(deps, SHARED_718)) as SyncReport
    expect(report).toMatchObject({ ok: true, rows: 718, added: 3, kept: 0, changed: 0 })
    expect(report.details.added).toEqual([
      { name: 'The Lord of Blades', difficulty: 'Epic' },
      { name: 'Tower of Despair', difficulty: 'Epic' },
      { name: 'The Dreaming Dark (quest)', difficulty: 'Epic' },
    ])
    // And back: the three the older list lacks are kept.
    expect(await syncCatalog(deps, SHARED_715)).toMatchObject({ ok: true, rows: 718, added: 0, kept: 3, changed: 0 })
  })

  test('the wiki page syncs to a catalog equal, row for row, to the 718-row JSON', async () => {
    const t = testApp()
    const token = await t.userWithToken('ann')
    expect(await syncCatalog(syncDeps(t), SHARED_HTML)).toMatchObject({ ok: true, format: 'html', rows: 718 })
    const expected = await readRows(SHARED_718)
    const { count, quests: served } = await catalogOverHttp(t, token)
    expect(count).toBe(718)
    for (let i = 0; i < expected.length; i++) expect(served[i]).toEqual(expected[i] as QuestRow)
    // Syncing the JSON over it changes nothing.
    expect(await syncCatalog(syncDeps(t), SHARED_718)).toMatchObject({ ok: true, added: 0, kept: 0, changed: 0 })
  })
})

describe('sync from a URL (a local HTTP server)', () => {
  let server: ReturnType<typeof Bun.serve>
  let base = ''
  const smallHtml = Bun.file(SMALL_HTML)
  beforeAll(async () => {
    const page = await smallHtml.text()
    // Cut off in the middle of the fourth Heroic row (the first <tr><td> is the contents box):
    // three rows of the twelve arrive.
    const truncated = page.slice(0, page.split('<tr><td>', 5).join('<tr><td>').length + 30)
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(request) {
        const path = new URL(request.url).pathname
        const html = { headers: { 'content-type': 'text/html; charset=utf-8' } }
        switch (path) {
          case '/wiki':
            return new Response(page, html)
          case '/broken':
            return new Response(
              '<!DOCTYPE html><html><body><h1>Database error</h1><p>Try again later.</p></body></html>',
              html,
            )
          case '/truncated':
            return new Response(truncated, html)
          case '/down':
            return new Response('Service Unavailable', { status: 503 })
          case '/big':
            return new Response('x'.repeat(50_000), html)
          case '/big-stream':
            return new Response(
              new ReadableStream({
                pull(controller) {
                  controller.enqueue(new TextEncoder().encode('<p>'.repeat(10_000)))
                },
              }),
              html,
            )
          case '/slow':
            return new Promise<Response>((done) => setTimeout(() => done(new Response(page, html)), 3000))
          default:
            return new Response('not found', { status: 404 })
        }
      },
    })
    base = `http://127.0.0.1:${server.port}`
  })
  afterAll(() => server.stop(true))

  /** A catalog already synced from our fixture, to check it is kept. */
  async function syncedApp() {
    const t = testApp()
    const token = await t.userWithToken('ann')
    expect(await syncCatalog({ db: t.db, clock: t.clock, logger: silentLogger }, `${base}/wiki`)).toMatchObject({
      ok: true,
      format: 'html',
      rows: 12,
    })
    return { t, token, before: await catalogOverHttp(t, token), state: t.db.select().from(catalogState).get() }
  }

  test("the page is fetched and loaded, and /info names the URL's host", async () => {
    const { t, token } = await syncedApp()
    const info = ok(await t.plugin(token).info.get())
    expect(info.catalog?.source).toBe(new URL(base).host)
  })

  test('a truncated page (three rows of twelve) updates those three and keeps the other nine', async () => {
    const { t, token, before } = await syncedApp()
    expect(await syncCatalog(syncDeps(t), `${base}/truncated`)).toMatchObject({
      ok: true,
      rows: 12,
      kept: 9,
      changed: 0,
    })
    expect(await catalogOverHttp(t, token)).toEqual(before)
  })

  test.each([
    ['a broken page (no tables)', '/broken', {}, 'no quest tables'],
    ['an HTTP error', '/down', {}, 'answered HTTP 503'],
    ['a body over the size cap (Content-Length)', '/big', { maxBytes: 10_000 }, 'larger than'],
    ['a body over the size cap (streamed, no length)', '/big-stream', { maxBytes: 100_000 }, 'larger than'],
    ['a server slower than the timeout', '/slow', { timeoutMs: 200 }, 'did not answer within 0.2 s'],
  ])('%s keeps the catalog and logs one clear line', async (_, path, options, reason) => {
    const { t, token, before, state } = await syncedApp()
    const deps = syncDeps(t)
    t.clock.advance(60_000)
    const result = await syncCatalog(deps, `${base}${path}`, options)
    expect(result).toMatchObject({ ok: false, rows: 12 })
    expect(result.ok === false && result.error).toContain(reason)
    expect(await catalogOverHttp(t, token)).toEqual(before)
    // The catalog is kept; only the source's last try is new.
    expect(t.db.select().from(catalogState).get()).toEqual({
      ...(state as NonNullable<typeof state>),
      attempts: [
        {
          source: new URL(base).host,
          at: '2026-11-21T12:01:00.000Z',
          outcome: 'failed',
          detail: expect.stringContaining(reason),
        },
      ],
    })
    expect(deps.logger.lines).toHaveLength(1)
    expect(deps.logger.lines[0]).toContain(
      `Catalog sync from ${base}${path} failed; the current catalog (12 rows) is kept`,
    )
    expect(deps.logger.lines[0]).toContain(reason)
  })

  test('a server that is not there keeps the catalog', async () => {
    const { t, before, token } = await syncedApp()
    const deps = syncDeps(t)
    const result = await syncCatalog(deps, 'http://127.0.0.1:1/wiki', { timeoutMs: 2000 })
    expect(result.ok).toBe(false)
    expect(await catalogOverHttp(t, token)).toEqual(before)
    expect(deps.logger.lines).toHaveLength(1)
  })
})

describe('other refusals', () => {
  test('a missing file, a JSON that does not parse, or no readable rows keep the catalog', async () => {
    const t = testApp()
    await syncCatalog(syncDeps(t), SMALL_JSON)
    const before = storedRows(t)
    const broken = join(tmp, 'broken.json')
    writeFileSync(broken, '[{"name": "Crypt", ')
    for (const [source, reason] of [
      [join(tmp, 'nope.json'), 'does not exist'],
      [tmp, 'is not a file'],
      ['ftp://example.com/quests.json', 'neither an http(s) URL nor a file'],
      [broken, 'does not parse'],
      [writeJson('empty.json', []), 'no readable quest rows'],
      [writeJson('junk.json', [{ name: 'X' }, { name: 'Y' }]), 'no readable quest rows'],
    ] as const) {
      const deps = syncDeps(t)
      const result = await syncCatalog(deps, source)
      expect(result.ok === false && result.error).toContain(reason)
      expect(storedRows(t)).toEqual(before)
      expect(deps.logger.lines).toHaveLength(1)
    }
  })

  test('a source of a few rows updates those and keeps every other row (nothing is ever removed)', async () => {
    const t = testApp()
    await syncCatalog(syncDeps(t), SMALL_JSON)
    const rows = await readRows(SMALL_JSON)
    const one = [{ ...(rows[0] as QuestRow), eliteXP: 2999 }]
    expect(await syncCatalog(syncDeps(t), writeJson('one.json', one))).toMatchObject({
      ok: true,
      rows: 12,
      changed: 1,
      kept: 11,
    })
    expect(storedRows(t)).toHaveLength(12)
    expect(storedRows(t)[0]?.eliteXp).toBe(2999)
  })
})

describe('search answers from an index rebuilt by each sync', () => {
  test('a search right after a sync sees the new rows', async () => {
    const t = testApp()
    const token = await t.userWithToken('ann')
    await syncCatalog(syncDeps(t), SMALL_JSON)
    const search = async () => ok(await t.plugin(token).quests.search.get({ query: { q: 'brand new' } }))
    expect((await search()).totalMatches).toBe(0)
    const rows = [
      ...(await readRows(SMALL_JSON)),
      { ...((await readRows(SMALL_JSON))[0] as QuestRow), name: 'Brand New' },
    ]
    await syncCatalog(syncDeps(t), writeJson('new.json', rows))
    expect((await search()).totalMatches).toBe(1)
  })

  test('a sync by another process (the CLI, on the same file) is picked up by the server', async () => {
    const path = join(tmp, 'shared.sqlite')
    const serverDb = openDatabase(path)
    const cliDb = openDatabase(path)
    try {
      const t = testApp()
      const { createApp } = await import('../../../src/app')
      const app = createApp(
        {
          db: serverDb,
          config: loadConfig({ CATALOG_SYNC_CRON: 'off' }),
          clock: t.clock,
          logger: silentLogger,
          passwordHasher: t.passwordHasher,
        },
        { onInvalidResponse: reportInvalidResponse },
      )
      const { createUser } = await import('../../../src/modules/account/service')
      await createUser(
        { db: serverDb, clock: t.clock, passwordHasher: t.passwordHasher },
        { username: 'ann', password: 'correct horse battery' },
      )
      // This app is not one of testApp's: its own typed client.
      const api = (headers: Record<string, string> = {}) =>
        treaty<typeof app>(app, { headers, parseDate: false }).api.plugin
      const { token } = ok(await api().auth.login.post({ identifier: 'ann', password: 'correct horse battery' }))
      const search = api({ authorization: `Bearer ${token}` }).quests.search
      const count = async () => ok(await search.get({ query: { q: 'crypt' } })).totalMatches
      expect(await count()).toBe(0)
      await syncCatalog({ db: cliDb, clock: t.clock, logger: silentLogger }, SMALL_JSON)
      expect(await count()).toBe(7)
    } finally {
      serverDb.$client.close()
      cliDb.$client.close()
    }
  })
})

describe('start-up and scheduled syncs', () => {
  test('syncIfNeverSynced syncs a catalog never synced from the configured sources, and leaves a synced one alone', async () => {
    const t = testApp()
    const logger = recordingLogger()
    const config = loadConfig({ CATALOG_SOURCE_URL: SMALL_JSON })
    const running = syncIfNeverSynced({ db: t.db, clock: t.clock, logger }, config.catalogSources)
    expect(running).not.toBeNull()
    expect(await running).toMatchObject({ ok: true, rows: 12 })
    expect(logger.lines[0]).toContain('The quest catalog was never synced; syncing it from')
    expect(storedRows(t)).toHaveLength(12)
    expect(syncIfNeverSynced({ db: t.db, clock: t.clock, logger }, config.catalogSources)).toBeNull()
  })

  test('syncIfNeverSynced with an unreachable source says how to load a file, retries with back-off, and succeeds', async () => {
    const t = testApp()
    const logger = recordingLogger()
    const later = join(tmp, 'appears-later.json')
    const config = loadConfig({ CATALOG_SOURCE_URL: later })
    const delays: number[] = []
    const running = syncIfNeverSynced({ db: t.db, clock: t.clock, logger }, config.catalogSources, {
      retryDelayMs: (attempt) => {
        delays.push(attempt)
        if (attempt === 1) writeFileSync(later, readFileSync(SMALL_JSON)) // the network came back
        return 5
      },
    })
    expect(await running).toMatchObject({ ok: true, rows: 12 })
    expect(delays).toEqual([0, 1])
    const failures = logger.lines.filter((line) => line.includes(' warn '))
    expect(failures).toHaveLength(4) // two tries, each: why it failed, and the way out
    expect(failures[0]).toContain(
      `Catalog sync from ${later} failed; the current catalog (0 rows) is kept: it does not exist.`,
    )
    expect(failures[1]).toContain(
      'The quest catalog is still empty; trying the sources again in 0 s. Without internet access, or when every source refuses this server, load a saved copy of the wiki page or a JSON file of quests: quest-tracker catalog sync --from FILE',
    )
    expect(storedRows(t)).toHaveLength(12)
  })

  test('the first-start retries wait 1 min, 2, 4... up to an hour, and stop at once when the server stops', async () => {
    expect([0, 1, 2, 5, 6, 20].map(firstSyncRetryDelayMs)).toEqual([
      60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000,
    ])
    const t = testApp()
    const logger = recordingLogger()
    const config = loadConfig({ CATALOG_SOURCE_URL: join(tmp, 'missing.html') })
    const stop = new AbortController()
    const running = syncIfNeverSynced({ db: t.db, clock: t.clock, logger }, config.catalogSources, {
      signal: stop.signal,
    })
    while (!logger.lines.some((line) => line.includes('trying the sources again in 1 min'))) await Bun.sleep(5)
    stop.abort()
    // Ended by the stop, not by the minute's wait running out (which would time the test out).
    const ended = await Promise.race([running, Bun.sleep(10_000).then(() => 'still waiting' as const)])
    expect(ended).toMatchObject({ ok: false, rows: 0 })
  })

  test('the retries end when the catalog was synced meanwhile (catalog sync --from)', async () => {
    const t = testApp()
    const logger = recordingLogger()
    const config = loadConfig({ CATALOG_SOURCE_URL: join(tmp, 'missing.html') })
    let tries = 0
    const running = syncIfNeverSynced({ db: t.db, clock: t.clock, logger }, config.catalogSources, {
      retryDelayMs: () => {
        tries++
        return 5
      },
    })
    await syncCatalog(syncDeps(t), SMALL_JSON) // the admin loads a file while the server waits
    // Without the check the loop would try the missing file forever (the test's timeout). How
    // often it tried first depends on the machine: loading the file can take longer than the 5 ms.
    await running
    expect(tries).toBeGreaterThanOrEqual(1)
    expect(logger.lines.at(-1)).toContain('The quest catalog was synced meanwhile; no more first-start tries.')
  })

  test('catalogCron schedules the configured pattern, and adds nothing when off', async () => {
    const t = testApp()
    const deps = { db: t.db, clock: t.clock, logger: silentLogger, passwordHasher: t.passwordHasher }
    const on = new Elysia().use(catalogCron(deps, '17 4 * * *', [SMALL_JSON]))
    const job = (on.store as { cron?: Record<string, { getPattern(): string; stop(): void }> }).cron?.catalogSync
    expect(job?.getPattern()).toBe('17 4 * * *')
    job?.stop()
    const off = new Elysia().use(catalogCron(deps, null, [SMALL_JSON]))
    expect((off.store as { cron?: unknown }).cron).toBeUndefined()
  })
})
