// Completions over HTTP: upsert status and stored row for every normalisation rule, XP
// keep/clear, catalog spelling, delete rules 1-3 from body or query.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { treaty } from '@elysiajs/eden'
import { and, eq } from 'drizzle-orm'
import { createApp } from '../../../src/app'
import { systemClock } from '../../../src/clock'
import { loadConfig } from '../../../src/config'
import { openDatabase } from '../../../src/db/client'
import { completions, runs } from '../../../src/db/schema'
import { silentLogger } from '../../../src/logger'
import { createUser } from '../../../src/modules/account/service'
import { loadCatalog, readCatalog, SHARED_CATALOG, SMALL_CATALOG, sharedCatalogExists } from '../../catalogFixture'
import { type Client, cheapHasher, insertCharacter, ok, refused, reportInvalidResponse, testApp } from '../../helpers'

type Completions = ReturnType<Client['plugin']['characters']>['completions']
/** The body of POST completions, as the route's types take it. */
type CompletionBody = Parameters<Completions['post']>[0]
type DeleteBody = Parameters<Completions['delete']>[0]
type DeleteQuery = NonNullable<Parameters<Completions['delete']>[1]>['query']

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice')
  const path = `/api/plugin/characters/${character.id}/completions`
  const mine = t.plugin(token).characters({ id: character.id }).completions
  const post = (body: CompletionBody) => mine.post(body)
  const rows = () =>
    t.db.select().from(completions).where(eq(completions.characterId, character.id)).orderBy(completions.id).all()
  const keys = () => rows().map((r) => `${r.name}|${r.difficulty}|${r.setting}`)
  return { ...t, token, character, path, mine, post, rows, keys }
}

describe('POST completions: normalisation, stored as the rules say', () => {
  // difficulty and setting take any JSON value (never a 400), so even the wrong types are typed.
  const cases: [string, CompletionBody, string][] = [
    // [why, body, stored "name|difficulty|setting"]
    ['setting omitted -> elite', { name: 'Q', difficulty: 'Heroic' }, 'Q|Heroic|elite'],
    ['explicit Unknown -> unknown', { name: 'Q', difficulty: 'Heroic', setting: 'Unknown' }, 'Q|Heroic|unknown'],
    ['any -> unknown', { name: 'Q', difficulty: 'Heroic', setting: 'any' }, 'Q|Heroic|unknown'],
    ['unrecognised setting -> unknown', { name: 'Q', difficulty: 'Epic', setting: 'mythic+' }, 'Q|Epic|unknown'],
    ['setting of the wrong type -> unknown, not 400', { name: 'Q', difficulty: 'Epic', setting: 42 }, 'Q|Epic|unknown'],
    ['difficulty omitted -> Unknown', { name: 'Q', setting: 'hard' }, 'Q|Unknown|hard'],
    ['junk difficulty -> Unknown', { name: 'Q', difficulty: 'Hardcore', setting: 'hard' }, 'Q|Unknown|hard'],
    ['difficulty of the wrong type -> Unknown, not 400', { name: 'Q', difficulty: ['x'] }, 'Q|Unknown|elite'],
    ['tier word in any case', { name: 'Q', difficulty: 'legendary', setting: 'Normal' }, 'Q|Legendary|normal'],
    ['challenge word in difficulty moves to setting', { name: 'Q', difficulty: 'reaper' }, 'Q|Unknown|reaper'],
    ['alias challengeSetting', { name: 'Q', difficulty: 'Heroic', challengeSetting: 'casual' }, 'Q|Heroic|casual'],
    ['alias challenge_setting', { name: 'Q', difficulty: 'Heroic', challenge_setting: 'reaper' }, 'Q|Heroic|reaper'],
    ['name is trimmed', { name: '  Q  ', difficulty: 'Heroic' }, 'Q|Heroic|elite'],
  ]
  for (const [why, body, key] of cases) {
    test(why, async () => {
      const t = await setup()
      const posted = ok(await t.post(body), 201)
      expect(posted.ok).toBe(true)
      expect(`${posted.completion.name}|${posted.completion.difficulty}|${posted.completion.setting}`).toBe(key)
      expect(t.keys()).toEqual([key])
    })
  }
})

