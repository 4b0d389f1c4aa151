// Groups over HTTP (issue 24): making one, inviting with one-time codes, members leaving and
// removed, characters shared and taken back, who still needs what, the party planner, and the
// group's event stream. Authorisation first: an outsider and a hostile member on every route.
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { catalogState, groupMembers, groupShares, groups, invites, quests, users } from '../../../src/db/schema'
import { createUser } from '../../../src/modules/account/service'
import {
  MAX_GROUPS_PER_ACCOUNT,
  MAX_MEMBERS_PER_GROUP,
  MAX_PARTY_SIZE,
  MAX_PENDING_INVITES_PER_GROUP,
  MAX_SHARED_CHARACTERS_PER_GROUP,
  SHARE_CHANGES_BURST,
  SHARE_CHANGES_REFILL_MS,
} from '../../../src/modules/groups/limits'
import { INVITE_LIFETIME_DAYS } from '../../../src/modules/invites/limits'
import { loadCatalog } from '../../catalogFixture'
import { readRows, SMALL_JSON } from '../../catalogFixtures'
import { databaseFrom, insertCharacter, ok, readEvents, refused, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'

let t: TestApp
/** Session cookies: Ann owns the group, Bea joins it, Mal is a member turned hostile, Out is outside. */
let ann: string
let bea: string
let mal: string
let out: string
let ids: Record<'ann' | 'bea' | 'mal' | 'out', number>
let groupId: number
/** Characters: Brom (Ann, Fighter 9), Mira (Bea, Wizard 8), Vex (Mal), Zed (Out). */
let brom: number
let mira: number
let vex: number
let zed: number

async function account(username: string): Promise<string> {
  // Each with an e-mail address: none may reach another member.
  await createUser(t, { username, email: `${username}@example.org`, password: PASSWORD })
  return t.signIn(username)
}

const idOf = (username: string) => t.db.select().from(users).where(eq(users.username, username)).get()?.id as number

async function invite(cookie: string, group = groupId): Promise<string> {
  return ok(await t.web(cookie).groups({ id: group }).invites.post({}, { query: {} }), 201).code
}

async function join(cookie: string, code: string) {
  return ok(await t.web(cookie).groups.join.post({ code }))
}

// The world every test starts from, made once through the API and copied per test.
let snapshot: Uint8Array

beforeAll(async () => {
  t = testApp()
  loadCatalog(t.db, await readRows(SMALL_JSON))
  ann = await account('ann')
  bea = await account('bea')
  mal = await account('mal')
  out = await account('out')
  ids = { ann: idOf('ann'), bea: idOf('bea'), mal: idOf('mal'), out: idOf('out') }
  brom = insertCharacter(t.db, 'ann', { givenName: 'Brom', classes: [{ name: 'Fighter', levels: 9 }] }).id
  mira = insertCharacter(t.db, 'bea', { givenName: 'Mira', classes: [{ name: 'Wizard', levels: 8 }] }).id
  vex = insertCharacter(t.db, 'mal', { givenName: 'Vex', classes: [{ name: 'Rogue', levels: 8 }] }).id
  zed = insertCharacter(t.db, 'out', { givenName: 'Zed', classes: [{ name: 'Cleric', levels: 8 }] }).id
  groupId = ok(await t.web(ann).groups.post({ name: 'Stormreach Irregulars' }), 201).id
  await join(bea, await invite(ann))
  await join(mal, await invite(ann))
  ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: brom }).put())
  ok(await t.web(bea).groups({ id: groupId }).characters({ characterId: mira }).put())
  snapshot = t.db.$client.serialize()
})

beforeEach(() => {
  t = testApp({}, { db: databaseFrom(snapshot) })
})

