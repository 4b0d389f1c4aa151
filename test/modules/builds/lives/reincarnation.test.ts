// Issue 38 part 1: a reincarnation says its kind (or the server infers it from what it grants).
// True reincarnations (heroic, racial, iconic) start a new quest life; epic and lesser ones keep
// the completions, favor and first-time bonuses of the one they are in, everywhere they are read:
// progress, the characters' count, /next, the navigation, the CSV. The profile follows the new
// life. Contradictory bodies are 400 and change nothing.
import { describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { completions, runs } from '../../../../src/db/schema'
import { loadCatalog } from '../../../catalogFixture'
import { readRows, SMALL_JSON } from '../../../catalogFixtures'
import { insertCharacter, ok, storedCharacter, storedLives, testApp } from '../../../helpers'

const DOUBLESTRIKE = { name: 'Past Life: Doublestrike', type: 'EpicPastLife' }

/** A level-30 Wizard (20 + 10 epic levels) with three quests done in life 1. */
async function setup(profile: { race?: string; classes?: { name: string; levels: number }[] } = {}) {
  const t = testApp()
  loadCatalog(t.db, await readRows(SMALL_JSON))
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice', {
    givenName: 'Mordo',
    race: profile.race ?? 'Human',
    alignment: 'True Neutral',
    classes: profile.classes ?? [{ name: 'Wizard', levels: 20 }],
    epicLevels: 10,
    targetDifficulty: 'elite',
  })
  const me = t.plugin(token).characters({ id: character.id })
  ok(await me.lives.get())
  for (const name of ['Bell Tower', "Delera's Rest", 'Crypt']) {
    t.clock.advance(60_000)
    ok(await me.completions.post({ name, difficulty: 'Heroic', setting: 'elite', durationSeconds: 600 }), 201)
  }
  t.clock.advance(60_000)
  return { ...t, token, character, me }
}

type Setup = Awaited<ReturnType<typeof setup>>

const doneNames = async ({ me }: Setup) => ok(await me.progress.get()).completions.map((c) => c.name)

describe('an epic reincarnation keeps the quest life (the issue)', () => {
  test('the new life starts with the completions of the finished one, in progress and the characters list', async () => {
    const t = await setup()
    const life = ok(await t.me.lives.reincarnate.post({ additionalPastLives: [DOUBLESTRIKE] }))
    expect(life).toMatchObject({ lifeIndex: 2, kind: 'epic', questLife: 1, isCurrent: true })
    const progress = ok(await t.me.progress.get())
    expect(progress.completions.map((c) => c.name)).toEqual(['Crypt', "Delera's Rest", 'Bell Tower'])
    expect(progress.completedQuests).toEqual(['Bell Tower', 'Crypt', "Delera's Rest"])
    expect(progress.life).toEqual({ index: 2, current: true, count: 2, questLife: 1, questLives: [1] })
    const listed = ok(await t.plugin(t.token).characters.get()).characters
    expect(listed.find((c) => c.id === t.character.id)?.questsDone).toBe(3)
  })

  test('a quest run again after it is the same completion (200, a second run), not a first time', async () => {
    const t = await setup()
    ok(await t.me.lives.reincarnate.post({ kind: 'epic', additionalPastLives: [DOUBLESTRIKE] }))
    t.clock.advance(60_000)
    ok(
      await t.me.completions.post({ name: 'Crypt', difficulty: 'Heroic', setting: 'elite', durationSeconds: 500 }),
      200,
    )
    const rows = t.db.select().from(completions).where(eq(completions.name, 'Crypt')).all()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ lifeIndex: 1, runs: 2 })
    expect(t.db.select().from(runs).where(eq(runs.completionId, rows[0]!.id)).all()).toHaveLength(2)
  })

  test('/next gives no first-time bonus for a quest done before it; the navigation and the CSV count it', async () => {
    const t = await setup()
    ok(await t.me.lives.reincarnate.post({ additionalPastLives: [DOUBLESTRIKE] }))
    // Level 20 now; the tracker's own level shows the heroic quests the test ranks.
    ok(await t.me.progress.put({ characterLevel: 9, levelBand: 255 }))
    const next = ok(await t.me.next.get())
    expect(next.life).toBe(1)
    expect(next.quests.find((q) => q.name === 'Crypt')?.firstTimeXp ?? 0).toBe(0)
    const route = ok(
      await t.plugin(t.token).routes.post({ name: 'R', quests: [{ name: 'Crypt', difficulty: 'Heroic' }] }),
      201,
    )
    const navigation = ok(
      await t.plugin(t.token).navigation.get({ query: { characterId: t.character.id, routeId: route.id } }),
    )
    expect(navigation.steps[0]?.completed).toBe(true)
    const cookie = await t.signIn('alice')
    const csv = await t.web(cookie).characters({ id: t.character.id }).completions.csv.get()
    expect(String(csv.data).split('\r\n').filter(Boolean)).toHaveLength(4)
  })

  test('the profile follows: level 30 back to 20, the classes kept; favor rewards carried', async () => {
    const t = await setup()
    ok(await t.me.live.partial.put({ pastLives: [], life: { specialFeats: [{ name: 'Favor: 400', type: 'Favor' }] } }))
    const life = ok(await t.me.lives.reincarnate.post({ kind: 'epic', additionalPastLives: [DOUBLESTRIKE] }))
    expect(life.classes).toEqual([{ name: 'Wizard', levels: 20 }])
    expect(life.specialFeats).toContainEqual({ name: 'Favor: 400', type: 'Favor', stacks: 1 })
    expect(ok(await t.me.get())).toMatchObject({ totalLevel: 20, epicLevels: 0, classSummary: 'Wizard 20' })
  })

  test('a run of the finished life that arrives late goes to the same quest life', async () => {
    const t = await setup()
    const late = new Date(t.clock.now().getTime() - 30_000).toISOString()
    t.clock.advance(60_000)
    ok(await t.me.lives.reincarnate.post({ additionalPastLives: [DOUBLESTRIKE] }))
    t.clock.advance(60_000)
    ok(await t.me.completions.post({ name: 'Sewer Run', setting: 'hard', completedAt: late }), 201)
    expect(await doneNames(t)).toContain('Sewer Run')
  })
})

