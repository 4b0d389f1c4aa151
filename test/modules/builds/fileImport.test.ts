// A whole DDO Builder file on the website's cookie API: POST /api/characters/{id}/build/import/preview
// and .../build/import with what the player takes of it (the plan of any build; who the character
// is now; its lives history; its completed quests), as JSON or as an uploaded file, and the
// export writing the history back. Our own file, test/fixtures/three-lives.DDOBuild, always
// runs: Brakk, a Human Fighter 20, then an Elf Wizard 20, now a Dwarf with two builds (Cleric 4,
// and Cleric 10 / Fighter 2, the planner's active one), past lives Fighter, Human, Wizard, Elf
// and Doublestrike (epic). Real files are in test/modules/builds/ddobuilder/realFiles.test.ts.
import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { characters, completions, runs } from '../../../src/db/schema'
import { MAX_BODY_BYTES } from '../../../src/http/body'
import { MAX_XML_TAGS } from '../../../src/modules/builds/ddobuilder'
import { MAX_IMPORT_BODY_BYTES } from '../../../src/modules/builds/limits'
import { syncCatalog } from '../../../src/modules/catalog/sync'
import { SMALL_JSON, syncDeps } from '../../catalogFixtures'
import { insertCharacter, ok, refused, storedLives, type TestApp, testApp } from '../../helpers'

const THREE_LIVES = join(import.meta.dir, '..', '..', 'fixtures', 'three-lives.DDOBuild')
const SMALL_FIGHTER = join(import.meta.dir, '..', '..', 'fixtures', 'small-fighter.DDOBuild')
const MIB = 1024 * 1024

let t: TestApp
let alice: string
let bob: string
let xml: string

// One app for the whole file (alice and bob, the small catalog) is shared; every test makes its own character (setup) and writes only to it.
beforeAll(async () => {
  t = testApp()
  await syncCatalog(syncDeps(t), SMALL_JSON)
  await t.userWithToken('alice')
  await t.userWithToken('bob')
  alice = await t.signIn('alice')
  bob = await t.signIn('bob')
  xml = await Bun.file(THREE_LIVES).text()
})

/** A character of alice's as the website would have made it: a level-14 Halfling Rogue, no history. */
function setup(fields: Parameters<typeof insertCharacter>[2] = {}) {
  const character = insertCharacter(t.db, 'alice', {
    givenName: 'Brakk',
    race: 'Halfling',
    alignment: 'Neutral',
    classes: [{ name: 'Rogue', levels: 14 }],
    ...fields,
  })
  const me = (cookie = alice) => t.web(cookie).characters({ id: character.id })
  const profile = () => t.db.select().from(characters).where(eq(characters.id, character.id)).get()
  const stored = () => t.db.select().from(completions).where(eq(completions.characterId, character.id)).all()
  return { character, me, profile, stored, base: `/api/characters/${character.id}/build` }
}

const pastLife = (name: string, type = 'HeroicPastLife') => ({ name, type, stacks: 1 })
const FIGHTER = pastLife('Past Life: Fighter')
const HUMAN = pastLife('Past Life: Human', 'RacialPastLife')
const WIZARD = pastLife('Past Life: Wizard')
const ELF = pastLife('Past Life: Elf', 'RacialPastLife')
const DOUBLESTRIKE = pastLife('Past Life: Doublestrike', 'EpicPastLife')

/** The history the file gives: each finished life granted its class's and race's past life. */
const HISTORY = [
  {
    name: 'Brakk',
    race: 'Human',
    alignment: 'True Neutral',
    classes: [{ name: 'Fighter', levels: 20 }],
    // The epic past life no finished life grants was there all along.
    specialFeats: [DOUBLESTRIKE],
  },
  {
    name: 'Brakk the Wise',
    race: 'Elf',
    alignment: 'Chaotic Good',
    classes: [{ name: 'Wizard', levels: 20 }],
    specialFeats: [FIGHTER, HUMAN, DOUBLESTRIKE, { name: 'Lore of the Ancients', type: 'Special', stacks: 1 }],
  },
  {
    name: 'Brakk Stoneward',
    race: 'Dwarf',
    alignment: 'Lawful Good',
    classes: [
      { name: 'Cleric', levels: 10 },
      { name: 'Fighter', levels: 2 },
    ],
    specialFeats: [FIGHTER, HUMAN, WIZARD, ELF, DOUBLESTRIKE],
  },
]

