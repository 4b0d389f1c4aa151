// Characters over HTTP: create (aliases, legacy name), list, get, find, PATCH/PUT, login, meta,
// derived fields and validation — each checked in the response and in the stored row.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters } from '../src/db/schema'
import { testApp } from './helpers'

const BASE = '/api/plugin/characters'

interface CharacterBody {
  id: number
  name: string
  givenName: string
  firstName: string
  surname: string
  race: string
  gender: string
  alignment: string
  server: string
  guild: string
  classes: { name: string; levels: number }[]
  classSummary: string
  epicLevels: number
  heroicLevel: number
  totalLevel: number
  characterLevel: number
  minLevel: number
  lastLoginAt: string | null
  targetDifficulty: string
  shareToken: string
  shareUrl: string
  createdAt: string
  updatedAt: string
}

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const stored = (id: number) => t.db.select().from(characters).where(eq(characters.id, id)).get()
  const create = (body: unknown) => t.json<CharacterBody>('POST', BASE, { token, body })
  return { ...t, token, stored, create }
}

describe('POST /characters', () => {
  test('creates with every field and derives name, levels, summary, share url and timestamps', async () => {
    const { create, stored } = await setup()
    const { status, body } = await create({
      givenName: 'Tordek',
      surname: 'Stonefist',
      race: 'Dwarf',
      gender: 'Male',
      alignment: 'Lawful Good',
      server: 'Thrane',
      guild: 'Hammers',
      classes: [
        { name: 'Fighter', levels: 12 },
        { name: 'Rogue', levels: 6 },
        { name: 'Wizard', levels: 2 },
      ],
      epicLevels: 10,
      lastLoginAt: '2026-11-20T10:00:00+02:00',
    })
    expect(status).toBe(201)
    expect(body).toMatchObject({
      name: 'Tordek Stonefist',
      givenName: 'Tordek',
      firstName: 'Tordek',
      surname: 'Stonefist',
      race: 'Dwarf',
      server: 'Thrane',
      guild: 'Hammers',
      classSummary: 'Fighter 12 / Rogue 6 / Wizard 2',
      epicLevels: 10,
      heroicLevel: 20,
      totalLevel: 30,
      characterLevel: 30,
      minLevel: 27,
      lastLoginAt: '2026-11-20T08:00:00.000Z',
      targetDifficulty: 'any',
      createdAt: '2026-11-21T12:00:00.000Z',
      updatedAt: '2026-11-21T12:00:00.000Z',
    })
    expect(body.shareToken).toMatch(/^[A-Za-z0-9_-]{16,}$/)
    expect(body.shareUrl).toBe(`/s/${body.shareToken}`)
    const row = stored(body.id)
    expect(row?.givenName).toBe('Tordek')
    expect(row?.classes).toEqual(body.classes)
    expect(row?.shareToken).toBe(body.shareToken)
  })

  test('aliases: firstName, lastName, classLevels, epic_levels, last_login_at', async () => {
    const { create, stored } = await setup()
    const { status, body } = await create({
      firstName: 'Mialee',
      lastName: 'Moonbow',
      classLevels: [{ name: 'Wizard', levels: 20 }],
      epic_levels: 4,
      last_login_at: '2026-11-01T00:00:00Z',
    })
    expect(status).toBe(201)
    expect(body).toMatchObject({ givenName: 'Mialee', surname: 'Moonbow', epicLevels: 4, totalLevel: 24 })
    expect(body.lastLoginAt).toBe('2026-11-01T00:00:00.000Z')
    expect(stored(body.id)).toMatchObject({ givenName: 'Mialee', surname: 'Moonbow', epicLevels: 4 })
  })

  test('lastLoginAt "now" is the server time', async () => {
    const { create } = await setup()
    const { body } = await create({ givenName: 'A', lastLoginAt: 'now' })
    expect(body.lastLoginAt).toBe('2026-11-21T12:00:00.000Z')
  })

  test('legacy {name} is split at the first space', async () => {
    const { create, stored } = await setup()
    const one = await create({ name: 'Lidda Quickfingers of Stormreach' })
    expect(one.status).toBe(201)
    expect(one.body).toMatchObject({ givenName: 'Lidda', surname: 'Quickfingers of Stormreach' })
    expect(stored(one.body.id)?.surname).toBe('Quickfingers of Stormreach')
    const two = await create({ name: 'Solo' })
    expect(two.body).toMatchObject({ givenName: 'Solo', surname: '', name: 'Solo' })
  })

  test('an explicit givenName wins over a legacy name', async () => {
    const { create } = await setup()
    const { body } = await create({ name: 'Old Name', givenName: 'New' })
    expect(body).toMatchObject({ givenName: 'New', surname: '' })
  })

  test('class names and picklist values are stored with the game spelling', async () => {
    const { create } = await setup()
    const { body } = await create({ givenName: 'A', race: 'half-elf', classes: [{ name: 'favored soul', levels: 3 }] })
    expect(body.race).toBe('Half-Elf')
    expect(body.classes).toEqual([{ name: 'Favored Soul', levels: 3 }])
  })

  test('total level is capped at 34, never rejected', async () => {
    const { create } = await setup()
    const { status, body } = await create({
      givenName: 'A',
      classes: [{ name: 'Fighter', levels: 20 }],
      epicLevels: 30,
    })
    expect(status).toBe(201)
    expect(body.totalLevel).toBe(34)
    expect(body.characterLevel).toBe(34)
  })

  test('id, owner and share token are never client-assignable', async () => {
    const { create, stored } = await setup()
    const { status, body } = await create({
      givenName: 'A',
      id: 77,
      userId: 99,
      shareToken: 'mine',
      shareUrl: '/s/mine',
    })
    expect(status).toBe(201)
    expect(body.id).not.toBe(77)
    expect(body.shareToken).not.toBe('mine')
    expect(stored(77)).toBeUndefined()
    expect(stored(body.id)?.userId).toBe(1)
  })

  const invalid: [string, unknown, RegExp][] = [
    ['no name at all', { surname: 'X' }, /givenName/],
    ['empty given name', { givenName: '  ' }, /givenName/],
    [
      'more than 3 classes',
      { givenName: 'A', classes: ['A', 'B', 'C', 'D'].map((name) => ({ name, levels: 1 })) },
      /classes/,
    ],
    ['class level 0', { givenName: 'A', classes: [{ name: 'Fighter', levels: 0 }] }, /classes\.0\.levels/],
    ['class level 21', { givenName: 'A', classes: [{ name: 'Fighter', levels: 21 }] }, /classes\.0\.levels/],
    ['non-integer level', { givenName: 'A', classes: [{ name: 'Fighter', levels: 2.5 }] }, /classes\.0\.levels/],
    [
      'alias is validated too',
      { givenName: 'A', classLevels: [{ name: 'Fighter', levels: 25 }] },
      /classLevels\.0\.levels/,
    ],
    [
      'same class twice',
      {
        givenName: 'A',
        classes: [
          { name: 'Fighter', levels: 1 },
          { name: 'fighter', levels: 2 },
        ],
      },
      /classes/,
    ],
    ['epicLevels 31', { givenName: 'A', epicLevels: 31 }, /epicLevels/],
    ['epicLevels -1', { givenName: 'A', epic_levels: -1 }, /epic_levels/],
    ['bad lastLoginAt', { givenName: 'A', lastLoginAt: 'yesterday' }, /lastLoginAt/],
    ['classes not an array', { givenName: 'A', classes: 'Fighter 20' }, /classes/],
    ['givenName a number', { givenName: 5 }, /givenName/],
  ]
  for (const [why, body, field] of invalid) {
    test(`400 naming the field: ${why}`, async () => {
      const { create, db } = await setup()
      const res = await create(body)
      expect(res.status).toBe(400)
      expect((res.body as unknown as { error: string }).error).toMatch(field)
      expect(db.select().from(characters).all()).toHaveLength(0)
    })
  }
})