describe('POST completions: upsert', () => {
  test('201 new, 200 updated; one row per triple; other settings are separate rows', async () => {
    const t = await setup()
    expect((await t.post({ name: 'Q', difficulty: 'Heroic', setting: 'elite' })).status).toBe(201)
    t.clock.advance(60_000)
    const again = ok(await t.post({ name: 'Q', difficulty: 'Heroic' }))
    expect(again.completion.completedAt).toBe('2026-11-21T12:01:00.000Z')
    expect((await t.post({ name: 'Q', difficulty: 'Heroic', setting: 'reaper' })).status).toBe(201)
    expect((await t.post({ name: 'Q', difficulty: 'Epic', setting: 'reaper' })).status).toBe(201)
    expect(t.keys()).toEqual(['Q|Heroic|elite', 'Q|Heroic|reaper', 'Q|Epic|reaper'])
    expect(t.rows()[0]?.completedAt).toBe('2026-11-21T12:01:00.000Z')
  })

  test('completedAt: default now, explicit timestamp stored as UTC, bad one 400', async () => {
    const t = await setup()
    const a = await t.post({ name: 'A', completedAt: '2026-11-20T23:30:00-01:00' })
    expect(a.data?.completion.completedAt).toBe('2026-11-21T00:30:00.000Z')
    const b = await t.post({ name: 'B', completedAt: null })
    expect(b.data?.completion.completedAt).toBe('2026-11-21T12:00:00.000Z')
    expect(refused(await t.post({ name: 'C', completedAt: 'last night' }), 400).error).toMatch(/completedAt/)
    expect(t.keys()).toEqual(['A|Unknown|elite', 'B|Unknown|elite'])
  })

  test('a completedAt on a day the calendar does not have is 400, not silently another day', async () => {
    const t = await setup()
    for (const completedAt of ['2026-02-30T10:00:00Z', '2026-04-31', '2025-02-29T00:00:00+02:00']) {
      expect(refused(await t.post({ name: 'A', completedAt }), 400)).toEqual({
        error: 'Body field "completedAt" must be an ISO 8601 timestamp.',
      })
    }
    expect(t.keys()).toEqual([])
    const leap = await t.post({ name: 'A', completedAt: '2028-02-29T23:00:00-02:00' })
    expect(leap.data?.completion.completedAt).toBe('2028-03-01T01:00:00.000Z')
  })

  test('omitted xpEarned/reaperXpEarned/durationSeconds keep the stored value; null clears', async () => {
    const t = await setup()
    const key = { name: 'Q', difficulty: 'Heroic', setting: 'reaper' }
    await t.post({ ...key, xpEarned: 5000, reaperXpEarned: 40, durationSeconds: 900 })
    const kept = ok(await t.post(key))
    expect(kept.completion).toMatchObject({ xpEarned: 5000, reaperXpEarned: 40, durationSeconds: 900 })
    expect(t.rows()[0]).toMatchObject({ xpEarned: 5000, reaperXpEarned: 40, durationSeconds: 900 })
    await t.post({ ...key, xp: 6000 })
    expect(t.rows()[0]).toMatchObject({ xpEarned: 6000, reaperXpEarned: 40 })
    const cleared = await t.post({ ...key, xpEarned: null, rxp: null, durationSeconds: null })
    expect(cleared.data?.completion).toMatchObject({ xpEarned: null, reaperXpEarned: null, durationSeconds: null })
    expect(t.rows()[0]).toMatchObject({ xpEarned: null, reaperXpEarned: null, durationSeconds: null })
    expect(t.rows()).toHaveLength(1)
  })

  test.each([['xp'], ['xpReceived'], ['xp_received'], ['actualXp'], ['actual_xp'], ['xp_earned']] as const)(
    'xpEarned alias %s is stored',
    async (alias) => {
      const t = await setup()
      const res = await t.post({ name: 'Q', [alias]: 1234 })
      expect(res.data?.completion.xpEarned).toBe(1234)
      expect(t.rows()[0]?.xpEarned).toBe(1234)
    },
  )

  test.each([['reaperXp'], ['reaper_xp'], ['reaper_xp_earned'], ['rxp'], ['rxpEarned'], ['rxp_earned']] as const)(
    'reaperXpEarned alias %s is stored',
    async (alias) => {
      const t = await setup()
      const res = await t.post({ name: 'Q', setting: 'reaper', [alias]: 77 })
      expect(res.data?.completion.reaperXpEarned).toBe(77)
      expect(t.rows()[0]?.reaperXpEarned).toBe(77)
    },
  )

  test('two clients posting the same triple at once make one row', async () => {
    const t = await setup()
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.post({
          name: 'Same',
          difficulty: 'Heroic',
          setting: 'elite',
          xpEarned: i,
          completedAt: `2026-11-20T10:${String(i).padStart(2, '0')}:00Z`,
        }),
      ),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 200)).toHaveLength(19)
    expect(t.rows()).toHaveLength(1)
    expect(t.rows()[0]?.runs).toBe(20)
    expect(t.db.select().from(runs).all()).toHaveLength(20)
  })

  test('the same run posted at once by several clients (one completedAt) is one run', async () => {
    const t = await setup()
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.post({ name: 'Same', setting: 'elite', durationSeconds: 300, completedAt: '2026-11-20T10:00:00Z' }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201])
    expect(t.rows()[0]?.runs).toBe(1)
    expect(t.db.select({ durationSeconds: runs.durationSeconds }).from(runs).all()).toEqual([{ durationSeconds: 300 }])
  })

  test('two server processes on one database file: still one row per triple', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qt-upsert-'))
    try {
      const file = join(dir, 'db.sqlite')
      const first = openDatabase(file)
      const second = openDatabase(file)
      await createUser(
        { db: first, clock: systemClock, passwordHasher: cheapHasher },
        { username: 'alice', password: 'correct horse battery' },
      )
      const character = insertCharacter(first, 'alice')
      const apps = [first, second].map((db) =>
        createApp(
          {
            db,
            config: loadConfig({ CATALOG_SYNC_CRON: 'off' }),
            clock: systemClock,
            logger: silentLogger,
            passwordHasher: cheapHasher,
          },
          { onInvalidResponse: reportInvalidResponse },
        ),
      )
      // These apps are not testApp's: typed clients of their own.
      const plugin = (app: (typeof apps)[number], headers: Record<string, string> = {}) =>
        treaty<typeof app>(app, { headers, parseDate: false }).api.plugin
      const login = plugin(apps[0]!).auth.login
      const { token } = ok(await login.post({ identifier: 'alice', password: 'correct horse battery' }))
      const post = (i: number) =>
        plugin(apps[i % 2]!, { authorization: `Bearer ${token}` })
          .characters({ id: character.id })
          // Each a run of its own (one completedAt would be one run re-sent).
          .completions.post({ name: 'Same', difficulty: 'Heroic', xpEarned: i, completedAt: `2026-11-20T10:0${i}:00Z` })
      const statuses = (await Promise.all(Array.from({ length: 10 }, (_, i) => post(i)))).map((r) => r.status)
      expect(statuses.sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
      const rows = second.select().from(completions).all()
      expect(rows).toHaveLength(1)
      expect(rows[0]?.runs).toBe(10)
      first.$client.close()
      second.$client.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the unique index itself refuses a second row with the same triple', async () => {
    const t = await setup()
    await t.post({ name: 'Q', difficulty: 'Heroic' })
    const now = '2026-11-21T12:00:00.000Z'
    const row = {
      characterId: t.character.id,
      name: 'Q',
      difficulty: 'Heroic' as const,
      setting: 'elite' as const,
      completedAt: now,
      updatedAt: now,
    }
    expect(() => t.db.insert(completions).values(row).run()).toThrow()
  })
})

