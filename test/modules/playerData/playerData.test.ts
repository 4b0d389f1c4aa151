// A player's data out and in, over the website's API: completions as CSV, the same CSV back in
// (preview first, nothing written until confirmed, nothing doubled, nothing stored overwritten),
// and the whole account as one JSON file. Another account's character is 404 everywhere.
import { beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { completions } from '../../../src/db/schema'
import { syncCatalog } from '../../../src/modules/catalog/sync'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../../../src/modules/completions/limits'
import { SMALL_JSON, syncDeps } from '../../catalogFixtures'
import { type Client, ok, refused, type TestApp, testApp } from '../../helpers'

let t: TestApp
let web: Client
let hero: number
let other: number

beforeEach(async () => {
  t = testApp()
  await syncCatalog(syncDeps(t), SMALL_JSON)
  await t.userWithToken('alice')
  web = t.web(await t.signIn('alice'))
  hero = ok(await web.characters.post({ givenName: 'Tordek' }), 201).id
  other = ok(await web.characters.post({ givenName: 'Vesna' }), 201).id
})

const stored = (id: number) =>
  t.db
    .select()
    .from(completions)
    .where(eq(completions.characterId, id))
    .all()
    .map(({ name, difficulty, setting, completedAt, durationSeconds, xpEarned }) => ({
      name,
      difficulty,
      setting,
      completedAt,
      durationSeconds,
      xpEarned,
    }))
    .sort((a, b) => `${a.name}${a.difficulty}${a.setting}`.localeCompare(`${b.name}${b.difficulty}${b.setting}`))

const HEADER = 'name,difficulty,setting,completedAt,durationSeconds,xpEarned,reaperSkulls,reaperXpEarned,runs'

describe('GET /api/characters/{id}/completions/csv', () => {
  test('every completion, most recent first, with the nine columns; a download named after the character', async () => {
    const me = web.characters({ id: hero })
    ok(
      await me.completions.post({
        name: 'Crypt',
        difficulty: 'Epic',
        setting: 'elite',
        completedAt: '2026-11-20T20:00:00.000Z',
        durationSeconds: 1200,
        xpEarned: 45000,
      }),
      201,
    )
    ok(await me.completions.post({ name: 'Sewer Run', setting: 'hard', completedAt: '2026-11-21T09:30:00.000Z' }), 201)
    const answer = await me.completions.csv.get()
    expect(answer.status).toBe(200)
    expect(answer.response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(answer.response.headers.get('content-disposition')).toBe('attachment; filename="Tordek completions.csv"')
    expect(answer.data).toBe(
      `${HEADER}\r\nSewer Run,Unknown,hard,2026-11-21T09:30:00.000Z,,,,,1\r\nCrypt,Epic,elite,2026-11-20T20:00:00.000Z,1200,45000,,,1\r\n`,
    )
  })

  test('a quest run three times says 3 runs, with its reaper XP; read back into another character, the same', async () => {
    const me = web.characters({ id: hero })
    for (const [i, at] of [
      '2026-11-20T18:00:00.000Z',
      '2026-11-20T19:00:00.000Z',
      '2026-11-20T20:00:00.000Z',
    ].entries()) {
      ok(
        await me.completions.post({
          name: 'Bell Tower',
          difficulty: 'Heroic',
          setting: 'reaper',
          completedAt: at,
          durationSeconds: 600 + i,
          xpEarned: 1500,
          reaperXpEarned: 40 + i,
        }),
        i === 0 ? 201 : 200,
      )
    }
    const csv = ok(await me.completions.csv.get())
    expect(csv).toBe(`${HEADER}\r\nBell Tower,Heroic,reaper,2026-11-20T20:00:00.000Z,602,1500,,42,3\r\n`)
    ok(await web.characters({ id: other }).completions.import.post({ csv, confirm: true }))
    const back = t.db.select().from(completions).where(eq(completions.characterId, other)).all()
    expect(
      back.map(({ name, setting, runs, xpEarned, reaperXpEarned, durationSeconds }) => ({
        name,
        setting,
        runs,
        xpEarned,
        reaperXpEarned,
        durationSeconds,
      })),
    ).toEqual([
      { name: 'Bell Tower', setting: 'reaper', runs: 3, xpEarned: 1500, reaperXpEarned: 42, durationSeconds: 602 },
    ])
  })

  test('runs and reaperXpEarned that are not whole numbers in range: the line is listed, not read', async () => {
    const lines = [
      HEADER,
      'Bell Tower,Heroic,elite,,,,,,0',
      'Bell Tower,Heroic,hard,,,,,,many',
      'Bell Tower,Heroic,normal,,,,,-5,',
      'Bell Tower,Heroic,casual,,,,,,2',
    ].join('\n')
    const preview = ok(await web.characters({ id: hero }).completions.import.post({ csv: lines }))
    expect(preview.invalid.map((line) => line.source)).toEqual(['line 2', 'line 3', 'line 4'])
    expect(preview.add.map((c) => c.setting)).toEqual(['casual'])
  })

  test("another account's character, or none: 404", async () => {
    await t.userWithToken('mallory')
    const mallory = t.web(await t.signIn('mallory'))
    refused(await mallory.characters({ id: hero }).completions.csv.get(), 404)
    refused(await web.characters({ id: 999 }).completions.csv.get(), 404)
  })
})

describe('POST /api/characters/{id}/completions/import', () => {
  const FILE = [
    // the header in another order, with a column the import does not know
    'setting,name,notes,difficulty,completedAt,durationSeconds,xpEarned',
    'elite,Crypt,,Epic,2026-11-01T10:00:00Z,900,40000', // exact, tier given
    'hard,the hidden crypt,,,,,', // another spelling; one tier
    'elite,Shadow Gate,,,,,', // three tiers, nothing to choose by
    'normal,Sleeping with the Fishes,,,,,', // not in the catalog
    'elite,Bell Tower,,,yesterday,,', // a bad timestamp
    'elite,Crypt,,Epic,2026-11-02T10:00:00Z,,', // the same completion again
    'casual,Sewer Run,,,,,', // stored already (below)
  ].join('\n')

  test('a preview says what would happen, and writes nothing', async () => {
    const me = web.characters({ id: hero })
    ok(await me.completions.post({ name: 'Sewer Run', setting: 'casual', xpEarned: 700 }), 201)
    const before = stored(hero)
    const preview = ok(await me.completions.import.post({ csv: FILE }))
    expect(preview).toEqual({
      confirmed: false,
      total: 6,
      add: [
        { source: 'line 2', given: 'Crypt', name: 'Crypt', difficulty: 'Epic', setting: 'elite', how: 'exact' },
        {
          source: 'line 3',
          given: 'the hidden crypt',
          name: 'The Hidden Crypt',
          difficulty: 'Heroic',
          setting: 'hard',
          how: 'spelling',
        },
      ],
      stored: [
        { source: 'line 7', given: 'Crypt', name: 'Crypt', difficulty: 'Epic', setting: 'elite', how: 'exact' },
        {
          source: 'line 8',
          given: 'Sewer Run',
          name: 'Sewer Run',
          difficulty: 'Heroic',
          setting: 'casual',
          how: 'exact',
        },
      ],
      ambiguous: [
        {
          source: 'line 4',
          name: 'Shadow Gate',
          setting: 'elite',
          candidates: [
            { name: 'Shadow Gate', difficulty: 'Heroic', level: 18 },
            { name: 'Shadow Gate', difficulty: 'Epic', level: 24 },
            { name: 'Shadow Gate', difficulty: 'Legendary', level: 32 },
          ],
        },
      ],
      unmatched: [{ source: 'line 5', name: 'Sleeping with the Fishes', setting: 'normal', suggestions: [] }],
      invalid: [{ source: 'line 6', error: 'CompletedAt "yesterday" is not an ISO 8601 timestamp.' }],
    })
    expect(stored(hero)).toEqual(before)
  })

  test('a name the catalog lacks comes with the nearest names it has: did you mean', async () => {
    const csv = ['name,setting', 'Bell Towr,elite', 'Deleras Rests,hard', 'Sleeping with the Fishes,elite'].join('\n')
    const preview = ok(await web.characters({ id: hero }).completions.import.post({ csv }))
    expect(preview.unmatched).toEqual([
      { source: 'line 2', name: 'Bell Towr', setting: 'elite', suggestions: ['Bell Tower'] },
      { source: 'line 3', name: 'Deleras Rests', setting: 'hard', suggestions: ["Delera's Rest"] },
      { source: 'line 4', name: 'Sleeping with the Fishes', setting: 'elite', suggestions: [] },
    ])
  })

  test('confirmed, it adds what the preview said, keeps what was stored, and a second import adds nothing', async () => {
    const me = web.characters({ id: hero })
    ok(await me.completions.post({ name: 'Sewer Run', setting: 'casual', xpEarned: 700 }), 201)
    const written = ok(await me.completions.import.post({ csv: FILE, confirm: true }))
    expect(written.confirmed).toBe(true)
    expect(written.add.map((c) => c.source)).toEqual(['line 2', 'line 3'])
    expect(stored(hero)).toEqual([
      {
        name: 'Crypt',
        difficulty: 'Epic',
        setting: 'elite',
        completedAt: '2026-11-01T10:00:00.000Z',
        durationSeconds: 900,
        xpEarned: 40000,
      },
      // the game's own record (logged without a tier: it counts for every tier) is not
      // overwritten or doubled by the file's line 8
      {
        name: 'Sewer Run',
        difficulty: 'Unknown',
        setting: 'casual',
        completedAt: '2026-11-21T12:00:00.000Z',
        durationSeconds: null,
        xpEarned: 700,
      },
      {
        name: 'The Hidden Crypt',
        difficulty: 'Heroic',
        setting: 'hard',
        completedAt: '2026-11-21T12:00:00.000Z',
        durationSeconds: null,
        xpEarned: null,
      },
    ])
    const after = stored(hero)
    const again = ok(await me.completions.import.post({ csv: FILE, confirm: true }))
    expect(again.add).toEqual([])
    expect(again.stored.map((c) => c.source)).toEqual(['line 2', 'line 3', 'line 7', 'line 8'])
    expect(stored(hero)).toEqual(after)
  })

  test("the player's choices decide the ambiguous; keepUnmatched stores the others as written", async () => {
    const me = web.characters({ id: hero })
    const written = ok(
      await me.completions.import.post({
        csv: FILE,
        confirm: true,
        choices: [{ source: 'line 4', name: 'Shadow Gate', difficulty: 'Epic' }],
        keepUnmatched: true,
      }),
    )
    expect(written.ambiguous).toEqual([])
    expect(written.unmatched).toEqual([])
    expect(written.add.map((c) => [c.source, c.name, c.difficulty, c.how])).toEqual([
      ['line 2', 'Crypt', 'Epic', 'exact'],
      ['line 3', 'The Hidden Crypt', 'Heroic', 'spelling'],
      ['line 4', 'Shadow Gate', 'Epic', 'chosen'],
      ['line 5', 'Sleeping with the Fishes', 'Unknown', 'kept'],
      ['line 8', 'Sewer Run', 'Heroic', 'exact'],
    ])
    expect(stored(hero).map((c) => `${c.name}/${c.difficulty}/${c.setting}`)).toEqual([
      'Crypt/Epic/elite',
      'Sewer Run/Heroic/casual',
      'Shadow Gate/Epic/elite',
      'Sleeping with the Fishes/Unknown/normal',
      'The Hidden Crypt/Heroic/hard',
    ])
  })

  test('what one character exports, another imports as it was', async () => {
    const me = web.characters({ id: hero })
    ok(
      await me.completions.post({
        name: 'Crypt',
        difficulty: 'Legendary',
        setting: 'reaper',
        completedAt: '2026-10-01T01:02:03.000Z',
        durationSeconds: 3000,
        xpEarned: 250000,
      }),
      201,
    )
    ok(await me.completions.post({ name: "Delera's Rest", difficulty: 'Epic', setting: 'normal' }), 201)
    ok(await me.completions.post({ name: 'Bell Tower', setting: 'unknown', durationSeconds: 60 }), 201)
    const csv = ok(await me.completions.csv.get())
    const written = ok(await web.characters({ id: other }).completions.import.post({ csv, confirm: true }))
    expect(written.add).toHaveLength(3)
    expect(stored(other)).toEqual(stored(hero))
  })

  test.each([
    ['"open,quote\n', 'The CSV file is not valid at line 2, column 1: a quoted field is not closed.'],
    ['quest,setting\nCrypt,elite\n', 'The CSV file\'s first line must name its columns, with a "name" column'],
  ])('a file the import cannot read is a 400 that says where, and nothing is written: %j', async (csv, error) => {
    const answer = refused(await web.characters({ id: hero }).completions.import.post({ csv, confirm: true }), 400)
    expect(answer.error).toStartWith(error)
    expect(stored(hero)).toEqual([])
  })

  test(`past ${MAX_COMPLETIONS_PER_CHARACTER} completions: 409, and nothing is written`, async () => {
    const now = '2026-11-21T12:00:00.000Z'
    t.db
      .insert(completions)
      .values(
        Array.from({ length: MAX_COMPLETIONS_PER_CHARACTER - 1 }, (_, i) => ({
          characterId: hero,
          name: `Quest ${i}`,
          difficulty: 'Unknown' as const,
          setting: 'elite' as const,
          completedAt: now,
          updatedAt: now,
        })),
      )
      .run()
    const refusedAnswer = refused(
      await web.characters({ id: hero }).completions.import.post({ csv: FILE, confirm: true }),
      409,
    )
    expect(refusedAnswer.error).toBe(
      `This import would add 3 completions to the ${MAX_COMPLETIONS_PER_CHARACTER - 1} stored; a character may have at most ${MAX_COMPLETIONS_PER_CHARACTER}.`,
    )
    expect(stored(hero)).toHaveLength(MAX_COMPLETIONS_PER_CHARACTER - 1)
  })

  test("another account's character: 404, whatever the file", async () => {
    await t.userWithToken('mallory')
    const mallory = t.web(await t.signIn('mallory'))
    refused(await mallory.characters({ id: hero }).completions.import.post({ csv: FILE }), 404)
    refused(await mallory.characters({ id: hero }).completions.import.post({ csv: FILE, confirm: true }), 404)
    expect(stored(hero)).toEqual([])
  })
})

describe('GET /api/account/export', () => {
  test("everything of the account, nothing of another's, and no secret", async () => {
    const me = web.characters({ id: hero })
    ok(await me.completions.post({ name: 'Crypt', difficulty: 'Heroic', setting: 'hard', xpEarned: 1000 }), 201)
    ok(await me.live.put({ life: { race: 'Dwarf' }, build: { level: 3, classes: ['Fighter', null, null] } }))
    ok(await me.build.put({ build: { notes: 'the plan' } }))
    ok(await me.lives.reincarnate.post({ name: 'Tordek II' }))
    ok(
      await web.routes.post({
        name: 'Crypt run',
        quests: [{ name: 'Crypt', difficulty: 'Heroic', setting: 'elite' }],
      }),
      201,
    )
    await t.userWithToken('bob')
    const bob = t.web(await t.signIn('bob'))
    ok(await bob.characters.post({ givenName: 'Bobbin' }), 201)

    const answer = await web.account.export.get()
    const data = ok(answer)
    expect(answer.response.headers.get('content-disposition')).toBe('attachment; filename="alice 2026-11-21.json"')
    expect(data.account).toEqual({ username: 'alice', email: null, displayName: 'alice' })
    expect(data.characters.map((c) => c.name)).toEqual(['Tordek', 'Vesna'])
    const tordek = data.characters[0]
    expect(tordek?.completions).toEqual([
      {
        name: 'Crypt',
        difficulty: 'Heroic',
        setting: 'hard',
        completedAt: '2026-11-21T12:00:00.000Z',
        durationSeconds: null,
        xpEarned: 1000,
        reaperXpEarned: null,
        reaperSkulls: null,
        // Logged before the reincarnation: the first life's, with its one run.
        lifeIndex: 1,
        runs: 1,
        runList: [
          {
            completedAt: '2026-11-21T12:00:00.000Z',
            durationSeconds: null,
            xpEarned: 1000,
            reaperXpEarned: null,
            reaperSkulls: null,
          },
        ],
      },
    ])
    expect(tordek?.live).toMatchObject({ life: { race: 'Dwarf' }, build: { level: 3 } })
    expect(tordek?.planned).toMatchObject({ build: { notes: 'the plan' } })
    expect(tordek?.lives.map((l) => [l.lifeIndex, l.name, l.isCurrent])).toEqual([
      [1, 'Tordek', false],
      [2, 'Tordek II', true],
    ])
    expect(data.routes.map((r) => [r.name, r.quests.length])).toEqual([['Crypt run', 1]])
    const text = JSON.stringify(data)
    expect(text).not.toContain('Bobbin')
    expect(text).not.toMatch(/shareToken|shareUrl|password|qt_|qs_/)
  })

  test('needs a session', async () => {
    refused(await t.api.account.export.get(), 401)
  })
})

describe('reaper skulls in the completions CSV (issue 41 section 3)', () => {
  test('the export writes a reaper completion’s count; the import reads it from its column or from R5', async () => {
    const me = web.characters({ id: hero })
    ok(
      await me.completions.post({
        name: 'Crypt',
        difficulty: 'Epic',
        setting: 'R7',
        completedAt: '2026-11-20T20:00:00Z',
      }),
      201,
    )
    const answer = await me.completions.csv.get()
    expect(answer.data).toBe(`${HEADER}\r\nCrypt,Epic,reaper,2026-11-20T20:00:00.000Z,,,7,,1\r\n`)
    const file = [
      'name,difficulty,setting,reaperSkulls',
      'Crypt,Heroic,reaper,3',
      'Sewer Run,,R5,',
      'The Hidden Crypt,,elite,4', // a count on another setting: ignored
      'Bell Tower,,reaper,11', // out of range: unreadable
    ].join('\n')
    const written = ok(await me.completions.import.post({ csv: file, confirm: true }))
    expect(written.add.map((a) => `${a.name}|${a.setting}`)).toEqual([
      'Crypt|reaper',
      'Sewer Run|reaper',
      'The Hidden Crypt|elite',
    ])
    expect(written.invalid).toEqual([{ source: 'line 5', error: 'ReaperSkulls must be a whole number from 1 to 10.' }])
    const rows = t.db.select().from(completions).where(eq(completions.characterId, hero)).all()
    const skulls = Object.fromEntries(rows.map((c) => [`${c.name}|${c.difficulty}`, c.reaperSkulls]))
    expect(skulls).toEqual({
      'Crypt|Epic': 7,
      'Crypt|Heroic': 3,
      'Sewer Run|Heroic': 5,
      'The Hidden Crypt|Heroic': null,
    })
  })
})
