// Lives over HTTP: the lazily opened current life, the list, and reincarnation (plugin-api.md
// "Lives", the Life row of "States and transitions"), checked in the stored rows.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters } from '../../../../src/db/schema'
import { insertCharacter, ok, refused, storedLives, testApp } from '../../../helpers'

async function setup() {
  const h = testApp()
  const token = await h.userWithToken('alice')
  const character = insertCharacter(h.db, 'alice', {
    givenName: 'Brom',
    surname: 'Ironhand',
    race: 'Dwarf',
    alignment: 'Lawful Good',
    classes: [
      { name: 'Fighter', levels: 12 },
      { name: 'Cleric', levels: 8 },
    ],
  })
  // `me`: the typed plugin API of this character; `base` for the requests the types would refuse.
  const me = h.plugin(token).characters({ id: character.id })
  return { ...h, token, character, me, base: `/api/plugin/characters/${character.id}` }
}

describe('the current life', () => {
  test('GET lives opens life 1 from the profile once, and lists it', async () => {
    const { db, me, character } = await setup()
    const body = ok(await me.lives.get())
    expect(body.lives).toEqual([
      {
        id: expect.any(Number),
        lifeIndex: 1,
        isCurrent: true,
        name: 'Brom Ironhand',
        race: 'Dwarf',
        alignment: 'Lawful Good',
        classes: [
          { name: 'Fighter', levels: 12 },
          { name: 'Cleric', levels: 8 },
        ],
        specialFeats: [],
        kind: null,
        questLife: 1,
        createdAt: '2026-11-21T12:00:00.000Z',
        archivedAt: null,
      },
    ])
    ok(await me.lives.get())
    expect(storedLives(db, character.id)).toHaveLength(1)
  })

  test('the first build opens the current life too', async () => {
    const { db, me, character } = await setup()
    ok(await me.live.put({ life: { race: 'Elf' } }))
    const rows = storedLives(db, character.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ lifeIndex: 1, isCurrent: true, race: 'Elf' })
  })
})

