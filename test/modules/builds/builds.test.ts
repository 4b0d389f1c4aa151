// Live snapshot and planned build over HTTP: every live/planned transition of plugin-api.md
// "States and transitions", checked in the response AND in the stored rows.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters } from '../../../src/db/schema'
import type { BuildDocument } from '../../../src/modules/builds/model'
import type { Breakdown } from '../../../src/rules/builds/breakdown'
import { dwarfFighter, humanSplit } from '../../fixtures/builds'
import { insertCharacter, ok, refused, storedBuild, storedCharacter, storedLives, testApp } from '../../helpers'

async function setup() {
  const h = testApp()
  const token = await h.userWithToken('alice')
  const character = insertCharacter(h.db, 'alice', { givenName: 'Tessa', race: 'Elf' })
  // `me`: the typed plugin API of this character; `base` for the requests the types would refuse.
  const me = h.plugin(token).characters({ id: character.id })
  return { ...h, token, character, me, base: `/api/plugin/characters/${character.id}` }
}

/** The typed plugin API of one character. */
type Me = Awaited<ReturnType<typeof setup>>['me']

/** What a typed call answers, as far as ok() and refused() read it. */
interface Answer {
  status: number
  data: unknown
  error: { status: unknown; value: unknown } | null
}

/** The planned breakdown an answer holds (the rules' Breakdown, stored as the server computed it). */
const breakdownOf = (view: { breakdownCache: unknown }) => view.breakdownCache as Breakdown

/** A stored document, read as the build document it is. */
const documentOf = (row: { document: unknown } | undefined) => row?.document as BuildDocument

const snapshot = {
  schemaVersion: 1,
  meta: { source: 'plugin', capturedAt: '2026-11-21T11:00:00.000Z', incomplete: ['spells'] },
  life: {
    name: 'Tessa Windleaf',
    race: 'Halfling',
    alignment: 'Chaotic Good',
    specialFeats: [{ name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 2 }],
  },
  tomes: { dex: 3 },
  build: {
    level: 7,
    classes: ['Rogue', 'Fighter', null],
    levels: [{ class: 'Rogue' }, { class: 'Fighter' }, ...Array.from({ length: 5 }, () => ({ class: 'Rogue' }))],
    stances: ['Sneak'],
  },
}

