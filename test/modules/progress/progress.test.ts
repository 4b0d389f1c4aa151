// Progress over HTTP: every field of the payload, PUT partial updates, completion replacement
// through the same normaliser, and validation.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters, completions } from '../../../src/db/schema'
import { loadCatalog, readCatalog, SMALL_CATALOG } from '../../catalogFixture'
import { type Client, insertCharacter, ok, refused, testApp } from '../../helpers'

type Character = ReturnType<Client['plugin']['characters']>
/** The body of PUT progress, as the route's types take it. */
type ProgressPut = Parameters<Character['progress']['put']>[0]

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice', {
    givenName: 'Tordek',
    surname: 'Stonefist',
    classes: [{ name: 'Fighter', levels: 10 }],
  })
  const path = `/api/plugin/characters/${character.id}/progress`
  const me = t.plugin(token).characters({ id: character.id })
  const get = async () => ok(await me.progress.get())
  const put = (body: ProgressPut) => me.progress.put(body)
  const post = (body: Parameters<Character['completions']['post']>[0]) => me.completions.post(body)
  const row = () => t.db.select().from(characters).where(eq(characters.id, character.id)).get()
  const stored = () =>
    t.db
      .select()
      .from(completions)
      .where(eq(completions.characterId, character.id))
      .all()
      .map((r) => `${r.name}|${r.difficulty}|${r.setting}`)
      .sort()
  return { ...t, token, character, path, me, get, put, post, row, stored }
}

describe('GET progress', () => {
  test('a fresh character: every field with its default', async () => {
    const t = await setup()
    expect(await t.get()).toEqual({
      character: { id: t.character.id, name: 'Tordek Stonefist', targetDifficulty: 'any' },
      minLevel: 7,
      characterLevel: 10,
      levelFrom: 7,
      levelTo: 12,
      targetDifficulty: 'any',
      levelBand: 0,
      levelsBelow: null,
      levelsAbove: null,
      excludedPatrons: [],
      versionFilter: { heroic: 'any', epic: 'any', legendary: 'any' },
      xpBoosts: {},
      optionalPursuit: {},
      packState: {},
      questNotes: {},
      completions: [],
      completedQuests: [],
      life: { index: 1, current: true, count: 1, questLife: 1, questLives: [1] },
    })
  })

  test('completions in stored form (most recent first) and completedQuests as distinct sorted names', async () => {
    const t = await setup()
    await t.post({ name: 'B Quest', difficulty: 'Heroic', setting: 'elite', xpEarned: 100 })
    t.clock.advance(1000)
    await t.post({ name: 'A Quest', difficulty: 'Epic', setting: 'reaper', rxp: 5 })
    t.clock.advance(1000)
    await t.post({ name: 'B Quest', difficulty: 'Heroic', setting: 'hard' })
    const body = await t.get()
    expect(body.completions).toEqual([
      {
        name: 'B Quest',
        difficulty: 'Heroic',
        setting: 'hard',
        completedAt: '2026-11-21T12:00:02.000Z',
        durationSeconds: null,
        xpEarned: null,
        reaperXpEarned: null,
        reaperSkulls: null,
      },
      {
        name: 'A Quest',
        difficulty: 'Epic',
        setting: 'reaper',
        completedAt: '2026-11-21T12:00:01.000Z',
        durationSeconds: null,
        xpEarned: null,
        reaperXpEarned: 5,
        reaperSkulls: null,
      },
      {
        name: 'B Quest',
        difficulty: 'Heroic',
        setting: 'elite',
        completedAt: '2026-11-21T12:00:00.000Z',
        durationSeconds: null,
        xpEarned: 100,
        reaperXpEarned: null,
        reaperSkulls: null,
      },
    ])
    expect(body.completedQuests).toEqual(['A Quest', 'B Quest'])
  })
})

