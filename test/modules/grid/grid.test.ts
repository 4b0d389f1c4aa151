// The quests × characters grids over HTTP (issue 41 "Every alt at a glance", issue 42 "Seeing each
// other"): the account's (GET /api/account/grid, both APIs) and its view, a group's
// (GET /api/groups/{id}/grid), a shared character's read-only tracker for members, and which of a
// member's groups see a character. Authorisation first: an outsider, a character not shared.
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { completions, users } from '../../../src/db/schema'
import { createUser } from '../../../src/modules/account/service'
import {
  MAX_GRID_VIEW_CHARACTERS,
  MAX_GRID_VIEW_NAME_LENGTH,
  MAX_GRID_VIEW_NAMES,
} from '../../../src/modules/grid/limits'
import { cellMask, cellsIndex, DEFAULT_GRID_VIEW } from '../../../src/rules/quests/grid'
import { loadCatalog } from '../../catalogFixture'
import { readRows, SMALL_JSON } from '../../catalogFixtures'
import { databaseFrom, insertCharacter, ok, readEvents, refused, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'

let t: TestApp
/** Session cookies: Ann owns the group, Bea is a member, Out is outside it. */
let ann: string
let bea: string
let out: string
let groupId: number
/** Ann's Brom (Fighter 9, shared) and Alt (Wizard 3, not shared); Bea's Mira (Wizard 8, shared); Out's Zed. */
let brom: number
let alt: number
let mira: number
let zed: number
/** The catalog's rows, in catalog order (what the letters follow). */
let rows: { name: string; difficulty: string }[]

async function account(username: string): Promise<string> {
  await createUser(t, { username, email: `${username}@example.org`, password: PASSWORD })
  return t.signIn(username)
}

const rowOf = (name: string, difficulty: string) =>
  rows.findIndex((r) => r.name === name && r.difficulty === difficulty)

let snapshot: Uint8Array

beforeAll(async () => {
  t = testApp()
  loadCatalog(t.db, await readRows(SMALL_JSON))
  ann = await account('ann')
  bea = await account('bea')
  out = await account('out')
  brom = insertCharacter(t.db, 'ann', { givenName: 'Brom', classes: [{ name: 'Fighter', levels: 9 }] }).id
  alt = insertCharacter(t.db, 'ann', { givenName: 'Alt', classes: [{ name: 'Wizard', levels: 3 }] }).id
  mira = insertCharacter(t.db, 'bea', { givenName: 'Mira', classes: [{ name: 'Wizard', levels: 8 }] }).id
  zed = insertCharacter(t.db, 'out', { givenName: 'Zed', classes: [{ name: 'Cleric', levels: 8 }] }).id
  groupId = ok(await t.web(ann).groups.post({ name: 'Stormreach Irregulars' }), 201).id
  const code = ok(await t.web(ann).groups({ id: groupId }).invites.post({}, { query: {} }), 201).code
  ok(await t.web(bea).groups.join.post({ code }))
  ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: brom }).put())
  ok(await t.web(bea).groups({ id: groupId }).characters({ characterId: mira }).put())
  rows = ok(await t.api.quests.get()).quests
  snapshot = t.db.$client.serialize()
})

beforeEach(() => {
  t = testApp({}, { db: databaseFrom(snapshot) })
})

const tick = async (cookie: string, id: number, name: string, difficulty: string, setting: string) =>
  ok(await t.web(cookie).characters({ id }).completions.post({ name, difficulty, setting }), 201)