const byName = (feats: { name: string }[]) => [...feats].sort((a, b) => a.name.localeCompare(b.name))

describe('the preview says what the file holds and what each choice would change; it writes nothing', () => {
  test("lives, builds, the active build's plan, the character's changes, the history, the quests", async () => {
    const { me, profile, stored, character } = setup()
    const before = profile()
    const preview = ok(await me().build.import.preview.post({ xml }))
    expect(preview.build).toBe(4)
    expect(preview.activeBuild).toBe(4)
    expect(preview.lives).toEqual([
      { number: 1, name: 'Brakk', race: 'Human', alignment: 'True Neutral', classes: HISTORY[0]!.classes, builds: 1 },
      {
        number: 2,
        name: 'Brakk the Wise',
        race: 'Elf',
        alignment: 'Chaotic Good',
        classes: HISTORY[1]!.classes,
        builds: 1,
      },
      {
        number: 3,
        name: 'Brakk Stoneward',
        race: 'Dwarf',
        alignment: 'Lawful Good',
        classes: HISTORY[2]!.classes,
        builds: 2,
      },
    ])
    expect(preview.builds).toEqual([
      { number: 1, life: 1, level: 20, classes: HISTORY[0]!.classes, notes: 'First life: a fighter.', quests: 0 },
      { number: 2, life: 2, level: 20, classes: HISTORY[1]!.classes, notes: 'Second life: a wizard.', quests: 0 },
      {
        number: 3,
        life: 3,
        level: 4,
        classes: [{ name: 'Cleric', levels: 4 }],
        notes: 'Level 4: Cleric 4.',
        quests: 4,
      },
      {
        number: 4,
        life: 3,
        level: 12,
        classes: HISTORY[2]!.classes,
        notes: 'Level 12: Cleric 10 / Fighter 2.',
        quests: 3,
      },
    ])
    expect(preview.plan).toEqual({
      name: 'Brakk Stoneward',
      race: 'Dwarf',
      alignment: 'Lawful Good',
      level: 12,
      classes: HISTORY[2]!.classes,
      warnings: [],
    })
    // Item 5: the preview says what taking the character would change on it.
    expect(preview.character).toEqual([
      { field: 'race', now: 'Halfling', file: 'Dwarf' },
      { field: 'alignment', now: 'Neutral', file: 'Lawful Good' },
      { field: 'classes', now: 'Rogue 14', file: 'Cleric 10 / Fighter 2' },
      { field: 'level', now: '14', file: '12' },
      { field: 'pastLives', now: '0 past lives', file: '5 past lives' },
    ])
    expect(preview.history.stored).toBe(0)
    expect(preview.history.ignored).toBe(0)
    expect(preview.history.file.map((life) => ({ ...life, specialFeats: byName(life.specialFeats) }))).toEqual(
      HISTORY.map((life) => ({ ...life, specialFeats: byName(life.specialFeats) })),
    )
    // The active build's three quests: one by the catalog's own name, one reaper, one spelled loosely.
    expect(preview.quests).toEqual({
      total: 3,
      add: [
        {
          source: 'quest 1',
          given: 'Sewer Run',
          name: 'Sewer Run',
          difficulty: 'Heroic',
          setting: 'elite',
          how: 'exact',
        },
        {
          source: 'quest 2',
          given: 'Shadow Gate',
          name: 'Shadow Gate',
          difficulty: 'Heroic',
          setting: 'reaper',
          how: 'exact',
        },
        {
          source: 'quest 3',
          given: 'crypt  of the fallen',
          name: 'Crypt of the Fallen',
          difficulty: 'Heroic',
          setting: 'normal',
          how: 'spelling',
        },
      ],
      stored: [],
      ambiguous: [],
      unmatched: [],
    })
    // Nothing written: no life, no plan, no completion, the profile as it was.
    expect(storedLives(t.db, character.id)).toEqual([])
    expect(ok(await me().build.get()).document).toBeNull()
    expect(stored()).toEqual([])
    expect(profile()).toEqual(before)
  })

  test('build 3: its plan and its quests, matched, ambiguous and unmatched; "Not Run" is left out', async () => {
    const { me } = setup()
    const preview = ok(await me().build.import.preview.post({ xml, build: 3 }))
    expect(preview.build).toBe(3)
    expect(preview.plan.level).toBe(4)
    expect(preview.plan.classes).toEqual([{ name: 'Cleric', levels: 4 }])
    expect(preview.quests.total).toBe(4)
    expect(preview.quests.add.map((q) => [q.given, q.name, q.difficulty, q.setting, q.how])).toEqual([
      ['Sewer Run', 'Sewer Run', 'Heroic', 'elite', 'exact'],
      // "The" forgiven, and the level (9) picks the heroic Crypt over the epic and legendary ones.
      ['The Crypt', 'Crypt', 'Heroic', 'hard', 'spelling'],
    ])
    // No level in the file: heroic 7 or epic 27, the player's choice. The planner's Solo is casual.
    expect(preview.quests.ambiguous).toEqual([
      {
        source: 'quest 3',
        name: "Delera's Rest",
        setting: 'casual',
        candidates: [
          { name: "Delera's Rest", difficulty: 'Heroic', level: 7 },
          { name: "Delera's Rest", difficulty: 'Epic', level: 27 },
        ],
      },
    ])
    expect(preview.quests.unmatched).toEqual([
      { source: 'quest 4', name: 'Sleeping with the Fishes', setting: 'normal', suggestions: [] },
    ])
    // Build 3 is in the same (last) life: the same history.
    expect(preview.history.file).toHaveLength(3)
  })

  test("an earlier life's build: the history stops at its life, and says how many lives it leaves out", async () => {
    const { me } = setup()
    const preview = ok(await me().build.import.preview.post({ xml, build: 1 }))
    expect(preview.plan).toMatchObject({ name: 'Brakk', race: 'Human', level: 20 })
    expect(preview.history.file.map((life) => life.name)).toEqual(['Brakk'])
    expect(preview.history.ignored).toBe(2)
  })

  test('a build the file does not have is 400, and nothing is written', async () => {
    const { me } = setup()
    expect(refused(await me().build.import.preview.post({ xml, build: 9 }), 400).error).toBe(
      'The file has 4 builds; there is no build 9.',
    )
    expect(refused(await me().build.import.post({ xml, build: 9, take: 'history' }), 400).error).toBe(
      'The file has 4 builds; there is no build 9.',
    )
    expect(ok(await me().build.get()).document).toBeNull()
  })
})

