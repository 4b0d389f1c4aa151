// Hardening item 6 (OWASP API4, unrestricted resource consumption): a build document cannot grow
// past its size limit through merges, every array a client sends has an item limit, and the
// free-form tracker fields have a size limit. Each refusal is checked in the status, the
// `{"error"}` sentence and the stored rows (nothing written), on both APIs.
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { builds, lives } from '../../../src/db/schema'
import {
  MAX_BUILD_DOCUMENT_BYTES,
  MAX_BUILD_LEVELS,
  MAX_CLASS_SLOTS,
  MAX_FEATS_PER_LEVEL,
  MAX_INCOMPLETE_DOMAINS,
  MAX_LIFE_BYTES,
  MAX_LIVES_PAGE,
  MAX_LIVES_PER_CHARACTER,
  MAX_MAP_ENTRIES,
  MAX_NAME_CHARS,
  MAX_REAPER_SPEND,
  MAX_SELECTED_TREES,
  MAX_SKILLS_PER_LEVEL,
  MAX_SPECIAL_FEATS,
  MAX_SPENT_TREES,
  MAX_STANCES,
  MAX_TRAINED_PER_TREE,
  MAX_TRAINED_SPELLS,
} from '../../../src/modules/builds/limits'
import type { ReincarnateBody } from '../../../src/modules/builds/lives/model'
import type { PartialBody } from '../../../src/modules/builds/model'
import { MAX_EXCLUDED_PATRONS, MAX_TRACKER_FIELD_BYTES } from '../../../src/modules/progress/limits'
import { insertCharacter, ok, refused, storedBuild, storedCharacter, storedLives, testApp } from '../../helpers'

const KIB = 1024

// One app and one account for the whole file (logging in costs an argon2 hash); every test gets a
// character of its own, so "nothing written" is checked on rows no other test touches.
let app: Awaited<ReturnType<typeof signedIn>>

async function signedIn() {
  const h = testApp()
  const token = await h.userWithToken('alice')
  const cookie = await h.signIn('alice')
  return { ...h, token, cookie }
}

beforeAll(async () => {
  app = await signedIn()
})

async function setup() {
  const character = insertCharacter(app.db, 'alice', { givenName: 'Tessa', race: 'Elf' })
  return {
    ...app,
    character,
    // The character on each API, typed: `me` on the plugin's, `site` on the website's.
    me: app.plugin(app.token).characters({ id: character.id }),
    site: app.web(app.cookie).characters({ id: character.id }),
    // Its paths, naming the API in the assertions that try both (and for the raw requests).
    plugin: `/api/plugin/characters/${character.id}`,
    website: `/api/characters/${character.id}`,
  }
}

/** The typed API of one character (the website's has the same routes and types). */
type Character = Awaited<ReturnType<typeof setup>>['me']

/** What a typed call answers, as far as the assertions read it. */
interface Answer {
  status: number
  data: unknown
  error: { status: unknown; value: unknown } | null
}

/** An error answer as the assertions compare it: its status and its body. */
const statusAndBody = (answer: Answer) => ({ status: answer.status, body: answer.error?.value })

/** A section key holding `kib` KiB of text: each patch is well under the 1 MiB body cap. */
const blob = (key: string, size: number) => ({ [key]: 'x'.repeat(size * KIB) })