describe('GET /characters, /characters/{id}', () => {
  test('lists only the caller’s characters under "characters"', async () => {
    const t = await setup()
    await t.create({ givenName: 'A' })
    await t.create({ givenName: 'B' })
    const bob = await t.userWithToken('bob')
    await t.json('POST', BASE, { token: bob, body: { givenName: 'C' } })
    const { status, body } = await t.json<{ characters: CharacterBody[] }>('GET', BASE, { token: t.token })
    expect(status).toBe(200)
    expect(body.characters.map((c) => c.givenName)).toEqual(['A', 'B'])
  })

  test('get one; an unknown id is 404; a non-integer id is 400', async () => {
    const t = await setup()
    const { body: created } = await t.create({ givenName: 'A' })
    const one = await t.json<CharacterBody>('GET', `${BASE}/${created.id}`, { token: t.token })
    expect(one.status).toBe(200)
    expect(one.body).toEqual(created)
    expect((await t.json('GET', `${BASE}/999`, { token: t.token })).status).toBe(404)
    expect((await t.json('GET', `${BASE}/abc`, { token: t.token })).status).toBe(400)
  })

  test('a class name synced from a live snapshot longer than input allows still reads back (no 500)', async () => {
    const t = await setup()
    const { body: created } = await t.create({ givenName: 'Synced' })
    const long = 'K'.repeat(80)
    const live = await t.json('PUT', `${BASE}/${created.id}/live`, {
      token: t.token,
      body: { build: { levels: [{ class: long }, { class: long }] } },
    })
    expect(live.status).toBe(200)
    expect(t.stored(created.id)?.classes).toEqual([{ name: long, levels: 2 }])
    const one = await t.json<CharacterBody>('GET', `${BASE}/${created.id}`, { token: t.token })
    expect(one.status).toBe(200)
    expect(one.body.classes).toEqual([{ name: long, levels: 2 }])
    const all = await t.json<{ characters: CharacterBody[] }>('GET', BASE, { token: t.token })
    expect(all.status).toBe(200)
    expect(all.body.characters.map((c) => c.classSummary)).toEqual([`${long} 2`])
  })

  test('the name is the same wherever it is shown: character, progress, navigation, first life', async () => {
    const t = await setup()
    const route = await t.json<{ id: number }>('POST', '/api/plugin/routes', {
      token: t.token,
      body: { name: 'R', quests: [{ name: 'The Pit' }] },
    })
    expect(route.status).toBe(201)
    for (const [body, name] of [
      [{ givenName: 'Tordek', surname: 'Ironfist of Stormreach' }, 'Tordek Ironfist of Stormreach'],
      [{ givenName: 'Solo' }, 'Solo'],
    ] as const) {
      const { body: created } = await t.create(body)
      expect(created.name).toBe(name)
      const at = (path: string) => t.json<Record<string, unknown>>('GET', path, { token: t.token })
      const progress = await at(`${BASE}/${created.id}/progress`)
      const navigation = await at(`/api/plugin/navigation?characterId=${created.id}&routeId=${route.body.id}`)
      const lives = await at(`${BASE}/${created.id}/lives`)
      expect([progress.status, navigation.status, lives.status]).toEqual([200, 200, 200])
      expect({
        progress: (progress.body.character as { name: string }).name,
        navigation: (navigation.body.character as { name: string }).name,
        life: (lives.body.lives as { name: string }[])[0]?.name,
      }).toEqual({ progress: name, navigation: name, life: name })
    }
  })

  test('401 without a token', async () => {
    const t = await setup()
    expect((await t.json('GET', BASE)).status).toBe(401)
    expect((await t.json('POST', BASE, { body: { givenName: 'A' } })).status).toBe(401)
  })
})