describe('the import takes what the player chose', () => {
  test('the plan alone (the default): the planned build, and the character as it is (item 5)', async () => {
    const { me, profile, character } = setup()
    const before = profile()
    const body = ok(await me().build.import.post({ xml }))
    expect(body.imported).toEqual({ build: 4, take: 'plan', lives: null, quests: null })
    expect(body.document?.build?.level).toBe(12)
    expect(body.document?.life?.race).toBe('Dwarf')
    expect(ok(await me().build.get()).document).toEqual(body.document)
    // Who the character is now did not change: still a level-14 Halfling Rogue.
    expect(profile()).toEqual(before)
    const got = ok(await me().get())
    expect({ race: got.race, classes: got.classes, characterLevel: got.characterLevel }).toEqual({
      race: 'Halfling',
      classes: [{ name: 'Rogue', levels: 14 }],
      characterLevel: 14,
    })
    expect(storedLives(t.db, character.id).map((l) => l.race)).toEqual(['Halfling'])
  })

  test('the character too: race, alignment (item 6), classes, level and past lives from the picked build', async () => {
    const { me, character } = setup()
    const body = ok(await me().build.import.post({ xml, take: 'character' }))
    expect(body.imported?.take).toBe('character')
    const got = ok(await me().get())
    expect({ race: got.race, alignment: got.alignment, classes: got.classes, level: got.characterLevel }).toEqual({
      race: 'Dwarf',
      alignment: 'Lawful Good',
      classes: HISTORY[2]!.classes,
      level: 12,
    })
    const lives = storedLives(t.db, character.id)
    expect(lives).toHaveLength(1)
    expect(byName(lives[0]!.specialFeats)).toEqual(byName(HISTORY[2]!.specialFeats))
  })

  test('the history: every life, oldest first, each with its race, class split and the past lives it had', async () => {
    const { me, character } = setup()
    const body = ok(await me().build.import.post({ xml, take: 'history' }))
    expect(body.imported).toEqual({ build: 4, take: 'history', lives: 3, quests: null })
    const lives = storedLives(t.db, character.id)
    expect(
      lives.map(({ lifeIndex, isCurrent, archivedAt, name, race, alignment, classes, specialFeats }) => ({
        lifeIndex,
        isCurrent,
        archived: archivedAt !== null,
        name,
        race,
        alignment,
        classes,
        specialFeats: byName(specialFeats),
      })),
    ).toEqual(
      HISTORY.map((life, i) => ({
        lifeIndex: i + 1,
        isCurrent: i === 2,
        archived: i !== 2,
        ...life,
        specialFeats: byName(life.specialFeats),
      })),
    )
    // The answer's life is the current one, as GET lives has it.
    const page = ok(await me().lives.get({ query: {} }))
    expect(page.lives.map((l) => l.name)).toEqual(HISTORY.map((l) => l.name))
    expect(body.life.id).toBe(page.lives[2]!.id)
    expect(ok(await me().get()).race).toBe('Dwarf')
  })

  test('a stored history: the preview counts it, and taking the history replaces it', async () => {
    const { me, character } = setup()
    ok(await me().lives.reincarnate.post({ name: 'Second' }))
    expect(storedLives(t.db, character.id)).toHaveLength(2)
    const preview = ok(await me().build.import.preview.post({ xml }))
    expect(preview.history.stored).toBe(2)
    // The plan alone leaves it as it is.
    ok(await me().build.import.post({ xml }))
    expect(storedLives(t.db, character.id).map((l) => l.name)).toEqual(['Brakk', 'Second'])
    ok(await me().build.import.post({ xml, take: 'history' }))
    expect(storedLives(t.db, character.id).map((l) => l.name)).toEqual(HISTORY.map((l) => l.name))
  })

  test("taking the history moves the completions with their lives: the current life's stay current", async () => {
    const { me, character } = setup()
    ok(await me().completions.post({ name: 'Bell Tower', setting: 'hard', completedAt: '2026-11-20T10:00:00Z' }), 201)
    ok(await me().lives.reincarnate.post({ name: 'Second' }))
    // Life 2 of 2 now; the file's history has 3: life 2 becomes life 3, life 1 becomes life 2.
    ok(await me().completions.post({ name: 'Crypt', setting: 'elite', durationSeconds: 600 }), 201)
    ok(await me().build.import.post({ xml, take: 'history' }))
    const lives = t.db
      .select({ name: completions.name, life: completions.lifeIndex })
      .from(completions)
      .where(eq(completions.characterId, character.id))
      .all()
    expect(lives.sort((a, b) => a.life - b.life)).toEqual([
      { name: 'Bell Tower', life: 2 },
      { name: 'Crypt', life: 3 },
    ])
    expect(ok(await me().progress.get()).completions.map((c) => c.name)).toEqual(['Crypt'])
  })

  test('a history shorter than the lives stored: two old lives meet in one, their runs kept, counted once', async () => {
    const { me, character } = setup()
    const crypt = (completedAt: string, durationSeconds: number) =>
      me().completions.post({ name: 'Crypt', setting: 'elite', completedAt, durationSeconds })
    ok(await crypt('2026-11-18T10:00:00Z', 600), 201)
    t.clock.advance(1000)
    ok(await me().lives.reincarnate.post({}))
    t.clock.advance(1000)
    ok(await crypt('2026-11-21T12:00:01.500Z', 900), 201)
    t.clock.advance(1000)
    ok(await me().lives.reincarnate.post({}))
    ok(await me().lives.reincarnate.post({}))
    // Lives 1 to 4; the file has 3: 4 -> 3, 3 -> 2, 2 -> 1 and 1 -> 1, where Crypt meets Crypt.
    ok(await me().build.import.post({ xml, take: 'history' }))
    const rows = t.db.select().from(completions).where(eq(completions.characterId, character.id)).all()
    expect(rows.map((r) => [r.lifeIndex, r.name, r.runs, r.completedAt, r.durationSeconds])).toEqual([
      [1, 'Crypt', 2, '2026-11-21T12:00:01.500Z', 900],
    ])
    expect(
      t.db
        .select({ at: runs.completedAt })
        .from(runs)
        .where(eq(runs.completionId, rows[0]!.id))
        .all()
        .map((r) => r.at)
        .sort(),
    ).toEqual(['2026-11-18T10:00:00.000Z', '2026-11-21T12:00:01.500Z'])
  })

  test('completed quests: matched and chosen ones stored; imported twice, nothing is added twice', async () => {
    const { me, stored } = setup()
    const choices = [{ source: 'quest 3', name: "Delera's Rest", difficulty: 'Heroic' as const }]
    const body = ok(await me().build.import.post({ xml, build: 3, quests: true, choices }))
    expect(body.imported?.quests?.add.map((q) => [q.name, q.difficulty, q.setting, q.how])).toEqual([
      ['Sewer Run', 'Heroic', 'elite', 'exact'],
      ['Crypt', 'Heroic', 'hard', 'spelling'],
      ["Delera's Rest", 'Heroic', 'casual', 'chosen'],
    ])
    expect(body.imported?.quests?.unmatched.map((q) => q.name)).toEqual(['Sleeping with the Fishes'])
    const names = () =>
      stored()
        .map((c) => `${c.name} ${c.difficulty} ${c.setting}`)
        .sort()
    expect(names()).toEqual(['Crypt Heroic hard', "Delera's Rest Heroic casual", 'Sewer Run Heroic elite'])

    const again = ok(await me().build.import.post({ xml, build: 3, quests: true, choices }))
    expect(again.imported?.quests?.add).toEqual([])
    expect(again.imported?.quests?.stored).toHaveLength(3)
    expect(stored()).toHaveLength(3)
    // The other build's Sewer Run elite is the same completion: only its two others are added.
    const other = ok(await me().build.import.post({ xml, quests: true, keepUnmatched: true }))
    expect(other.imported?.quests?.add.map((q) => q.name)).toEqual(['Shadow Gate', 'Crypt of the Fallen'])
    expect(stored()).toHaveLength(5)
  })

  test('a refused import writes nothing of what was chosen', async () => {
    const { me, character, profile, stored } = setup()
    const before = profile()
    // A valid plan, then a history a character may not hold: every life but the last is too big.
    const huge = xml.replace(
      '<Name>Brakk</Name>',
      `<Name>Brakk</Name><SpecialFeats>${Array.from({ length: 400 }, (_, i) => `<TrainedFeat><FeatName>Feat ${i} ${'x'.repeat(60)}</FeatName><Type>Special</Type></TrainedFeat>`).join('')}</SpecialFeats>`,
    )
    const answer = await me().build.import.post({ xml: huge, take: 'history', quests: true })
    expect(refused(answer, 413).error).toMatch(/^Life 1 of the history/)
    expect(storedLives(t.db, character.id)).toEqual([])
    expect(ok(await me().build.get()).document).toBeNull()
    expect(stored()).toEqual([])
    expect(profile()).toEqual(before)
  })
})

