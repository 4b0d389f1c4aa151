// Making one's own account with an invite (SIGNUP_INVITES=on): the preview of an invite, the
// sign-up that makes the account (and joins the group of a group's invite) in one transaction,
// the code used once, and the per-address limit on attempts.
import { describe, expect, test } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { groupMembers, groups, invites, users } from '../../../src/db/schema'
import { removeUser } from '../../../src/modules/account/service'
import { MAX_MEMBERS_PER_GROUP } from '../../../src/modules/groups/limits'
import {
  INVITE_LIFETIME_DAYS,
  MAX_SIGNUPS_PER_INVITER_PER_DAY,
  SIGNUP_ATTEMPTS_PER_ADDRESS,
  SIGNUP_REFILL_MS,
} from '../../../src/modules/invites/limits'
import { createInvite } from '../../../src/modules/invites/service'
import { SIGNUPS_OFF } from '../../../src/modules/invites/signup'
import { ok, refused, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'a newcomer password'
const NOT_VALID = 'This invite is not valid: it was used already, it expired, or it never existed.'

const signupsOn = () => testApp({ SIGNUP_INVITES: 'on' })

/** The operator's invite (`invite create`): to make an account. */
const accountInvite = (t: TestApp) => createInvite(t.db, t.clock, { groupId: null, createdBy: null }).code

/** A group owned by a new account `owner`, and an invite to it from the owner. */
async function groupInvite(t: TestApp, owner = 'olga', name = 'The Silver Flame') {
  await t.userWithToken(owner)
  const ownerId = t.db.select({ id: users.id }).from(users).where(eq(users.username, owner)).get()?.id as number
  const now = t.clock.now().toISOString()
  const group = t.db.insert(groups).values({ name, ownerId, createdAt: now }).returning().get()
  t.db.insert(groupMembers).values({ groupId: group.id, userId: ownerId, joinedAt: now }).run()
  return { group, code: createInvite(t.db, t.clock, { groupId: group.id, createdBy: ownerId }).code }
}

const accounts = (t: TestApp) => t.db.select({ n: count() }).from(users).get()?.n ?? 0
const inviteRow = (t: TestApp) => t.db.select().from(invites).orderBy(invites.id).all().at(-1)
const cookieOf = (response: Response) => /^(qt_session=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1]
const signUp = (t: TestApp, code: string, username = 'newbie', extra: { email?: string; password?: string } = {}) =>
  t.api.signup.post({ code, username, password: extra.password ?? PASSWORD, email: extra.email })

describe('turned off (the default)', () => {
  test('sign-up is 403 with a sentence that says so, and nothing is written', async () => {
    const t = testApp()
    const code = accountInvite(t)
    const answer = await signUp(t, code)
    expect(refused(answer, 403).error).toBe(SIGNUPS_OFF)
    expect(answer.response.headers.get('set-cookie')).toBeNull()
    expect(accounts(t)).toBe(0)
    expect(inviteRow(t)?.usedAt).toBeNull()
  })

  test("a group's invite does not make an account either; its preview says a newcomer cannot sign up", async () => {
    const t = testApp()
    const { code } = await groupInvite(t)
    refused(await signUp(t, code), 403)
    expect(accounts(t)).toBe(1)
    const preview = ok(await t.api.invites({ code }).get())
    expect(preview.invite).toMatchObject({ kind: 'group', group: { name: 'The Silver Flame' }, signup: false })
  })
})

describe('the preview of an invite', () => {
  test("an account invite: its kind, its expiry, and that a newcomer can sign up; a group's: the group's name only", async () => {
    const t = signupsOn()
    const code = accountInvite(t)
    const expiresAt = new Date(t.clock.now().getTime() + INVITE_LIFETIME_DAYS * 86_400_000).toISOString()
    expect(ok(await t.api.invites({ code }).get())).toEqual({
      invite: { kind: 'account', group: null, expiresAt, signup: true },
    })
    const group = await groupInvite(t)
    expect(ok(await t.api.invites({ code: group.code }).get())).toEqual({
      invite: { kind: 'group', group: { name: 'The Silver Flame' }, expiresAt, signup: true },
    })
  })

  test('used, expired, unknown and malformed codes are the same 404', async () => {
    const t = signupsOn()
    const used = accountInvite(t)
    ok(await signUp(t, used), 201)
    const expired = accountInvite(t)
    t.clock.advance(INVITE_LIFETIME_DAYS * 86_400_000)
    for (const code of [used, expired, 'qti_nosuchcode', 'not-a-code', `qti_${'x'.repeat(150)}`]) {
      expect(refused(await t.api.invites({ code }).get(), 404).error).toBe(NOT_VALID)
    }
  })
})

describe('signing up', () => {
  test('makes the account, signs it in (a session cookie), and uses the code', async () => {
    const t = signupsOn()
    const code = accountInvite(t)
    const answer = await signUp(t, code, 'Newbie', { email: 'New@Example.com' })
    const body = ok(answer, 201)
    expect(body).toEqual({
      user: { id: 1, username: 'Newbie', email: 'new@example.com', displayName: 'Newbie' },
      group: null,
    })
    const cookie = cookieOf(answer.response) as string
    expect(answer.response.headers.get('set-cookie')).toContain('HttpOnly')
    expect(ok(await t.web(cookie).session.get()).user.username).toBe('Newbie')
    expect(inviteRow(t)).toMatchObject({ usedAt: t.clock.now().toISOString(), usedBy: 1 })
    // The password is stored hashed, and signs in like any other.
    const stored = t.db.select().from(users).get()
    expect(stored?.passwordHash).not.toContain(PASSWORD)
    expect(stored?.passwordHash).toStartWith('$argon2id$')
    ok(await t.api.session.post({ identifier: 'new@example.com', password: PASSWORD }))
  })

  test("a group's invite makes the account a member of the group, in the same step", async () => {
    const t = signupsOn()
    const { group, code } = await groupInvite(t)
    const body = ok(await signUp(t, code), 201)
    expect(body.group).toEqual({ id: group.id, name: 'The Silver Flame' })
    const members = t.db.select().from(groupMembers).where(eq(groupMembers.groupId, group.id)).all()
    expect(members.map((m) => m.userId).sort()).toEqual([1, body.user.id])
    expect(inviteRow(t)?.usedBy).toBe(body.user.id)
  })

  test('an expired code is refused and nothing is written', async () => {
    const t = signupsOn()
    const code = accountInvite(t)
    t.clock.advance(INVITE_LIFETIME_DAYS * 86_400_000 - 1)
    expect(ok(await t.api.invites({ code }).get()).invite.kind).toBe('account')
    t.clock.advance(1)
    expect(refused(await signUp(t, code), 404).error).toBe(NOT_VALID)
    expect(accounts(t)).toBe(0)
    expect(inviteRow(t)?.usedAt).toBeNull()
  })

  test('a code works once: the second sign-up with it is refused and makes nothing', async () => {
    const t = signupsOn()
    const code = accountInvite(t)
    ok(await signUp(t, code, 'first'), 201)
    const again = await signUp(t, code, 'second')
    expect(refused(again, 404).error).toBe(NOT_VALID)
    expect(again.response.headers.get('set-cookie')).toBeNull()
    expect(t.db.select({ username: users.username }).from(users).all()).toEqual([{ username: 'first' }])
  })

  test('two sign-ups at once with one code: one account', async () => {
    const t = signupsOn()
    const code = accountInvite(t)
    const answers = await Promise.all([signUp(t, code, 'racer1'), signUp(t, code, 'racer2')])
    expect(answers.map((a) => a.status).sort()).toEqual([201, 404])
    expect(accounts(t)).toBe(1)
    const winner = answers.find((a) => a.status === 201)?.data?.user.id
    expect(inviteRow(t)?.usedBy).toBe(winner as number)
  })

  test('a taken username is 400, and the code stays unused for the next try', async () => {
    const t = signupsOn()
    await t.userWithToken('alice')
    const code = accountInvite(t)
    expect(refused(await signUp(t, code, 'ALICE'), 400).error).toBe('An account "ALICE" already exists.')
    expect(inviteRow(t)?.usedAt).toBeNull()
    ok(await signUp(t, code, 'alice2'), 201)
  })

  test('two sign-ups at once with one username (two codes): one account, and the other code unused', async () => {
    const t = signupsOn()
    const codes = [accountInvite(t), accountInvite(t)]
    const answers = await Promise.all(codes.map((code) => signUp(t, code, 'same')))
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400])
    expect(accounts(t)).toBe(1)
    const used = t.db.select({ usedAt: invites.usedAt }).from(invites).all()
    expect(used.filter((row) => row.usedAt === null)).toHaveLength(1)
  })

  test.each([
    ['a username with a space', { username: 'new bie' }, 'A username is 1 to 64 characters without spaces or "@".'],
    ['an empty username (an e-mail alone is not enough)', { username: ' ', email: 'a@example.com' }, 'A username'],
    ['a short password', { password: 'short' }, 'The password must be at least 8 characters long.'],
    ['a bad e-mail', { email: 'nope' }, '"nope" is not an e-mail address.'],
  ])('%s is 400, the code unused', async (_, fields, sentence) => {
    const t = signupsOn()
    const code = accountInvite(t)
    const answer = await t.api.signup.post({ code, username: 'newbie', password: PASSWORD, ...fields })
    expect(refused(answer, 400).error).toStartWith(sentence)
    expect(accounts(t)).toBe(0)
    expect(inviteRow(t)?.usedAt).toBeNull()
  })

  test('a full group refuses the newcomer (409): no account, the code unused', async () => {
    const t = signupsOn()
    const { group, code } = await groupInvite(t)
    const now = t.clock.now().toISOString()
    for (let i = 1; i < MAX_MEMBERS_PER_GROUP; i++) {
      const user = t.db
        .insert(users)
        .values({ username: `member${i}`, passwordHash: 'x', createdAt: now })
        .returning()
        .get()
      t.db.insert(groupMembers).values({ groupId: group.id, userId: user.id, joinedAt: now }).run()
    }
    const before = accounts(t)
    refused(await signUp(t, code), 409)
    expect(accounts(t)).toBe(before)
    expect(inviteRow(t)?.usedAt).toBeNull()
  })

  test('a sign-up from another site is refused (403) before anything runs', async () => {
    const t = signupsOn()
    const code = accountInvite(t)
    const response = await t.json('POST', '/api/signup', {
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      body: { code, username: 'newbie', password: PASSWORD },
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(accounts(t)).toBe(0)
  })
})

describe('attempts per address', () => {
  test(`${SIGNUP_ATTEMPTS_PER_ADDRESS} failed attempts, then 429 with Retry-After even with a good code; one more a minute later`, async () => {
    const t = signupsOn()
    const good = accountInvite(t)
    for (let i = 0; i < SIGNUP_ATTEMPTS_PER_ADDRESS; i++) refused(await signUp(t, `qti_guess${i}`), 404)
    const locked = await signUp(t, good)
    expect(refused(locked, 429).error).toBe(
      `Too many sign-ups from your address; try again in ${SIGNUP_REFILL_MS / 1000} seconds.`,
    )
    expect(locked.response.headers.get('retry-after')).toBe(String(SIGNUP_REFILL_MS / 1000))
    expect(accounts(t)).toBe(0)
    // Sign-ins count apart: the address's sign-in is not locked by its sign-ups.
    await t.userWithToken('alice')
    ok(await t.api.session.post({ identifier: 'alice', password: 'correct horse battery' }))
    t.clock.advance(SIGNUP_REFILL_MS)
    ok(await signUp(t, good), 201)
  })

  test('a success gives its attempt back: a guild signing up from one address is never locked out', async () => {
    const t = signupsOn()
    for (let i = 0; i < SIGNUP_ATTEMPTS_PER_ADDRESS + 2; i++) ok(await signUp(t, accountInvite(t), `player${i}`), 201)
    expect(accounts(t)).toBe(SIGNUP_ATTEMPTS_PER_ADDRESS + 2)
  })
})

describe("accounts one account's invites make in a day (issue 39)", () => {
  /** One more group of `owner`'s, and an invite to it from them. */
  function anotherGroupInvite(t: TestApp, ownerId: number, name: string) {
    const now = t.clock.now().toISOString()
    const group = t.db.insert(groups).values({ name, ownerId, createdAt: now }).returning().get()
    t.db.insert(groupMembers).values({ groupId: group.id, userId: ownerId, joinedAt: now }).run()
    return createInvite(t.db, t.clock, { groupId: group.id, createdBy: ownerId }).code
  }

  test(`${MAX_SIGNUPS_PER_INVITER_PER_DAY} through all of an owner's groups, then 429 with Retry-After; the code unused, nothing written`, async () => {
    const t = signupsOn()
    const { group } = await groupInvite(t)
    const ownerId = group.ownerId
    for (let i = 0; i < MAX_SIGNUPS_PER_INVITER_PER_DAY; i++) {
      // Alternating between two of the owner's groups: the count is the account's, not a group's.
      const code =
        i % 2 === 0
          ? createInvite(t.db, t.clock, { groupId: group.id, createdBy: ownerId }).code
          : anotherGroupInvite(t, ownerId, `Party ${i}`)
      ok(await signUp(t, code, `recruit${i}`), 201)
      t.clock.advance(60_000)
    }
    const before = accounts(t)
    const code = createInvite(t.db, t.clock, { groupId: group.id, createdBy: ownerId }).code
    const answer = await signUp(t, code, 'one-too-many')
    const waitSeconds = 86_400 - MAX_SIGNUPS_PER_INVITER_PER_DAY * 60
    expect(refused(answer, 429).error).toBe(
      `The account that made this invite has brought in ${MAX_SIGNUPS_PER_INVITER_PER_DAY} accounts in the last 24 hours, the most one account's invites may; try again in ${Math.ceil(waitSeconds / 3600)} hours, or ask the server's operator for an account.`,
    )
    expect(answer.response.headers.get('retry-after')).toBe(String(waitSeconds))
    expect(accounts(t)).toBe(before)
    expect(inviteRow(t)?.usedAt).toBeNull()
    // A day after the first, its place is free again; the same code works.
    t.clock.advance(waitSeconds * 1000)
    ok(await signUp(t, code, 'next-day'), 201)
  })

  test("the operator's invites are not counted, nor another account's", async () => {
    const t = signupsOn()
    const { group } = await groupInvite(t)
    for (let i = 0; i < MAX_SIGNUPS_PER_INVITER_PER_DAY; i++) {
      const code = createInvite(t.db, t.clock, { groupId: group.id, createdBy: group.ownerId }).code
      ok(await signUp(t, code, `recruit${i}`), 201)
    }
    ok(await signUp(t, accountInvite(t), 'by-the-operator'), 201)
    const other = await groupInvite(t, 'pia', 'The Coin Lords')
    ok(await signUp(t, other.code, 'pias-recruit'), 201)
  })

  test('the account whose invite made another can still be removed; the other keeps its account', async () => {
    const t = signupsOn()
    const { code } = await groupInvite(t)
    const recruit = ok(await signUp(t, code, 'recruit'), 201).user
    expect(t.db.select({ by: users.invitedBy }).from(users).where(eq(users.id, recruit.id)).get()?.by).toBe(1)
    removeUser(t.db, 'olga')
    expect(t.db.select({ by: users.invitedBy }).from(users).where(eq(users.id, recruit.id)).get()).toEqual({ by: null })
  })

  test('an existing account joining with the invite is not counted (it makes no account)', async () => {
    const t = signupsOn()
    const { group } = await groupInvite(t)
    for (let i = 0; i < MAX_SIGNUPS_PER_INVITER_PER_DAY; i++) {
      await t.userWithToken(`veteran${i}`)
      const cookie = await t.signIn(`veteran${i}`)
      const code = createInvite(t.db, t.clock, { groupId: group.id, createdBy: group.ownerId }).code
      ok(await t.web(cookie).groups.join.post({ code }))
    }
    const code = createInvite(t.db, t.clock, { groupId: group.id, createdBy: group.ownerId }).code
    ok(await signUp(t, code, 'newcomer'), 201)
  })
})
