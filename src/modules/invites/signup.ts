// Making one's own account with an invite (SIGNUP_INVITES=on): the operator's invite makes an
// account, a group's invite makes one and adds it to the group. The account, the invite's use and
// the membership are one transaction: a refusal of any leaves nothing written and the code unused.
import { and, asc, count, eq, gt } from 'drizzle-orm'
import type { Clock } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { groups, users } from '../../db/schema'
import type { AppDeps } from '../../deps'
import { addressKey } from '../../http/address'
import { Forbidden, TooManyRequests } from '../../http/errors'
import { quoted } from '../../logger'
import { count as words } from '../../rules/words'
import { normalizedName } from '../account/names'
import { checkNamesFree, checkNewUser, checkUsername, insertUser } from '../account/service'
import type { LoginGuard } from '../auth/loginGuard'
import type { UserRow } from '../auth/service'
import { addMember } from '../groups/members'
import { MAX_SIGNUPS_PER_INVITER_PER_DAY } from './limits'
import { findLiveInvite, type InviteRow, inviteNotValid, useInvite } from './service'

export const SIGNUPS_OFF =
  'Signing up with an invite is turned off on this server (SIGNUP_INVITES); ask its operator for an account.'

/** What a live invite shows before it is used: to whom it is, and whether a newcomer can sign up. */
export interface InvitePreview {
  kind: 'account' | 'group'
  /** The group's name, for a group's invite; nothing else of it. */
  group: { name: string } | null
  expiresAt: string
  signup: boolean
}

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>

/** The live invite a code names; 404 (the same for used, expired and unknown) otherwise. */
export function previewInvite({ db, clock, config }: Deps, code: string): InvitePreview {
  const invite = findLiveInvite(db, clock, code)
  if (!invite) throw inviteNotValid()
  const group =
    invite.groupId === null
      ? null
      : (db.select({ name: groups.name }).from(groups).where(eq(groups.id, invite.groupId)).get() ?? null)
  return {
    kind: invite.groupId === null ? 'account' : 'group',
    group,
    expiresAt: invite.expiresAt,
    signup: config.signupInvites,
  }
}

const DAY_MS = 86_400_000

/** "3 hours", "25 minutes": how long until a place comes back, in the refusal's sentence. */
const roughly = (seconds: number): string =>
  seconds >= 3600 ? words(Math.ceil(seconds / 3600), 'hour') : words(Math.max(1, Math.ceil(seconds / 60)), 'minute')

/**
 * The 429 for an invite whose maker's invites made MAX_SIGNUPS_PER_INVITER_PER_DAY accounts in
 * the last 24 hours, with Retry-After until the oldest of them leaves the window; null when
 * there is room, or for the operator's invites (`createdBy` null), which are not counted.
 */
function inviterFull(db: Pick<DB, 'select'>, clock: Clock, createdBy: number | null): TooManyRequests | null {
  if (createdBy === null) return null
  const now = clock.now().getTime()
  const recent = and(eq(users.invitedBy, createdBy), gt(users.createdAt, new Date(now - DAY_MS).toISOString()))
  const made = db.select({ n: count() }).from(users).where(recent).get()?.n ?? 0
  if (made < MAX_SIGNUPS_PER_INVITER_PER_DAY) return null
  const oldest = db
    .select({ at: users.createdAt })
    .from(users)
    .where(recent)
    .orderBy(asc(users.createdAt))
    .limit(1)
    .offset(made - MAX_SIGNUPS_PER_INVITER_PER_DAY)
    .get()
  const wait = Math.max(1, Math.ceil((Date.parse(oldest?.at ?? '') + DAY_MS - now) / 1000) || 1)
  return new TooManyRequests(
    `The account that made this invite has brought in ${MAX_SIGNUPS_PER_INVITER_PER_DAY} accounts in the last 24 hours, the most one account's invites may; try again in ${roughly(wait)}, or ask the server's operator for an account.`,
    wait,
  )
}