describe('who may preview and import', () => {
  test("another account's character is 404 before the file is read; signed out 401; nothing written", async () => {
    const { me, character, base } = setup()
    const message = { error: `No character ${character.id} on this account.` }
    expect(refused(await me(bob).build.import.preview.post({ xml }), 404)).toEqual(message)
    expect(refused(await me(bob).build.import.preview.post({ xml: '<broken' }), 404)).toEqual(message)
    expect(refused(await me(bob).build.import.post({ xml: '<broken', take: 'history' }), 404)).toEqual(message)
    expect(refused(await t.web(alice).characters({ id: 99_999 }).build.import.preview.post({ xml }), 404).error).toBe(
      'No character 99999 on this account.',
    )
    expect((await t.json('POST', `${base}/import/preview`, { body: { xml } })).status).toBe(401)
    expect(ok(await me().build.get()).document).toBeNull()
  })
})

/** A multipart form as a browser's file upload sends it. */
function upload(path: string, file: string | Blob | null, options?: unknown, cookie = alice, method = 'POST') {
  const form = new FormData()
  if (file !== null) form.append('file', file instanceof Blob ? file : new Blob([file]), 'Brakk.DDOBuild')
  if (options !== undefined) form.append('options', typeof options === 'string' ? options : JSON.stringify(options))
  return t.app.handle(
    new Request(`http://localhost${path}`, { method, body: form, headers: { cookie, origin: 'http://localhost' } }),
  )
}

