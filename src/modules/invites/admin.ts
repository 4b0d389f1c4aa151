// The operator's view of invite codes (`quest-tracker invite list|revoke`): every pending code,
// the operator's and the groups', by id; never the code itself (only its SHA-256 is kept).
import { and, eq, gt, isNull } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { groups, invites, users } from '../../db/schema'
import { BadRequest } from '../../http/errors'

export interface PendingInvite {
  id: number
  /** The group's name for a group's invite; null for an invite to make an account. */
  group: string | null
  /** Who made it: an account's username (or e-mail), or null for the operator. */
  createdBy: string | null
  createdAt: string
  expiresAt: string
}

const pending = (clock: Clock) => and(isNull(invites.usedAt), gt(invites.expiresAt, isoNow(clock)))

/** Every invite that can still be used, oldest first. */
export function listPendingInvites(db: Pick<DB, 'select'>, clock: Clock): PendingInvite[] {
  return db
    .select({
      id: invites.id,
      group: groups.name,
      username: users.username,
      email: users.email,
      createdAt: invites.createdAt,
      expiresAt: invites.expiresAt,
    })
    .from(invites)
    .leftJoin(groups, eq(groups.id, invites.groupId))
    .leftJoin(users, eq(users.id, invites.createdBy))
    .where(pending(clock))
    .orderBy(invites.id)
    .all()
    .map(({ username, email, ...invite }) => ({ ...invite, createdBy: username ?? email }))
}

/** Ends one pending invite by id (its link stops working); a used, expired or unknown id is refused. */
export function revokeInvite(db: Pick<DB, 'delete'>, clock: Clock, id: number): void {
  const row = db
    .delete(invites)
    .where(and(eq(invites.id, id), pending(clock)))
    .returning({ id: invites.id })
    .get()
  if (!row) throw new BadRequest(`No pending invite ${id}.`)
}