describe('a build document is capped at its stored size, after the merge', () => {
  test('live/partial: patches of 200 KiB merge until 512 KiB; the next is 413 and nothing is written', async () => {
    const { me, db, clock, character } = await setup()
    for (const key of ['a', 'b']) ok(await me.live.partial.put({ build: blob(key, 200) }))
    const before = storedBuild(db, character.id, 'live')!
    clock.advance(60_000)

    const body = refused(
      await me.live.partial.put({ life: { race: 'Human' }, build: { level: 3, ...blob('c', 200) } }),
      413,
    )
    expect(body).toEqual({
      error:
        'The live snapshot would take 601 KiB as JSON; a build document may take at most 512 KiB (send smaller sections, or replace the document instead of merging into it).',
    })
    expect(storedBuild(db, character.id, 'live')).toEqual(before)
    expect(storedCharacter(db, character.id).race).toBe('Elf')
    expect(storedCharacter(db, character.id).epicLevels).toBe(0)
    expect(ok(await me.live.get()).document.build).not.toHaveProperty('c')
  })

  test('build/partial on the website cookie API: the same limit on the planned build', async () => {
    const { site, db, character } = await setup()
    for (const key of ['a', 'b']) ok(await site.build.partial.put({ build: blob(key, 250) }))
    const before = storedBuild(db, character.id, 'planned')!
    const body = refused(await site.build.partial.put({ tomes: blob('x', 20) }), 413)
    expect(body.error).toStartWith('The planned build would take ')
    expect(body.error).toContain('at most 512 KiB')
    expect(storedBuild(db, character.id, 'planned')).toEqual(before)
  })

  test('PUT live replacing with a document over the limit: 413, no snapshot, no profile sync, no life', async () => {
    const { me, db, character } = await setup()
    const document = { life: { race: 'Human' }, build: { level: 25, classes: ['Fighter'], ...blob('notes', 600) } }
    const body = refused(await me.live.put({ document, source: 'plugin' }), 413)
    expect(body.error).toContain('a build document may take at most 512 KiB')
    expect(storedBuild(db, character.id, 'live')).toBeUndefined()
    expect(storedCharacter(db, character.id)).toMatchObject({ race: 'Elf', epicLevels: 0, classes: [] })
    // The current life is opened lazily inside the same transaction: rolled back with it.
    expect(storedLives(db, character.id)).toEqual([])
  })

  test('PUT live?merge=1 and PUT build: the merged or replaced whole is what is measured', async () => {
    const { me, db, character } = await setup()
    ok(await me.live.put({ build: blob('a', 300) }))
    const before = storedBuild(db, character.id, 'live')!
    refused(await me.live.put({ build: blob('b', 300) }, { query: { merge: '1' } }), 413)
    expect(storedBuild(db, character.id, 'live')).toEqual(before)
    // Without merge the same body replaces the snapshot and fits.
    ok(await me.live.put({ build: blob('b', 300) }))

    refused(await me.build.put({ build: blob('notes', 513) }), 413)
    expect(storedBuild(db, character.id, 'planned')).toBeUndefined()
  })

  test('a document stored before the limits (over them) is still read back, and can be replaced', async () => {
    const { me, db, character } = await setup()
    const levels = Array.from({ length: MAX_BUILD_LEVELS + 10 }, () => ({ class: 'Fighter' }))
    const document = { role: 'live', build: { levels, ...blob('notes', 600) } }
    db.insert(builds)
      .values({ characterId: character.id, role: 'live', document, updatedAt: '2026-01-01T00:00:00.000Z' })
      .run()
    const read = ok(await me.live.get())
    expect(read.document.build?.levels).toHaveLength(MAX_BUILD_LEVELS + 10)
    // Merging keeps it over the limit; replacing it brings it back under.
    refused(await me.live.partial.put({ tomes: { str: 1 } }), 413)
    ok(await me.live.put({ build: { level: 4 } }))
    expect(MAX_BUILD_DOCUMENT_BYTES).toBe(512 * KIB)
  })
})

const many = <T>(n: number, item: (i: number) => T) => Array.from({ length: n }, (_, i) => item(i))
const feats = (n: number) => many(n, (i) => ({ name: `Feat ${i}`, type: 'Special' }))
const entries = <V>(n: number, value: V) => Object.fromEntries(many(n, (i) => [String(i + 1), value] as const))