describe('a lesser reincarnation keeps everything', () => {
  test('the completions, the level and the classes; no past life granted', async () => {
    const t = await setup()
    const life = ok(await t.me.lives.reincarnate.post({ kind: 'lesser' }))
    expect(life).toMatchObject({ lifeIndex: 2, kind: 'lesser', questLife: 1, specialFeats: [] })
    expect(await doneNames(t)).toHaveLength(3)
    expect(ok(await t.me.get())).toMatchObject({ totalLevel: 30, classSummary: 'Wizard 20' })
  })
})

describe('true reincarnations start over', () => {
  test('heroic by kind: grants the dominant class past life, a new quest life, no levels; the earlier ones on demand', async () => {
    const t = await setup()
    ok(await t.me.lives.reincarnate.post({ additionalPastLives: [DOUBLESTRIKE] }))
    const life = ok(await t.me.lives.reincarnate.post({ kind: 'heroic', race: 'Elf' }))
    expect(life).toMatchObject({ lifeIndex: 3, kind: 'heroic', questLife: 3, classes: [] })
    expect(life.specialFeats).toContainEqual({ name: 'Past Life: Wizard', type: 'HeroicPastLife', stacks: 1 })
    const progress = ok(await t.me.progress.get())
    expect(progress.completions).toEqual([])
    expect(progress.life).toEqual({ index: 3, current: true, count: 3, questLife: 3, questLives: [1, 3] })
    // Life 2 (the epic one) shows the quest life it was in: life 1's completions.
    const life2 = ok(await t.me.progress.get({ query: { life: 2 } }))
    expect(life2.life).toMatchObject({ index: 2, current: false, questLife: 1 })
    expect(life2.completions).toHaveLength(3)
    // The profile follows the new life: no class levels, its race.
    expect(ok(await t.me.get())).toMatchObject({ totalLevel: 0, classSummary: '', race: 'Elf', epicLevels: 0 })
    expect(storedCharacter(t.db, t.character.id).characterLevelOverride).toBeNull()
  })

  test('a body that says no kind and grants nothing is a true reincarnation, as before', async () => {
    const t = await setup()
    const life = ok(await t.me.lives.reincarnate.post({}))
    expect(life).toMatchObject({ kind: null, questLife: 2 })
    expect(await doneNames(t)).toEqual([])
  })

  test('inferred from the grants: racial, iconic (race and class of an iconic race)', async () => {
    const t = await setup()
    expect(ok(await t.me.lives.reincarnate.post({ grantRacial: true })).kind).toBe('racial')
    const iconic = await setup({ race: 'Bladeforged', classes: [{ name: 'Paladin', levels: 20 }] })
    const life = ok(await iconic.me.lives.reincarnate.post({ grantHeroic: true, grantRacial: true }))
    expect(life).toMatchObject({ kind: 'iconic', questLife: 2 })
    expect(life.specialFeats.map((f) => f.name)).toEqual(['Past Life: Paladin', 'Past Life: Bladeforged'])
    // kind iconic alone grants both.
    const again = await setup({ race: 'Bladeforged', classes: [{ name: 'Paladin', levels: 20 }] })
    const second = ok(await again.me.lives.reincarnate.post({ kind: 'iconic' }))
    expect(second.specialFeats.map((f) => f.name)).toEqual(['Past Life: Paladin', 'Past Life: Bladeforged'])
  })
})