describe("the account's grid", () => {
  test('every character of the account, one letter a catalog row: the settings done of each remake', async () => {
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'hard')
    await tick(ann, brom, 'Crypt', 'Unknown', 'normal')
    await tick(ann, brom, 'A quest the catalog lacks', 'Heroic', 'elite')
    await tick(ann, alt, 'Sewer Run', 'Heroic', 'casual')
    const grid = ok(await t.web(ann).account.grid.get())
    expect(grid.catalog.rows).toBe(rows.length)
    expect(grid.characters.map((c) => [c.id, c.name, c.level, c.classes])).toEqual([
      [brom, 'Brom', 9, 'Fighter 9'],
      [alt, 'Alt', 3, 'Wizard 3'],
    ])
    const [b, a] = grid.characters as [(typeof grid.characters)[number], (typeof grid.characters)[number]]
    expect(b.done).toHaveLength(rows.length)
    const letter = (done: string, name: string, difficulty: string) => done[rowOf(name, difficulty)]
    // hard (bit 3) and elite (bit 4): 8 + 16 = 24, the letter "o".
    expect(cellMask(letter(b.done, 'Bell Tower', 'Heroic'))).toBe(24)
    expect(letter(b.done, 'Bell Tower', 'Heroic')).toBe('o')
    // The tierless one is per name; no letter of a row carries it, nor the quest the catalog lacks.
    expect(b.unknownTier).toEqual({ Crypt: '4' })
    expect(b.done.replace(/0/g, '')).toBe('o')
    expect(a.done.replace(/0/g, '')).toBe('2')
    expect(cellMask(letter(a.done, 'Sewer Run', 'Heroic'))).toBe(2)
    // Read back, the letters are the completions the tracker's rules read (every tier of Crypt has the tierless one).
    const index = cellsIndex(rows as Parameters<typeof cellsIndex>[0], b)
    expect(index.get('Bell Tower')).toEqual([
      { name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' },
      { name: 'Bell Tower', difficulty: 'Heroic', setting: 'elite' },
    ])
    expect(index.get('Crypt')).toEqual([{ name: 'Crypt', difficulty: 'Unknown', setting: 'normal' }])
  })

  test("the catalog version is the one GET /api/quests's ETag names", async () => {
    const grid = ok(await t.web(ann).account.grid.get())
    const quests = await t.request('GET', '/api/quests')
    expect(quests.headers.get('etag')).toStartWith(`"${grid.catalog.version}.`)
  })

  test("no other account's character, and only the current life", async () => {
    await tick(out, zed, 'Bell Tower', 'Heroic', 'elite')
    expect(ok(await t.web(out).account.grid.get()).characters.map((c) => c.id)).toEqual([zed])
    expect(ok(await t.web(ann).account.grid.get()).characters.map((c) => c.id)).toEqual([brom, alt])
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    ok(await t.web(ann).characters({ id: brom }).lives.reincarnate.post({ kind: 'heroic' }))
    const after = ok(await t.web(ann).account.grid.get()).characters[0]
    expect(after?.done.replace(/0/g, '')).toBe('')
  })

  test('an ETag: 304 until a character of the account changes, then the new letter', async () => {
    const first = await t.request('GET', '/api/account/grid', { cookie: ann })
    const etag = first.headers.get('etag') as string
    expect(etag).toBeTruthy()
    const again = await t.request('GET', '/api/account/grid', { cookie: ann, headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    // Another account's write changes nothing here.
    await tick(out, zed, 'Bell Tower', 'Heroic', 'elite')
    expect(
      (await t.request('GET', '/api/account/grid', { cookie: ann, headers: { 'if-none-match': etag } })).status,
    ).toBe(304)
    await tick(ann, alt, 'Bell Tower', 'Heroic', 'reaper')
    const changed = await t.json<{ characters: { done: string }[] }>('GET', '/api/account/grid', {
      cookie: ann,
      headers: { 'if-none-match': etag },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.characters[1]?.done[rowOf('Bell Tower', 'Heroic')]).toBe('w') // reaper: bit 5, 32
    // A new character changes the list.
    const tag = changed.headers.get('etag') as string
    ok(await t.web(ann).characters.post({ givenName: 'Third' }), 201)
    expect(
      (await t.request('GET', '/api/account/grid', { cookie: ann, headers: { 'if-none-match': tag } })).status,
    ).toBe(200)
  })

  test('a tick in the grid is the tracker’s completion: the same POST, DELETE and undo, seen by both', async () => {
    // What the grid sends for a tick at Play on elite: the tracker's own upsert, with the time of the tick.
    const completedAt = '2026-11-21T12:00:05.000Z'
    const body = { name: 'Bell Tower', difficulty: 'Heroic', setting: 'elite', completedAt } as const
    ok(await t.web(ann).characters({ id: brom }).completions.post(body), 201)
    // Sent again (the write queue's retry): one completion, one run.
    ok(await t.web(ann).characters({ id: brom }).completions.post(body))
    const progress = ok(await t.web(ann).characters({ id: brom }).progress.get())
    expect(progress.completions).toEqual([
      expect.objectContaining({ name: 'Bell Tower', difficulty: 'Heroic', setting: 'elite', completedAt }),
    ])
    expect(t.db.select().from(completions).where(eq(completions.characterId, brom)).all()).toHaveLength(1)
    const letterOf = async () =>
      ok(await t.web(ann).account.grid.get()).characters[0]?.done[rowOf('Bell Tower', 'Heroic')]
    expect(await letterOf()).toBe('g') // elite: bit 4, 16
    // The untick deletes what made the cell done; the undo puts it back, exactly.
    const deleted = ok(
      await t
        .web(ann)
        .characters({ id: brom })
        .completions.delete({ name: 'Bell Tower', difficulty: 'Heroic', setting: 'elite' }),
    )
    expect(deleted.deleted).toBe(1)
    expect(await letterOf()).toBe('0')
    ok(await t.web(ann).characters({ id: brom }).completions.restore.post({ completions: deleted.removed }))
    expect(await letterOf()).toBe('g')
    expect(ok(await t.web(ann).characters({ id: brom }).progress.get()).completions).toEqual(progress.completions)
  })

  test('the plugin API answers it too, with a token', async () => {
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    const token = ok(await t.api.plugin.auth.login.post({ identifier: 'ann', password: PASSWORD })).token
    const grid = ok(await t.plugin(token).account.grid.get())
    expect(grid).toEqual(ok(await t.web(ann).account.grid.get()))
    refused(await t.api.account.grid.get(), 401)
    refused(await t.api.plugin.account.grid.get(), 401)
  })
})

describe("the account's view of its grids", () => {
  test('the defaults until changed; the fields sent replace theirs, the rest stay', async () => {
    expect(ok(await t.web(ann).account.grid.view.get())).toEqual(DEFAULT_GRID_VIEW)
    const changed = ok(
      await t.web(ann).account.grid.view.put({ order: [alt, brom, alt], hidden: [brom], playOn: 'reaper' }),
    )
    expect(changed).toEqual({ ...DEFAULT_GRID_VIEW, order: [alt, brom], hidden: [brom], playOn: 'reaper' })
    const filters = ok(
      await t.web(ann).account.grid.view.put({
        levelBand: 255,
        hiddenPacks: ['Harbor Tales'],
        excludedPatrons: ['The Twelve'],
        versionFilter: { heroic: 'any', epic: 'no', legendary: 'yes' },
        hideDoneByAll: true,
      }),
    )
    expect(filters).toEqual({
      order: [alt, brom],
      hidden: [brom],
      playOn: 'reaper',
      levelBand: 255,
      versionFilter: { heroic: 'any', epic: 'no', legendary: 'yes' },
      excludedPatrons: ['The Twelve'],
      hiddenPacks: ['Harbor Tales'],
      hideDoneByAll: true,
    })
    // Kept on the account: another session (another device) reads the same; another account its own.
    expect(ok(await t.web(await t.signIn('ann')).account.grid.view.get())).toEqual(filters)
    expect(ok(await t.web(bea).account.grid.view.get())).toEqual(DEFAULT_GRID_VIEW)
    expect(t.db.select({ view: users.gridView }).from(users).where(eq(users.username, 'ann')).get()?.view).toEqual(
      filters,
    )
  })

  test('bounded: too many ids or names, a long name, a band or setting it does not know: 400, nothing stored', async () => {
    const put = (body: unknown) => t.json('PUT', '/api/account/grid/view', { cookie: ann, body })
    const ids = Array.from({ length: MAX_GRID_VIEW_CHARACTERS + 1 }, (_, i) => i + 1)
    const names = Array.from({ length: MAX_GRID_VIEW_NAMES + 1 }, (_, i) => `Pack ${i}`)
    for (const body of [
      { order: ids },
      { hidden: ids },
      { hiddenPacks: names },
      { excludedPatrons: ['x'.repeat(MAX_GRID_VIEW_NAME_LENGTH + 1)] },
      { levelBand: 3 },
      { playOn: 'heroic' },
      { order: ['one'] },
      { versionFilter: { heroic: 'any' } },
    ]) {
      const answer = await put(body)
      expect({ body, status: answer.status }).toEqual({ body, status: 400 })
      expect(answer.body).toEqual({ error: expect.any(String) })
    }
    expect(t.db.select({ view: users.gridView }).from(users).where(eq(users.username, 'ann')).get()?.view).toEqual({})
    // At the limits, it is taken.
    expect((await put({ order: ids.slice(1), hiddenPacks: names.slice(1) })).status).toBe(200)
  })

  test("the website's alone: the plugin API has no view, and a session is needed", async () => {
    const token = ok(await t.api.plugin.auth.login.post({ identifier: 'ann', password: PASSWORD })).token
    expect((await t.request('GET', '/api/plugin/account/grid/view', { token })).status).toBe(404)
    refused(await t.api.account.grid.view.get(), 401)
    refused(await t.api.account.grid.view.put({ playOn: 'elite' }), 401)
  })
})

describe("a group's grid", () => {
  test('the characters shared with it, first shared first, each with its letters; never one not shared', async () => {
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    await tick(ann, alt, 'Bell Tower', 'Heroic', 'elite')
    await tick(bea, mira, 'Shadow Gate', 'Epic', 'normal')
    const grid = ok(await t.web(bea).groups({ id: groupId }).grid.get())
    expect(grid.catalog).toEqual(ok(await t.web(bea).account.grid.get()).catalog)
    expect(grid.characters.map((c) => [c.id, c.name, c.owner.name, c.level])).toEqual([
      [brom, 'Brom', 'ann', 9],
      [mira, 'Mira', 'bea', 8],
    ])
    expect(grid.characters[0]?.done[rowOf('Bell Tower', 'Heroic')]).toBe('g')
    expect(grid.characters[1]?.done[rowOf('Shadow Gate', 'Epic')]).toBe('4')
    // Alt is not shared: nowhere in the answer. Taken back, Brom leaves it at once.
    expect(JSON.stringify(grid)).not.toContain('"Alt"')
    ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: brom }).delete())
    expect(ok(await t.web(bea).groups({ id: groupId }).grid.get()).characters.map((c) => c.id)).toEqual([mira])
  })

  test('an ETag: 304 until a shared character or the shares change; an unshared character’s writes change nothing', async () => {
    const first = await t.request('GET', `/api/groups/${groupId}/grid`, { cookie: bea })
    const etag = first.headers.get('etag') as string
    const held = { cookie: bea, headers: { 'if-none-match': etag } }
    expect((await t.request('GET', `/api/groups/${groupId}/grid`, held)).status).toBe(304)
    await tick(ann, alt, 'Bell Tower', 'Heroic', 'elite')
    expect((await t.request('GET', `/api/groups/${groupId}/grid`, held)).status).toBe(304)
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    expect((await t.request('GET', `/api/groups/${groupId}/grid`, held)).status).toBe(200)
    const tag = (await t.request('GET', `/api/groups/${groupId}/grid`, { cookie: bea })).headers.get('etag') as string
    ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: alt }).put())
    expect(
      (await t.request('GET', `/api/groups/${groupId}/grid`, { cookie: bea, headers: { 'if-none-match': tag } }))
        .status,
    ).toBe(200)
  })

  test('404 to anyone not in the group, whatever ETag they hold, and to a removed member at once', async () => {
    const etag = (await t.request('GET', `/api/groups/${groupId}/grid`, { cookie: bea })).headers.get('etag') as string
    refused(await t.web(out).groups({ id: groupId }).grid.get(), 404)
    const held = await t.json('GET', `/api/groups/${groupId}/grid`, { cookie: out, headers: { 'if-none-match': etag } })
    expect(held.status).toBe(404)
    refused(
      await t
        .web(out)
        .groups({ id: groupId + 1 })
        .grid.get(),
      404,
    )
    const users_ = t.db.select().from(users).where(eq(users.username, 'bea')).get()
    ok(
      await t
        .web(ann)
        .groups({ id: groupId })
        .members({ userId: users_?.id as number })
        .delete(),
    )
    refused(await t.web(bea).groups({ id: groupId }).grid.get(), 404)
    refused(await t.api.groups({ id: groupId }).grid.get(), 401)
  })
})

