// A guild's first week (issue 42, section 1): one link for the whole guild, usable many times until
// it expires, is used up or is ended, and officers the owner names, who make and end links and
// remove members. Every safeguard of the one-time links holds: the code stored hashed, the same
// "not valid" for every dead code, and the per-day limit on accounts one account's links make.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { invites, users } from '../../../src/db/schema'
import { hashToken } from '../../../src/modules/auth/service'
import { MAX_LINK_USES } from '../../../src/modules/groups/limits'
import { MAX_SIGNUPS_PER_INVITER_PER_DAY } from '../../../src/modules/invites/limits'
import { ok, refused, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'
const NOT_VALID = 'This invite is not valid: it was used already, it expired, or it never existed.'

const idOf = (t: TestApp, username: string) =>
  t.db.select().from(users).where(eq(users.username, username)).get()?.id as number

/** A group owned by Ann (signed in), on a server where newcomers may sign up with its links. */
async function guild() {
  const t = testApp({ SIGNUP_INVITES: 'on' })
  await t.userWithToken('ann')
  const ann = await t.signIn('ann')
  const group = ok(await t.web(ann).groups.post({ name: 'Stormreach Irregulars' }), 201)
  const g = (cookie: string) => t.web(cookie).groups({ id: group.id })
  const link = async (cookie: string, body: { uses?: number; days?: number } = {}) =>
    ok(await g(cookie).invites.post(body, { query: {} }), 201)
  const member = async (name: string, code: string) => {
    await t.userWithToken(name)
    const cookie = await t.signIn(name)
    ok(await t.web(cookie).groups.join.post({ code }))
    return cookie
  }
  return { t, ann, group, g, link, member }
}

describe("one link for the guild's chat", () => {
  test('admits as many players as it was made for, then is "not valid" like any dead code', async () => {
    const { t, ann, g, link, member } = await guild()
    const made = await link(ann, { uses: 3, days: 14 })
    expect(made.maxUses).toBe(3)
    // Stored hashed, as every code.
    const row = t.db
      .select()
      .from(invites)
      .where(eq(invites.codeHash, hashToken(made.code)))
      .get()
    expect(row).toMatchObject({ maxUses: 3, uses: 0, usedAt: null })
    expect(JSON.stringify(t.db.select().from(invites).all())).not.toContain(made.code)
    // Two existing accounts join with it, a newcomer signs up with it.
    await member('bea', made.code)
    await member('cid', made.code)
    ok(await t.api.signup.post({ code: made.code, username: 'dot', password: PASSWORD }), 201)
    expect(ok(await g(ann).get()).members.map((m) => m.name)).toEqual(['ann', 'bea', 'cid', 'dot'])
    // Used up: the fourth player gets the answer an unknown code gets.
    await t.userWithToken('eve')
    const eve = await t.signIn('eve')
    expect(refused(await t.web(eve).groups.join.post({ code: made.code }), 404).error).toBe(NOT_VALID)
    expect(refused(await t.web(eve).groups.join.post({ code: 'qti_nothing' }), 404).error).toBe(NOT_VALID)
    expect(
      t.db
        .select()
        .from(invites)
        .where(eq(invites.id, row?.id ?? 0))
        .get(),
    ).toMatchObject({ uses: 3 })
    expect(ok(await g(ann).get()).invites).toEqual([])
  })

  test('while it admits players, the owner sees how many it admitted; ending it stops it at once', async () => {
    const { t, ann, g, link, member } = await guild()
    const made = await link(ann, { uses: 25 })
    await member('bea', made.code)
    const [waiting] = ok(await g(ann).get()).invites
    expect(waiting).toMatchObject({ maxUses: 25, uses: 1, createdBy: { name: 'ann' } })
    ok(
      await g(ann)
        .invites({ inviteId: waiting?.id as number })
        .delete(),
    )
    await t.userWithToken('cid')
    const cid = await t.signIn('cid')
    expect(refused(await t.web(cid).groups.join.post({ code: made.code }), 404).error).toBe(NOT_VALID)
  })

  test('players racing through its last place: only as many get in as it admits', async () => {
    const { t, ann, g, link } = await guild()
    const made = await link(ann, { uses: 2 })
    const names = ['p1', 'p2', 'p3', 'p4', 'p5']
    const answers = await Promise.all(
      names.map((username) => t.api.signup.post({ code: made.code, username, password: PASSWORD })),
    )
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2)
    expect(answers.filter((a) => a.status === 404)).toHaveLength(3)
    expect(ok(await g(ann).get()).members).toHaveLength(3)
  })

  test('the per-day limit on accounts one account makes holds for a guild link too', async () => {
    const { t, ann, link } = await guild()
    const made = await link(ann, { uses: MAX_SIGNUPS_PER_INVITER_PER_DAY + 5 })
    for (let i = 0; i < MAX_SIGNUPS_PER_INVITER_PER_DAY; i++) {
      ok(await t.api.signup.post({ code: made.code, username: `new${i}`, password: PASSWORD }), 201)
    }
    refused(await t.api.signup.post({ code: made.code, username: 'one-too-many', password: PASSWORD }), 429)
  })

  test.each([
    [{ uses: 0 }, `Body field "uses" must be an integer from 1 to ${MAX_LINK_USES}.`],
    [{ uses: MAX_LINK_USES + 1 }, `Body field "uses" must be an integer from 1 to ${MAX_LINK_USES}.`],
    [{ days: 31 }, 'Body field "days" must be an integer from 1 to 30.'],
  ])('a link of %o is 400', async (body, error) => {
    const { ann, g } = await guild()
    expect(refused(await g(ann).invites.post(body, { query: {} }), 400).error).toBe(error)
  })
})