describe('GET /characters/find', () => {
  async function seeded() {
    const t = await setup()
    await t.create({ givenName: 'Tordek', surname: 'Stonefist', server: 'Thrane' })
    await t.create({ givenName: 'Tordek', surname: 'Ironhand', server: 'Cormyr' })
    await t.create({ givenName: 'Mialee', server: 'Thrane' })
    const bob = await t.userWithToken('bob')
    await t.json('POST', BASE, { token: bob, body: { givenName: 'Tordek', surname: 'Stonefist', server: 'Thrane' } })
    const find = async (query: string) => {
      const res = await t.json<{ count: number; characters: CharacterBody[] }>('GET', `${BASE}/find?${query}`, {
        token: t.token,
      })
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(res.body.characters.length)
      return res.body.characters.map((c) => c.name)
    }
    return { ...t, find }
  }

  test.each([
    ['givenName=tordek', ['Tordek Stonefist', 'Tordek Ironhand']],
    ['firstName=TORDEK&surname=ironhand', ['Tordek Ironhand']],
    ['givenName=Tordek&lastName=Stonefist', ['Tordek Stonefist']],
    ['name=tordek%20stonefist', ['Tordek Stonefist']],
    ['name=tordek', ['Tordek Stonefist', 'Tordek Ironhand']],
    ['name=mialee', ['Mialee']],
    ['server=thrane', ['Tordek Stonefist', 'Mialee']],
    ['givenName=tordek&server=CORMYR', ['Tordek Ironhand']],
    ['givenName=nobody', []],
    ['', ['Tordek Stonefist', 'Tordek Ironhand', 'Mialee']],
  ])('%s', async (query, expected) => {
    const t = await seeded()
    expect(await t.find(query)).toEqual(expected)
  })
})

