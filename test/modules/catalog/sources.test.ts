// The catalog's sources as a server meets them in 2026, each imitated on loopback: the DDO wiki
// answering a bot challenge instead of its page, DDO Audit's quest list, a source that is slow,
// broken or too large, and another Quest Tracker's public catalog. Sources are tried in order;
// what one gives is merged into the catalog (favor and completions kept); each try is named in
// the log, /info and the health check.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { catalogState, completions, quests } from '../../../src/db/schema'
import { parseCatalog } from '../../../src/modules/catalog/parse'
import { isBotChallenge, type SyncReport, syncCatalog } from '../../../src/modules/catalog/sync'
import { OWN, SMALL_JSON, syncDeps } from '../../catalogFixtures'
import { insertCharacter, ok, testApp } from '../../helpers'

const AUDIT = join(OWN, 'ddoaudit-quests.json')

/**
 * An AWS WAF challenge page of the shape the wiki sends since 2026 (written for this test): a
 * script setting `awsWafCookieDomainList` and `gokuProps`, and the challenge script.
 */
const CHALLENGE_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title>
<script>window.awsWafCookieDomainList = [];
window.gokuProps = {"key":"AQIDAHjcYu/GjX+QlghicBgQ/7bFaQZ+m5FKCMDnO+vTbNg96AH","iv":"A6weKQCRAAAG","context":"fU0cOIKiuD"};</script>
<script src="https://0a1b2c3d4e5f.edge.sdk.awswaf.com/0a1b2c3d4e5f/9f8e7d6c5b4a/challenge.js"></script>
</head><body><div id="challenge-container"></div><noscript><h1>JavaScript is disabled</h1></noscript>
<script>AwsWafIntegration.saveReferrer(); ChallengeScript.submit();</script></body></html>`

/** Two loopback "hosts" (two ports): one for the wiki's answers, one for the other sources. */
let wiki: ReturnType<typeof Bun.serve>
let other: ReturnType<typeof Bun.serve>
let wikiBase = ''
let otherBase = ''
beforeAll(async () => {
  const audit = await Bun.file(AUDIT).text()
  const html = { 'content-type': 'text/html; charset=utf-8' }
  wiki = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      switch (new URL(request.url).pathname) {
        case '/page/Quests_by_level_and_XP':
          return new Response(CHALLENGE_PAGE, { status: 202, headers: html })
        case '/forbidden':
          return new Response(CHALLENGE_PAGE, { status: 403, headers: html })
        case '/ok-but-challenge':
          return new Response(CHALLENGE_PAGE, { status: 200, headers: html })
        default:
          return new Response('not found', { status: 404 })
      }
    },
  })
  other = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      switch (new URL(request.url).pathname) {
        case '/v1/quests':
          return new Response(audit, { headers: { 'content-type': 'application/json' } })
        case '/slow':
          return new Promise<Response>((done) => setTimeout(() => done(new Response(audit)), 3000))
        case '/garbage':
          return new Response('{"data": [{"name": "Crypt", "heroic_normal_cr"', {
            headers: { 'content-type': 'application/json' },
          })
        case '/huge':
          return new Response(`[${'{"name":"x"},'.repeat(20_000)}{}]`)
        default:
          return new Response('not found', { status: 404 })
      }
    },
  })
  wikiBase = `http://127.0.0.1:${wiki.port}`
  otherBase = `http://127.0.0.1:${other.port}`
})
afterAll(() => {
  wiki.stop(true)
  other.stop(true)
})

const wikiHost = () => new URL(wikiBase).host
const otherHost = () => new URL(otherBase).host

/** A server whose catalog is our small wiki list, with a character that has done three quests. */
async function withPlayer() {
  const t = testApp()
  const token = await t.userWithToken('ann')
  expect(await syncCatalog(syncDeps(t), SMALL_JSON)).toMatchObject({ ok: true, rows: 12 })
  const character = insertCharacter(t.db, 'ann')
  const at = '2026-11-20T20:00:00.000Z'
  const base = { characterId: character.id, completedAt: at, updatedAt: at }
  t.db
    .insert(completions)
    .values([
      { ...base, name: 'Crypt', difficulty: 'Epic', setting: 'elite', xpEarned: 25000 },
      { ...base, name: "Delera's Rest", difficulty: 'Heroic', setting: 'hard' },
      { ...base, name: 'Shadow Gate', difficulty: 'Legendary', setting: 'normal' },
    ])
    .run()
  t.clock.advance(86_400_000)
  return { t, token, before: t.db.select().from(completions).all() }
}

