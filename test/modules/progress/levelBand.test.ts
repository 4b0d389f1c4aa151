// The level band over the API (issue 42, section 3): a level 7 character's progress says its band
// (quests 4 to 9, not 10 to 34), the tracker's filter over it leaves the Legendary raids out of an
// XP sort, "what to run next" keeps to it, a player's range moves it (and follows the character's
// level), and `levelBand` 0 and 255 mean what the contract says for a game client that sends them.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters } from '../../../src/db/schema'
import type { PlayOn } from '../../../src/rules/character/levels'
import { DEFAULT_LEVELS_ABOVE, FIRST_EPIC_LEVEL } from '../../../src/rules/quests/levelBand'
import { filterRows, indexCompletions, type TrackerFilters } from '../../../src/rules/quests/tracker'
import { rowXp } from '../../../src/rules/quests/xp'
import { loadCatalog, type QuestRow, withFacts } from '../../catalogFixture'
import { insertCharacter, ok, refused, testApp } from '../../helpers'

/** One quest a level and tier, its XP growing with the level, and a Legendary raid at 34 worth the most. */
function ladder(): QuestRow[] {
  const rung = (difficulty: QuestRow['difficulty'], level: number, extra: Partial<QuestRow> = {}) =>
    withFacts({
      name: `${difficulty} ${level}`,
      difficulty,
      level,
      soloXP: level * 100,
      normalXP: level * 180,
      hardXP: level * 190,
      eliteXP: level * 200,
      duration: 'Medium',
      pack: 'Free to Play',
      patron: 'The Coin Lords',
      favor: 3,
      ...extra,
    })
  const rows = [
    ...Array.from({ length: 20 }, (_, i) => rung('Heroic', i + 1)),
    ...Array.from({ length: 10 }, (_, i) => rung('Epic', i + 20)),
    ...Array.from({ length: 5 }, (_, i) => rung('Legendary', i + 30)),
    rung('Legendary', 34, { name: 'Legendary raid', groupSize: 'Raid', eliteXP: 900_000, normalXP: 800_000 }),
  ]
  return rows
}

async function setup() {
  const t = testApp()
  const rows = ladder()
  loadCatalog(t.db, rows)
  const token = await t.userWithToken('alice')
  const hero = insertCharacter(t.db, 'alice', { givenName: 'Seven', classes: [{ name: 'Fighter', levels: 7 }] })
  const me = t.plugin(token).characters({ id: hero.id })
  const progress = async () => ok(await me.progress.get())
  /** What the tracker shows of the catalog for a progress answer (its level filter read from the answer). */
  const shown = (p: Awaited<ReturnType<typeof progress>>) => {
    const filters: TrackerFilters = {
      levelBand: p.levelBand,
      levels: { from: p.levelFrom, to: p.levelTo, epicContent: p.characterLevel >= FIRST_EPIC_LEVEL },
      versionFilter: p.versionFilter,
      excludedPatrons: p.excludedPatrons,
      packState: p.packState,
      search: '',
      hideCompleted: false,
    }
    return filterRows(rows, filters, indexCompletions([]))
  }
  const stored = () => t.db.select().from(characters).where(eq(characters.id, hero.id)).get()
  return { ...t, rows, token, hero, me, progress, shown, stored }
}

describe('a level 7 character by default', () => {
  test('progress says quests 4 to 9; the tracker shows no level 10 to 34 quest and no raid first by XP', async () => {
    const t = await setup()
    const p = await t.progress()
    expect(p).toMatchObject({
      characterLevel: 7,
      targetDifficulty: 'any',
      levelBand: 0,
      minLevel: 4,
      levelFrom: 4,
      levelTo: 7 + DEFAULT_LEVELS_ABOVE,
      levelsBelow: null,
      levelsAbove: null,
    })
    const shown = t.shown(p)
    expect(shown.map((r) => r.name)).toEqual(['Heroic 4', 'Heroic 5', 'Heroic 6', 'Heroic 7', 'Heroic 8', 'Heroic 9'])
    expect(shown.filter((r) => r.level >= 10)).toEqual([])
    const byXp = [...shown].sort((a, b) => (rowXp(b, 'any') ?? 0) - (rowXp(a, 'any') ?? 0))
    expect(byXp[0]).toMatchObject({ name: 'Heroic 9', difficulty: 'Heroic' })
    // The character carries its range too.
    expect(ok(await t.me.get())).toMatchObject({ levelBand: 0, levelsBelow: null, levelsAbove: null })
  })

  test('what to run next keeps to the band and, with no top set, to the level: 4 to 7 (favor: 1 to 7)', async () => {
    const t = await setup()
    for (const by of ['xp', 'favor'] as const) {
      const next = ok(await t.me.next.get({ query: { by, limit: 50 } }))
      const levels = [...next.quests, ...next.raids].map((q) => q.level)
      expect(Math.max(...levels)).toBe(7)
      expect(Math.min(...levels)).toBe(by === 'xp' ? 4 : 1)
      expect(next.raids).toEqual([])
      if (by === 'xp') expect(next.quests[0]?.name).toBe('Heroic 7')
    }
  })

  test('levelBand 255 (any level) shows every row, the Legendary raid first by XP, as the contract says', async () => {
    const t = await setup()
    const p = ok(await t.me.progress.put({ levelBand: 255 }))
    expect(p).toMatchObject({ levelBand: 255, levelFrom: 4, levelTo: 9 })
    expect(t.shown(p)).toHaveLength(t.rows.length)
    const byXp = [...t.shown(p)].sort((a, b) => (rowXp(b, 'any') ?? 0) - (rowXp(a, 'any') ?? 0))
    expect(byXp[0]?.name).toBe('Legendary raid')
    // "What to run next" ranks inside the band whatever the tracker shows.
    const next = ok(await t.me.next.get({ query: { limit: 50 } }))
    expect(Math.max(...next.quests.map((q) => q.level))).toBe(7)
    // Back to 0: the band again.
    expect(t.shown(ok(await t.me.progress.put({ levelBand: 0 }))).map((r) => r.level)).toEqual([4, 5, 6, 7, 8, 9])
  })
})