export interface SignUpInput {
  code: string
  username: string
  email?: string
  password: string
}

export interface SignedUp {
  user: UserRow
  /** The group the invite added the account to, or null for the operator's invite. */
  group: { id: number; name: string } | null
}

/**
 * Makes the account the invite grants: 403 while sign-ups are off, 429 when the address made too
 * many attempts (SIGNUP_ATTEMPTS_PER_ADDRESS) or holds its share of the password hashing, or
 * when the invite's maker's invites made MAX_SIGNUPS_PER_INVITER_PER_DAY accounts today, 400 for
 * a bad or taken name or password, 404 for a code that is not live, 409 when the group is full.
 * Everything is checked before the (slow) hash, and again in the transaction that writes.
 */
export async function signUp(
  { db, clock, config }: Deps,
  guard: LoginGuard,
  input: SignUpInput,
  clientAddress: string | undefined,
): Promise<SignedUp> {
  if (!config.signupInvites) throw new Forbidden(SIGNUPS_OFF)
  const address = addressKey(clientAddress)
  const from = clientAddress ?? 'an unknown address'
  const wait = guard.signups.retryAfterSeconds(address)
  if (wait > 0) {
    guard.logger.warn(`sign-up refused: ${from} is locked for ${wait} s`, { event: 'signup-locked', address: from })
    throw new TooManyRequests(`Too many sign-ups from your address; try again in ${wait} seconds.`, wait)
  }
  // Taken now, given back only by a success: failed attempts (wrong codes, taken names) add up.
  guard.signups.take(address)
  // Others see the username (a route's owner, a group's members): a sign-up must choose one.
  checkUsername(normalizedName(input.username))
  const names = checkNewUser(db, input)
  const live = findLiveInvite(db, clock, input.code)
  if (!live) {
    guard.logger.warn(`sign-up refused: an invite that is not live (from ${from})`, {
      event: 'signup-refused',
      address: from,
    })
    throw inviteNotValid()
  }
  const refuseInviterFull = (invite: InviteRow, reader: Pick<DB, 'select'>) => {
    const full = inviterFull(reader, clock, invite.createdBy)
    if (!full) return
    guard.logger.warn(
      `sign-up refused: account ${invite.createdBy}'s invites made ${MAX_SIGNUPS_PER_INVITER_PER_DAY} accounts in 24 hours (invite ${invite.id}, from ${from})`,
      { event: 'signup-refused', address: from },
    )
    throw full
  }
  // Before the (slow) hash, and again in the transaction that writes.
  refuseInviterFull(live, db)
  const release = await guard.hashing.enter(names.username ?? '', address)
  let passwordHash: string
  try {
    passwordHash = await guard.hasher.hash(input.password)
  } finally {
    release()
  }
  const signedUp = db.transaction((tx) => {
    // While the password was hashed, another sign-up may have taken the name or used the code.
    checkNamesFree(tx, names)
    const waiting = findLiveInvite(tx, clock, input.code)
    if (!waiting) throw inviteNotValid()
    refuseInviterFull(waiting, tx)
    const user = insertUser(tx, clock, names, passwordHash, waiting.createdBy)
    const invite = useInvite(tx, clock, input.code, user.id)
    if (invite.groupId === null) return { user, group: null, inviteId: invite.id }
    addMember(tx, clock, invite.groupId, user.id)
    const group = tx
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(eq(groups.id, invite.groupId))
      .get()
    return { user, group: group ?? null, inviteId: invite.id }
  }, IMMEDIATE)
  guard.signups.refund(address)
  const joined = signedUp.group ? ` and joined group ${signedUp.group.id}` : ''
  guard.logger.info(
    `signed up: account ${quoted(names.username ?? '')} with invite ${signedUp.inviteId}${joined} (from ${from})`,
    {
      event: 'signup',
      address: from,
    },
  )
  return { user: signedUp.user, group: signedUp.group }
}