describe('POST completions: catalog spelling', () => {
  test('a case-insensitive catalog match is stored with the catalog spelling; unknown names as sent', async () => {
    const t = await setup()
    loadCatalog(t.db, readCatalog(SMALL_CATALOG))
    const a = await t.post({ name: 'the pit', difficulty: 'Heroic' })
    expect(a.data?.completion.name).toBe('The Pit')
    ok(await t.post({ name: 'THE PIT', difficulty: 'heroic' }))
    const c = await t.post({ name: "tempest's spine", difficulty: 'Heroic', setting: 'hard' })
    expect(c.data?.completion.name).toBe("Tempest's Spine")
    ok(await t.post({ name: 'A Quest From The Next Update', difficulty: 'Epic' }), 201)
    expect(t.keys()).toEqual([
      'The Pit|Heroic|elite',
      "Tempest's Spine|Heroic|hard",
      'A Quest From The Next Update|Epic|elite',
    ])
  })

  test.skipIf(!sharedCatalogExists)(
    'every name of the real 718-row catalog, lower-cased, comes back in catalog spelling',
    async () => {
      const t = await setup()
      const catalog = readCatalog(SHARED_CATALOG)
      loadCatalog(t.db, catalog)
      const names = [...new Set(catalog.map((q) => q.name))]
      for (const name of names) {
        const res = await t.post({ name: name.toLowerCase(), difficulty: 'Heroic' })
        expect(res.data?.completion.name).toBe(name)
      }
      expect(t.rows()).toHaveLength(names.length)
    },
  )
  if (!sharedCatalogExists) console.warn('skipped: ../shared/fixtures not found')
})