describe('the file as an upload (multipart form: `file`, and the other fields as JSON in `options`)', () => {
  test('the same preview and import as the JSON body', async () => {
    const { me, base, character } = setup()
    const viaJson = ok(await me().build.import.preview.post({ xml, build: 3 }))
    const viaForm = await upload(`${base}/import/preview`, xml, { build: 3 })
    expect(viaForm.status).toBe(200)
    expect(await viaForm.json()).toEqual(viaJson)
    const imported = await upload(`${base}/import`, xml, { take: 'history' })
    expect(imported.status).toBe(200)
    expect(((await imported.json()) as { imported: unknown }).imported).toEqual({
      build: 4,
      take: 'history',
      lives: 3,
      quests: null,
    })
    expect(storedLives(t.db, character.id)).toHaveLength(3)
  })

  test('without options: the plan of the active build; a byte-order mark before the XML is fine', async () => {
    const { base, profile } = setup()
    const before = profile()
    const answer = await upload(`${base}/import`, new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), xml]))
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { imported: { take: string } }).imported.take).toBe('plan')
    expect(profile()).toEqual(before)
  })

  const refusals: [string, string | null, unknown, string][] = [
    ['no file field', null, { take: 'plan' }, 'The form has no `file` field: the file to import.'],
    ['options that are not JSON', '<a/>', '{take:', "The form's `options` field is not valid JSON."],
    ['options that are no object', '<a/>', '[1]', "The form's `options` field must be a JSON object."],
    [
      'options holding the file too',
      '<a/>',
      { xml: '<b/>' },
      "The form's `options` must not hold `xml`: the file is that.",
    ],
    ['options of the wrong type', xml, { take: 'everything' }, 'take'],
  ]
  for (const [name, file, options, message] of refusals) {
    test(`${name}: 400 in a sentence, nothing written`, async () => {
      const { base, me } = setup()
      const answer = await upload(`${base}/import`, file, options)
      expect(answer.status).toBe(400)
      const body = (await answer.json()) as { error: string }
      expect(Object.keys(body)).toEqual(['error'])
      expect(body.error).toContain(message)
      expect(ok(await me().build.get()).document).toBeNull()
    })
  }

  // A form upload is what another site's page can send with the visitor's cookie, no preflight.
  test("another site's form posting a file with the visitor's cookie: 403, nothing written", async () => {
    const { base, character } = setup()
    const attacks: Record<string, string>[] = [{ origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }]
    for (const headers of attacks) {
      const form = new FormData()
      form.append('file', new Blob([xml]))
      form.append('options', JSON.stringify({ take: 'history' }))
      const answer = await t.app.handle(
        new Request(`http://localhost${base}/import`, {
          method: 'POST',
          body: form,
          headers: { cookie: alice, ...headers },
        }),
      )
      expect(answer.status).toBe(403)
      expect(await answer.json()).toEqual({ error: 'Cross-site requests are not allowed here.' })
    }
    expect(storedLives(t.db, character.id)).toEqual([])
  })

  test('a route that takes no upload reads a form as the JSON it is not', async () => {
    const { base } = setup()
    const answer = await upload(base, xml, undefined, alice, 'PUT')
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({ error: 'The request body is not valid JSON.' })
  })
})