describe('live snapshot', () => {
  test('GET live before any snapshot: 404, and nothing is created', async () => {
    const { me, db, character } = await setup()
    const { error } = refused(await me.live.get(), 404)
    expect(error).toContain('no live snapshot')
    expect(storedBuild(db, character.id, 'live')).toBeUndefined()
  })

  test('none -> PUT live -> present, profile synced (classes, level, race, past lives)', async () => {
    const { me, db, character } = await setup()
    db.update(characters).set({ characterLevelOverride: 3 }).where(eq(characters.id, character.id)).run()
    const body = ok(await me.live.put(snapshot))
    expect(body.role).toBe('live')
    expect(body.document.build?.stances).toEqual(['Sneak'])
    expect(body.meta).toEqual(snapshot.meta)
    expect(body.updatedAt).toBe('2026-11-21T12:00:00.000Z')
    expect(body.life.lifeIndex).toBe(1)

    const row = storedBuild(db, character.id, 'live')!
    expect(row.document).toEqual({ ...snapshot, role: 'live' })
    expect(row.meta).toEqual(snapshot.meta)
    const synced = storedCharacter(db, character.id)
    expect(synced.classes).toEqual([
      { name: 'Rogue', levels: 6 },
      { name: 'Fighter', levels: 1 },
    ])
    expect(synced.epicLevels).toBe(0)
    expect(synced.characterLevelOverride).toBeNull()
    expect(synced.race).toBe('Halfling')
    expect(synced.givenName).toBe('Tessa')
    const [life] = storedLives(db, character.id)
    expect(life).toMatchObject({
      isCurrent: true,
      name: 'Tessa Windleaf',
      race: 'Halfling',
      alignment: 'Chaotic Good',
      classes: [
        { name: 'Rogue', levels: 6 },
        { name: 'Fighter', levels: 1 },
      ],
      specialFeats: [{ name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 2 }],
    })
    // The planned build is not touched.
    expect(storedBuild(db, character.id, 'planned')).toBeUndefined()

    expect(ok(await me.live.get())).toEqual(body)
  })

  test('present -> PUT live without merge -> replaced, profile synced', async () => {
    const { me, db, character, clock } = await setup()
    ok(await me.live.put(snapshot))
    clock.advance(60_000)
    const next = { life: { race: 'Human' }, build: { level: 25, classes: ['Fighter', null, null] } }
    const body = ok(await me.live.put(next))
    expect(body.document).toEqual({ ...next, role: 'live' })
    const row = storedBuild(db, character.id, 'live')!
    expect(row.document).toEqual({ ...next, role: 'live' })
    expect(row.document.tomes).toBeUndefined()
    expect(row.updatedAt).toBe('2026-11-21T12:01:00.000Z')
    const synced = storedCharacter(db, character.id)
    expect(synced.classes).toEqual([{ name: 'Fighter', levels: 20 }])
    expect(synced.epicLevels).toBe(5)
    expect(synced.race).toBe('Human')
    // No specialFeats in the new document: the life's past lives stay as they were.
    expect(storedLives(db, character.id)[0].specialFeats).toEqual([
      { name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 2 },
    ])
  })

  test('present -> PUT live?merge=1 -> merged (shallow per section), profile synced', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.put(snapshot))
    ok(
      await me.live.put(
        { tomes: { str: 1 }, build: { level: 8, levels: [...snapshot.build.levels, { class: 'Rogue' }] } },
        { query: { merge: '1' } },
      ),
    )
    const doc = documentOf(storedBuild(db, character.id, 'live'))
    expect(doc.tomes).toEqual({ dex: 3, str: 1 })
    expect(doc.build?.level).toBe(8)
    expect(doc.build?.classes).toEqual(['Rogue', 'Fighter', null])
    expect(doc.build?.stances).toEqual(['Sneak'])
    expect(doc.build?.levels).toHaveLength(8)
    expect(doc.life).toEqual(snapshot.life)
    expect(storedCharacter(db, character.id).classes).toEqual([
      { name: 'Rogue', levels: 7 },
      { name: 'Fighter', levels: 1 },
    ])
  })

  test('present -> PUT live with body merge: true and the {document} form -> merged; meta, incomplete, source kept', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.put(snapshot))
    const body = ok(
      await me.live.put({
        merge: true,
        document: { build: { notes: 'farming' } },
        meta: { capturedAt: '2026-11-21T11:30:00.000Z' },
        incomplete: [],
        source: 'plugin 2.1',
      }),
    )
    const row = storedBuild(db, character.id, 'live')!
    const doc = documentOf(row)
    expect(doc.build?.notes).toBe('farming')
    expect(doc.build?.stances).toEqual(['Sneak'])
    expect(row.document).not.toHaveProperty('merge')
    expect(row.meta).toEqual({ source: 'plugin 2.1', capturedAt: '2026-11-21T11:30:00.000Z', incomplete: [] })
    expect(body.meta).toEqual(row.meta)
  })

  test('?merge=0 replaces', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.put(snapshot))
    ok(await me.live.put({ tomes: { str: 1 } }, { query: { merge: '0' } }))
    expect(storedBuild(db, character.id, 'live')!.document).toEqual({ tomes: { str: 1 }, role: 'live' })
  })

  test('present -> PUT live/partial -> merged; pastLives and reaperPoints', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.put(snapshot))
    const body = ok(
      await me.live.partial.put({
        build: { notes: 'after patch' },
        pastLives: [
          { name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 3 },
          { name: 'Past Life: Halfling', type: 'RacialPastLife', stacks: 1 },
        ],
        reaperPoints: 12,
        meta: { incomplete: [] },
      }),
    )
    expect(body.document.build?.reaper).toEqual({ pointsAvailable: 12 })
    const row = storedBuild(db, character.id, 'live')!
    const doc = documentOf(row)
    expect(doc.build?.notes).toBe('after patch')
    expect(doc.build?.levels).toHaveLength(7)
    expect(doc.build?.reaper?.pointsAvailable).toBe(12)
    expect(row.reaperPointsAvailable).toBe(12)
    expect(doc.life?.name).toBe('Tessa Windleaf')
    expect(doc.life?.specialFeats).toEqual([
      { name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 3 },
      { name: 'Past Life: Halfling', type: 'RacialPastLife', stacks: 1 },
    ])
    expect(row.meta).toEqual({ ...snapshot.meta, incomplete: [] })
    expect(doc.life?.specialFeats).toEqual(storedLives(db, character.id)[0].specialFeats)
  })

  test('live/partial before any snapshot starts one from the patch', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.partial.put({ life: { race: 'Dwarf' } }))
    expect(storedBuild(db, character.id, 'live')!.document).toEqual({ life: { race: 'Dwarf' }, role: 'live' })
    expect(storedCharacter(db, character.id).race).toBe('Dwarf')
  })

  test('a race spelt as DDO Builder does ("Drow", "shadar-kai") is stored as the game spells it, the document as sent', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.partial.put({ life: { race: 'Drow' } }))
    expect(storedCharacter(db, character.id).race).toBe('Drow Elf')
    expect(storedLives(db, character.id)[0].race).toBe('Drow Elf')
    expect(storedBuild(db, character.id, 'live')!.document).toEqual({ life: { race: 'Drow' }, role: 'live' })
    ok(await me.live.partial.put({ life: { race: 'shadar-kai' } }))
    expect(storedCharacter(db, character.id).race).toBe('Shadar-kai')
  })

  test('unknown keys are kept at every depth', async () => {
    const { me, db, character } = await setup()
    // Keys no schema names: the types do not list them, the server keeps them.
    const odd = {
      futureSection: { a: [1, 2] },
      meta: { source: 'x', pluginBuild: 77 },
      life: { race: 'Elf', hairColor: 'silver', specialFeats: [{ name: 'X', type: 'Special', stacks: 1, note: 'n' }] },
      build: {
        abilitySpend: { str: 2, bonusPool: 4 },
        levels: [{ class: 'Wizard', feats: [{ name: 'Scribe', type: 'Standard', icon: 'x.png' }], extra: true }],
        enhancementTrees: { selected: ['Archmage'], spend: [{ treeName: 'Archmage', trained: [{ ranks: 1, x: 1 }] }] },
      },
    }
    const body = ok(await me.live.put(odd))
    expect(body.document).toEqual({ ...odd, role: 'live' })
    expect(storedBuild(db, character.id, 'live')!.document).toEqual({ ...odd, role: 'live' })
  })

  test.each([
    [{ build: { abilitySpend: { str: 'sixteen' } } }, 'build.abilitySpend.str', 'an integer'],
    [{ build: { abilitySpend: { str: '16' } } }, 'build.abilitySpend.str', 'an integer'],
    [{ document: { build: { level: 2.5 } } }, 'document.build.level', 'an integer'],
    [
      { life: { specialFeats: [{ name: 'PL', stacks: 'two' }] } },
      'life.specialFeats.0.stacks',
      'an integer of at least 0',
    ],
    [{ build: { classes: ['Monk', 3] } }, 'build.classes.1', 'a string of at most 200 characters or null'],
    // Arrays are named with their item limit (src/modules/builds/limits.ts).
    [
      { build: { levels: [{ class: 'Monk', skills: 'Spot' }] } },
      'build.levels.0.skills',
      'an array of at most 100 items',
    ],
    [{ tomes: { skills: { Spot: true } } }, 'tomes.skills.Spot', 'an integer'],
    [{ meta: { incomplete: 'feats' } }, 'meta.incomplete', 'an array of at most 32 items'],
    [{ build: { enhancementTrees: { tier5: 5 } } }, 'build.enhancementTrees.tier5', 'a string or null'],
    [{ merge: 'yes' }, 'merge', 'true or false'],
  ])('a wrong type answers 400 naming the path, and nothing is written: %j', async (body, path, what) => {
    // Sent raw: the typed client would not let these bodies through.
    const { json, me, db, token, base, character } = await setup()
    ok(await me.live.put(snapshot))
    const before = storedBuild(db, character.id, 'live')
    const beforeProfile = storedCharacter(db, character.id)
    const response = await json('PUT', `${base}/live`, { token, body })
    expect(response.status).toBe(400)
    expect(response.body.error).toBe(`Body field "${path}" must be ${what}.`)
    expect(storedBuild(db, character.id, 'live')).toEqual(before)
    expect(storedCharacter(db, character.id)).toEqual(beforeProfile)
  })

  test('a bad merge query is 400 and a non-JSON body is 400', async () => {
    // Sent raw: the types allow neither.
    const { json, token, base } = await setup()
    const query = await json('PUT', `${base}/live?merge=maybe`, { token, body: {} })
    expect(query.status).toBe(400)
    expect(query.body.error).toContain('"merge"')
    const raw = await json('PUT', `${base}/live`, {
      token,
      raw: '{nope',
      headers: { 'content-type': 'application/json' },
    })
    expect(raw.status).toBe(400)
  })
})