// [what, the request (on either API), field named in the sentence, what it must be]
const ARRAYS: [string, (character: Character) => Promise<Answer>, string, string][] = [
  [
    'levels',
    (c) => c.live.put({ build: { levels: many(MAX_BUILD_LEVELS + 1, () => ({})) } }),
    'build.levels',
    'an array of at most 40 items',
  ],
  [
    'levels (wrapper form)',
    (c) => c.build.put({ document: { build: { levels: many(41, () => ({})) } } }),
    'document.build.levels',
    'an array of at most 40 items',
  ],
  [
    'feats of a level',
    (c) => c.live.partial.put({ build: { levels: [{ feats: feats(MAX_FEATS_PER_LEVEL + 1) }] } }),
    'build.levels.0.feats',
    'an array of at most 100 items',
  ],
  [
    'skills of a level',
    (c) => c.build.partial.put({ build: { levels: [{ skills: many(MAX_SKILLS_PER_LEVEL + 1, String) }] } }),
    'build.levels.0.skills',
    'an array of at most 100 items',
  ],
  [
    'class slots',
    (c) => c.live.put({ build: { classes: many(MAX_CLASS_SLOTS + 1, () => null) } }),
    'build.classes',
    'an array of at most 10 items',
  ],
  [
    'selected trees',
    (c) => c.live.put({ build: { enhancementTrees: { selected: many(MAX_SELECTED_TREES + 1, String) } } }),
    'build.enhancementTrees.selected',
    'an array of at most 20 items',
  ],
  [
    'trees spent in',
    (c) => c.build.put({ build: { destinyTrees: { spend: many(MAX_SPENT_TREES + 1, () => ({})) } } }),
    'build.destinyTrees.spend',
    'an array of at most 50 items',
  ],
  [
    'enhancements of a tree',
    (c) =>
      c.live.put({ build: { enhancementTrees: { spend: [{ trained: many(MAX_TRAINED_PER_TREE + 1, () => ({})) }] } } }),
    'build.enhancementTrees.spend.0.trained',
    'an array of at most 200 items',
  ],
  [
    'reaper spend',
    (c) => c.live.put({ build: { reaper: { spend: many(MAX_REAPER_SPEND + 1, () => 1) } } }),
    'build.reaper.spend',
    'an array of at most 500 items',
  ],
  [
    'trained spells',
    (c) => c.build.put({ build: { trainedSpells: many(MAX_TRAINED_SPELLS + 1, () => ({})) } }),
    'build.trainedSpells',
    'an array of at most 1000 items',
  ],
  [
    'stances',
    (c) => c.live.put({ build: { stances: many(MAX_STANCES + 1, String) } }),
    'build.stances',
    'an array of at most 100 items',
  ],
  [
    'ability bumps',
    (c) => c.build.put({ build: { levelAbilityBumps: entries(MAX_MAP_ENTRIES + 1, 'str') } }),
    'build.levelAbilityBumps',
    'an object of at most 100 entries',
  ],
  [
    'skill tomes',
    (c) => c.live.partial.put({ tomes: { skills: entries(MAX_MAP_ENTRIES + 1, 1) } }),
    'tomes.skills',
    'an object of at most 100 entries',
  ],
  [
    'special feats',
    (c) => c.live.put({ life: { specialFeats: feats(MAX_SPECIAL_FEATS + 1) } }),
    'life.specialFeats',
    'an array of at most 500 items',
  ],
  [
    'past lives of a patch',
    (c) => c.live.partial.put({ pastLives: feats(MAX_SPECIAL_FEATS + 1) }),
    'pastLives',
    'an array of at most 500 items',
  ],
  [
    'incomplete domains',
    (c) => c.live.put({ meta: { incomplete: many(MAX_INCOMPLETE_DOMAINS + 1, String) } }),
    'meta.incomplete',
    'an array of at most 32 items',
  ],
  [
    'incomplete (wrapper form)',
    (c) => c.live.put({ document: {}, incomplete: many(MAX_INCOMPLETE_DOMAINS + 1, String) }),
    'incomplete',
    'an array of at most 32 items',
  ],
]