describe('size: files up to 8 MiB on the import routes only; the hostile-XML defences hold at that size', () => {
  /** The file padded with a comment to about `bytes`. */
  const padded = (bytes: number) =>
    xml.replace('<Character version="1">', `<Character version="1"><!--${'x'.repeat(bytes - xml.length - 7)}-->`)

  test('a 7.5 MiB file imports, as JSON and as an upload', async () => {
    expect(MAX_IMPORT_BODY_BYTES).toBe(8 * MIB)
    const { me, base } = setup()
    const big = padded(7.5 * MIB)
    expect(ok(await me().build.import.post({ xml: big })).document?.build?.level).toBe(12)
    const answer = await upload(`${base}/import/preview`, big)
    expect(answer.status).toBe(200)
  })

  test('over 8 MiB: 413 as JSON and as an upload; every other route keeps its 1 MiB', async () => {
    const { me, base } = setup()
    const tooBig = padded(8 * MIB + 10)
    expect(refused(await me().build.import.post({ xml: tooBig }), 413).error).toBe(
      'The request body is larger than 8 MiB.',
    )
    expect((await upload(`${base}/import`, tooBig)).status).toBe(413)
    const build = await t.json('PUT', base, { cookie: alice, raw: `{"notes":"${'x'.repeat(MAX_BODY_BYTES)}"}` })
    expect(build.status).toBe(413)
    expect(build.body).toEqual({ error: 'The request body is larger than 1 MiB.' })
    expect(ok(await me().build.get()).document).toBeNull()
  })

  const hostile: [string, string, RegExp][] = [
    [
      'half a million empty elements (a gigabyte to parse)',
      `<DDOBuilderCharacterData><Character><Life><Build>${'<a/>'.repeat(500_000)}</Build></Life></Character></DDOBuilderCharacterData>`,
      new RegExp(`more than ${MAX_XML_TAGS.toLocaleString('en-US')} tags`),
    ],
    ['deep nesting at 7 MiB', '<a>'.repeat(Math.floor((7 * MIB) / 3)), /more than 400,000 tags|more than 64 deep/],
    ['deep nesting under the tag count', `${'<a>'.repeat(300_000)}${'</a>'.repeat(90_000)}`, /more than 64 deep/],
    [
      'an entity declared in a 6 MiB file',
      `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x "${'x'.repeat(6 * MIB)}">]><DDOBuilderCharacterData/>`,
      /DOCTYPE/,
    ],
  ]
  for (const [name, file, reason] of hostile) {
    test(`${name}: 400, nothing written`, async () => {
      const { me } = setup()
      expect(file.length).toBeLessThan(MAX_IMPORT_BODY_BYTES)
      expect(refused(await me().build.import.post({ xml: file }), 400).error).toMatch(reason)
      expect(ok(await me().build.get()).document).toBeNull()
    })
  }
})