const row = (t: ReturnType<typeof testApp>, name: string, difficulty: string) =>
  t.db
    .select()
    .from(quests)
    .all()
    .find((r) => r.name === name && r.difficulty === difficulty)

describe('a bot challenge instead of the page', () => {
  test.each([
    [202, ''],
    [202, CHALLENGE_PAGE],
    [403, CHALLENGE_PAGE],
    [200, CHALLENGE_PAGE],
  ])('HTTP %i with the AWS WAF page is a bot challenge', (status, body) => {
    expect(isBotChallenge(status, body)).toBe(true)
  })

  test('a real page, a 403 without the markers or a 500 is not one', () => {
    expect(isBotChallenge(200, '<html><h2>Heroic</h2><table></table></html>')).toBe(false)
    expect(isBotChallenge(403, '<html>Forbidden</html>')).toBe(false)
    expect(isBotChallenge(500, CHALLENGE_PAGE)).toBe(false)
  })

  test.each([
    ['HTTP 202', '/page/Quests_by_level_and_XP'],
    ['HTTP 403', '/forbidden'],
    ['HTTP 200', '/ok-but-challenge'],
  ])(
    'the wiki answering the challenge with %s: the log says so in one line and the catalog is kept',
    async (_, path) => {
      const { t, before } = await withPlayer()
      const deps = syncDeps(t)
      const result = await syncCatalog(deps, `${wikiBase}${path}`)
      expect(result).toMatchObject({ ok: false, rows: 12 })
      expect(deps.logger.lines).toHaveLength(1)
      expect(deps.logger.lines[0]).toContain(
        `Catalog sync from ${wikiBase}${path} failed; the current catalog (12 rows) is kept: it refused this server with a bot challenge (AWS WAF) instead of the quest list.`,
      )
      // Not the parser's "the page has no quest tables": that hid the cause.
      expect(deps.logger.lines[0]).not.toContain('no quest tables')
      expect(t.db.select().from(completions).all()).toEqual(before)
      expect(t.db.select().from(catalogState).get()?.attempts[0]).toMatchObject({
        source: wikiHost(),
        outcome: 'challenge',
        detail: 'refused this server with a bot challenge (AWS WAF) instead of the quest list',
      })
    },
  )
})