describe('promote to planned', () => {
  test('without a live snapshot: 404 and no planned build appears', async () => {
    const { me, db, character } = await setup()
    refused(await me.live['promote-to-planned'].post(), 404)
    expect(storedBuild(db, character.id, 'planned')).toBeUndefined()
  })

  test('any -> promote -> planned copied from live; live unchanged', async () => {
    const { me, db, character, clock } = await setup()
    ok(await me.build.put(dwarfFighter))
    ok(await me.live.put(snapshot))
    const liveBefore = storedBuild(db, character.id, 'live')
    clock.advance(1000)
    const body = ok(await me.live['promote-to-planned'].post())
    expect(body.role).toBe('planned')
    const planned = storedBuild(db, character.id, 'planned')!
    const { breakdown, ...copied } = planned.document
    const { incomplete: _, ...metaWithoutIncomplete } = snapshot.meta
    expect(copied).toEqual({ ...snapshot, meta: metaWithoutIncomplete, role: 'planned' })
    expect((breakdown as Breakdown).classes).toEqual([
      { name: 'Rogue', levels: 6 },
      { name: 'Fighter', levels: 1 },
    ])
    expect<unknown>(breakdown).toEqual(planned.breakdownCache)
    expect(planned.updatedAt).toBe('2026-11-21T12:00:01.000Z')
    expect(body.document).toEqual(planned.document)
    expect(storedBuild(db, character.id, 'live')).toEqual(liveBefore)
  })
})