describe('making a group and joining it', () => {
  test('the maker owns it; a code admits one account, once', async () => {
    const detail = ok(await t.web(bea).groups({ id: groupId }).get())
    expect(detail).toMatchObject({ name: 'Stormreach Irregulars', isOwner: false, you: ids.bea, invites: [] })
    expect(detail.members.map((m) => [m.name, m.isOwner])).toEqual([
      ['ann', true],
      ['bea', false],
      ['mal', false],
    ])
    expect(ok(await t.web(out).groups.get()).groups).toEqual([])
    const listed = ok(await t.web(bea).groups.get()).groups
    expect(listed).toEqual([
      {
        id: groupId,
        name: 'Stormreach Irregulars',
        isOwner: false,
        members: 3,
        characters: 2,
        createdAt: '2026-11-21T12:00:00.000Z',
      },
    ])
  })

  test('a reused code is refused and admits nobody', async () => {
    const code = await invite(ann)
    await join(out, code)
    const fifth = await account('fifth')
    refused(await t.web(fifth).groups.join.post({ code }), 404)
    expect(ok(await t.web(fifth).groups.get()).groups).toEqual([])
  })

  test(`a code ends after ${INVITE_LIFETIME_DAYS} days`, async () => {
    const code = await invite(ann)
    t.clock.advance(INVITE_LIFETIME_DAYS * 86_400_000 + 1000)
    const { error } = refused(await t.web(out).groups.join.post({ code }), 404)
    expect(error).toContain('not valid')
    expect(t.db.select().from(groupMembers).where(eq(groupMembers.userId, ids.out)).all()).toEqual([])
  })

  test('an unknown or malformed code is the same 404', async () => {
    for (const code of ['qti_nothing-like-this', 'hello', 'x'.repeat(200)]) {
      refused(await t.web(out).groups.join.post({ code }), 404)
    }
  })

  test('a member joining again keeps the code unused', async () => {
    const code = await invite(ann)
    expect(await join(bea, code)).toEqual({ group: { id: groupId, name: 'Stormreach Irregulars' } })
    await join(out, code)
  })

  test('the plain code is not stored; only its SHA-256', async () => {
    const code = await invite(ann)
    const stored = t.db.select().from(invites).all()
    expect(JSON.stringify(stored)).not.toContain(code)
    expect(stored.at(-1)?.codeHash).toMatch(/^[0-9a-f]{64}$/)
  })

  test('a name is 1 to 60 characters', async () => {
    refused(await t.web(ann).groups.post({ name: '   ' }), 400)
    refused(await t.web(ann).groups.post({ name: 'x'.repeat(61) }), 400)
    ok(await t.web(ann).groups.post({ name: 'x'.repeat(60) }), 201)
  })

  test(`an account belongs to at most ${MAX_GROUPS_PER_ACCOUNT} groups: 409`, async () => {
    for (let i = 1; i < MAX_GROUPS_PER_ACCOUNT; i++) ok(await t.web(ann).groups.post({ name: `G${i}` }), 201)
    const { error } = refused(await t.web(ann).groups.post({ name: 'One too many' }), 409)
    expect(error).toContain(`${MAX_GROUPS_PER_ACCOUNT}`)
    // Joining counts too, and the code stays unused.
    const other = ok(await t.web(out).groups.post({ name: 'Other' }), 201).id
    const code = await invite(out, other)
    refused(await t.web(ann).groups.join.post({ code }), 409)
    await join(bea, code)
  })

  test(`a group has at most ${MAX_MEMBERS_PER_GROUP} members: 409`, async () => {
    // The members beyond the four accounts of the test, written straight into the tables.
    for (let i = 4; i <= MAX_MEMBERS_PER_GROUP; i++) {
      const user = t.db
        .insert(users)
        .values({ username: `m${i}`, passwordHash: 'x', createdAt: '2026-11-21T12:00:00.000Z' })
        .returning()
        .get()
      t.db.insert(groupMembers).values({ groupId, userId: user.id, joinedAt: '2026-11-21T12:00:00.000Z' }).run()
    }
    expect(ok(await t.web(ann).groups({ id: groupId }).get()).members).toHaveLength(MAX_MEMBERS_PER_GROUP)
    refused(await t.web(out).groups.join.post({ code: await invite(ann) }), 409)
  })

  test(`at most ${MAX_PENDING_INVITES_PER_GROUP} invites waiting; rotating ends them all`, async () => {
    const codes: string[] = []
    while (ok(await t.web(ann).groups({ id: groupId }).get()).invites.length < MAX_PENDING_INVITES_PER_GROUP)
      codes.push(await invite(ann))
    refused(await t.web(ann).groups({ id: groupId }).invites.post({}, { query: {} }), 409)
    const rotated = ok(
      await t
        .web(ann)
        .groups({ id: groupId })
        .invites.post({}, { query: { rotate: 'true' } }),
      201,
    )
    expect(rotated.revoked).toBe(MAX_PENDING_INVITES_PER_GROUP)
    expect(rotated.path).toBe(`/join/${rotated.code}`)
    refused(await t.web(out).groups.join.post({ code: codes[0] as string }), 404)
    await join(out, rotated.code)
  })

  test('the owner ends one waiting invite', async () => {
    const code = await invite(ann)
    const [pending] = ok(await t.web(ann).groups({ id: groupId }).get()).invites
    ok(
      await t
        .web(ann)
        .groups({ id: groupId })
        .invites({ inviteId: pending?.id as number })
        .delete(),
    )
    refused(await t.web(out).groups.join.post({ code }), 404)
    refused(
      await t
        .web(ann)
        .groups({ id: groupId })
        .invites({ inviteId: pending?.id as number })
        .delete(),
      404,
    )
  })
})