describe("DDO Audit's quest list", () => {
  test('read after the wiki refuses: adds the quests newer than the list, updates levels and XP, keeps favor and every completion', async () => {
    const { t, token, before } = await withPlayer()
    const deps = syncDeps(t)
    const report = (await syncCatalog(deps, [
      `${wikiBase}/page/Quests_by_level_and_XP`,
      `${otherBase}/v1/quests`,
    ])) as SyncReport
    expect(report).toMatchObject({ ok: true, format: 'ddo-audit', rows: 16, added: 4, changed: 7, kept: 5 })
    expect(report.details.added).toEqual([
      { name: 'Astral Ambush', difficulty: 'Legendary' },
      { name: 'Den of Vipers', difficulty: 'Legendary' },
      { name: 'Catastrophe', difficulty: 'Heroic' },
      { name: 'Catastrophe', difficulty: 'Legendary' },
    ])
    // Not quests: an arena, a developers' test, a wilderness area (named as its area, unknown to the catalog).
    expect(report.details.skipped).toEqual([
      'entry 9 ("qa test") is a test entry of the game, not a quest',
      'entry 10 ("Death Match: The Stash") is a Arena entry, not a quest',
      '("Sorrowdusk Isle", Heroic) is named as its adventure area and is no quest of the catalog; left out',
    ])
    // One line for the wiki's refusal (another source follows), one for the sync, which names both.
    expect(deps.logger.lines).toHaveLength(2)
    expect(deps.logger.lines[0]).toContain(
      `Catalog source ${wikiBase}/page/Quests_by_level_and_XP refused this server with a bot challenge (AWS WAF) instead of the quest list; trying the next source.`,
    )
    expect(deps.logger.lines[1]).toContain(
      `Catalog synced from ${otherBase}/v1/quests (DDO Audit's list): 16 rows (4 added, 7 changed, 5 not listed there kept, 3 source rows left out). ${wikiHost()} refused this server with a bot challenge (AWS WAF) instead of the quest list, so ${otherHost()} was used instead.`,
    )

    // Crypt: the same row (the name the completions use), XP from DDO Audit, favor and duration from the wiki.
    expect(row(t, 'Crypt', 'Epic')).toMatchObject({
      level: 27,
      eliteXp: 22100,
      favor: 3,
      duration: 'Medium',
      questId: 1879050001,
      groupSize: 'Party',
      freeToVip: false,
    })
    // The game's curly apostrophe found the wiki's row; no second "Delera’s Rest".
    expect(
      t.db
        .select()
        .from(quests)
        .all()
        .filter((r) => r.name.startsWith('Delera')),
    ).toHaveLength(2)
    expect(row(t, "Delera's Rest", 'Epic')).toMatchObject({ eliteXp: 21000, favor: 5 })
    // " (R)" is a raid's suffix: both remakes it has are the wiki's Shadow Gate, now known as a raid.
    expect(row(t, 'Shadow Gate', 'Heroic')).toMatchObject({ groupSize: 'Raid', eliteXp: 8800, favor: 6 })
    expect(row(t, 'Shadow Gate', 'Legendary')).toMatchObject({ groupSize: 'Raid', level: 32, eliteXp: 37800 })
    expect(row(t, 'Shadow Gate', 'Epic')).toMatchObject({ groupSize: null }) // not in DDO Audit's list: kept
    expect(row(t, 'Bell Tower', 'Heroic')).toMatchObject({ level: 7, favor: 3 })
    // New: unknown XP (DDO Audit's 0) and favor are null; a Legendary raid.
    expect(row(t, 'Astral Ambush', 'Legendary')).toMatchObject({ level: 34, eliteXp: null, favor: null })
    expect(row(t, 'Den of Vipers', 'Legendary')).toMatchObject({ level: 36, groupSize: 'Raid', freeToVip: true })

    expect(t.db.select().from(completions).all()).toEqual(before)
    const served = ok(await t.plugin(token).quests.get())
    expect(served.count).toBe(16)
    expect(served.quests.find((q) => q.name === 'Den of Vipers')).toMatchObject({
      groupSize: 'Raid',
      questId: 1879293913,
    })
    // The same list again changes nothing.
    expect(await syncCatalog(syncDeps(t), `${otherBase}/v1/quests`)).toMatchObject({ ok: true, added: 0, changed: 0 })
  })

  test('/info and the health check say where the catalog comes from and how each source went', async () => {
    const { t, token } = await withPlayer()
    await syncCatalog(syncDeps(t), [`${wikiBase}/page/Quests_by_level_and_XP`, `${otherBase}/v1/quests`])
    const expected = {
      rows: 16,
      origin: 'sync' as const,
      source: otherHost(),
      syncedAt: '2026-11-22T12:00:00.000Z',
      asOf: '2026-11-22T12:00:00.000Z',
      attempts: [
        {
          source: wikiHost(),
          outcome: 'challenge' as const,
          at: '2026-11-22T12:00:00.000Z',
          detail: 'refused this server with a bot challenge (AWS WAF) instead of the quest list',
        },
        { source: otherHost(), outcome: 'ok' as const, at: '2026-11-22T12:00:00.000Z', detail: '12 quest rows read' },
        // The small list's sync of the day before: the last try of that source.
        {
          source: 'catalog-small.json',
          outcome: 'ok' as const,
          at: '2026-11-21T12:00:00.000Z',
          detail: '12 quest rows read',
        },
      ],
    }
    expect(ok(await t.plugin(token).info.get()).catalog).toEqual(expected)
    expect(ok(await t.api.health.get()).catalog).toEqual(expected)
  })
})