describe('a malformed file: one sentence with its line and column, and no text of the file (item 7)', () => {
  const cases: [string, (file: string) => string][] = [
    ['a closing tag cut off', (file) => file.slice(0, file.indexOf('</Notes>') + 4)],
    ['a closing tag left open', (file) => file.replace('</Race>', '</Race')],
    ['tags crossed', (file) => file.replace('<Race>Human</Race>', '<Race>Human<Alignment></Race></Alignment>')],
    ['an attribute without quotes', (file) => file.replace('<Life version="1">', '<Life version=1>')],
    ['a stray ampersand in a name', (file) => file.replace('<Name>Brakk</Name>', '<Name>Brakk & Co</Name>')],
    ['a long mismatched tag name', (file) => file.replace('</Race>', `</${'R'.repeat(5000)}>`)],
  ]
  for (const [name, cut] of cases) {
    test(name, async () => {
      const { me } = setup()
      const file = cut(xml)
      const { error } = refused(await me().build.import.preview.post({ xml: file }), 400)
      expect(error).toMatch(/^The file is not well-formed XML: .*\(line \d+, column \d+\)\.$|line \d+, column \d+/)
      expect(error).not.toMatch(/readTagExp|position \d|Context/)
      expect(error.length).toBeLessThan(200)
    })
  }
})

describe('the export writes the whole history back', () => {
  test('finished lives first, oldest first; importing it gives the same history', async () => {
    const { me, character } = setup()
    ok(await me().build.import.post({ xml, take: 'history' }))
    const exported = ok(await me().build.export.get())
    expect(exported.match(/<Life version="1">/g)).toHaveLength(3)
    expect(exported).toContain('<ActiveLifeIndex>2</ActiveLifeIndex>')

    const second = setup({ givenName: 'Copy' })
    const preview = ok(await second.me().build.import.preview.post({ xml: exported }))
    expect(preview.lives.map((l) => [l.name, l.race, l.alignment, l.classes])).toEqual(
      HISTORY.map((l) => [l.name, l.race, l.alignment, l.classes]),
    )
    ok(await second.me().build.import.post({ xml: exported, take: 'history' }))
    const strip = (id: number) =>
      storedLives(t.db, id).map(({ name, race, alignment, classes, specialFeats, isCurrent }) => ({
        name,
        race,
        alignment,
        classes,
        specialFeats: byName(specialFeats),
        isCurrent,
      }))
    expect(strip(second.character.id)).toEqual(strip(character.id))
  })

  test('a character with one life exports one life, as before', async () => {
    const { me } = setup()
    ok(await me().build.import.post({ xml: await Bun.file(SMALL_FIGHTER).text() }))
    const exported = ok(await me().build.export.get())
    expect(exported.match(/<Life version="1">/g)).toHaveLength(1)
    expect(exported).toContain('<ActiveLifeIndex>0</ActiveLifeIndex>')
  })
})