describe('every array of the document has an item limit (400 naming it, nothing written)', () => {
  test.each(ARRAYS)('%s', async (_what, send, field, must) => {
    const { me, site, db, plugin, website, character } = await setup()
    for (const [base, character] of [
      [plugin, me],
      [website, site],
    ] as const) {
      expect({ base, ...statusAndBody(await send(character)) }).toEqual({
        base,
        status: 400,
        body: { error: `Body field "${field}" must be ${must}.` },
      })
    }
    expect(storedBuild(db, character.id, 'live')).toBeUndefined()
    expect(storedBuild(db, character.id, 'planned')).toBeUndefined()
  })

  test('at the limit itself the document is accepted', async () => {
    const { me } = await setup()
    const body = {
      life: { specialFeats: feats(MAX_SPECIAL_FEATS) },
      build: { levels: many(MAX_BUILD_LEVELS, () => ({ class: 'Fighter' })), stances: many(MAX_STANCES, String) },
    }
    ok(await me.live.put(body))
  })
})

describe('lives', () => {
  test('reincarnate: more than 500 additionalPastLives is 400 and nothing changes', async () => {
    const { me, db, character } = await setup()
    const body = refused(await me.lives.reincarnate.post({ additionalPastLives: feats(MAX_SPECIAL_FEATS + 1) }), 400)
    expect(body).toEqual({ error: 'Body field "additionalPastLives" must be an array of at most 500 items.' })
    expect(storedLives(db, character.id)).toEqual([])
  })

  test(`a character at ${MAX_LIVES_PER_CHARACTER} lives cannot reincarnate again: 409, nothing changes`, async () => {
    const { site, db, character } = await setup()
    db.insert(lives)
      .values(
        many(MAX_LIVES_PER_CHARACTER, (i) => ({
          characterId: character.id,
          lifeIndex: i + 1,
          questLife: i + 1,
          isCurrent: i === MAX_LIVES_PER_CHARACTER - 1,
          createdAt: '2026-01-01T00:00:00.000Z',
        })),
      )
      .run()
    const body = refused(await site.lives.reincarnate.post({}), 409)
    expect(body).toEqual({ error: `Character ${character.id} already has 200 lives, the most a character may have.` })
    const rows = storedLives(db, character.id)
    expect(rows).toHaveLength(MAX_LIVES_PER_CHARACTER)
    expect(rows.filter((row) => row.isCurrent).map((row) => row.lifeIndex)).toEqual([MAX_LIVES_PER_CHARACTER])
  })

  test('a new life that would carry more than 500 special feats: 409, nothing changes', async () => {
    const { me, db, character } = await setup()
    ok(await me.lives.get())
    const carried = feats(450).map((feat) => ({ ...feat, stacks: 1 }))
    db.update(lives).set({ specialFeats: carried }).where(eq(lives.characterId, character.id)).run()
    const body = refused(
      await me.lives.reincarnate.post({
        // Not past lives (a reincarnation grants one of those): feats it carries all the same.
        additionalPastLives: many(100, (i) => ({ name: `Extra ${i}`, type: 'Special' })),
      }),
      409,
    )
    expect(body).toEqual({ error: 'The new life would have 550 special feats; a life may have at most 500.' })
    const rows = storedLives(db, character.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ isCurrent: true, archivedAt: null, specialFeats: carried })
  })
})