describe('a source that is slow, broken or too large changes nothing, and the next one is tried', () => {
  test('slow, then garbage, then too large, then DDO Audit', async () => {
    const { t, before } = await withPlayer()
    const deps = syncDeps(t)
    const report = await syncCatalog(
      deps,
      [`${otherBase}/slow`, `${otherBase}/garbage`, `${otherBase}/huge`, `${otherBase}/v1/quests`],
      { timeoutMs: 200, maxBytes: 100_000 },
    )
    expect(report).toMatchObject({ ok: true, format: 'ddo-audit', added: 4 })
    const lines = deps.logger.lines
    expect(lines.map((line) => line.split(/ +/)[1])).toEqual(['warn', 'warn', 'warn', 'info'])
    expect(lines[0]).toContain(`Catalog source ${otherBase}/slow did not answer within 0.2 s; trying the next source.`)
    expect(lines[1]).toContain(
      `Catalog source ${otherBase}/garbage could not be read as a quest list: the source looks like JSON but does not parse; trying the next source.`,
    )
    expect(lines[2]).toContain(`Catalog source ${otherBase}/huge is larger than 0.1 MiB; trying the next source.`)
    expect(lines[3]).toContain(`Catalog synced from ${otherBase}/v1/quests`)
    expect(t.db.select().from(completions).all()).toEqual(before)
  })

  test('when none answers, the catalog is kept and one line names each reason', async () => {
    const { t } = await withPlayer()
    const rows = t.db.select().from(quests).all()
    const deps = syncDeps(t)
    const result = await syncCatalog(deps, [`${wikiBase}/page/Quests_by_level_and_XP`, `${otherBase}/slow`], {
      timeoutMs: 200,
    })
    expect(result).toMatchObject({ ok: false, rows: 12 })
    expect(deps.logger.lines.at(-1)).toContain(
      `the current catalog (12 rows) is kept: ${wikiBase}/page/Quests_by_level_and_XP refused this server with a bot challenge (AWS WAF) instead of the quest list; ${otherBase}/slow did not answer within 0.2 s.`,
    )
    expect(t.db.select().from(quests).all()).toEqual(rows)
    expect(
      t.db
        .select()
        .from(catalogState)
        .get()
        ?.attempts.map((a) => a.outcome),
    ).toEqual(['challenge', 'failed', 'ok']) // the last: the small list's sync before
  })
})

describe('another Quest Tracker', () => {
  test('serves its catalog without sign-in, with its source and licence, and one server syncs from another', async () => {
    // Server A reached DDO Audit; server B, in the same guild, reads A's catalog.
    const a = testApp()
    await syncCatalog(syncDeps(a), SMALL_JSON)
    await syncCatalog(syncDeps(a), `${otherBase}/v1/quests`)
    const served = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => a.app.handle(request) })
    try {
      const url = `http://127.0.0.1:${served.port}/api/catalog`
      const response = await fetch(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      const body = (await response.json()) as Record<string, unknown>
      expect(body).toMatchObject({ format: 'quest-tracker-catalog', count: 16, origin: 'sync' })
      expect(body.licence).toContain('CC BY-SA 2.5')
      expect(body.attribution).toContain('DDO wiki')
      expect(JSON.stringify(body)).not.toContain('"times"')
      const etag = response.headers.get('etag') ?? ''
      expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304)

      const b = testApp()
      const report = (await syncCatalog(syncDeps(b), url)) as SyncReport
      expect(report).toMatchObject({ ok: true, format: 'quest-tracker', rows: 16, added: 16 })
      expect(row(b, 'Den of Vipers', 'Legendary')).toMatchObject({ groupSize: 'Raid', questId: 1879293913 })
      expect(row(b, 'Crypt', 'Heroic')).toMatchObject({ favor: 3 })
    } finally {
      served.stop(true)
    }
  })

  test("the parser knows DDO Audit's list bare or wrapped, and another server's catalog by its format", async () => {
    const wrapped = await Bun.file(AUDIT).text()
    const bare = JSON.stringify((JSON.parse(wrapped) as { data: unknown[] }).data)
    expect(parseCatalog(wrapped).format).toBe('ddo-audit')
    expect(parseCatalog(bare).format).toBe('ddo-audit')
    expect(parseCatalog(bare).rows).toEqual(parseCatalog(wrapped).rows)
    expect(parseCatalog('{"format": "quest-tracker-catalog", "quests": []}').format).toBe('quest-tracker')
  })
})