describe('planned build', () => {
  test('GET before any planned build: 200 with document and updatedAt null', async () => {
    const { me, db, character } = await setup()
    const body = ok(await me.build.get())
    expect(body).toMatchObject({
      role: 'planned',
      document: null,
      reaperPointsAvailable: null,
      breakdownCache: null,
      validationErrors: [],
      updatedAt: null,
    })
    expect(body.life).toMatchObject({ lifeIndex: 1, isCurrent: true, name: 'Tessa', race: 'Elf' })
    expect(storedBuild(db, character.id, 'planned')).toBeUndefined()
  })

  test('PUT build computes the breakdown of the hand-worked split to the point and stores it', async () => {
    const { me, db, character } = await setup()
    const body = ok(await me.build.put(humanSplit))
    expect(body.validationErrors).toEqual([])
    expect(body.breakdownCache).toMatchObject({
      hp: 316,
      sp: 778,
      level: 24,
      saves: {
        fortitude: { base: 10, total: 15 },
        reflex: { base: 9, total: 10 },
        will: { base: 13, total: 20 },
      },
      abilities: { wis: { score: 25, modifier: 7 }, con: { score: 20, modifier: 5 } },
    })
    const row = storedBuild(db, character.id, 'planned')!
    expect(row.breakdownCache).toEqual(body.breakdownCache)
    expect<unknown>(row.document.breakdown).toEqual(body.breakdownCache)
    expect(ok(await me.build.get())).toEqual(body)
  })

  test('PUT build with the pure-class build: HP 300, saves 17/6/5', async () => {
    const { me } = await setup()
    const breakdown = breakdownOf(ok(await me.build.put({ document: dwarfFighter })))
    expect(breakdown.hp).toBe(300)
    expect(breakdown.sp).toBe(0)
    expect(breakdown.saves).toEqual({
      fortitude: { base: 12, abilityModifier: 5, total: 17 },
      reflex: { base: 6, abilityModifier: 0, total: 6 },
      will: { base: 6, abilityModifier: -1, total: 5 },
    })
  })

  test('an impossible plan is stored with its validation errors', async () => {
    const { me, db, character } = await setup()
    const plan = {
      build: {
        level: 2,
        abilitySpend: { available: 28, str: 16, con: 16 },
        levels: [{ class: 'Fighter' }, { class: 'Fighter' }, { class: 'Fighter', feats: [{ name: 'Cleave' }] }],
      },
    }
    const body = ok(await me.build.put(plan))
    const expected = [
      'Ability spend totals 32 build points, but only 28 are available.',
      'Feat "Cleave" is taken at level 3, but the build only reaches level 2.',
    ]
    expect(body.validationErrors).toEqual(expected)
    expect(storedBuild(db, character.id, 'planned')!.validationErrors).toEqual(expected)
  })

  test('a planned PUT syncs the profile while there is no live snapshot', async () => {
    const { me, db, character } = await setup()
    ok(await me.build.put(dwarfFighter))
    const synced = storedCharacter(db, character.id)
    expect(synced.classes).toEqual([{ name: 'Fighter', levels: 20 }])
    expect(synced.race).toBe('Dwarf')
    expect(storedLives(db, character.id)[0].race).toBe('Dwarf')
  })

  test('a planned PUT leaves the profile alone once a live snapshot exists (v4 rule)', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.put(snapshot))
    const before = storedCharacter(db, character.id)
    const lifeBefore = storedLives(db, character.id)
    ok(await me.build.put(dwarfFighter))
    expect(storedCharacter(db, character.id)).toEqual(before)
    expect(storedLives(db, character.id)).toEqual(lifeBefore)
    ok(await me.build.partial.put({ life: { race: 'Gnome' } }))
    expect(storedCharacter(db, character.id)).toEqual(before)
  })

  test('PUT build replaces; build/partial merges, recalculates, and sets past lives and reaper points', async () => {
    const { me, db, character } = await setup()
    ok(await me.build.put(humanSplit))
    const body = ok(
      await me.build.partial.put({
        tomes: { con: 4 },
        build: { level: 20 },
        pastLives: [{ name: 'Past Life: Cleric', type: 'HeroicPastLife', stacks: 4 }],
        reaperPoints: 7,
      }),
    )
    const row = storedBuild(db, character.id, 'planned')!
    const doc = documentOf(row)
    expect(doc.tomes).toEqual({ wis: 3, con: 4, skills: { Heal: 2 } })
    expect(doc.build?.classes).toEqual(['Cleric', 'Rogue', 'Wizard'])
    expect(doc.build?.reaper).toEqual({ pointsAvailable: 7 })
    expect(row.reaperPointsAvailable).toBe(7)
    expect(body.reaperPointsAvailable).toBe(7)
    // Level 20 now: no epic levels; Con 16 + 1 (level 16) + 4 = 21 -> +5; HP 156 + 5 x 20 = 256.
    expect(breakdownOf(body).hp).toBe(256)
    // One heroic past life with 4 stacks left, the racial one replaced: 4 stacks count for
    // build points (36 allowed) but break the 3-stack cap.
    expect(body.validationErrors).toEqual([
      'Past life "Past Life: Cleric" has 4 stacks; a past life stacks at most 3 times.',
    ])

    ok(await me.build.put({ build: { notes: 'fresh' } }))
    expect(storedBuild(db, character.id, 'planned')!.document).toMatchObject({
      build: { notes: 'fresh' },
      role: 'planned',
    })
    expect(storedBuild(db, character.id, 'planned')!.document.tomes).toBeUndefined()
  })

  test('a wrong type in a planned PUT or patch is 400 naming the path, nothing written', async () => {
    // Sent raw: the typed client would not let these bodies through.
    const { json, me, db, token, base, character } = await setup()
    ok(await me.build.put(humanSplit))
    const before = storedBuild(db, character.id, 'planned')
    const put = await json('PUT', `${base}/build`, { token, body: { build: { abilitySpend: { str: 'x' } } } })
    expect(put.status).toBe(400)
    expect(put.body.error).toBe('Body field "build.abilitySpend.str" must be an integer.')
    const patch = await json('PUT', `${base}/build/partial`, { token, body: { reaperPoints: 'many' } })
    expect(patch.status).toBe(400)
    expect(patch.body.error).toBe('Body field "reaperPoints" must be an integer.')
    const pastLives = await json('PUT', `${base}/build/partial`, { token, body: { pastLives: {} } })
    expect(pastLives.status).toBe(400)
    // Elysia reports the object as a one-item array missing its item; the path still names pastLives.
    expect(pastLives.body.error).toStartWith('Body field "pastLives')
    expect(storedBuild(db, character.id, 'planned')).toEqual(before)
  })
})