describe('members leave, are removed, and the group is handed on', () => {
  test('a member leaves with the characters they shared', async () => {
    expect(ok(await t.web(bea).groups({ id: groupId }).members({ userId: ids.bea }).delete())).toEqual({
      result: 'left',
    })
    refused(await t.web(bea).groups({ id: groupId }).get(), 404)
    const detail = ok(await t.web(ann).groups({ id: groupId }).get())
    expect(detail.characters.map((c) => c.name)).toEqual(['Brom'])
    expect(t.db.select().from(groupShares).where(eq(groupShares.characterId, mira)).all()).toEqual([])
  })

  test('the owner removes a member; a member cannot remove anyone', async () => {
    refused(await t.web(mal).groups({ id: groupId }).members({ userId: ids.bea }).delete(), 403)
    ok(await t.web(ann).groups({ id: groupId }).members({ userId: ids.mal }).delete())
    refused(await t.web(mal).groups({ id: groupId }).get(), 404)
    refused(await t.web(ann).groups({ id: groupId }).members({ userId: ids.out }).delete(), 404)
  })

  test('the owner leaving hands the group to the longest-standing member; the last one out deletes it', async () => {
    t.clock.advance(1000)
    expect(ok(await t.web(ann).groups({ id: groupId }).members({ userId: ids.ann }).delete()).result).toBe('handed-on')
    expect(ok(await t.web(bea).groups({ id: groupId }).get()).isOwner).toBe(true)
    ok(await t.web(mal).groups({ id: groupId }).members({ userId: ids.mal }).delete())
    expect(ok(await t.web(bea).groups({ id: groupId }).members({ userId: ids.bea }).delete()).result).toBe('deleted')
    expect(t.db.select().from(groups).all()).toEqual([])
  })

  test('handing on: to a member only, by the owner only', async () => {
    refused(await t.web(mal).groups({ id: groupId }).owner.put({ userId: ids.mal }), 403)
    refused(await t.web(ann).groups({ id: groupId }).owner.put({ userId: ids.out }), 404)
    const detail = ok(await t.web(ann).groups({ id: groupId }).owner.put({ userId: ids.bea }))
    expect(detail.isOwner).toBe(false)
    expect(detail.members.find((m) => m.isOwner)?.name).toBe('bea')
    // The new owner invites; the old one cannot any more.
    refused(await t.web(ann).groups({ id: groupId }).invites.post({}, { query: {} }), 403)
    await invite(bea)
  })

  test('a former owner removed by the new owner cannot walk back in with a spare invite (issue 39, item 9)', async () => {
    const spare = await invite(ann)
    await invite(ann)
    ok(await t.web(ann).groups({ id: groupId }).owner.put({ userId: ids.bea }))
    // Handing the group on ends the invites its owner made: the new owner sees none waiting.
    expect(ok(await t.web(bea).groups({ id: groupId }).get()).invites).toEqual([])
    ok(await t.web(bea).groups({ id: groupId }).members({ userId: ids.ann }).delete())
    refused(await t.web(ann).groups.join.post({ code: spare }), 404)
    refused(await t.web(ann).groups({ id: groupId }).get(), 404)
    const waiting = t.db.select().from(invites).where(eq(invites.createdBy, ids.ann)).all()
    expect(waiting.filter((row) => row.usedAt === null)).toEqual([])
  })

  test('a member who leaves, or is removed, takes the invites they made with them', async () => {
    // Bea made an invite while she owned the group, and stays a member when Ann takes it back.
    ok(await t.web(ann).groups({ id: groupId }).owner.put({ userId: ids.bea }))
    const made = await invite(bea)
    ok(await t.web(bea).groups({ id: groupId }).owner.put({ userId: ids.ann }))
    refused(await t.web(out).groups.join.post({ code: made }), 404)
    // The owner leaving (the group handed on) ends theirs too.
    const owners = await invite(ann)
    expect(ok(await t.web(ann).groups({ id: groupId }).members({ userId: ids.ann }).delete()).result).toBe('handed-on')
    refused(await t.web(out).groups.join.post({ code: owners }), 404)
  })

  test('the owner sees who made each invite waiting', async () => {
    await invite(ann)
    const [pending] = ok(await t.web(ann).groups({ id: groupId }).get()).invites
    expect(pending).toMatchObject({ createdBy: { id: ids.ann, name: 'ann' } })
  })

  test('an account removed hands its group on', async () => {
    const { removeUser } = await import('../../../src/modules/account/service')
    removeUser(t.db, 'ann')
    const detail = ok(await t.web(bea).groups({ id: groupId }).get())
    expect(detail.isOwner).toBe(true)
    expect(detail.characters.map((c) => c.name)).toEqual(['Mira'])
  })

  test('only the owner renames or deletes the group', async () => {
    refused(await t.web(bea).groups({ id: groupId }).patch({ name: 'Mine now' }), 403)
    expect(ok(await t.web(ann).groups({ id: groupId }).patch({ name: 'Irregulars' })).name).toBe('Irregulars')
    refused(await t.web(bea).groups({ id: groupId }).delete(), 403)
    ok(await t.web(ann).groups({ id: groupId }).delete())
    refused(await t.web(bea).groups({ id: groupId }).get(), 404)
    // Nobody's characters are touched.
    expect(ok(await t.web(bea).characters({ id: mira }).get()).givenName).toBe('Mira')
  })
})

describe('shared characters', () => {
  test('none is shared by default; a member shares theirs and takes it back', async () => {
    const detail = ok(await t.web(mal).groups({ id: groupId }).get())
    expect(detail.yourCharacters).toEqual([{ id: vex, name: 'Vex', shared: false }])
    expect(detail.characters.map((c) => [c.name, c.owner.name, c.level, c.classes])).toEqual([
      ['Brom', 'ann', 9, 'Fighter 9'],
      ['Mira', 'bea', 8, 'Wizard 8'],
    ])
    ok(await t.web(bea).groups({ id: groupId }).characters({ characterId: mira }).delete())
    refused(await t.web(ann).groups({ id: groupId }).characters({ characterId: mira }).get(), 404)
    expect(ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: brom }).get()).name).toBe('Brom')
  })

  test('a character its owner deletes leaves the group with its share', async () => {
    ok(await t.web(bea).characters({ id: mira }).delete())
    expect(ok(await t.web(ann).groups({ id: groupId }).get()).characters.map((c) => c.name)).toEqual(['Brom'])
    refused(await t.web(ann).groups({ id: groupId }).characters({ characterId: mira }).get(), 404)
    refused(
      await t
        .web(ann)
        .groups({ id: groupId })
        .party.get({ query: { characters: `${mira}` } }),
      404,
    )
  })

  test('nothing a member sees carries another member’s e-mail', async () => {
    const seen = JSON.stringify([
      ok(await t.web(bea).groups({ id: groupId }).get()),
      ok(await t.web(bea).groups.get()),
      ok(await t.web(bea).groups({ id: groupId }).needs.get({ query: {} })),
      ok(
        await t
          .web(bea)
          .groups({ id: groupId })
          .party.get({ query: { characters: `${brom},${mira}` } }),
      ),
      ok(await t.web(bea).groups({ id: groupId }).characters({ characterId: brom }).get()),
    ])
    expect(seen).not.toContain('@example.org')
  })
})