describe('PATCH and PUT /characters/{id}', () => {
  for (const method of ['PATCH', 'PUT']) {
    test(`${method} is partial: omitted fields keep their value`, async () => {
      const t = await setup()
      const { body: c } = await t.create({
        givenName: 'A',
        surname: 'B',
        server: 'Thrane',
        classes: [{ name: 'Monk', levels: 5 }],
      })
      t.clock.advance(60_000)
      const res = await t.json<CharacterBody>(method, `${BASE}/${c.id}`, {
        token: t.token,
        body: { guild: 'New Guild', epic_levels: 2 },
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        givenName: 'A',
        surname: 'B',
        server: 'Thrane',
        guild: 'New Guild',
        epicLevels: 2,
      })
      expect(res.body.updatedAt).toBe('2026-11-21T12:01:00.000Z')
      expect(res.body.createdAt).toBe('2026-11-21T12:00:00.000Z')
      expect(t.stored(c.id)).toMatchObject({ guild: 'New Guild', epicLevels: 2, server: 'Thrane', surname: 'B' })
      expect(t.stored(c.id)?.classes).toEqual([{ name: 'Monk', levels: 5 }])
    })
  }

  test('touchLastLogin and seen set lastLoginAt to now; an explicit timestamp wins', async () => {
    const t = await setup()
    const { body: c } = await t.create({ givenName: 'A' })
    expect(c.lastLoginAt).toBeNull()
    t.clock.advance(1000)
    await t.json('PATCH', `${BASE}/${c.id}`, { token: t.token, body: { touchLastLogin: true } })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2026-11-21T12:00:01.000Z')
    t.clock.advance(1000)
    await t.json('PUT', `${BASE}/${c.id}`, { token: t.token, body: { seen: true } })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2026-11-21T12:00:02.000Z')
    await t.json('PATCH', `${BASE}/${c.id}`, {
      token: t.token,
      body: { seen: true, lastLoginAt: '2020-01-01T00:00:00Z' },
    })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2020-01-01T00:00:00.000Z')
    await t.json('PATCH', `${BASE}/${c.id}`, { token: t.token, body: { guild: 'x' } })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2020-01-01T00:00:00.000Z')
  })

  test('a legacy name renames; classes are replaced whole', async () => {
    const t = await setup()
    const { body: c } = await t.create({ givenName: 'A', classes: [{ name: 'Monk', levels: 5 }] })
    const res = await t.json<CharacterBody>('PATCH', `${BASE}/${c.id}`, {
      token: t.token,
      body: { name: 'Regdar Brave', classes: [{ name: 'Paladin', levels: 8 }] },
    })
    expect(res.body).toMatchObject({ givenName: 'Regdar', surname: 'Brave', classSummary: 'Paladin 8' })
    expect(t.stored(c.id)?.classes).toEqual([{ name: 'Paladin', levels: 8 }])
  })

  test('invalid update: 400 and nothing changes', async () => {
    const t = await setup()
    const { body: c } = await t.create({ givenName: 'A', guild: 'G' })
    const before = t.stored(c.id)
    for (const body of [
      { guild: 'H', epicLevels: 99 },
      { guild: 'H', givenName: '' },
      { guild: 'H', classes: [{ name: 'Fighter', levels: 30 }] },
      { guild: 'H', lastLoginAt: 'soon' },
      { guild: 'H', touchLastLogin: 'yes' },
    ]) {
      const res = await t.json('PATCH', `${BASE}/${c.id}`, { token: t.token, body })
      expect(res.status).toBe(400)
    }
    expect(t.stored(c.id)).toEqual(before)
  })

  test('an unknown id is 404', async () => {
    const t = await setup()
    expect((await t.json('PATCH', `${BASE}/5`, { token: t.token, body: { guild: 'x' } })).status).toBe(404)
  })
})