describe('PUT progress', () => {
  test('only the fields sent change', async () => {
    const t = await setup()
    await t.post({ name: 'Kept' })
    const first = ok(await t.put({ targetDifficulty: 'hard', xpBoosts: { vip: true, tome: 2 } }))
    expect(first).toMatchObject({ targetDifficulty: 'hard', minLevel: 8, xpBoosts: { vip: true, tome: 2 } })
    expect(first.character.targetDifficulty).toBe('hard')
    const second = ok(await t.put({ levelBand: 255, questNotes: { 'The Pit': 'bring a rogue' } }))
    expect(second).toMatchObject({
      targetDifficulty: 'hard',
      levelBand: 255,
      xpBoosts: { vip: true, tome: 2 },
      questNotes: { 'The Pit': 'bring a rogue' },
    })
    expect(second.completedQuests).toEqual(['Kept'])
    expect(t.row()).toMatchObject({
      targetDifficulty: 'hard',
      levelBand: 255,
      xpBoosts: { vip: true, tome: 2 },
      questNotes: { 'The Pit': 'bring a rogue' },
    })
    expect(t.stored()).toEqual(['Kept|Unknown|elite'])
  })

  test('every other field is stored and returned', async () => {
    const t = await setup()
    const body: ProgressPut = {
      targetDifficulty: 'reaper',
      levelBand: 0,
      characterLevel: 25,
      excludedPatrons: ['The Twelve', 'The Harpers'],
      versionFilter: { heroic: 'no', epic: 'yes' },
      optionalPursuit: { conquest: true, ransack: false },
      packState: { 'Devil Battlefield': { owned: true } },
    }
    expect(ok(await t.put(body))).toMatchObject({
      targetDifficulty: 'reaper',
      characterLevel: 25,
      minLevel: 22,
      excludedPatrons: ['The Twelve', 'The Harpers'],
      versionFilter: { heroic: 'no', epic: 'yes', legendary: 'any' },
      optionalPursuit: { conquest: true, ransack: false },
      packState: { 'Devil Battlefield': { owned: true } },
    })
    expect(t.row()).toMatchObject({
      characterLevelOverride: 25,
      versionFilter: { heroic: 'no', epic: 'yes', legendary: 'any' },
    })
    // The character's own profile level is unchanged; its minLevel follows the tracker level.
    expect(ok(await t.me.get())).toMatchObject({ totalLevel: 10, minLevel: 22, targetDifficulty: 'reaper' })
    // characterLevel null goes back to the derived level.
    const back = ok(await t.put({ characterLevel: null }))
    expect(back.characterLevel).toBe(10)
    expect(t.row()?.characterLevelOverride).toBeNull()
  })

  test('completions replace the whole set, each item through the normaliser and catalog spelling', async () => {
    const t = await setup()
    loadCatalog(t.db, readCatalog(SMALL_CATALOG))
    await t.post({ name: 'Gone', difficulty: 'Heroic' })
    const replaced = ok(
      await t.put({
        completions: [
          { name: 'the pit', difficulty: 'heroic' },
          { name: 'The Pit', difficulty: 'reaper', xp: 10 },
          { name: 'New', difficulty: 'junk', challenge_setting: 'Normal', rxp: 3 },
          { name: 'New', difficulty: 'Mythic', setting: 'normal', xpEarned: 9 },
        ],
      }),
    )
    expect(t.stored()).toEqual(['New|Unknown|normal', 'The Pit|Heroic|elite', 'The Pit|Unknown|reaper'])
    // The duplicate triple kept the earlier reaperXp (omitted later) and took the later XP.
    const newRow = t.db.select().from(completions).where(eq(completions.name, 'New')).get()
    expect(newRow).toMatchObject({ xpEarned: 9, reaperXpEarned: 3 })
    expect(replaced.completedQuests).toEqual(['New', 'The Pit'])
    const empty = ok(await t.put({ completions: [] }))
    expect(empty.completions).toEqual([])
    expect(t.stored()).toEqual([])
  })

  // Values of the right type that the schema's bounds or the service refuse: typed.
  const outOfRange: [string, ProgressPut, RegExp][] = [
    ['levelBand out of range', { levelBand: 256 }, /levelBand/],
    ['characterLevel 35', { characterLevel: 35 }, /characterLevel/],
    // The free-form objects are loose in the types: the service checks they are objects.
    ['xpBoosts an array', { xpBoosts: [1, 2] }, /xpBoosts/],
    ['optionalPursuit a string', { optionalPursuit: 'yes' }, /optionalPursuit/],
    ['questNotes a number', { questNotes: 3 }, /questNotes/],
    [
      'a completion with a bad completedAt',
      { completions: [{ name: 'x', completedAt: 'soon' }] },
      /completions\.0\.completedAt/,
    ],
  ]
  for (const [why, body, field] of outOfRange) {
    test(`400: ${why}; nothing changes`, async () => {
      const t = await setup()
      await t.post({ name: 'Kept' })
      const before = t.row()
      expect(refused(await t.put({ levelBand: 255, ...body }), 400).error).toMatch(field)
      expect(t.row()).toEqual(before)
      expect(t.stored()).toEqual(['Kept|Unknown|elite'])
    })
  }

  // Values of a type the types forbid: raw.
  const mistyped: [string, unknown, RegExp][] = [
    ['targetDifficulty outside the enum', { targetDifficulty: 'Epic' }, /targetDifficulty/],
    ['targetDifficulty in the wrong case', { targetDifficulty: 'Hard' }, /targetDifficulty/],
    ['levelBand not an integer', { levelBand: 'full' }, /levelBand/],
    ['versionFilter not an object', { versionFilter: 5 }, /versionFilter/],
    ['versionFilter value outside the enum', { versionFilter: { heroic: 'maybe' } }, /versionFilter\.heroic/],
    ['excludedPatrons not an array', { excludedPatrons: 'The Twelve' }, /excludedPatrons/],
    ['packState null', { packState: null }, /packState/],
    ['completions not an array', { completions: { name: 'x' } }, /completions/],
    [
      'a completion without a name',
      { completions: [{ name: 'ok' }, { difficulty: 'Heroic' }] },
      /completions\.1\.name/,
    ],
  ]
  for (const [why, body, field] of mistyped) {
    test(`400: ${why}; nothing changes`, async () => {
      const t = await setup()
      await t.post({ name: 'Kept' })
      const before = t.row()
      const res = await t.json<{ error: string }>('PUT', t.path, {
        token: t.token,
        body: { levelBand: 255, ...(body as object) },
      })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(field)
      expect(t.row()).toEqual(before)
      expect(t.stored()).toEqual(['Kept|Unknown|elite'])
    })
  }
})