describe('numbers too large to add up', () => {
  // 1.7e308 is an integer to JSON and TypeBox, but two of them sum to Infinity, which JSON stores
  // as null: the write used to commit and every later read of the character answered 500.
  const huge = 1.7e308

  test('special feat stacks past 2^53 are 400 and nothing is written', async () => {
    const { me, db, character } = await setup()
    const feats = [
      { name: 'Stacked', type: 'Special', stacks: huge },
      { name: 'Stacked', type: 'Special', stacks: huge },
    ]
    const put = refused(await me.live.put({ life: { specialFeats: feats } }), 400)
    expect(put.error).toBe('Body field "life.specialFeats.0.stacks" must be an integer from 0 to 9007199254740991.')
    expect(storedBuild(db, character.id, 'live')).toBeUndefined()
    expect(storedLives(db, character.id).every((life) => life.specialFeats.length === 0)).toBe(true)
    ok(await me.lives.get())
  })

  test('a planned tome past 2^53 is 400, and the stored plan still reads', async () => {
    const { me, db, character } = await setup()
    ok(await me.build.put(humanSplit))
    const before = storedBuild(db, character.id, 'planned')
    const put = refused(
      await me.build.put({ tomes: { con: huge }, build: { level: 34, classes: ['Fighter', null, null] } }),
      400,
    )
    expect(put.error).toStartWith('Body field "tomes.con" must be an integer')
    refused(await me.build.partial.put({ build: { level: 2 ** 60 } }), 400)
    expect(storedBuild(db, character.id, 'planned')).toEqual(before)
    ok(await me.build.get())
  })
})

