// The catalog that ships with the program: a first start shows every quest with no network, a
// synced catalog is never replaced by it, and the copy says where it comes from.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../../src/clock'
import { loadConfig } from '../../../src/config'
import { openDatabase } from '../../../src/db/client'
import { catalogState, quests } from '../../../src/db/schema'
import { createLogger } from '../../../src/logger'
import { createUser } from '../../../src/modules/account/service'
import { readCatalogRows } from '../../../src/modules/catalog/service'
import { fillFromSnapshot, SNAPSHOT, snapshotCatalog } from '../../../src/modules/catalog/snapshot'
import { syncCatalog } from '../../../src/modules/catalog/sync'
import { startServer } from '../../../src/server'
import { readRows, recordingLogger, SHARED_718, SMALL_JSON, sharedExists, syncDeps } from '../../catalogFixtures'
import { cheapHasher, ok, testApp } from '../../helpers'

const tmp = mkdtempSync(join(tmpdir(), 'qt-snapshot-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('the snapshot', () => {
  test('names its source, its date and its licence', () => {
    expect(SNAPSHOT).toEqual({
      format: 'quest-tracker-catalog',
      title: 'Quests by level and XP',
      source: 'https://ddowiki.com/page/Quests_by_level_and_XP',
      retrieved: '2023-08-05T14:46:59.000Z',
      licence: 'CC BY-SA 2.5 (https://creativecommons.org/licenses/by-sa/2.5/)',
      attribution: expect.stringContaining('DDO wiki'),
    })
    const file = JSON.parse(
      readFileSync(join(import.meta.dir, '..', '..', '..', 'src', 'modules', 'catalog', 'snapshot.json'), 'utf8'),
    )
    expect(file.count).toBe(718)
    expect(file.quests).toHaveLength(718)
  })

  test('reads as any source does: 718 rows, 446 Heroic, 119 Epic, 153 Legendary, none left out', () => {
    const { rows, skipped } = snapshotCatalog()
    expect(skipped).toEqual([])
    expect(rows).toHaveLength(718)
    const tiers = Object.groupBy(rows, (row) => row.difficulty)
    expect([tiers.Heroic?.length, tiers.Epic?.length, tiers.Legendary?.length]).toEqual([446, 119, 153])
  })

  test.skipIf(!sharedExists)("is the DDO wiki's list of the fixtures, row for row", async () => {
    expect(snapshotCatalog().rows).toEqual(await readRows(SHARED_718))
  })

  test('fills an empty catalog at once, and says so', async () => {
    const t = testApp()
    const token = await t.userWithToken('ann')
    const logger = recordingLogger()
    expect(fillFromSnapshot({ db: t.db, logger })).toBe(718)
    expect(logger.lines).toHaveLength(1)
    expect(logger.lines[0]).toContain(
      'The quest catalog was empty: filled with the 718 quests that ship with Quest Tracker (Quests by level and XP, https://ddowiki.com/page/Quests_by_level_and_XP, as of 2023-08-05; CC BY-SA 2.5',
    )
    expect(t.db.select().from(catalogState).get()).toMatchObject({ origin: 'snapshot', rows: 718 })
    expect(ok(await t.plugin(token).quests.get()).count).toBe(718)
    expect(ok(await t.plugin(token).info.get()).catalog).toEqual({
      source: 'the DDO wiki',
      syncedAt: null,
      rows: 718,
      origin: 'snapshot',
      asOf: '2023-08-05T14:46:59.000Z',
      attempts: [],
    })
    // Filled once: a second start finds rows and writes nothing.
    expect(fillFromSnapshot({ db: t.db, logger })).toBeNull()
  })

  test('never replaces a synced catalog, and a sync merges into it', async () => {
    const t = testApp()
    await syncCatalog(syncDeps(t), SMALL_JSON)
    const before = readCatalogRows(t.db)
    expect(fillFromSnapshot({ db: t.db, logger: recordingLogger() })).toBeNull()
    expect(readCatalogRows(t.db)).toEqual(before)

    const fresh = testApp()
    fillFromSnapshot({ db: fresh.db, logger: recordingLogger() })
    const report = await syncCatalog(syncDeps(fresh), SMALL_JSON)
    expect(report).toMatchObject({ ok: true, rows: 730, added: 12, kept: 718 })
    expect(fresh.db.select().from(catalogState).get()?.origin).toBe('sync')
  })
})

describe('the first start', () => {
  test('with the wiki refusing and no other source reachable: every quest of the snapshot at once, and the log names the cause', async () => {
    const challenge = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () =>
        new Response('<script>window.gokuProps = {}; window.awsWafCookieDomainList = []</script>', { status: 202 }),
    })
    const lines: string[] = []
    const wikiUrl = `http://127.0.0.1:${challenge.port}/page/Quests_by_level_and_XP`
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(tmp, 'first.sqlite'),
      // The wiki refuses; the second source is a port nothing listens on (no network).
      CATALOG_SOURCES: `${wikiUrl}, http://127.0.0.1:1/v1/quests`,
      CATALOG_SYNC_CRON: 'off',
      BACKUP_CRON: 'off',
      MAINTENANCE_CRON: 'off',
    })
    const db = openDatabase(config.databasePath)
    await createUser(
      { db, clock: systemClock, passwordHasher: cheapHasher },
      { username: 'ann', password: 'pw-1234567' },
    )
    db.$client.close()
    const running = await startServer({
      config,
      logger: createLogger('info', { write: (line) => lines.push(line) }),
      passwordHasher: cheapHasher,
    })
    try {
      const base = `http://127.0.0.1:${running.port}`
      // Before any source answered: the snapshot's quests, on the website's public list.
      const catalog = (await (await fetch(`${base}/api/quests`)).json()) as { count: number }
      expect(catalog.count).toBe(718)
      const health = (await (await fetch(`${base}/api/health`)).json()) as { catalog: { origin: string; rows: number } }
      expect(health.catalog).toMatchObject({ origin: 'snapshot', rows: 718 })
      // The background sync tries both sources; the log says the wiki refused with a bot challenge.
      while (!lines.some((line) => line.includes('trying the sources again'))) await Bun.sleep(10)
      const log = lines.join('\n')
      expect(log).toContain('The quest catalog was empty: filled with the 718 quests that ship with Quest Tracker')
      expect(log).toContain(
        `Catalog source ${wikiUrl} refused this server with a bot challenge (AWS WAF) instead of the quest list; trying the next source.`,
      )
      expect(log).toContain('The quest catalog keeps its 718 rows meanwhile')
      const after = (await (await fetch(`${base}/api/health`)).json()) as {
        catalog: { attempts: { outcome: string }[] }
      }
      expect(after.catalog.attempts.map((attempt) => attempt.outcome)).toEqual(['challenge', 'failed'])
    } finally {
      await running.stop('test')
      challenge.stop(true)
    }
    const db2 = openDatabase(config.databasePath)
    expect(db2.select().from(quests).all()).toHaveLength(718)
    db2.$client.close()
  })
})