describe('reincarnation', () => {
  test('current -> reincarnate -> archived; grants from the finished life; a new current life opens', async () => {
    const { db, me, character, clock } = await setup()
    ok(
      await me.live.put({
        life: {
          specialFeats: [
            { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 2 },
            { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 3 },
            { name: 'Total Favor Rewards', type: 'Favor', stacks: 2 },
            { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
          ],
        },
      }),
    )
    clock.advance(3_600_000)
    const body = ok(
      await me.lives.reincarnate.post({
        name: 'Brom Reborn',
        race: 'Elf',
        alignment: 'Neutral Good',
        grantRacial: true,
      }),
    )
    const expectedFeats = [
      // carried as they were: a racial reincarnation grants no heroic past life
      { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 2 },
      // 3 carried + 1 granted -> capped at 3
      { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 3 },
      // favor rewards do not carry over a true reincarnation
      { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
    ]
    expect(body).toEqual({
      id: expect.any(Number),
      lifeIndex: 2,
      isCurrent: true,
      name: 'Brom Reborn',
      race: 'Elf',
      alignment: 'Neutral Good',
      classes: [],
      specialFeats: expectedFeats,
      // inferred from the grant; a quest life of its own
      kind: 'racial',
      questLife: 2,
      createdAt: '2026-11-21T13:00:00.000Z',
      archivedAt: null,
    })
    const [finished, current] = storedLives(db, character.id)
    expect(finished).toMatchObject({ lifeIndex: 1, isCurrent: false, archivedAt: '2026-11-21T13:00:00.000Z' })
    expect(finished.specialFeats).toHaveLength(4)
    expect(current).toMatchObject({ id: body.id, lifeIndex: 2, isCurrent: true, archivedAt: null })
    expect(current.specialFeats).toEqual(expectedFeats)

    const list = ok(await me.lives.get())
    expect(list.lives.map((l) => [l.lifeIndex, l.isCurrent])).toEqual([
      [1, false],
      [2, true],
    ])
  })

  test('earlier past lives carry forward through several lives; archetypes and iconic races name their feats', async () => {
    const { db, me, character } = await setup()
    ok(await me.lives.reincarnate.post({ grantHeroic: true }))
    ok(await me.live.put({ life: { race: 'Bladeforged' }, build: { level: 20, classes: ['Sacred Fist', null, null] } }))
    const body = ok(await me.lives.reincarnate.post({ grantHeroic: true, grantRacial: true, race: 'Human' }))
    expect(body.lifeIndex).toBe(3)
    expect(body.race).toBe('Human')
    expect(body.specialFeats).toEqual([
      { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 1 },
      { name: 'Past Life: Paladin - Sacred Fist', type: 'HeroicPastLife', stacks: 1 },
      { name: 'Past Life: Bladeforged', type: 'IconicPastLife', stacks: 1 },
    ])
    expect(storedLives(db, character.id).map((l) => l.isCurrent)).toEqual([false, false, true])
  })

  test('with no body: archives and opens the next life with the same name, race and alignment, no grants', async () => {
    const { db, me, character } = await setup()
    const body = ok(await me.lives.reincarnate.post())
    expect(body).toMatchObject({ lifeIndex: 2, name: 'Brom Ironhand', race: 'Dwarf', specialFeats: [] })
    expect(storedLives(db, character.id)).toHaveLength(2)
  })

  test('grantHeroic for a life with no class levels: 400, and nothing is archived', async () => {
    const { db, me, character } = await setup()
    ok(await me.lives.reincarnate.post())
    const before = storedLives(db, character.id)
    const { error } = refused(await me.lives.reincarnate.post({ grantHeroic: true }), 400)
    expect(error).toContain('no class levels')
    expect(storedLives(db, character.id)).toEqual(before)
  })

  test.each([
    [{ grantHeroic: 'yes' }, 'grantHeroic'],
    [{ additionalPastLives: [{ name: 'Past Life: Elf' }] }, 'additionalPastLives.0.type'],
    [
      { additionalPastLives: [{ name: 'Past Life: Elf', type: 'RacialPastLife', stacks: 0 }] },
      'additionalPastLives.0.stacks',
    ],
  ])('a bad body is 400 naming the field, nothing changes: %j', async (body, field) => {
    // Sent raw: the typed client would not let these bodies through.
    const { json, db, token, base, character, me } = await setup()
    ok(await me.lives.get())
    const before = storedLives(db, character.id)
    const response = await json('POST', `${base}/lives/reincarnate`, { token, body })
    expect(response.status).toBe(400)
    expect(response.body.error).toContain(`"${field}"`)
    expect(storedLives(db, character.id)).toEqual(before)
  })

  test('the next live snapshot syncs onto the new life; the archived one keeps its record', async () => {
    const { db, me, character } = await setup()
    ok(await me.lives.get())
    ok(await me.lives.reincarnate.post({ race: 'Elf' }))
    ok(await me.live.put({ build: { level: 3, classes: ['Wizard', null, null] } }))
    const [finished, current] = storedLives(db, character.id)
    expect(finished.classes).toEqual([
      { name: 'Fighter', levels: 12 },
      { name: 'Cleric', levels: 8 },
    ])
    expect(current.classes).toEqual([{ name: 'Wizard', levels: 3 }])
    expect(db.select().from(characters).where(eq(characters.id, character.id)).get()!.classes).toEqual([
      { name: 'Wizard', levels: 3 },
    ])
  })
})

test('the live and planned answers carry the current life', async () => {
  const { me } = await setup()
  ok(await me.live.put({ build: { notes: 'x' } }))
  ok(await me.lives.reincarnate.post({ name: 'Second' }))
  const live = ok(await me.live.get())
  expect(live.life).toMatchObject({ lifeIndex: 2, isCurrent: true, name: 'Second' })
  const planned = ok(await me.build.get())
  expect(planned.life).toMatchObject({ lifeIndex: 2, isCurrent: true, name: 'Second' })
})

describe('past lives named from the game data table (rules/character/gameData.ts)', () => {
  // The race or class as the character got it, the past life reincarnation grants (DDO Builder's
  // feat names, as in ../shared/fixtures/builds/example-monk.DDOBuild).
  const reincarnate = async (profile: { race?: string; className?: string }, how: 'POST' | 'live') => {
    const t = testApp()
    const plugin = t.plugin(await t.userWithToken('alice'))
    const fields = { givenName: 'Vesna', classes: [{ name: profile.className ?? 'Warlock', levels: 15 }] }
    let id: number
    if (how === 'POST') {
      // Through the character picklists: the canonical spelling is what gets stored.
      id = ok(await plugin.characters.post({ ...fields, race: profile.race ?? 'Human' }), 201).id
    } else {
      // As a game client or a DDO Builder import sends it, in a live snapshot.
      id = insertCharacter(t.db, 'alice', fields).id
      ok(await plugin.characters({ id }).live.put({ life: { race: profile.race } }))
    }
    const body = ok(
      await plugin.characters({ id }).lives.reincarnate.post({
        grantHeroic: profile.className !== undefined,
        grantRacial: profile.race !== undefined,
      }),
    )
    return body.specialFeats
  }

  test.each([
    ['Dhampir Dark Bargainer', 'POST', 'Past Life: Dark Bargainer', 'IconicPastLife'],
    ['Dark Bargainer', 'live', 'Past Life: Dark Bargainer', 'IconicPastLife'],
    ['Shadar-kai', 'POST', 'Past Life: Shadar-Kai', 'IconicPastLife'],
    ['Drow Elf', 'POST', 'Past Life: Drow', 'RacialPastLife'],
    ['Drow', 'live', 'Past Life: Drow', 'RacialPastLife'],
    // Wood Elves have no past life of their own: they complete the Elf one (DDO wiki).
    ['Wood Elf', 'POST', 'Past Life: Elf', 'RacialPastLife'],
  ] as const)('race %p (%s) grants %p, %s', async (race, how, name, type) => {
    expect(await reincarnate({ race }, how)).toEqual([{ name, type, stacks: 1 }])
  })

  test.each([
    ['Blightcaster', 'Past Life: Druid - Blight Caster'],
    ['Blight Caster', 'Past Life: Druid - Blight Caster'],
    ['Dragon Disciple', 'Past Life: Monk - Dragon Disciple'],
    ['Wild Mage', 'Past Life: Sorcerer - Wild Mage'],
    ['Arcane Trickster', 'Past Life: Rogue - Arcane Trickster'],
  ])('class %p grants %p', async (className, name) => {
    expect(await reincarnate({ className }, 'POST')).toEqual([{ name, type: 'HeroicPastLife', stacks: 1 }])
  })
})

describe('numbers too large to add up', () => {
  test('additionalPastLives stacks past 2^53 are 400 and nothing is archived', async () => {
    const { db, me, character } = await setup()
    ok(await me.lives.get())
    const before = storedLives(db, character.id)
    const extra = { name: 'Stacked', type: 'Special', stacks: 1.7e308 }
    const { error } = refused(await me.lives.reincarnate.post({ additionalPastLives: [extra, extra] }), 400)
    expect(error).toStartWith('Body field "additionalPastLives.0.stacks" must be an integer')
    expect(storedLives(db, character.id)).toEqual(before)
    ok(await me.lives.get())
  })
})

describe('isolation', () => {
  test.each([
    ['GET', '/lives', undefined],
    ['POST', '/lives/reincarnate', { grantHeroic: true }],
  ])("%s %s on someone else's character: 404 and nothing changes", async (method, path, body) => {
    const { json, db, me, base, character, userWithToken } = await setup()
    ok(await me.lives.get())
    const before = storedLives(db, character.id)
    const mallory = await userWithToken('mallory')
    const response = await json(method, `${base}${path}`, { token: mallory, body })
    expect(response.status).toBe(404)
    expect(storedLives(db, character.id)).toEqual(before)
  })

  test('without a token: 401', async () => {
    const { api, character } = await setup()
    const anonymous = api.plugin.characters({ id: character.id })
    refused(await anonymous.lives.get(), 401)
    refused(await anonymous.lives.reincarnate.post(), 401)
  })
})