describe('isolation', () => {
  const routes: [string, (character: Me) => Promise<Answer>][] = [
    ['GET /live', (character) => character.live.get()],
    ['PUT /live', (character) => character.live.put(snapshot)],
    ['PUT /live?merge=1', (character) => character.live.put(snapshot, { query: { merge: '1' } })],
    ['PUT /live/partial', (character) => character.live.partial.put({ build: { notes: 'x' } })],
    ['POST /live/promote-to-planned', (character) => character.live['promote-to-planned'].post()],
    ['GET /build', (character) => character.build.get()],
    ['PUT /build', (character) => character.build.put(dwarfFighter)],
    ['PUT /build/partial', (character) => character.build.partial.put({ build: { notes: 'x' } })],
  ]

  test.each(routes)("%s on someone else's character: 404 and nothing changes", async (_route, call) => {
    const { me, plugin, db, character, userWithToken } = await setup()
    ok(await me.live.put(snapshot))
    ok(await me.build.put(humanSplit))
    const before = {
      live: storedBuild(db, character.id, 'live'),
      planned: storedBuild(db, character.id, 'planned'),
      profile: storedCharacter(db, character.id),
      lives: storedLives(db, character.id),
    }
    const mallory = await userWithToken('mallory')
    const { error } = refused(await call(plugin(mallory).characters({ id: character.id })), 404)
    expect(error).toBe(`No character ${character.id} on this account.`)
    expect({
      live: storedBuild(db, character.id, 'live'),
      planned: storedBuild(db, character.id, 'planned'),
      profile: storedCharacter(db, character.id),
      lives: storedLives(db, character.id),
    }).toEqual(before)
  })

  test.each(routes)('%s on a character that does not exist: 404', async (_route, call) => {
    const { plugin, token } = await setup()
    refused(await call(plugin(token).characters({ id: 999 })), 404)
  })

  test.each(routes)('%s without a token: 401', async (_route, call) => {
    const { api, character } = await setup()
    refused(await call(api.plugin.characters({ id: character.id })), 401)
  })

  test('a non-integer id is 400', async () => {
    // Sent raw: the typed client takes a number.
    const { json, token } = await setup()
    const response = await json('GET', '/api/plugin/characters/abc/live', { token })
    expect(response.status).toBe(400)
    expect(response.body.error).toContain('"id"')
  })
})

describe('/info', () => {
  test('characterBuilder, buildSync, liveSnapshot and livePromoteToPlanned are on', async () => {
    const { plugin, token } = await setup()
    const body = ok(await plugin(token).info.get())
    expect(body.features).toMatchObject({
      characterBuilder: true,
      buildSync: true,
      liveSnapshot: true,
      livePromoteToPlanned: true,
    })
  })
})