describe('POST completions: bad input is 400 and writes nothing', () => {
  // Values of the right type that the schema's bounds refuse: typed.
  const outOfBounds: [string, CompletionBody, RegExp][] = [
    ['empty name', { name: '' }, /name/],
    ['blank name', { name: '   ' }, /name/],
    ['xp alias negative', { name: 'Q', xp: -5 }, /xp/],
    ['rxp a float', { name: 'Q', rxp: 1.5 }, /rxp/],
  ]
  for (const [why, body, message] of outOfBounds) {
    test(why, async () => {
      const t = await setup()
      expect(refused(await t.post(body), 400).error).toMatch(message)
      expect(t.rows()).toHaveLength(0)
    })
  }

  // A missing name, or a field of a type the types forbid: raw.
  const mistyped: [string, unknown, RegExp][] = [
    ['no name', { difficulty: 'Heroic' }, /name/],
    ['name not a string', { name: 12 }, /name/],
    ['xpEarned a string', { name: 'Q', xpEarned: 'lots' }, /xpEarned/],
    ['durationSeconds an object', { name: 'Q', durationSeconds: {} }, /durationSeconds/],
    ['completedAt a number', { name: 'Q', completedAt: 1700000000 }, /completedAt/],
    ['body an array', [{ name: 'Q' }], /body/i],
  ]
  for (const [why, body, message] of mistyped) {
    test(why, async () => {
      const t = await setup()
      const res = await t.json<{ error: string }>('POST', t.path, { token: t.token, body })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
      expect(t.rows()).toHaveLength(0)
    })
  }

  test('XP and duration are bounded (1e308 is 400 naming the field); the bounds themselves are accepted', async () => {
    const t = await setup()
    const tooLarge: [CompletionBody, string][] = [
      [{ name: 'Q', xpEarned: 1e308 }, 'Body field "xpEarned" must be an integer from 0 to 100000000 or null.'],
      [{ name: 'Q', xp: 100_000_001 }, 'Body field "xp" must be an integer from 0 to 100000000 or null.'],
      [
        { name: 'Q', reaperXpEarned: 1e308 },
        'Body field "reaperXpEarned" must be an integer from 0 to 100000000 or null.',
      ],
      [
        { name: 'Q', durationSeconds: 1e308 },
        'Body field "durationSeconds" must be an integer from 0 to 604800 or null.',
      ],
    ]
    for (const [body, message] of tooLarge) expect(refused(await t.post(body), 400)).toEqual({ error: message })
    expect(t.rows()).toHaveLength(0)
    const max = { xpEarned: 100_000_000, reaperXpEarned: 100_000_000, durationSeconds: 7 * 24 * 3600 }
    expect(ok(await t.post({ name: 'Q', ...max }), 201).completion).toMatchObject(max)
  })

  test('body not JSON', async () => {
    const t = await setup()
    const res = await t.json('POST', t.path, {
      token: t.token,
      raw: '{name:',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(t.rows()).toHaveLength(0)
  })
})

describe('DELETE completions: rules 1-3, body or query', () => {
  interface Delete {
    body?: DeleteBody
    query?: DeleteQuery
  }
  async function seeded() {
    const t = await setup()
    for (const setting of ['casual', 'elite', 'reaper', 'unknown'])
      await t.post({ name: 'Q', difficulty: 'Heroic', setting })
    await t.post({ name: 'Q', difficulty: 'Epic', setting: 'elite' })
    await t.post({ name: 'Other', difficulty: 'Heroic', setting: 'elite' })
    const del = ({ body, query }: Delete) => t.mine.delete(body, query ? { query } : undefined)
    return { ...t, del }
  }
  const all = [
    'Q|Heroic|casual',
    'Q|Heroic|elite',
    'Q|Heroic|reaper',
    'Q|Heroic|unknown',
    'Q|Epic|elite',
    'Other|Heroic|elite',
  ]
  const without = (...gone: string[]) => all.filter((k) => !gone.includes(k))

  const cases: [string, Delete, string[]][] = [
    [
      'rule 1: no setting removes the elite row only',
      { body: { name: 'Q', difficulty: 'Heroic' } },
      ['Q|Heroic|elite'],
    ],
    [
      'rule 2: a concrete setting',
      { body: { name: 'Q', difficulty: 'Heroic', setting: 'reaper' } },
      ['Q|Heroic|reaper'],
    ],
    [
      'rule 2: Unknown removes the unknown row',
      { body: { name: 'Q', difficulty: 'Heroic', setting: 'Unknown' } },
      ['Q|Heroic|unknown'],
    ],
    [
      'rule 3: allSettings true',
      { body: { name: 'Q', difficulty: 'Heroic', allSettings: true } },
      ['Q|Heroic|casual', 'Q|Heroic|elite', 'Q|Heroic|reaper', 'Q|Heroic|unknown'],
    ],
    [
      'rule 3: setting all',
      { body: { name: 'Q', difficulty: 'Heroic', setting: 'all' } },
      ['Q|Heroic|casual', 'Q|Heroic|elite', 'Q|Heroic|reaper', 'Q|Heroic|unknown'],
    ],
    [
      'rule 3: setting any',
      { body: { name: 'Q', difficulty: 'Heroic', setting: 'any' } },
      ['Q|Heroic|casual', 'Q|Heroic|elite', 'Q|Heroic|reaper', 'Q|Heroic|unknown'],
    ],
    [
      'rule 3: setting *',
      { body: { name: 'Q', difficulty: 'Heroic', setting: '*' } },
      ['Q|Heroic|casual', 'Q|Heroic|elite', 'Q|Heroic|reaper', 'Q|Heroic|unknown'],
    ],
    ['query: rule 1', { query: { name: 'Q', difficulty: 'Epic' } }, ['Q|Epic|elite']],
    ['query: rule 2', { query: { name: 'Q', difficulty: 'Heroic', setting: 'casual' } }, ['Q|Heroic|casual']],
    [
      'query: allSettings=true',
      { query: { name: 'Q', difficulty: 'Heroic', allSettings: true } },
      ['Q|Heroic|casual', 'Q|Heroic|elite', 'Q|Heroic|reaper', 'Q|Heroic|unknown'],
    ],
    [
      'query: setting=*',
      { query: { name: 'Q', difficulty: 'Heroic', setting: '*' } },
      ['Q|Heroic|casual', 'Q|Heroic|elite', 'Q|Heroic|reaper', 'Q|Heroic|unknown'],
    ],
    [
      'body wins over the query',
      { body: { name: 'Q', difficulty: 'Heroic', setting: 'casual' }, query: { setting: 'reaper' } },
      ['Q|Heroic|casual'],
    ],
    [
      'the query fills what the body lacks',
      { body: { difficulty: 'Heroic' }, query: { name: 'Q', setting: 'reaper' } },
      ['Q|Heroic|reaper'],
    ],
    ['name in any case', { body: { name: 'q', difficulty: 'heroic' } }, ['Q|Heroic|elite']],
    ['nothing matches: deleted 0', { body: { name: 'Nope', difficulty: 'Heroic' } }, []],
  ]
  for (const [why, request, gone] of cases) {
    test(why, async () => {
      const t = await seeded()
      const answer = ok(await t.del(request))
      expect(answer.deleted).toBe(gone.length)
      // The answer names what went, whole (the restore tests below read the rest of it).
      expect(answer.removed.map((c) => `${c.name}|${c.difficulty}|${c.setting}`).sort()).toEqual([...gone].sort())
      expect(t.keys()).toEqual(without(...gone))
    })
  }

  test('no name: 400 and nothing removed; bad allSettings: 400', async () => {
    const t = await seeded()
    refused(await t.del({ body: { difficulty: 'Heroic', allSettings: true } }), 400)
    refused(await t.del({}), 400)
    refused(await t.del({ query: { name: 'Q', allSettings: 'perhaps' } }), 400)
    // Raw: allSettings is a boolean or a string in the types.
    const mistyped = await t.json('DELETE', t.path, { token: t.token, body: { name: 'Q', allSettings: 5 } })
    expect(mistyped.status).toBe(400)
    expect(t.keys()).toEqual(all)
  })

  test('delete then post again creates (201)', async () => {
    const t = await seeded()
    await t.del({ body: { name: 'Other', difficulty: 'Heroic' } })
    ok(await t.post({ name: 'Other', difficulty: 'Heroic' }), 201)
    const row = t.db
      .select()
      .from(completions)
      .where(and(eq(completions.name, 'Other'), eq(completions.setting, 'elite')))
      .get()
    expect(row?.runs).toBe(1)
  })
})