describe('a hostile member and an outsider', () => {
  const outsiderCalls = () => {
    const g = t.web(out).groups({ id: groupId })
    return [
      () => g.get(),
      () => g.patch({ name: 'Taken' }),
      () => g.delete(),
      () => g.invites.post({}, { query: {} }),
      () => g.invites({ inviteId: 1 }).delete(),
      () => g.members({ userId: ids.bea }).delete(),
      () => g.owner.put({ userId: ids.out }),
      () => g.characters({ characterId: zed }).put(),
      () => g.characters({ characterId: brom }).delete(),
      () => g.characters({ characterId: brom }).get(),
      () => g.needs.get({ query: {} }),
      () => g.routes({ routeId: 1 }).needs.get(),
      () => g.party.get({ query: { characters: `${brom}` } }),
      () => g.events.get(),
      () => g.grid.get(),
      () => g.characters({ characterId: brom }).tracker.get(),
    ]
  }

  test('an outsider gets 404 on every group route, and nothing changes', async () => {
    const before = ok(await t.web(ann).groups({ id: groupId }).get())
    for (const call of outsiderCalls()) refused(await call(), 404)
    expect(ok(await t.web(ann).groups({ id: groupId }).get())).toEqual(before)
  })

  test("a hostile member: the owner's routes are 403, other members' characters 404, and nothing changes", async () => {
    await invite(ann)
    const before = ok(await t.web(ann).groups({ id: groupId }).get())
    const g = t.web(mal).groups({ id: groupId })
    const owners: (() => Promise<Parameters<typeof refused>[0]>)[] = [
      () => g.patch({ name: 'Mine now' }),
      () => g.delete(),
      () => g.invites.post({}, { query: {} }),
      () => g.invites.post({}, { query: { rotate: 'true' } }),
      () => g.invites({ inviteId: before.invites[0]?.id as number }).delete(),
      () => g.members({ userId: ids.bea }).delete(),
      () => g.members({ userId: ids.ann }).delete(),
      () => g.owner.put({ userId: ids.mal }),
    ]
    for (const call of owners) refused(await call(), 403)
    for (const call of [
      () => g.characters({ characterId: brom }).delete(),
      () => g.characters({ characterId: mira }).delete(),
      () => g.characters({ characterId: zed }).put(),
    ])
      refused(await call(), 404)
    expect(ok(await t.web(ann).groups({ id: groupId }).get())).toEqual(before)
    // What a member may read, Mal reads: the members, never their invites.
    expect(ok(await g.get()).invites).toEqual([])
  })

  test("a member cannot share, take back or read another member's character that is not shared", async () => {
    const g = t.web(mal).groups({ id: groupId })
    // Ann's Brom is shared: Mal cannot take it back; Out's Zed and Bea's unshared characters are not Mal's to share.
    refused(await g.characters({ characterId: brom }).delete(), 404)
    refused(await g.characters({ characterId: zed }).put(), 404)
    refused(await g.characters({ characterId: vex + 1000 }).put(), 404)
    refused(await g.characters({ characterId: zed }).get(), 404)
    refused(await g.party.get({ query: { characters: `${brom},${zed}` } }), 404)
    expect(ok(await t.web(ann).groups({ id: groupId }).get()).characters.map((c) => c.id)).toEqual([brom, mira])
  })

  test('a removed member loses every route at once', async () => {
    ok(await t.web(ann).groups({ id: groupId }).members({ userId: ids.bea }).delete())
    const g = t.web(bea).groups({ id: groupId })
    for (const call of [
      () => g.get(),
      () => g.needs.get({ query: {} }),
      () => g.party.get({ query: { characters: `${brom}` } }),
      () => g.characters({ characterId: brom }).get(),
      () => g.events.get(),
    ])
      refused(await call(), 404)
  })

  test('the plugin API is the same: a member reads it with a token, an outsider’s token gets 404 everywhere', async () => {
    const login = async (identifier: string) =>
      ok(await t.api.plugin.auth.login.post({ identifier, password: PASSWORD })).token
    const beaToken = await login('bea')
    const detail = ok(await t.plugin(beaToken).groups({ id: groupId }).get())
    expect(detail.characters.map((c) => c.name)).toEqual(['Brom', 'Mira'])
    const needs = ok(
      await t
        .plugin(beaToken)
        .groups({ id: groupId })
        .needs.get({ query: { quest: 'Crypt', difficulty: 'Heroic' } }),
    )
    expect(needs.quests).toEqual([{ name: 'Crypt', difficulty: 'Heroic', neededBy: [brom, mira], doneBy: [] }])
    const g = t.plugin(await login('out')).groups({ id: groupId })
    for (const call of [
      () => g.get(),
      () => g.patch({ name: 'Taken' }),
      () => g.delete(),
      () => g.invites.post({}, { query: {} }),
      () => g.members({ userId: ids.bea }).delete(),
      () => g.owner.put({ userId: ids.out }),
      () => g.characters({ characterId: zed }).put(),
      () => g.characters({ characterId: brom }).delete(),
      () => g.characters({ characterId: brom }).get(),
      () => g.needs.get({ query: {} }),
      () => g.party.get({ query: { characters: `${brom}` } }),
    ])
      refused(await call(), 404)
    refused(await t.api.plugin.groups.get(), 401)
  })

  test('without a session: 401', async () => {
    refused(await t.api.groups.get(), 401)
    refused(await t.api.groups({ id: groupId }).get(), 401)
  })
})