describe("a shared character's tracker, for members", () => {
  test('a member reads it, read-only: the character without its share link, its current life, its owner', async () => {
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    const view = ok(await t.web(bea).groups({ id: groupId }).characters({ characterId: brom }).tracker.get())
    expect(view.character).toMatchObject({ id: brom, name: 'Brom', classSummary: 'Fighter 9' })
    expect(view.owner.name).toBe('ann')
    expect(view.progress.completions.map((c) => c.name)).toEqual(['Bell Tower'])
    const own = ok(await t.web(ann).characters({ id: brom }).get())
    expect(JSON.stringify(view)).not.toContain(own.shareToken)
    expect(Object.keys(view.character)).not.toContain('shareUrl')
    // The same as the owner's own progress.
    expect(view.progress).toEqual(ok(await t.web(ann).characters({ id: brom }).progress.get()))
  })

  test('404 for a character the group does not see, for an outsider, and once taken back', async () => {
    const g = t.web(bea).groups({ id: groupId })
    refused(await g.characters({ characterId: alt }).tracker.get(), 404)
    refused(await g.characters({ characterId: zed }).tracker.get(), 404)
    refused(await g.characters({ characterId: zed + 1000 }).tracker.get(), 404)
    refused(await t.web(out).groups({ id: groupId }).characters({ characterId: brom }).tracker.get(), 404)
    // The owner's own character is not theirs to read through a group that does not see it either.
    refused(await t.web(ann).groups({ id: groupId }).characters({ characterId: alt }).tracker.get(), 404)
    ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: brom }).delete())
    refused(await g.characters({ characterId: brom }).tracker.get(), 404)
  })

  test('an ETag: the character’s own, 304 until it changes', async () => {
    const path = `/api/groups/${groupId}/characters/${brom}/tracker`
    const etag = (await t.request('GET', path, { cookie: bea })).headers.get('etag') as string
    expect((await t.request('GET', path, { cookie: bea, headers: { 'if-none-match': etag } })).status).toBe(304)
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    expect((await t.request('GET', path, { cookie: bea, headers: { 'if-none-match': etag } })).status).toBe(200)
    // Whoever holds the tag, an outsider still gets 404.
    expect((await t.request('GET', path, { cookie: out, headers: { 'if-none-match': etag } })).status).toBe(404)
  })
})