// Hardening II item 1: every reincarnation copied the feats of the life before, and neither the
// feats' names nor the life had a size limit: one ~1 MB reincarnate and 848 with `{}` stored
// 976 MB for one character, and GET lives answered 1 GB. Now every name has a length limit
// (400), a life a size limit (413), and the lives a count (409); their product bounds a character.
describe('lives cannot be multiplied into megabytes', () => {
  const longFeats = (n: number, chars: number) =>
    many(n, (i) => ({ name: `${i} ${'x'.repeat(chars)}`.slice(0, chars), type: 'EpicPastLife' }))

  test('the attack: a reincarnate of 500 feats of 2,000 characters is 400, and so is a long name', async () => {
    const { me, db, character } = await setup()
    const attack = refused(await me.lives.reincarnate.post({ additionalPastLives: longFeats(500, 2000) }), 400)
    // Every one of the 500 is too long; the sentence names one of them.
    expect(attack.error).toMatch(
      /^Body field "additionalPastLives\.\d+\.name" must be a string of 1 to 200 characters\.$/,
    )
    const cases: [ReincarnateBody, string, string][] = [
      [
        { additionalPastLives: [{ name: 'Past Life: Monk', type: 'x'.repeat(201) }] },
        'additionalPastLives.0.type',
        'a string of at most 200 characters',
      ],
      [{ name: 'x'.repeat(2000) }, 'name', 'a string of at most 200 characters'],
      [{ race: 'x'.repeat(201) }, 'race', 'a string of at most 200 characters'],
      [{ alignment: 'x'.repeat(201) }, 'alignment', 'a string of at most 200 characters'],
    ]
    for (const [body, field, must] of cases) {
      expect({ field, ...statusAndBody(await me.lives.reincarnate.post(body)) }).toEqual({
        field,
        status: 400,
        body: { error: `Body field "${field}" must be ${must}.` },
      })
    }
    expect(storedLives(db, character.id)).toEqual([])
  })

  test.each<[string, PartialBody, string]>([
    ['a special feat', { life: { specialFeats: longFeats(1, 201) } }, 'life.specialFeats.0.name'],
    ['a feat type', { life: { specialFeats: [{ name: 'Tome', type: 'x'.repeat(201) }] } }, 'life.specialFeats.0.type'],
    ['a past life of a patch', { pastLives: longFeats(1, 201) }, 'pastLives.0.name'],
    ['the life name', { life: { name: 'x'.repeat(201) } }, 'life.name'],
    ['the race', { life: { race: 'x'.repeat(201) } }, 'life.race'],
    ['the alignment', { life: { alignment: 'x'.repeat(201) } }, 'life.alignment'],
    ['a level class', { build: { levels: [{ class: 'x'.repeat(201) }] } }, 'build.levels.0.class'],
    ['a level feat', { build: { levels: [{ feats: [{ name: 'x'.repeat(201) }] }] } }, 'build.levels.0.feats.0.name'],
  ])('a build document: %s over 200 characters is 400 naming it, nothing written', async (_what, body, field) => {
    const { me, db, character } = await setup()
    expect(statusAndBody(await me.live.partial.put(body))).toMatchObject({
      status: 400,
      body: { error: `Body field "${field}" must be a string of at most 200 characters.` },
    })
    expect(storedBuild(db, character.id, 'live')).toBeUndefined()
    expect(storedLives(db, character.id)).toEqual([])
  })

  test('a class slot over 200 characters is 400 too', async () => {
    const { me } = await setup()
    expect(refused(await me.build.put({ build: { classes: ['x'.repeat(201)] } }), 400)).toEqual({
      error: 'Body field "build.classes.0" must be a string of at most 200 characters or null.',
    })
  })

  test('a life over 24 KiB: reincarnate is 413 and nothing changes', async () => {
    const { me, db, character } = await setup()
    ok(await me.lives.get())
    const before = storedLives(db, character.id)
    const special = longFeats(300, 150).map((feat) => ({ ...feat, type: 'Special' }))
    const body = refused(await me.lives.reincarnate.post({ additionalPastLives: special }), 413)
    expect(body).toEqual({
      error:
        'The new life would take 56 KiB as JSON; a life (name, race, alignment, classes and special feats) may take at most 24 KiB.',
    })
    expect(storedLives(db, character.id)).toEqual(before)
  })

  test('a build whose life is over 24 KiB: 413 on both APIs; no build, no life, no profile change', async () => {
    const { me, site, db, plugin, website, character } = await setup()
    const body = { life: { race: 'Human', specialFeats: longFeats(300, 150) }, build: { level: 3 } }
    for (const [path, send] of [
      [`${plugin}/live`, () => me.live.put(body)],
      [`${plugin}/live/partial`, () => me.live.partial.put(body)],
      [`${website}/build`, () => site.build.put(body)],
    ] as const) {
      expect({ path, ...statusAndBody(await send()) }).toEqual({
        path,
        status: 413,
        body: {
          error:
            'The current life would take 58 KiB as JSON; a life (name, race, alignment, classes and special feats) may take at most 24 KiB: send fewer or shorter special feats.',
        },
      })
    }
    expect(storedBuild(db, character.id, 'live')).toBeUndefined()
    expect(storedBuild(db, character.id, 'planned')).toBeUndefined()
    expect(storedLives(db, character.id)).toEqual([])
    expect(storedCharacter(db, character.id).race).toBe('Elf')
  })

  test(`the attack replayed: the largest life, copied until the cap, stays under ${MAX_LIVES_PER_CHARACTER} x 24 KiB`, async () => {
    const { me, db, character } = await setup()
    // Nearly as many 200-character feats as one life may hold: 95 of them take about 22 KiB.
    const feats = longFeats(95, MAX_NAME_CHARS)
    ok(await me.live.put({ life: { specialFeats: feats } }))
    const statuses: number[] = []
    for (let i = 0; i < MAX_LIVES_PER_CHARACTER; i++) {
      statuses.push((await me.lives.reincarnate.post({})).status)
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_LIVES_PER_CHARACTER - 1)
    expect(statuses.at(-1)).toBe(409)
    const rows = storedLives(db, character.id)
    expect(rows).toHaveLength(MAX_LIVES_PER_CHARACTER)
    const stored = rows.reduce((sum, row) => sum + JSON.stringify(row).length, 0)
    expect(stored).toBeLessThan(MAX_LIVES_PER_CHARACTER * MAX_LIFE_BYTES)
    expect(MAX_LIVES_PER_CHARACTER * MAX_LIFE_BYTES).toBeLessThan(5 * 1024 * KIB)
  })

  test('normal play: a 10-life history of a character with a full set of past lives is never refused', async () => {
    const { me, db, character } = await setup()
    // Larger than the fullest real life (the example monk: 112 entries, 7.9 KB): 120 feats named
    // like the game's longest, "Past Life: Paladin - Sacred Fist".
    const full = many(120, (i) => ({
      name: `Past Life: Paladin - Sacred Fist ${i}`,
      type: 'HeroicPastLife',
      stacks: 3,
    }))
    ok(await me.live.put({ life: { name: 'Tessa Brightblade', race: 'Aasimar Scourge', specialFeats: full } }))
    for (let i = 0; i < 10; i++) {
      ok(
        // Epic reincarnations, each granting one epic past life, and iconic ones between them.
        await me.lives.reincarnate.post(
          i % 2 === 0
            ? { additionalPastLives: [{ name: `Past Life: Extra ${i}`, type: 'EpicPastLife' }] }
            : { grantRacial: true },
        ),
      )
    }
    const list = ok(await me.lives.get())
    expect(list.lives).toHaveLength(11)
    expect(list.lives.at(-1)?.specialFeats.length).toBeGreaterThan(120)
    expect(storedLives(db, character.id)).toHaveLength(11)
  })

  test('GET lives comes a page at a time; the plain request answers every life', async () => {
    const { me, site, db, character } = await setup()
    db.insert(lives)
      .values(
        many(12, (i) => ({
          characterId: character.id,
          lifeIndex: i + 1,
          questLife: i + 1,
          isCurrent: i === 11,
          name: `Life ${i + 1}`,
          createdAt: '2026-01-01T00:00:00.000Z',
        })),
      )
      .run()
    const all = ok(await me.lives.get())
    expect(all.lives.map((life) => life.lifeIndex)).toEqual(many(12, (i) => i + 1))
    expect(all).toMatchObject({ total: 12, limit: MAX_LIVES_PAGE, offset: 0 })

    const page = ok(await site.lives.get({ query: { limit: 5, offset: 10 } }))
    expect(page.lives.map((life) => [life.lifeIndex, life.isCurrent])).toEqual([
      [11, false],
      [12, true],
    ])
    expect(page).toMatchObject({ total: 12, limit: 5, offset: 10 })

    for (const [query, error] of [
      [{ limit: 0 }, `Query parameter "limit" must be an integer from 1 to ${MAX_LIVES_PAGE}.`],
      [{ limit: MAX_LIVES_PAGE + 1 }, `Query parameter "limit" must be an integer from 1 to ${MAX_LIVES_PAGE}.`],
      [{ offset: -1 }, 'Query parameter "offset" must be an integer of at least 0.'],
    ] as const) {
      expect({ query, ...statusAndBody(await me.lives.get({ query })) }).toEqual({
        query,
        status: 400,
        body: { error },
      })
    }
  })

  test('lives stored before the cap are still read, a page at a time', async () => {
    const { me, db, character } = await setup()
    const count = MAX_LIVES_PER_CHARACTER + 50
    db.insert(lives)
      .values(
        many(count, (i) => ({
          characterId: character.id,
          lifeIndex: i + 1,
          questLife: i + 1,
          isCurrent: i === count - 1,
          createdAt: '2026-01-01T00:00:00.000Z',
        })),
      )
      .run()
    const first = ok(await me.lives.get())
    expect(first.lives).toHaveLength(MAX_LIVES_PAGE)
    expect(first.total).toBe(count)
    const rest = ok(await me.lives.get({ query: { offset: MAX_LIVES_PAGE } }))
    expect(rest.lives.map((life) => life.lifeIndex).at(-1)).toBe(count)
    expect(rest.lives.at(-1)?.isCurrent).toBe(true)
  })
})