describe('who still needs what', () => {
  test('per quest: needed by those without it at the setting or harder, done by the others', async () => {
    ok(await t.web(ann).characters({ id: brom }).completions.post({ name: 'Bell Tower', setting: 'reaper' }), 201)
    ok(await t.web(bea).characters({ id: mira }).completions.post({ name: 'Bell Tower', setting: 'hard' }), 201)
    const elite = ok(
      await t
        .web(mal)
        .groups({ id: groupId })
        .needs.get({ query: { quest: 'bell tower', setting: 'elite' } }),
    )
    expect(elite.quests).toEqual([{ name: 'Bell Tower', difficulty: 'Heroic', neededBy: [mira], doneBy: [brom] }])
    const hard = ok(
      await t
        .web(mal)
        .groups({ id: groupId })
        .needs.get({ query: { quest: 'Bell Tower', setting: 'hard' } }),
    )
    expect(hard.quests[0]).toMatchObject({ neededBy: [], doneBy: [brom, mira] })
    const all = ok(await t.web(mal).groups({ id: groupId }).needs.get({ query: {} }))
    expect(all.setting).toBe('elite')
    expect(all.quests).toHaveLength(12)
    expect(all.quests.find((q) => q.name === 'Crypt' && q.difficulty === 'Heroic')?.neededBy).toEqual([brom, mira])
  })

  test("needed only where the quest is in that character's own band, whoever asks (issue 42, section 3)", async () => {
    // A level 5 quest beside the small catalog, and Mal's level 30 character shared with the group.
    const rows = await readRows(SMALL_JSON)
    const bell = rows.find((r) => r.name === 'Bell Tower') as (typeof rows)[number]
    loadCatalog(t.db, [{ ...bell, name: 'The Low Road', level: 5 }])
    const old = insertCharacter(t.db, 'mal', {
      givenName: 'Old',
      classes: [{ name: 'Rogue', levels: 20 }],
      epicLevels: 10,
    }).id
    ok(await t.web(mal).groups({ id: groupId }).characters({ characterId: old }).put())
    ok(await t.web(mal).characters({ id: old }).completions.post({ name: 'Bell Tower', setting: 'elite' }), 201)
    const needs = async (cookie: string, setting: 'elite' | 'normal' = 'elite') =>
      ok(await t.web(cookie).groups({ id: groupId }).needs.get({ query: { setting } }))
    const of = (answer: Awaited<ReturnType<typeof needs>>, name: string, difficulty = 'Heroic') =>
      answer.quests.find((q) => q.name === name && q.difficulty === difficulty)

    // On elite: Brom (9) runs base levels 6 to 11 for full XP, Mira (8) 5 to 10, Old (30) 27 to 32.
    const elite = await needs(ann)
    expect(of(elite, 'The Low Road')).toMatchObject({ neededBy: [mira], doneBy: [] })
    expect(of(elite, 'Bell Tower')).toMatchObject({ neededBy: [brom, mira], doneBy: [old] })
    expect(of(elite, 'Crypt', 'Legendary')).toMatchObject({ neededBy: [old], doneBy: [] })
    // Heroic characters cannot enter epic content: the epic Crypt (27) is Old's alone.
    expect(of(elite, 'Crypt', 'Epic')).toMatchObject({ neededBy: [old] })
    // The same answer for every member: the band is each character's, not the viewer's.
    expect(await needs(mal)).toEqual(elite)
    // On normal Mira's full XP starts at 7: The Low Road is nobody's.
    expect(of(await needs(bea, 'normal'), 'The Low Road')).toMatchObject({ neededBy: [], doneBy: [] })

    // Old's tracker level set to 5 (as its player would): the kept answer is not served again.
    ok(await t.web(mal).characters({ id: old }).progress.put({ characterLevel: 5 }))
    const after = await needs(ann)
    expect(of(after, 'The Low Road')?.neededBy).toEqual([mira, old])
    expect(of(after, 'Crypt', 'Legendary')?.neededBy).toEqual([])
  })

  test('an unknown quest or setting is refused', async () => {
    refused(
      await t
        .web(ann)
        .groups({ id: groupId })
        .needs.get({ query: { quest: 'No Such Quest' } }),
      404,
    )
    const raw = await t.json('GET', `/api/groups/${groupId}/needs?setting=legendary`, { cookie: ann })
    expect(raw.status).toBe(400)
  })

  test("each step of a route, at the step's setting", async () => {
    const route = ok(
      await t.web(bea).routes.post({
        name: 'Harbor',
        quests: [
          { name: 'Bell Tower', setting: 'normal' },
          { name: 'Crypt', setting: 'elite' },
        ],
      }),
      201,
    )
    ok(await t.web(ann).characters({ id: brom }).completions.post({ name: 'Bell Tower', setting: 'normal' }), 201)
    const needs = ok(await t.web(ann).groups({ id: groupId }).routes({ routeId: route.id }).needs.get())
    expect(needs.steps.map((s) => [s.name, s.setting, s.neededBy, s.doneBy])).toEqual([
      ['Bell Tower', 'normal', [mira], [brom]],
      ['Crypt', 'elite', [brom, mira], []],
    ])
    refused(
      await t
        .web(ann)
        .groups({ id: groupId })
        .routes({ routeId: route.id + 99 })
        .needs.get(),
      404,
    )
  })
})