describe('reaper skulls: read from R1…R10, written back (issue 41 section 3)', () => {
  test('the import stores the skulls of a completed quest run on R2', async () => {
    const { me } = setup()
    const body = ok(await me().build.import.post({ xml, quests: true, keepUnmatched: true }))
    expect(body.imported?.quests?.add.map((q) => [q.name, q.difficulty, q.setting])).toContainEqual([
      'Shadow Gate',
      'Heroic',
      'reaper',
    ])
    const rows = t.db.select().from(completions).where(eq(completions.name, 'Shadow Gate')).all()
    expect(rows.map((c) => [c.setting, c.reaperSkulls])).toContainEqual(['reaper', 2])
  })

  test('the export writes the current life’s completed quests, each remake once on its best setting', async () => {
    const { me } = setup()
    ok(await me().build.import.post({ xml: await Bun.file(SMALL_FIGHTER).text() }))
    const post = (body: Parameters<ReturnType<typeof me>['completions']['post']>[0]) => me().completions.post(body)
    ok(
      await post({ name: 'Shadow Gate', difficulty: 'Heroic', setting: 'R2', completedAt: '2026-11-01T10:00:00Z' }),
      201,
    )
    ok(
      await post({
        name: 'Shadow Gate',
        difficulty: 'Heroic',
        setting: 'reaper',
        skulls: 5,
        completedAt: '2026-11-02T10:00:00Z',
      }),
    )
    ok(await post({ name: 'Shadow Gate', difficulty: 'Heroic', setting: 'elite' }), 201)
    ok(await post({ name: 'Crypt', difficulty: 'Epic', setting: 'hard' }), 201)
    ok(await post({ name: 'Crypt', difficulty: 'Legendary', setting: 'reaper' }), 201) // no count: R1
    ok(await post({ name: 'Sewer Run', setting: 'casual' }), 201) // tier Unknown: the name's lowest level
    ok(await post({ name: 'Bell Tower', difficulty: 'Heroic', setting: 'mythic' }), 201) // unknown: left out
    ok(await post({ name: 'Not In The Catalog', difficulty: 'Heroic', setting: 'normal' }), 201) // no level
    // The wiki's name of a quest the game (and the planner) names otherwise.
    ok(await post({ name: 'Return to Gianthold Tor', difficulty: 'Epic', setting: 'elite' }), 201)
    const exported = ok(await me().build.export.get())
    const quests = [...exported.matchAll(/<CompletedQuest>([\s\S]*?)<\/CompletedQuest>/g)].map((m) =>
      [...(m[1] ?? '').matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map(([, tag, value]) => `${tag}=${value}`).join(' '),
    )
    expect(quests).toEqual([
      'Name=Crypt Level=27 Difficulty=Hard',
      'Name=Crypt Level=31 Difficulty=R1',
      'Name=Gianthold Tor Difficulty=Elite',
      'Name=Not In The Catalog Difficulty=Normal',
      'Name=Sewer Run Level=4 Difficulty=Casual',
      'Name=Shadow Gate Level=18 Difficulty=R5',
    ])
    // In the planner's place for them: after the favor feats, before the notes.
    expect(exported.indexOf('<CompletedQuest>')).toBeGreaterThan(exported.indexOf('<FavorFeats'))
    expect(exported.indexOf('<CompletedQuest>')).toBeLessThan(exported.lastIndexOf('<Notes'))

    // Read back by another character: the same completions, skulls included.
    const copy = setup({ givenName: 'Copy' })
    ok(await copy.me().build.import.post({ xml: exported, quests: true, keepUnmatched: true }))
    expect(
      copy
        .stored()
        .map((c) => `${c.name}|${c.difficulty}|${c.setting}|${c.reaperSkulls}`)
        .sort(),
    ).toEqual([
      'Crypt|Epic|hard|null',
      'Crypt|Legendary|reaper|1',
      'Gianthold Tor|Unknown|elite|null',
      'Not In The Catalog|Unknown|normal|null',
      'Sewer Run|Heroic|casual|null',
      'Shadow Gate|Heroic|reaper|5',
    ])
  })
})
