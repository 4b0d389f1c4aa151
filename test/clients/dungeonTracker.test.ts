// The game plugin players actually run: DungeonTracker, a Dungeon Helper plugin (public as
// settoloki/DungeonTracker). Its requests as its source builds them (DdoTrackerApiClient.cs,
// DdoTrackerSyncService.cs, Models/DdoTrackerModels.cs): System.Text.Json in camelCase with null
// fields left out, `Accept: application/json`, a bearer token after its login. Each behaviour it
// counts on is checked here: the first result of `characters/find` is its match, a PUT leaves out
// what it does not know, a completion carries the in-game title, no XP, and the same `completedAt`
// (.NET's round-trip "o" format, 7 fractional digits) each time it is re-sent from its queue.
import { beforeEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { completions, runs } from '../../src/db/schema'
import { silentLogger } from '../../src/logger'
import { fillFromSnapshot } from '../../src/modules/catalog/snapshot'
import { insertCharacter, storedCharacter, testApp } from '../helpers'

const PASSWORD = 'correct horse battery'

/** The plugin's HttpClient: JSON in, JSON out, its token once signed in. */
function plugin(t: ReturnType<typeof testApp>) {
  let token: string | null = null
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await t.request(method, `/api/plugin/${path}`, {
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      raw: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
  return {
    send,
    /** LoginAsync: `{email, password, label: "dungeonhelper"}`, whatever the player typed as "email". */
    async login(email: string) {
      const answer = await send('POST', 'auth/login', { email, password: PASSWORD, label: 'dungeonhelper' })
      token = answer.body?.token ?? null
      return answer
    },
  }
}

let t: ReturnType<typeof testApp>
let client: ReturnType<typeof plugin>
beforeEach(async () => {
  t = testApp()
  await t.userWithToken('alice', PASSWORD)
  fillFromSnapshot({ db: t.db, logger: silentLogger })
  client = plugin(t)
  expect((await client.login('alice')).status).toBe(200)
})

/**
 * What System.Text.Json (case-insensitive names, as the plugin sets it) accepts for a property of
 * the plugin's models: a string property takes a string or null, an int? a whole number or null
 * (a number in a string, or a string in a number, throws and the plugin's call fails); its
 * FlexibleStringConverter takes a string or a number. Unknown properties are ignored.
 */
type Kind = 'string' | 'int' | 'flexible' | 'bool' | { list: Model } | Model
interface Model {
  [property: string]: Kind
}

function misfits(value: unknown, model: Model, at = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${at || 'the answer'} is not an object`]
  const byName = new Map(Object.entries(value).map(([key, v]) => [key.toLowerCase(), v]))
  return Object.entries(model).flatMap(([name, kind]) => {
    const v = byName.get(name.toLowerCase())
    const where = `${at}${name}`
    if (v === undefined || v === null) return []
    if (kind === 'string') return typeof v === 'string' ? [] : [`${where} is ${JSON.stringify(v)}, not a string`]
    if (kind === 'int') return Number.isInteger(v) ? [] : [`${where} is ${JSON.stringify(v)}, not an int`]
    if (kind === 'bool') return typeof v === 'boolean' ? [] : [`${where} is not a boolean`]
    if (kind === 'flexible')
      return ['string', 'number', 'boolean'].includes(typeof v) ? [] : [`${where} is not a scalar`]
    if ('list' in kind && typeof kind.list === 'object') {
      if (!Array.isArray(v)) return [`${where} is not a list`]
      return v.flatMap((item, i) => misfits(item, kind.list as Model, `${where}[${i}].`))
    }
    return misfits(v, kind as Model, `${where}.`)
  })
}

// Models/DdoTrackerModels.cs, property by property.
const USER: Model = { id: 'flexible', email: 'string', name: 'string', displayName: 'string' }
const LOGIN: Model = { token: 'string', tokenId: 'flexible', label: 'string', user: USER }
const CHARACTER: Model = {
  id: 'flexible',
  name: 'string',
  givenName: 'string',
  firstName: 'string',
  surname: 'string',
  race: 'string',
  gender: 'string',
  alignment: 'string',
  server: 'string',
  serverName: 'string',
  guild: 'string',
  classes: { list: { name: 'string', levels: 'int' } },
  classSummary: 'string',
  epicLevels: 'int',
  heroicLevel: 'int',
  totalLevel: 'int',
  characterLevel: 'int',
  minLevel: 'int',
}
const CHARACTERS: Model = { characters: { list: CHARACTER } }

test('signs in with its "email" field holding a username; every answer it reads fits its models', async () => {
  const login = await plugin(t).login('alice')
  expect(misfits(login.body, LOGIN)).toEqual([])
  expect(login.body.token).toBeString()
  const me = await client.send('GET', 'auth/me')
  expect(me.body).toMatchObject({ username: 'alice' })
  expect(misfits(me.body, USER)).toEqual([])
  const made = await client.send('POST', 'characters', {
    name: 'Tordek Stonehammer',
    givenName: 'Tordek',
    surname: 'Stonehammer',
    race: 'Dwarf',
    gender: 'Male',
    server: 'Thrane',
    classes: [{ name: 'Fighter', levels: 12 }],
    epicLevels: 0,
    lastLoginAt: 'now',
    touchLastLogin: true,
  })
  expect(made.status).toBe(201)
  expect(misfits(made.body, CHARACTER)).toEqual([])
  expect(misfits((await client.send('GET', 'characters')).body, CHARACTERS)).toEqual([])
  expect(misfits((await client.send('GET', 'characters/find?givenName=Tordek')).body, CHARACTERS)).toEqual([])
  const put = await client.send('PUT', `characters/${made.body.id}`, {
    givenName: 'Tordek',
    guild: 'Stormreach Irregulars',
  })
  expect(misfits(put.body, CHARACTER)).toEqual([])
})

describe('characters/find: the first result is the one it takes', () => {
  test('the character named exactly as the game names it comes first, whatever the account order', async () => {
    // A typo made on the website first, then the character as the game writes it.
    insertCharacter(t.db, 'alice', { givenName: 'tordek', surname: 'stonehammer', server: 'Thrane' })
    const exact = insertCharacter(t.db, 'alice', { givenName: 'Tordek', surname: 'Stonehammer', server: 'Thrane' })
    const { body } = await client.send(
      'GET',
      'characters/find?givenName=Tordek&surname=Stonehammer&name=Tordek%20Stonehammer',
    )
    expect(body.count).toBe(2)
    expect(body.characters[0].id).toBe(exact.id)
  })

  test('with no server asked (it never sends one), the one played last comes first; with one, its server', async () => {
    const thrane = insertCharacter(t.db, 'alice', {
      givenName: 'Lidda',
      server: 'Thrane',
      lastLoginAt: '2026-11-01T20:00:00.000Z',
    })
    const argo = insertCharacter(t.db, 'alice', {
      givenName: 'Lidda',
      server: 'Argonnessen',
      lastLoginAt: '2026-11-28T20:00:00.000Z',
    })
    const ids = async (query: string) =>
      (await client.send('GET', `characters/find?${query}`)).body.characters.map((c: { id: number }) => c.id)
    expect(await ids('givenName=Lidda&name=Lidda')).toEqual([argo.id, thrane.id])
    expect(await ids('givenName=Lidda&server=Thrane')).toEqual([thrane.id])
  })
})

test('its PUT leaves out what it does not know: those fields keep their value', async () => {
  const hero = insertCharacter(t.db, 'alice', {
    givenName: 'Tordek',
    surname: 'Stonehammer',
    gender: 'Male',
    alignment: 'Lawful Good',
    guild: 'Stormreach Irregulars',
    classes: [{ name: 'Fighter', levels: 12 }],
    epicLevels: 0,
  })
  // BuildUpsertRequest for a game character whose gender, alignment, guild and classes were not read.
  const answer = await client.send('PUT', `characters/${hero.id}`, {
    name: 'Tordek Stonehammer',
    givenName: 'Tordek',
    surname: 'Stonehammer',
    race: 'Dwarf',
    server: 'Thrane',
    lastLoginAt: 'now',
    touchLastLogin: true,
  })
  expect(answer.status).toBe(200)
  expect(storedCharacter(t.db, hero.id)).toMatchObject({
    race: 'Dwarf',
    server: 'Thrane',
    gender: 'Male',
    alignment: 'Lawful Good',
    guild: 'Stormreach Irregulars',
    classes: [{ name: 'Fighter', levels: 12 }],
  })
  expect((await client.send('POST', `characters/${hero.id}/login`, { lastLoginAt: 'now' })).status).toBe(200)
})

describe('its completions', () => {
  const post = (id: number, body: Record<string, unknown>) => client.send('POST', `characters/${id}/completions`, body)
  const stored = (id: number) => t.db.select().from(completions).where(eq(completions.characterId, id)).all()

  test('the in-game title with a curly apostrophe, or without "(quest)", finds its catalog row', async () => {
    const hero = insertCharacter(t.db, 'alice', { givenName: 'Tordek' })
    // FlushPendingAsync's body: no XP; the setting as read; completedAt in .NET's "o" format.
    const completedAt = '2026-11-28T20:15:30.1234567Z'
    expect(
      (
        await post(hero.id, {
          name: 'Misery\u2019s Peak',
          difficulty: 'Heroic',
          setting: 'elite',
          durationSeconds: 1234,
          completedAt,
        })
      ).status,
    ).toBe(201)
    expect(
      (await post(hero.id, { name: 'Devil Assault', difficulty: 'Heroic', setting: 'hard', completedAt })).status,
    ).toBe(201)
    expect(stored(hero.id).map((c) => [c.name, c.setting, c.completedAt, c.xpEarned])).toEqual([
      ["Misery's Peak", 'elite', '2026-11-28T20:15:30.123Z', null],
      ['Devil Assault (quest)', 'hard', '2026-11-28T20:15:30.123Z', null],
    ])
  })

  test('a completion re-sent from its queue with the same completedAt is the same run, not a second', async () => {
    const hero = insertCharacter(t.db, 'alice', { givenName: 'Tordek' })
    const body = {
      name: 'Misery\u2019s Peak',
      difficulty: 'Heroic',
      setting: 'elite',
      durationSeconds: 1234,
      completedAt: '2026-11-28T20:15:30.1234567Z',
    }
    expect((await post(hero.id, body)).status).toBe(201)
    // The answer was lost on the way back: the queue sends it again, twice.
    await post(hero.id, body)
    await post(hero.id, body)
    const [completion] = stored(hero.id)
    expect(completion?.runs).toBe(1)
    const allRuns = t.db
      .select()
      .from(runs)
      .where(and(eq(runs.completionId, completion?.id ?? 0)))
      .all()
    expect(allRuns.map((run) => [run.completedAt, run.durationSeconds, run.xpEarned])).toEqual([
      ['2026-11-28T20:15:30.123Z', 1234, null],
    ])
  })
})

test('GET quests: the catalog it refreshes its own from, with every contract field', async () => {
  const { body } = await client.send('GET', 'quests')
  expect(body.count).toBeGreaterThanOrEqual(718)
  expect(Object.keys(body.quests[0])).toEqual(
    expect.arrayContaining([
      'name',
      'difficulty',
      'level',
      'soloXP',
      'normalXP',
      'hardXP',
      'eliteXP',
      'duration',
      'pack',
      'patron',
      'favor',
    ]),
  )
})