describe('officers', () => {
  test("the owner names one: they make and end links and remove members, and see the group's links", async () => {
    const { t, ann, g, link, member } = await guild()
    const made = await link(ann, { uses: 10 })
    const bea = await member('bea', made.code)
    const cid = await member('cid', made.code)
    // A plain member may do none of it, and sees no links.
    refused(await g(bea).invites.post({}, { query: {} }), 403)
    refused(
      await g(bea)
        .members({ userId: idOf(t, 'cid') })
        .delete(),
      403,
    )
    expect(ok(await g(bea).get()).invites).toEqual([])
    expect(ok(await g(bea).get()).yourSay).toBe('member')

    const named = ok(
      await g(ann)
        .members({ userId: idOf(t, 'bea') })
        .role.put({ role: 'officer' }),
    )
    expect(named.members.find((m) => m.name === 'bea')?.role).toBe('officer')
    expect(ok(await g(bea).get()).yourSay).toBe('officer')
    expect(ok(await g(bea).get()).invites).toHaveLength(1)
    const hers = await link(bea, { uses: 5 })
    ok(
      await g(bea)
        .members({ userId: idOf(t, 'cid') })
        .delete(),
    )
    expect(ok(await g(ann).get()).members.map((m) => m.name)).toEqual(['ann', 'bea'])
    await member('dot', hers.code)
    void cid
  })

  test('an officer neither removes the owner or another officer, nor renames, deletes, hands on or names officers', async () => {
    const { t, ann, g, link, member } = await guild()
    const made = await link(ann, { uses: 10 })
    const bea = await member('bea', made.code)
    await member('cid', made.code)
    ok(
      await g(ann)
        .members({ userId: idOf(t, 'bea') })
        .role.put({ role: 'officer' }),
    )
    ok(
      await g(ann)
        .members({ userId: idOf(t, 'cid') })
        .role.put({ role: 'officer' }),
    )
    refused(
      await g(bea)
        .members({ userId: idOf(t, 'ann') })
        .delete(),
      403,
    )
    refused(
      await g(bea)
        .members({ userId: idOf(t, 'cid') })
        .delete(),
      403,
    )
    refused(await g(bea).patch({ name: 'Mine now' }), 403)
    refused(await g(bea).delete(), 403)
    refused(await g(bea).owner.put({ userId: idOf(t, 'bea') }), 403)
    refused(
      await g(bea)
        .members({ userId: idOf(t, 'cid') })
        .role.put({ role: 'member' }),
      403,
    )
    expect(
      refused(
        await g(ann)
          .members({ userId: idOf(t, 'ann') })
          .role.put({ role: 'officer' }),
        400,
      ).error,
    ).toBe('The owner has every say already; an officer is another member.')
  })

  test("made a member again, an officer's waiting links end with their say", async () => {
    const { t, ann, g, link, member } = await guild()
    const made = await link(ann, { uses: 10 })
    const bea = await member('bea', made.code)
    ok(
      await g(ann)
        .members({ userId: idOf(t, 'bea') })
        .role.put({ role: 'officer' }),
    )
    const hers = await link(bea, { uses: 5 })
    ok(
      await g(ann)
        .members({ userId: idOf(t, 'bea') })
        .role.put({ role: 'member' }),
    )
    await t.userWithToken('cid')
    const cid = await t.signIn('cid')
    expect(refused(await t.web(cid).groups.join.post({ code: hers.code }), 404).error).toBe(NOT_VALID)
    // The owner's link still works.
    ok(await t.web(cid).groups.join.post({ code: made.code }))
  })
})