describe('who still needs what, once per change (issue 39, item 7)', () => {
  /**
   * Counts the reads of completions from now on: every statement prepared on the database whose
   * SQL reads the table, each time it runs. Each needs answer read every shared character's
   * completions of the group on every call (0.7 s at 200,000 of them), for every member's tracker.
   */
  function completionReads(): () => number {
    const sqlite = t.db.$client
    const prepare = sqlite.prepare.bind(sqlite)
    let reads = 0
    sqlite.prepare = ((sql: string, ...rest: never[]) => {
      const statement = prepare(sql, ...rest)
      if (/\bfrom "completions"/i.test(sql)) {
        for (const method of ['all', 'get', 'values', 'iterate'] as const) {
          const run = statement[method].bind(statement) as (...a: unknown[]) => unknown
          ;(statement as unknown as Record<string, unknown>)[method] = (...a: unknown[]) => {
            reads++
            return run(...a)
          }
        }
      }
      return statement
    }) as typeof sqlite.prepare
    return () => reads
  }
  const needs = (cookie: string, query: Record<string, string> = {}, etag?: string) =>
    t.request('GET', `/api/groups/${groupId}/needs?${new URLSearchParams(query)}`, {
      cookie,
      headers: etag ? { 'if-none-match': etag } : {},
    })

  test("every member's tracker gets the answer computed once; an ETag answers 304 until something changes", async () => {
    ok(await t.web(ann).characters({ id: brom }).completions.post({ name: 'Bell Tower', setting: 'elite' }), 201)
    const reads = completionReads()
    const first = await needs(ann)
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag') as string
    expect(etag).toMatch(/^".+"$/)
    const body = await first.text()
    // Brom's and Mira's completions, once each.
    expect(reads()).toBe(2)
    // The other members' trackers, after the same event: the same answer, nothing read again.
    for (const cookie of [bea, mal]) {
      const again = await needs(cookie)
      expect(again.status).toBe(200)
      expect(again.headers.get('etag')).toBe(etag)
      expect(await again.text()).toBe(body)
    }
    // Another setting is counted from what was read.
    expect((await needs(ann, { setting: 'hard' })).status).toBe(200)
    expect(reads()).toBe(2)
    // A tracker that holds the answer gets a 304, with no body.
    const held = await needs(bea, {}, etag)
    expect(held.status).toBe(304)
    expect(await held.text()).toBe('')
    expect(reads()).toBe(2)
    // An outsider is 404 whatever tag it sends.
    expect((await needs(out, {}, etag)).status).toBe(404)
  })

  test('a change reads again only the character that changed; the tag moves with every change the answer shows', async () => {
    const reads = completionReads()
    /** The needs answer, and how many reads of completions it took. */
    const read = async (cookie: string, query: Record<string, string> = {}, etag?: string) => {
      const before = reads()
      const response = await needs(cookie, query, etag)
      return { response, reads: reads() - before }
    }
    const first = await read(ann)
    const etag = first.response.headers.get('etag') as string
    expect(first.reads).toBe(2)
    // Mira logs Bell Tower: a new tag, her completions read again, not Brom's.
    ok(await t.web(bea).characters({ id: mira }).completions.post({ name: 'Bell Tower', setting: 'elite' }), 201)
    const afterPost = await read(ann, {}, etag)
    expect(afterPost.response.status).toBe(200)
    const posted = (await afterPost.response.json()) as {
      quests: { name: string; difficulty: string; doneBy: number[] }[]
    }
    expect(posted.quests.find((q) => q.name === 'Bell Tower' && q.difficulty === 'Heroic')?.doneBy).toEqual([mira])
    expect(afterPost.reads).toBe(1)
    const tags = new Set([etag, afterPost.response.headers.get('etag')])
    // Mal shares Vex: Vex's completions read; the list of characters changes.
    ok(await t.web(mal).groups({ id: groupId }).characters({ characterId: vex }).put())
    const afterShare = await read(bea)
    expect(
      ((await afterShare.response.json()) as { characters: { id: number }[] }).characters.map((c) => c.id),
    ).toEqual([brom, mira, vex])
    expect(afterShare.reads).toBe(1)
    tags.add(afterShare.response.headers.get('etag'))
    // Brom's level changes (what the answer lists of him): a new tag.
    ok(
      await t
        .web(ann)
        .characters({ id: brom })
        .patch({ classes: [{ name: 'Fighter', levels: 10 }] }),
    )
    const afterLevel = await read(bea)
    expect(((await afterLevel.response.json()) as { characters: { level: number }[] }).characters[0]?.level).toBe(10)
    tags.add(afterLevel.response.headers.get('etag'))
    // Vex taken back: nothing to read.
    ok(await t.web(mal).groups({ id: groupId }).characters({ characterId: vex }).delete())
    const afterWithdraw = await read(bea)
    expect(afterWithdraw.reads).toBe(0)
    tags.add(afterWithdraw.response.headers.get('etag'))
    expect(tags.size).toBe(5)
    // A quest asked for is an answer of its own, with its own tag.
    const one = await needs(ann, { quest: 'Bell Tower' })
    expect(one.headers.get('etag')).not.toBe((await needs(ann)).headers.get('etag'))
  })

  test(`a group sees at most ${MAX_SHARED_CHARACTERS_PER_GROUP} characters: 409, and nothing is written`, async () => {
    // Ann's characters fill the group up to the limit (Brom and Mira are shared already).
    const now = '2026-11-21T12:00:00.000Z'
    t.db.$client.transaction(() => {
      for (let i = 0; i < MAX_SHARED_CHARACTERS_PER_GROUP - 2; i++) {
        const id = insertCharacter(t.db, 'ann', { givenName: `Alt${i}` }).id
        t.db.$client.run('insert into group_shares (group_id, character_id, shared_at) values (?, ?, ?)', [
          groupId,
          id,
          now,
        ])
      }
    })()
    const full = refused(await t.web(mal).groups({ id: groupId }).characters({ characterId: vex }).put(), 409)
    expect(full.error).toBe(
      `A group sees at most ${MAX_SHARED_CHARACTERS_PER_GROUP} characters: one of them must be taken back before another is shared.`,
    )
    expect(t.db.select().from(groupShares).where(eq(groupShares.characterId, vex)).all()).toEqual([])
    // Sharing one shared already still answers the list; taking one back makes room.
    ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: brom }).put())
    ok(await t.web(ann).groups({ id: groupId }).characters({ characterId: brom }).delete())
    ok(await t.web(mal).groups({ id: groupId }).characters({ characterId: vex }).put())
  })

  test(`share changes: ${SHARE_CHANGES_BURST} at once, then one every ${SHARE_CHANGES_REFILL_MS / 1000} s per account (429)`, async () => {
    const toggle = (cookie: string, characterId: number, share: boolean) => {
      const route = t.web(cookie).groups({ id: groupId }).characters({ characterId })
      return share ? route.put() : route.delete()
    }
    for (let i = 0; i < SHARE_CHANGES_BURST; i++) ok(await toggle(mal, vex, i % 2 === 0))
    const shared = t.db.select().from(groupShares).where(eq(groupShares.characterId, vex)).all()
    const refusedToggle = await t.json('PUT', `/api/groups/${groupId}/characters/${vex}`, { cookie: mal })
    expect(refusedToggle.status).toBe(429)
    expect(refusedToggle.body).toEqual({
      error: `Too many changes to shared characters; try again in ${SHARE_CHANGES_REFILL_MS / 1000} seconds.`,
    })
    expect(refusedToggle.headers.get('retry-after')).toBe(String(SHARE_CHANGES_REFILL_MS / 1000))
    // Nothing written by the refused one.
    expect(t.db.select().from(groupShares).where(eq(groupShares.characterId, vex)).all()).toEqual(shared)
    // Another account is not held back; the same account is, on the plugin API too.
    ok(await toggle(bea, mira, false))
    const token = ok(await t.api.plugin.auth.login.post({ identifier: 'mal', password: PASSWORD })).token
    refused(await t.plugin(token).groups({ id: groupId }).characters({ characterId: vex }).put(), 429)
    // One more once the wait is over.
    t.clock.advance(SHARE_CHANGES_REFILL_MS)
    ok(await toggle(mal, vex, true))
    refused(await toggle(mal, vex, false), 429)
  })
})