describe("a player's range", () => {
  test('levelsBelow and levelsAbove move the band, and it follows the character as it levels', async () => {
    const t = await setup()
    const cookie = await t.signIn('alice')
    const web = t.web(cookie).characters({ id: t.hero.id })
    const p = ok(await web.progress.put({ levelBand: 0, levelsBelow: 5, levelsAbove: 4 }))
    expect(p).toMatchObject({ levelBand: 0, minLevel: 4, levelFrom: 2, levelTo: 11, levelsBelow: 5, levelsAbove: 4 })
    expect(t.shown(p).map((r) => r.level)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    expect(t.stored()).toMatchObject({ levelsBelow: 5, levelsAbove: 4 })
    // "What to run next" by XP reaches the top the player set, 11, but never ranks below the
    // Full XP minimum (4).
    const next = ok(await t.me.next.get({ query: { limit: 50 } }))
    expect([Math.min(...next.quests.map((q) => q.level)), Math.max(...next.quests.map((q) => q.level))]).toEqual([
      4, 11,
    ])
    // One end alone; the other keeps its value.
    expect(ok(await web.progress.put({ levelsAbove: null }))).toMatchObject({ levelFrom: 2, levelTo: 9 })
    ok(await web.progress.put({ levelsAbove: 4 }))
    // Fighter 8 now: the range moves with the level, Play on does not move a bottom the player set.
    ok(await t.me.patch({ classes: [{ name: 'Fighter', levels: 8 }] }))
    ok(await web.progress.put({ targetDifficulty: 'normal' }))
    expect(await t.progress()).toMatchObject({ characterLevel: 8, minLevel: 7, levelFrom: 3, levelTo: 12 })
  })

  test('a game client sending levelBand alone gets what the contract says: 0 is the Full XP band, 255 any level', async () => {
    const t = await setup()
    ok(await t.me.progress.put({ levelBand: 0, levelsBelow: 5, levelsAbove: 4 }))
    // A game client's filters, as it sends them: the range goes, 0 is the Full XP band itself.
    const zero = ok(await t.me.progress.put({ targetDifficulty: 'elite', levelBand: 0, versionFilter: {} }))
    expect(zero).toMatchObject({ levelBand: 0, levelsBelow: null, levelsAbove: null, levelFrom: 4, levelTo: 9 })
    ok(await t.me.progress.put({ levelsAbove: 6 }))
    const any = ok(await t.me.progress.put({ levelBand: 255 }))
    expect(any).toMatchObject({ levelBand: 255, levelsBelow: null, levelsAbove: null })
    expect(t.shown(any)).toHaveLength(t.rows.length)
    // Any other field leaves the range alone.
    ok(await t.me.progress.put({ levelBand: 0, levelsAbove: 6 }))
    expect(ok(await t.me.progress.put({ targetDifficulty: 'hard' }))).toMatchObject({ levelsAbove: 6, levelTo: 13 })
  })

  test.each([
    ['levelsAbove', -1],
    ['levelsAbove', 35],
    ['levelsBelow', -1],
    ['levelsBelow', 2.5],
    ['levelsBelow', 'three'],
  ] as const)('%s %p is refused with 400 and nothing is written', async (field, value) => {
    const t = await setup()
    ok(await t.me.progress.put({ levelsBelow: 2, levelsAbove: 3 }))
    const before = t.stored()
    const answer = await t.json('PUT', `/api/plugin/characters/${t.hero.id}/progress`, {
      token: t.token,
      body: { levelBand: 255, [field]: value },
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: expect.any(String) })
    expect(t.stored()).toEqual(before)
  })
})

describe('the band of every Play on at level 7', () => {
  const cases: [PlayOn, number][] = [
    ['any', 4],
    ['casual', 7],
    ['normal', 6],
    ['hard', 5],
    ['elite', 4],
    ['reaper', 4],
  ]
  test.each(cases)('%s: from %p to 9', async (targetDifficulty, from) => {
    const t = await setup()
    const p = ok(await t.me.progress.put({ targetDifficulty }))
    expect([p.levelFrom, p.levelTo]).toEqual([from, 9])
    expect(t.shown(p).every((r) => r.level >= from && r.level <= 9)).toBe(true)
  })
})

test('a bad range is refused on the website too', async () => {
  const t = await setup()
  const cookie = await t.signIn('alice')
  refused(await t.web(cookie).characters({ id: t.hero.id }).progress.put({ levelsAbove: 99 }), 400)
})