describe('which of my groups see a character', () => {
  test("the member's groups that see it; nothing for any other character, existing or not", async () => {
    expect(ok(await t.web(bea).groups.seeing({ characterId: brom }).get())).toEqual({
      groups: [{ id: groupId, name: 'Stormreach Irregulars' }],
    })
    for (const id of [alt, zed, zed + 1000]) {
      expect(ok(await t.web(bea).groups.seeing({ characterId: id }).get())).toEqual({ groups: [] })
    }
    expect(ok(await t.web(out).groups.seeing({ characterId: brom }).get())).toEqual({ groups: [] })
    refused(await t.api.groups.seeing({ characterId: brom }).get(), 401)
  })
})

describe('live: the group stream says when a shared character changes', () => {
  test("a shared character's completion reaches a member's stream; the grid then shows it", async () => {
    const stream = await t.request('GET', `/api/groups/${groupId}/events`, { cookie: bea })
    const heard = readEvents(stream, (text) => text.includes('event: change'))
    await tick(ann, brom, 'Bell Tower', 'Heroic', 'elite')
    expect(await heard).toContain(`"characterId":${brom}`)
    expect(
      ok(await t.web(bea).groups({ id: groupId }).grid.get()).characters[0]?.done[rowOf('Bell Tower', 'Heroic')],
    ).toBe('g')
  })
})