describe('the party planner', () => {
  // Brom is a Fighter 9, Mira a Wizard 8. On elite, full XP from base level 6 (9 - 1 - 2) and 5
  // (8 - 1 - 2): the band both share is 6 to 8, which holds Bell Tower (6) and Delera's Rest (7).
  test('the quests every one can run for full XP, most needed first', async () => {
    ok(await t.web(ann).characters({ id: brom }).completions.post({ name: "Delera's Rest", setting: 'elite' }), 201)
    const plan = ok(
      await t
        .web(bea)
        .groups({ id: groupId })
        .party.get({ query: { characters: `${mira},${brom}`, setting: 'elite' } }),
    )
    expect(plan.band).toEqual({ from: 6, to: 8 })
    expect(plan.characters.map((c) => c.name)).toEqual(['Mira', 'Brom'])
    expect(plan.quests.map((q) => [q.name, q.level, q.neededBy, q.doneBy, q.favor])).toEqual([
      ['Bell Tower', 6, [mira, brom], [], 9],
      ["Delera's Rest", 7, [mira], [brom], 0],
    ])
    expect(plan.quests[0]).toMatchObject({ patron: 'Cryptic Order', time: null, estimatedMinutes: 20 })
  })

  test('a pack one of them lacks leaves its quests out', async () => {
    ok(
      await t
        .web(bea)
        .characters({ id: mira })
        .progress.put({ packState: { "Delera's Tomb": false } }),
    )
    const plan = ok(
      await t
        .web(ann)
        .groups({ id: groupId })
        .party.get({ query: { characters: `${brom},${mira}` } }),
    )
    expect(plan.quests.map((q) => q.name)).toEqual(['Bell Tower'])
  })

  test('bands that do not meet: no quest', async () => {
    const hero = insertCharacter(t.db, 'mal', { givenName: 'Hero', classes: [{ name: 'Fighter', levels: 20 }] }).id
    ok(await t.web(mal).groups({ id: groupId }).characters({ characterId: hero }).put())
    const plan = ok(
      await t
        .web(mal)
        .groups({ id: groupId })
        .party.get({ query: { characters: `${hero},${mira}` } }),
    )
    expect(plan.quests).toEqual([])
  })

  test('who in the party is locked out of a raid now, and when each is ready (66 hours after its run)', async () => {
    // Bell Tower as a raid (a source's group size); The Shroud, not in this catalog, is one of the
    // DDO wiki's raids.
    t.db.update(quests).set({ groupSize: 'Raid' }).where(eq(quests.name, 'Bell Tower')).run()
    t.db.insert(catalogState).values({ id: 1, source: 'test', syncedAt: '2026-11-21T00:00:00.000Z', rows: 3 }).run()
    const log = (cookie: string, id: number, name: string, completedAt: string) =>
      t.web(cookie).characters({ id }).completions.post({ name, difficulty: 'Heroic', setting: 'elite', completedAt })
    ok(await log(ann, brom, 'Bell Tower', '2026-11-21T02:00:00.000Z'), 201)
    ok(await log(bea, mira, 'The Shroud', '2026-11-19T12:00:00.000Z'), 201)
    // Mira's Bell Tower run was three days ago: ready again.
    ok(await log(bea, mira, 'Bell Tower', '2026-11-18T12:00:00.000Z'), 201)
    const plan = ok(
      await t
        .web(bea)
        .groups({ id: groupId })
        .party.get({ query: { characters: `${mira},${brom}` } }),
    )
    // Brom's run of Bell Tower counts as done, so Delera's Rest (needed by both) comes first.
    expect(plan.quests.map((q) => [q.name, q.raid, q.lockedOut])).toEqual([
      ["Delera's Rest", false, []],
      ['Bell Tower', true, [{ characterId: brom, readyAt: '2026-11-23T20:00:00.000Z' }]],
    ])
    expect(plan.lockouts).toEqual([
      {
        characterId: mira,
        raids: [{ name: 'The Shroud', lastRunAt: '2026-11-19T12:00:00.000Z', readyAt: '2026-11-22T06:00:00.000Z' }],
      },
      {
        characterId: brom,
        raids: [{ name: 'Bell Tower', lastRunAt: '2026-11-21T02:00:00.000Z', readyAt: '2026-11-23T20:00:00.000Z' }],
      },
    ])
    // Once Mira's Shroud timer is over she is off the list.
    t.clock.advance(18 * 3_600_000)
    const later = ok(
      await t
        .web(bea)
        .groups({ id: groupId })
        .party.get({ query: { characters: `${mira},${brom}` } }),
    )
    expect(later.lockouts.map((l) => l.characterId)).toEqual([brom])
  })

  test(`at most ${MAX_PARTY_SIZE} characters, given as ids`, async () => {
    const g = t.web(ann).groups({ id: groupId })
    refused(await g.party.get({ query: { characters: '1,2,3,4,5,6,7' } }), 400)
    refused(await g.party.get({ query: { characters: 'brom' } }), 400)
    refused(await g.party.get({ query: { characters: '' } }), 400)
  })
})

