// Making one's own account with an invite (SIGNUP_INVITES=on): the operator's invite makes an
// account, a group's invite makes one and adds it to the group. The account, the invite's use and
// the membership are one transaction: a refusal of any leaves nothing written and the code unused.
import { eq } from 'drizzle-orm'
import { IMMEDIATE } from '../../db/client'
import { groups } from '../../db/schema'
import type { AppDeps } from '../../deps'
import { addressKey } from '../../http/address'
import { Forbidden, TooManyRequests } from '../../http/errors'
import { quoted } from '../../logger'
import { normalizedName } from '../account/names'
import { checkNamesFree, checkNewUser, checkUsername, insertUser } from '../account/service'
import type { LoginGuard } from '../auth/loginGuard'
import type { UserRow } from '../auth/service'
import { addMember } from '../groups/members'
import { findLiveInvite, inviteNotValid, useInvite } from './service'

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
 * many attempts (SIGNUP_ATTEMPTS_PER_ADDRESS) or holds its share of the password hashing, 400 for
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
  if (!findLiveInvite(db, clock, input.code)) {
    guard.logger.warn(`sign-up refused: an invite that is not live (from ${from})`, {
      event: 'signup-refused',
      address: from,
    })
    throw inviteNotValid()
  }
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
    const user = insertUser(tx, clock, names, passwordHash)
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