describe('contradictory bodies are 400 and change nothing', () => {
  test.each<[string, Record<string, unknown>, RegExp]>([
    ['kind epic with a heroic grant', { kind: 'epic', grantHeroic: true }, /An epic reincarnation grants one epic/],
    ['a heroic and a racial past life at once', { grantHeroic: true, grantRacial: true }, /never two at once/],
    [
      'two epic past lives',
      { additionalPastLives: [DOUBLESTRIKE, { name: 'Past Life: Doubleshot', type: 'EpicPastLife' }] },
      /grants one epic past life; this one would grant 2/,
    ],
    ['an epic and a heroic past life', { grantHeroic: true, additionalPastLives: [DOUBLESTRIKE] }, /epic/],
    ['kind lesser with a grant', { kind: 'lesser', additionalPastLives: [DOUBLESTRIKE] }, /grants no past life/],
    ['kind racial with a heroic grant', { kind: 'racial', grantHeroic: true }, /never two at once/],
    [
      'kind heroic with a racial past life',
      { kind: 'heroic', grantHeroic: false, additionalPastLives: [{ name: 'Past Life: Elf', type: 'RacialPastLife' }] },
      /A heroic reincarnation grants the dominant class's heroic past life only/,
    ],
    ['kind iconic out of a race that is not iconic', { kind: 'iconic' }, /RacialPastLife/],
    ['a kind the game does not have', { kind: 'epicTrue' }, /"kind"/],
  ])('%s', async (_why, body, sentence) => {
    const t = await setup()
    const lives = storedLives(t.db, t.character.id)
    const profile = storedCharacter(t.db, t.character.id)
    const response = await t.json<{ error: string }>(
      'POST',
      `/api/plugin/characters/${t.character.id}/lives/reincarnate`,
      {
        token: t.token,
        body,
      },
    )
    expect(response.status).toBe(400)
    expect(response.body.error).toMatch(sentence)
    expect(storedLives(t.db, t.character.id)).toEqual(lives)
    expect(storedCharacter(t.db, t.character.id)).toEqual(profile)
    expect(await doneNames(t)).toHaveLength(3)
  })
})

describe('past lives at a glance: the next reincarnation follows the level', () => {
  test.each<[number, string[]]>([
    [7, []],
    [20, ['heroic', 'racial']],
    [30, ['heroic', 'racial', 'epic']],
  ])('level %d: allowed %j', async (level, allowed) => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const heroic = Math.min(level, 20)
    const character = insertCharacter(t.db, 'alice', {
      givenName: 'Lidda',
      race: 'Halfling',
      classes: [{ name: 'Rogue', levels: heroic }],
      epicLevels: level - heroic,
    })
    const glance = ok(await t.plugin(token).characters({ id: character.id })['past-lives'].get())
    expect(glance.nextReincarnation.level).toBe(level)
    expect(glance.nextReincarnation.options.map((o) => [o.kind, o.requiredLevel])).toEqual([
      ['heroic', 20],
      ['racial', 20],
      ['epic', 30],
    ])
    expect(glance.nextReincarnation.options.filter((o) => o.allowed).map((o): string => o.kind)).toEqual(allowed)
  })

  test('an iconic race: iconic at level 30', async () => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const character = insertCharacter(t.db, 'alice', {
      givenName: 'Vex',
      race: 'Bladeforged',
      classes: [{ name: 'Paladin', levels: 20 }],
    })
    const glance = ok(await t.plugin(token).characters({ id: character.id })['past-lives'].get())
    expect(glance.nextReincarnation.options.map((o) => [o.kind, o.requiredLevel, o.allowed])).toEqual([
      ['iconic', 30, false],
      ['epic', 30, false],
    ])
  })
})

test('the kinds are stored per life', async () => {
  const t = await setup()
  ok(await t.me.lives.reincarnate.post({ additionalPastLives: [DOUBLESTRIKE] }))
  ok(await t.me.lives.reincarnate.post({ kind: 'lesser' }))
  ok(await t.me.lives.reincarnate.post({ grantHeroic: true }))
  expect(storedLives(t.db, t.character.id).map((l) => [l.lifeIndex, l.kind, l.questLife])).toEqual([
    [1, null, 1],
    [2, 'epic', 1],
    [3, 'lesser', 1],
    [4, 'heroic', 4],
  ])
  expect(
    t.db
      .select({ life: completions.lifeIndex })
      .from(completions)
      .orderBy(asc(completions.id))
      .all()
      .map((r) => r.life),
  ).toEqual([1, 1, 1])
})