describe("the group's event stream", () => {
  const openStream = (cookie: string) => t.request('GET', `/api/groups/${groupId}/events`, { cookie })

  test("a shared character's completion, from the plugin API, reaches every member's stream", async () => {
    const stream = await openStream(bea)
    expect(stream.status).toBe(200)
    const received = readEvents(stream, (text) => text.includes('event: change'))
    const token = await t.json<{ token: string }>('POST', '/api/plugin/auth/login', {
      body: { identifier: 'ann', password: PASSWORD },
    })
    ok(
      await t.plugin(token.body.token).characters({ id: brom }).completions.post({ name: 'Crypt', setting: 'elite' }),
      201,
    )
    expect(await received).toContain(JSON.stringify({ characterId: brom, what: 'completions' }))
  })

  test('a character not shared (or taken back) does not reach the stream', async () => {
    ok(await t.web(bea).groups({ id: groupId }).characters({ characterId: mira }).delete())
    const stream = await openStream(ann)
    const received = readEvents(stream, (text) => text.includes('event: change'), 400)
    ok(await t.web(bea).characters({ id: mira }).completions.post({ name: 'Crypt' }), 201)
    ok(await t.web(mal).characters({ id: vex }).completions.post({ name: 'Crypt' }), 201)
    expect(await received).not.toContain('event: change')
  })

  test('a removed member’s open stream says so and ends; the others hear of the change', async () => {
    const beas = await openStream(bea)
    const anns = await openStream(ann)
    const toBea = readEvents(beas, (text) => text.includes('event: removed'))
    const toAnn = readEvents(anns, (text) => text.includes('event: group'))
    ok(await t.web(ann).groups({ id: groupId }).members({ userId: ids.bea }).delete())
    expect(await toBea).toContain('event: removed')
    expect(await toAnn).toContain(JSON.stringify({ what: 'members' }))
    // After it, Bea's earlier share is gone and its changes reach nobody.
    const later = readEvents(await openStream(ann), (text) => text.includes('event: change'), 400)
    ok(await t.web(bea).characters({ id: mira }).completions.post({ name: 'Crypt' }), 201)
    expect(await later).not.toContain('event: change')
  })
})