describe('PUT progress: the free-form tracker fields are capped', () => {
  const big = { blob: 'x'.repeat(MAX_TRACKER_FIELD_BYTES) }

  test.each(['xpBoosts', 'optionalPursuit', 'packState', 'questNotes'])(
    '%s over 64 KiB as JSON: 413 on both APIs, and no field of the request is written',
    async (field) => {
      const { me, site, db, plugin, website, character } = await setup()
      for (const [base, character] of [
        [plugin, me],
        [website, site],
      ] as const) {
        const res = await character.progress.put({ targetDifficulty: 'elite', [field]: big })
        expect({ base, ...statusAndBody(res) }).toEqual({
          base,
          status: 413,
          body: { error: `Body field "${field}" may take at most 64 KiB as JSON; it takes 65 KiB.` },
        })
      }
      const row: Record<string, unknown> = storedCharacter(db, character.id)
      expect(row.targetDifficulty).toBe('any')
      expect(row[field]).toEqual({})
    },
  )

  test('excludedPatrons: more than 1000 entries is 400, more than 64 KiB is 413', async () => {
    const { me, db, character } = await setup()
    const tooMany = refused(
      await me.progress.put({ excludedPatrons: many(MAX_EXCLUDED_PATRONS + 1, () => 'The Coin Lords') }),
      400,
    )
    expect(tooMany).toEqual({ error: 'Body field "excludedPatrons" must be an array of at most 1000 items.' })
    const tooBig = refused(await me.progress.put({ excludedPatrons: many(10, () => 'x'.repeat(7 * KIB)) }), 413)
    expect(tooBig.error).toStartWith('Body field "excludedPatrons" may take at most 64 KiB as JSON')
    expect(storedCharacter(db, character.id).excludedPatrons).toEqual([])
  })

  test('a field just under the limit is stored whole', async () => {
    const { me, db, character } = await setup()
    const notes = { 'The Collaborator': 'y'.repeat(MAX_TRACKER_FIELD_BYTES - 64) }
    ok(await me.progress.put({ questNotes: notes }))
    expect(storedCharacter(db, character.id).questNotes).toEqual(notes)
  })
})