describe('POST /characters/{id}/login', () => {
  test('without a body: lastLoginAt = now; with one: that timestamp; answers the character', async () => {
    const t = await setup()
    const { body: c } = await t.create({ givenName: 'A' })
    t.clock.advance(5000)
    const a = await t.json<CharacterBody>('POST', `${BASE}/${c.id}/login`, { token: t.token })
    expect(a.status).toBe(200)
    expect(a.body.lastLoginAt).toBe('2026-11-21T12:00:05.000Z')
    expect(a.body.id).toBe(c.id)
    const b = await t.json<CharacterBody>('POST', `${BASE}/${c.id}/login`, {
      token: t.token,
      body: { lastLoginAt: '2026-11-21T13:00:00+01:00' },
    })
    expect(b.body.lastLoginAt).toBe('2026-11-21T12:00:00.000Z')
    expect(t.stored(c.id)?.lastLoginAt).toBe('2026-11-21T12:00:00.000Z')
    const n = await t.json<CharacterBody>('POST', `${BASE}/${c.id}/login`, {
      token: t.token,
      body: { lastLoginAt: 'now' },
    })
    expect(n.body.lastLoginAt).toBe('2026-11-21T12:00:05.000Z')
  })

  test('bad timestamp is 400 and nothing changes', async () => {
    const t = await setup()
    const { body: c } = await t.create({ givenName: 'A' })
    const res = await t.json('POST', `${BASE}/${c.id}/login`, { token: t.token, body: { lastLoginAt: 'tuesday' } })
    expect(res.status).toBe(400)
    expect(t.stored(c.id)?.lastLoginAt).toBeNull()
  })
})

describe('GET /characters/meta', () => {
  test('real DDO picklists: classes with archetypes, races with iconics, alignments, genders, servers', async () => {
    const t = await setup()
    const { status, body } = await t.json<Record<string, unknown>>('GET', `${BASE}/meta`, { token: t.token })
    expect(status).toBe(200)
    const classes = body.classes as string[]
    for (const name of ['Fighter', 'Favored Soul', 'Artificer', 'Alchemist', 'Warlock', 'Druid'])
      expect(classes).toContain(name)
    for (const name of [
      'Stormsinger',
      'Dark Apostate',
      'Sacred Fist',
      'Dark Hunter',
      'Blightcaster',
      'Acolyte of the Skin',
    ])
      expect(classes).toContain(name)
    const races = body.races as string[]
    for (const name of ['Human', 'Drow Elf', 'Warforged', 'Dragonborn', 'Tabaxi', 'Dhampir'])
      expect(races).toContain(name)
    for (const name of ['Bladeforged', 'Purple Dragon Knight', 'Morninglord', 'Shadar-kai', 'Deep Gnome'])
      expect(races).toContain(name)
    expect(body.alignments).toContain('Lawful Good')
    expect(body.alignments).toContain('True Neutral')
    expect(body.genders).toEqual(['Male', 'Female'])
    expect((body.servers as string[]).length).toBeGreaterThan(0)
    expect(body).toMatchObject({ maxMulticlass: 3, maxClassLevel: 20, maxEpicLevels: 30, maxTotalLevel: 34 })
  })
})
