// Invite codes, to a group or to make an account. The plain code is shown once (in the link the
// creator passes on); the table keeps its SHA-256, as it does for tokens and sessions. A code
// admits as many accounts as it was made for (one, or a guild's link of many) until it expires;
// a used-up, expired or unknown code is the same answer, so nothing tells an outsider which
// codes exist.
import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { invites } from '../../db/schema'
import { NotFound } from '../../http/errors'
import { hashToken } from '../auth/service'
import { INVITE_LIFETIME_DAYS } from './limits'

export type InviteRow = typeof invites.$inferSelect

type Writer = Pick<DB, 'insert'>
type Reader = Pick<DB, 'select'>

/** The prefix tells a pasted invite from a token or a share link. */
const INVITE_PREFIX = 'qti_'

export const newInviteCode = (): string => INVITE_PREFIX + randomBytes(18).toString('base64url')

export const inviteNotValid = () =>
  new NotFound('This invite is not valid: it was used already, it expired, or it never existed.')

export interface NewInvite {
  /** The plain code: shown once, never stored. */
  code: string
  id: number
  expiresAt: string
}

/** A new code for `groupId` (null: an account on this server), made by `createdBy` (null: the operator). */
export function createInvite(
  db: Writer,
  clock: Clock,
  {
    groupId,
    createdBy,
    days = INVITE_LIFETIME_DAYS,
    maxUses = 1,
  }: { groupId: number | null; createdBy: number | null; days?: number; maxUses?: number },
): NewInvite {
  const code = newInviteCode()
  const now = clock.now()
  const expiresAt = new Date(now.getTime() + days * 86_400_000).toISOString()
  const row = db
    .insert(invites)
    .values({ codeHash: hashToken(code), groupId, createdBy, createdAt: now.toISOString(), expiresAt, maxUses })
    .returning({ id: invites.id })
    .get()
  return { code, id: row.id, expiresAt }
}

/** The live invite a code names, or undefined (used, expired, unknown, malformed). */
export function findLiveInvite(db: Reader, clock: Clock, code: string): InviteRow | undefined {
  if (!code.startsWith(INVITE_PREFIX) || code.length > 64) return undefined
  return db
    .select()
    .from(invites)
    .where(and(eq(invites.codeHash, hashToken(code)), isNull(invites.usedAt), gt(invites.expiresAt, isoNow(clock))))
    .get()
}

/**
 * Counts one use of the code, by `userId`, and returns its invite; 404 when it is not live. The
 * last use it was made for uses it up (`usedAt`). Call it inside the transaction that does what
 * the invite grants, so a refused grant leaves the use uncounted, and requests racing with one
 * code cannot take more uses than it has (the update's own WHERE decides).
 */
export function useInvite(db: Pick<DB, 'update'>, clock: Clock, code: string, userId: number): InviteRow {
  const now = isoNow(clock)
  if (!code.startsWith(INVITE_PREFIX) || code.length > 64) throw inviteNotValid()
  const row = db
    .update(invites)
    .set({
      uses: sql`${invites.uses} + 1`,
      usedAt: sql`case when ${invites.uses} + 1 >= ${invites.maxUses} then ${now} else null end`,
      usedBy: userId,
    })
    .where(and(eq(invites.codeHash, hashToken(code)), isNull(invites.usedAt), gt(invites.expiresAt, now)))
    .returning()
    .get()
  if (!row) throw inviteNotValid()
  return row
}

/** Invites of a group that can still be used (for the limit and the owner's list). */
export function pendingInvites(db: Reader, clock: Clock, groupId: number): InviteRow[] {
  return db
    .select()
    .from(invites)
    .where(and(eq(invites.groupId, groupId), isNull(invites.usedAt), gt(invites.expiresAt, isoNow(clock))))
    .orderBy(invites.id)
    .all()
}

/** Ends every pending code of a group (rotating its invite: a leaked link stops working), or one. */
export function revokeGroupInvites(db: Pick<DB, 'delete'>, groupId: number, inviteId?: number): number {
  return db
    .delete(invites)
    .where(
      and(
        eq(invites.groupId, groupId),
        isNull(invites.usedAt),
        inviteId === undefined ? undefined : eq(invites.id, inviteId),
      ),
    )
    .returning({ id: invites.id })
    .all().length
}

/**
 * Ends the pending codes `userId` made for a group: when they leave it, are removed from it, or
 * hand it on, the invites they made go with their say in it (a former owner removed by the new
 * one walked back in with a spare link they made while owning the group).
 */
export function revokeInvitesMadeBy(db: Pick<DB, 'delete'>, groupId: number, userId: number): number {
  return db
    .delete(invites)
    .where(and(eq(invites.groupId, groupId), eq(invites.createdBy, userId), isNull(invites.usedAt)))
    .returning({ id: invites.id })
    .all().length
}

/** Used and expired codes are kept a day for the record, then removed by the nightly maintenance. */
export function purgeOldInvites(db: Pick<DB, 'delete'>, clock: Clock): number {
  const dayAgo = new Date(clock.now().getTime() - 86_400_000).toISOString()
  return db
    .delete(invites)
    .where(sql`coalesce(${invites.usedAt}, ${invites.expiresAt}) < ${dayAgo}`)
    .returning({ id: invites.id })
    .all().length
}
