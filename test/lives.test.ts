// Lives over HTTP: the lazily opened current life, the list, and reincarnation (plugin-api.md
// "Lives", the Life row of "States and transitions"), checked in the stored rows.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters } from '../src/db/schema'
import { insertCharacter, storedLives, testApp } from './helpers'

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep into JSON bodies.
type Json = Record<string, any>

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
  return { ...h, token, character, base: `/api/plugin/characters/${character.id}` }
}

describe('the current life', () => {
  test('GET lives opens life 1 from the profile once, and lists it', async () => {
    const { json, db, token, base, character } = await setup()
    const { status, body } = await json<Json>('GET', `${base}/lives`, { token })
    expect(status).toBe(200)
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
        createdAt: '2026-11-21T12:00:00.000Z',
        archivedAt: null,
      },
    ])
    await json('GET', `${base}/lives`, { token })
    expect(storedLives(db, character.id)).toHaveLength(1)
  })

  test('the first build opens the current life too', async () => {
    const { json, db, token, base, character } = await setup()
    await json('PUT', `${base}/live`, { token, body: { life: { race: 'Elf' } } })
    const rows = storedLives(db, character.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ lifeIndex: 1, isCurrent: true, race: 'Elf' })
  })
})

describe('reincarnation', () => {
  test('current -> reincarnate -> archived; grants from the finished life; a new current life opens', async () => {
    const { json, db, token, base, character, clock } = await setup()
    await json('PUT', `${base}/live`, {
      token,
      body: {
        life: {
          specialFeats: [
            { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 2 },
            { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 3 },
            { name: 'Total Favor Rewards', type: 'Favor', stacks: 2 },
            { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
          ],
        },
      },
    })
    clock.advance(3_600_000)
    const { status, body } = await json<Json>('POST', `${base}/lives/reincarnate`, {
      token,
      body: {
        name: 'Brom Reborn',
        race: 'Elf',
        alignment: 'Neutral Good',
        grantHeroic: true,
        grantRacial: true,
        additionalPastLives: [
          { name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife' },
          { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 2 },
        ],
      },
    })
    expect(status).toBe(200)
    const expectedFeats = [
      // 2 carried + 1 (dominant class Fighter 12 of Fighter 12 / Cleric 8) + 2 additional = 5 -> capped at 3
      { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 3 },
      // 3 carried + 1 granted -> capped at 3
      { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 3 },
      // favor rewards do not carry over
      { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
      { name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife', stacks: 1 },
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
      createdAt: '2026-11-21T13:00:00.000Z',
      archivedAt: null,
    })
    const [finished, current] = storedLives(db, character.id)
    expect(finished).toMatchObject({ lifeIndex: 1, isCurrent: false, archivedAt: '2026-11-21T13:00:00.000Z' })
    expect(finished.specialFeats).toHaveLength(4)
    expect(current).toMatchObject({ id: body.id, lifeIndex: 2, isCurrent: true, archivedAt: null })
    expect(current.specialFeats).toEqual(expectedFeats)

    const list = await json<Json>('GET', `${base}/lives`, { token })
    expect(list.body.lives.map((l: Json) => [l.lifeIndex, l.isCurrent])).toEqual([
      [1, false],
      [2, true],
    ])
  })

  test('earlier past lives carry forward through several lives; archetypes and iconic races name their feats', async () => {
    const { json, db, token, base, character } = await setup()
    await json('POST', `${base}/lives/reincarnate`, { token, body: { grantHeroic: true } })
    await json('PUT', `${base}/live`, {
      token,
      body: { life: { race: 'Bladeforged' }, build: { level: 20, classes: ['Sacred Fist', null, null] } },
    })
    const { body } = await json<Json>('POST', `${base}/lives/reincarnate`, {
      token,
      body: { grantHeroic: true, grantRacial: true, race: 'Human' },
    })
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
    const { json, db, token, base, character } = await setup()
    const { status, body } = await json<Json>('POST', `${base}/lives/reincarnate`, { token })
    expect(status).toBe(200)
    expect(body).toMatchObject({ lifeIndex: 2, name: 'Brom Ironhand', race: 'Dwarf', specialFeats: [] })
    expect(storedLives(db, character.id)).toHaveLength(2)
  })

  test('grantHeroic for a life with no class levels: 400, and nothing is archived', async () => {
    const { json, db, token, base, character } = await setup()
    await json('POST', `${base}/lives/reincarnate`, { token })
    const before = storedLives(db, character.id)
    const { status, body } = await json('POST', `${base}/lives/reincarnate`, { token, body: { grantHeroic: true } })
    expect(status).toBe(400)
    expect(body.error).toContain('no class levels')
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
    const { json, db, token, base, character } = await setup()
    await json('GET', `${base}/lives`, { token })
    const before = storedLives(db, character.id)
    const response = await json('POST', `${base}/lives/reincarnate`, { token, body })
    expect(response.status).toBe(400)
    expect(response.body.error).toContain(`"${field}"`)
    expect(storedLives(db, character.id)).toEqual(before)
  })

  test('the next live snapshot syncs onto the new life; the archived one keeps its record', async () => {
    const { json, db, token, base, character } = await setup()
    await json('GET', `${base}/lives`, { token })
    await json('POST', `${base}/lives/reincarnate`, { token, body: { race: 'Elf' } })
    await json('PUT', `${base}/live`, { token, body: { build: { level: 3, classes: ['Wizard', null, null] } } })
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
  const { json, token, base } = await setup()
  await json('PUT', `${base}/live`, { token, body: { build: { notes: 'x' } } })
  await json('POST', `${base}/lives/reincarnate`, { token, body: { name: 'Second' } })
  const live = await json<Json>('GET', `${base}/live`, { token })
  expect(live.body.life).toMatchObject({ lifeIndex: 2, isCurrent: true, name: 'Second' })
  const planned = await json<Json>('GET', `${base}/build`, { token })
  expect(planned.body.life).toMatchObject({ lifeIndex: 2, isCurrent: true, name: 'Second' })
})

describe('past lives named from the game data table (rules/gameData.ts)', () => {
  // The race or class as the character got it, the past life reincarnation grants (DDO Builder's
  // feat names, as in ../shared/fixtures/builds/example-monk.DDOBuild).
  const reincarnate = async (profile: { race?: string; className?: string }, how: 'POST' | 'live') => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const base = '/api/plugin/characters'
    const fields = { givenName: 'Vesna', classes: [{ name: profile.className ?? 'Warlock', levels: 15 }] }
    let id: number
    if (how === 'POST') {
      // Through the character picklists: the canonical spelling is what gets stored.
      const created = await t.json<Json>('POST', base, { token, body: { ...fields, race: profile.race ?? 'Human' } })
      expect(created.status).toBe(201)
      id = created.body.id
    } else {
      // As a game client or a DDO Builder import sends it, in a live snapshot.
      id = insertCharacter(t.db, 'alice', fields).id
      const live = await t.json('PUT', `${base}/${id}/live`, { token, body: { life: { race: profile.race } } })
      expect(live.status).toBe(200)
    }
    const { status, body } = await t.json<Json>('POST', `${base}/${id}/lives/reincarnate`, {
      token,
      body: { grantHeroic: profile.className !== undefined, grantRacial: profile.race !== undefined },
    })
    expect(status).toBe(200)
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
    const { json, db, token, base, character } = await setup()
    await json('GET', `${base}/lives`, { token })
    const before = storedLives(db, character.id)
    const extra = { name: 'Stacked', type: 'Special', stacks: 1.7e308 }
    const response = await json('POST', `${base}/lives/reincarnate`, {
      token,
      body: { additionalPastLives: [extra, extra] },
    })
    expect(response.status).toBe(400)
    expect(response.body.error).toStartWith('Body field "additionalPastLives.0.stacks" must be an integer')
    expect(storedLives(db, character.id)).toEqual(before)
    expect((await json('GET', `${base}/lives`, { token })).status).toBe(200)
  })
})

describe('isolation', () => {
  test.each([
    ['GET', '/lives', undefined],
    ['POST', '/lives/reincarnate', { grantHeroic: true }],
  ])("%s %s on someone else's character: 404 and nothing changes", async (method, path, body) => {
    const { json, db, token, base, character, userWithToken } = await setup()
    await json('GET', `${base}/lives`, { token })
    const before = storedLives(db, character.id)
    const mallory = await userWithToken('mallory')
    const response = await json(method, `${base}${path}`, { token: mallory, body })
    expect(response.status).toBe(404)
    expect(storedLives(db, character.id)).toEqual(before)
  })

  test('without a token: 401', async () => {
    const { json, base } = await setup()
    expect((await json('GET', `${base}/lives`)).status).toBe(401)
    expect((await json('POST', `${base}/lives/reincarnate`)).status).toBe(401)
  })
})
