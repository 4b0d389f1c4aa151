// Characters over HTTP: create (aliases, legacy name), list, get, find, PATCH/PUT, login, meta,
// derived fields and validation — each checked in the response and in the stored row.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters } from '../../../src/db/schema'
import { type Client, ok, refused, testApp } from '../../helpers'

const BASE = '/api/plugin/characters'

/** The body of POST /characters, as the route's types take it. */
type CreateBody = Parameters<Client['plugin']['characters']['post']>[0]

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const stored = (id: number) => t.db.select().from(characters).where(eq(characters.id, id)).get()
  const me = t.plugin(token)
  const create = async (body: CreateBody) => ok(await me.characters.post(body), 201)
  return { ...t, token, stored, me, create }
}

describe('POST /characters', () => {
  test('creates with every field and derives name, levels, summary, share url and timestamps', async () => {
    const { create, stored } = await setup()
    const body = await create({
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
    const body = await create({
      firstName: 'Mialee',
      lastName: 'Moonbow',
      classLevels: [{ name: 'Wizard', levels: 20 }],
      epic_levels: 4,
      last_login_at: '2026-11-01T00:00:00Z',
    })
    expect(body).toMatchObject({ givenName: 'Mialee', surname: 'Moonbow', epicLevels: 4, totalLevel: 24 })
    expect(body.lastLoginAt).toBe('2026-11-01T00:00:00.000Z')
    expect(stored(body.id)).toMatchObject({ givenName: 'Mialee', surname: 'Moonbow', epicLevels: 4 })
  })

  test('lastLoginAt "now" is the server time', async () => {
    const { create } = await setup()
    const body = await create({ givenName: 'A', lastLoginAt: 'now' })
    expect(body.lastLoginAt).toBe('2026-11-21T12:00:00.000Z')
  })

  test('legacy {name} is split at the first space', async () => {
    const { create, stored } = await setup()
    const one = await create({ name: 'Lidda Quickfingers of Stormreach' })
    expect(one).toMatchObject({ givenName: 'Lidda', surname: 'Quickfingers of Stormreach' })
    expect(stored(one.id)?.surname).toBe('Quickfingers of Stormreach')
    const two = await create({ name: 'Solo' })
    expect(two).toMatchObject({ givenName: 'Solo', surname: '', name: 'Solo' })
  })

  test('an explicit givenName wins over a legacy name', async () => {
    const { create } = await setup()
    const body = await create({ name: 'Old Name', givenName: 'New' })
    expect(body).toMatchObject({ givenName: 'New', surname: '' })
  })

  test('class names and picklist values are stored with the game spelling', async () => {
    const { create } = await setup()
    const body = await create({ givenName: 'A', race: 'half-elf', classes: [{ name: 'favored soul', levels: 3 }] })
    expect(body.race).toBe('Half-Elf')
    expect(body.classes).toEqual([{ name: 'Favored Soul', levels: 3 }])
  })

  test('total level is capped at 34, never rejected', async () => {
    const { create } = await setup()
    const body = await create({
      givenName: 'A',
      classes: [{ name: 'Fighter', levels: 20 }],
      epicLevels: 30,
    })
    expect(body.totalLevel).toBe(34)
    expect(body.characterLevel).toBe(34)
  })

  test('id, owner and share token are never client-assignable', async () => {
    const { create, stored } = await setup()
    // Fields the body type does not have: a variable, not a literal, passes them as a client's JSON would.
    const withServerFields = { givenName: 'A', id: 77, userId: 99, shareToken: 'mine', shareUrl: '/s/mine' }
    const body = await create(withServerFields)
    expect(body.id).not.toBe(77)
    expect(body.shareToken).not.toBe('mine')
    expect(stored(77)).toBeUndefined()
    expect(stored(body.id)?.userId).toBe(1)
  })

  // Bodies of the right shape that the service or the schema's limits refuse: typed.
  const invalid: [string, CreateBody, RegExp][] = [
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
  ]
  for (const [why, body, field] of invalid) {
    test(`400 naming the field: ${why}`, async () => {
      const { me, db } = await setup()
      expect(refused(await me.characters.post(body), 400).error).toMatch(field)
      expect(db.select().from(characters).all()).toHaveLength(0)
    })
  }

  // Fields of the wrong type: raw, since the types forbid them.
  const mistyped: [string, unknown, RegExp][] = [
    ['classes not an array', { givenName: 'A', classes: 'Fighter 20' }, /classes/],
    ['givenName a number', { givenName: 5 }, /givenName/],
  ]
  for (const [why, body, field] of mistyped) {
    test(`400 naming the field: ${why}`, async () => {
      const { json, token, db } = await setup()
      const res = await json<{ error: string }>('POST', BASE, { token, body })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(field)
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
    ok(await t.plugin(bob).characters.post({ givenName: 'C' }), 201)
    const body = ok(await t.me.characters.get())
    expect(body.characters.map((c) => c.givenName)).toEqual(['A', 'B'])
  })

  test('get one; an unknown id is 404; a non-integer id is 400', async () => {
    const t = await setup()
    const created = await t.create({ givenName: 'A' })
    expect(ok(await t.me.characters({ id: created.id }).get())).toEqual(created)
    refused(await t.me.characters({ id: 999 }).get(), 404)
    refused(await t.me.characters({ id: 'abc' }).get(), 400)
  })

  test('a class name synced from a live snapshot longer than input allows still reads back (no 500)', async () => {
    const t = await setup()
    const created = await t.create({ givenName: 'Synced' })
    const long = 'K'.repeat(80)
    ok(await t.me.characters({ id: created.id }).live.put({ build: { levels: [{ class: long }, { class: long }] } }))
    expect(t.stored(created.id)?.classes).toEqual([{ name: long, levels: 2 }])
    const one = ok(await t.me.characters({ id: created.id }).get())
    expect(one.classes).toEqual([{ name: long, levels: 2 }])
    const all = ok(await t.me.characters.get())
    expect(all.characters.map((c) => c.classSummary)).toEqual([`${long} 2`])
  })

  test('the name is the same wherever it is shown: character, progress, navigation, first life', async () => {
    const t = await setup()
    const route = ok(await t.me.routes.post({ name: 'R', quests: [{ name: 'The Pit' }] }), 201)
    for (const [body, name] of [
      [{ givenName: 'Tordek', surname: 'Ironfist of Stormreach' }, 'Tordek Ironfist of Stormreach'],
      [{ givenName: 'Solo' }, 'Solo'],
    ] as const) {
      const created = await t.create(body)
      expect(created.name).toBe(name)
      const character = t.me.characters({ id: created.id })
      const progress = ok(await character.progress.get())
      const navigation = ok(await t.me.navigation.get({ query: { characterId: created.id, routeId: route.id } }))
      const lives = ok(await character.lives.get())
      expect({
        progress: progress.character.name,
        navigation: navigation.character.name,
        life: lives.lives[0]?.name,
      }).toEqual({ progress: name, navigation: name, life: name })
    }
  })

  test('401 without a token', async () => {
    const t = await setup()
    refused(await t.api.plugin.characters.get(), 401)
    refused(await t.api.plugin.characters.post({ givenName: 'A' }), 401)
  })
})

type FindQuery = NonNullable<Parameters<Client['plugin']['characters']['find']['get']>[0]>['query']

describe('GET /characters/find', () => {
  async function seeded() {
    const t = await setup()
    await t.create({ givenName: 'Tordek', surname: 'Stonefist', server: 'Thrane' })
    await t.create({ givenName: 'Tordek', surname: 'Ironhand', server: 'Cormyr' })
    await t.create({ givenName: 'Mialee', server: 'Thrane' })
    const bob = await t.userWithToken('bob')
    ok(await t.plugin(bob).characters.post({ givenName: 'Tordek', surname: 'Stonefist', server: 'Thrane' }), 201)
    const find = async (query: FindQuery) => {
      const found = ok(await t.me.characters.find.get({ query }))
      expect(found.count).toBe(found.characters.length)
      return found.characters.map((c) => c.name)
    }
    return { ...t, find }
  }

  test.each<[FindQuery, string[]]>([
    [{ givenName: 'tordek' }, ['Tordek Stonefist', 'Tordek Ironhand']],
    [{ firstName: 'TORDEK', surname: 'ironhand' }, ['Tordek Ironhand']],
    [{ givenName: 'Tordek', lastName: 'Stonefist' }, ['Tordek Stonefist']],
    [{ name: 'tordek stonefist' }, ['Tordek Stonefist']],
    [{ name: 'tordek' }, ['Tordek Stonefist', 'Tordek Ironhand']],
    [{ name: 'mialee' }, ['Mialee']],
    [{ server: 'thrane' }, ['Tordek Stonefist', 'Mialee']],
    [{ givenName: 'tordek', server: 'CORMYR' }, ['Tordek Ironhand']],
    [{ givenName: 'nobody' }, []],
    [{}, ['Tordek Stonefist', 'Tordek Ironhand', 'Mialee']],
  ])('%o', async (query, expected) => {
    const t = await seeded()
    expect(await t.find(query)).toEqual(expected)
  })
})

describe('PATCH and PUT /characters/{id}', () => {
  for (const method of ['patch', 'put'] as const) {
    test(`${method.toUpperCase()} is partial: omitted fields keep their value`, async () => {
      const t = await setup()
      const c = await t.create({
        givenName: 'A',
        surname: 'B',
        server: 'Thrane',
        classes: [{ name: 'Monk', levels: 5 }],
      })
      t.clock.advance(60_000)
      const updated = ok(await t.me.characters({ id: c.id })[method]({ guild: 'New Guild', epic_levels: 2 }))
      expect(updated).toMatchObject({
        givenName: 'A',
        surname: 'B',
        server: 'Thrane',
        guild: 'New Guild',
        epicLevels: 2,
      })
      expect(updated.updatedAt).toBe('2026-11-21T12:01:00.000Z')
      expect(updated.createdAt).toBe('2026-11-21T12:00:00.000Z')
      expect(t.stored(c.id)).toMatchObject({ guild: 'New Guild', epicLevels: 2, server: 'Thrane', surname: 'B' })
      expect(t.stored(c.id)?.classes).toEqual([{ name: 'Monk', levels: 5 }])
    })
  }

  test('touchLastLogin and seen set lastLoginAt to now; an explicit timestamp wins', async () => {
    const t = await setup()
    const c = await t.create({ givenName: 'A' })
    const character = t.me.characters({ id: c.id })
    expect(c.lastLoginAt).toBeNull()
    t.clock.advance(1000)
    await character.patch({ touchLastLogin: true })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2026-11-21T12:00:01.000Z')
    t.clock.advance(1000)
    await character.put({ seen: true })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2026-11-21T12:00:02.000Z')
    await character.patch({ seen: true, lastLoginAt: '2020-01-01T00:00:00Z' })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2020-01-01T00:00:00.000Z')
    await character.patch({ guild: 'x' })
    expect(t.stored(c.id)?.lastLoginAt).toBe('2020-01-01T00:00:00.000Z')
  })

  test('a legacy name renames; classes are replaced whole', async () => {
    const t = await setup()
    const c = await t.create({ givenName: 'A', classes: [{ name: 'Monk', levels: 5 }] })
    const renamed = ok(
      await t.me.characters({ id: c.id }).patch({ name: 'Regdar Brave', classes: [{ name: 'Paladin', levels: 8 }] }),
    )
    expect(renamed).toMatchObject({ givenName: 'Regdar', surname: 'Brave', classSummary: 'Paladin 8' })
    expect(t.stored(c.id)?.classes).toEqual([{ name: 'Paladin', levels: 8 }])
  })

  test('invalid update: 400 and nothing changes', async () => {
    const t = await setup()
    const c = await t.create({ givenName: 'A', guild: 'G' })
    const before = t.stored(c.id)
    for (const body of [
      { guild: 'H', epicLevels: 99 },
      { guild: 'H', givenName: '' },
      { guild: 'H', classes: [{ name: 'Fighter', levels: 30 }] },
      { guild: 'H', lastLoginAt: 'soon' },
    ]) {
      expect((await t.me.characters({ id: c.id }).patch(body)).status).toBe(400)
    }
    // Raw: touchLastLogin is a boolean in the types.
    const mistyped = await t.json('PATCH', `${BASE}/${c.id}`, {
      token: t.token,
      body: { guild: 'H', touchLastLogin: 'yes' },
    })
    expect(mistyped.status).toBe(400)
    expect(t.stored(c.id)).toEqual(before)
  })

  test('an unknown id is 404', async () => {
    const t = await setup()
    refused(await t.me.characters({ id: 5 }).patch({ guild: 'x' }), 404)
  })
})

describe('POST /characters/{id}/login', () => {
  test('without a body: lastLoginAt = now; with one: that timestamp; answers the character', async () => {
    const t = await setup()
    const c = await t.create({ givenName: 'A' })
    const login = t.me.characters({ id: c.id }).login
    t.clock.advance(5000)
    const a = ok(await login.post())
    expect(a.lastLoginAt).toBe('2026-11-21T12:00:05.000Z')
    expect(a.id).toBe(c.id)
    const b = ok(await login.post({ lastLoginAt: '2026-11-21T13:00:00+01:00' }))
    expect(b.lastLoginAt).toBe('2026-11-21T12:00:00.000Z')
    expect(t.stored(c.id)?.lastLoginAt).toBe('2026-11-21T12:00:00.000Z')
    const n = ok(await login.post({ lastLoginAt: 'now' }))
    expect(n.lastLoginAt).toBe('2026-11-21T12:00:05.000Z')
  })

  test('bad timestamp is 400 and nothing changes', async () => {
    const t = await setup()
    const c = await t.create({ givenName: 'A' })
    refused(await t.me.characters({ id: c.id }).login.post({ lastLoginAt: 'tuesday' }), 400)
    expect(t.stored(c.id)?.lastLoginAt).toBeNull()
  })
})

describe('GET /characters/meta', () => {
  test('real DDO picklists: classes with archetypes, races with iconics, alignments, genders, servers', async () => {
    const t = await setup()
    const body = ok(await t.me.characters.meta.get())
    const classes = body.classes
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
    const races = body.races
    for (const name of ['Human', 'Drow Elf', 'Warforged', 'Dragonborn', 'Tabaxi', 'Dhampir'])
      expect(races).toContain(name)
    for (const name of ['Bladeforged', 'Purple Dragon Knight', 'Morninglord', 'Shadar-kai', 'Deep Gnome'])
      expect(races).toContain(name)
    expect(body.alignments).toContain('Lawful Good')
    expect(body.alignments).toContain('True Neutral')
    expect(body.genders).toEqual(['Male', 'Female'])
    expect(body.servers.length).toBeGreaterThan(0)
    expect(body).toMatchObject({ maxMulticlass: 3, maxClassLevel: 20, maxEpicLevels: 30, maxTotalLevel: 34 })
  })
})
