// Membership of groups: joining (by an invite), leaving, and what leaving takes with it. Shared by
// the group routes and the sign-up with a group's invite (one transaction each).
import { and, count, eq, inArray } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { characters, groupMembers, groupShares, groups } from '../../db/schema'
import { Conflict } from '../../http/errors'
import { revokeInvitesMadeBy } from '../invites/service'
import { MAX_GROUPS_PER_ACCOUNT, MAX_MEMBERS_PER_GROUP } from './limits'

type Tx = Pick<DB, 'select' | 'insert' | 'update' | 'delete'>

export function isMember(db: Pick<DB, 'select'>, groupId: number, userId: number): boolean {
  return (
    db
      .select({ userId: groupMembers.userId })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
      .get() !== undefined
  )
}

/** Groups the account belongs to, owned or joined. */
export function groupCountOf(db: Pick<DB, 'select'>, userId: number): number {
  return db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.userId, userId)).get()?.n ?? 0
}

export function assertRoomForAnotherGroup(db: Pick<DB, 'select'>, userId: number): void {
  if (groupCountOf(db, userId) >= MAX_GROUPS_PER_ACCOUNT) {
    throw new Conflict(`An account belongs to at most ${MAX_GROUPS_PER_ACCOUNT} groups: leave one first.`)
  }
}

/**
 * Adds `userId` to the group (an invite was used in the same transaction). Joining a group one
 * is in already changes nothing; the limits answer 409.
 */
export function addMember(tx: Tx, clock: Clock, groupId: number, userId: number): void {
  if (isMember(tx, groupId, userId)) return
  assertRoomForAnotherGroup(tx, userId)
  const members = tx.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, groupId)).get()?.n ?? 0
  if (members >= MAX_MEMBERS_PER_GROUP) {
    throw new Conflict(`This group has ${MAX_MEMBERS_PER_GROUP} members, the most a group can have.`)
  }
  tx.insert(groupMembers)
    .values({ groupId, userId, joinedAt: isoNow(clock) })
    .run()
}

/**
 * Takes `userId` out of the group with every character they shared with it and every invite to
 * it they made that is still waiting. The owner leaving hands the group to the longest-standing
 * other member; the last member leaving deletes it. Returns what happened, for the caller's answer.
 */
export function removeMember(tx: Tx, groupId: number, userId: number): 'left' | 'handed-on' | 'deleted' {
  revokeInvitesMadeBy(tx, groupId, userId)
  const own = tx.select({ id: characters.id }).from(characters).where(eq(characters.userId, userId))
  tx.delete(groupShares)
    .where(and(eq(groupShares.groupId, groupId), inArray(groupShares.characterId, own)))
    .run()
  tx.delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .run()
  const group = tx.select({ ownerId: groups.ownerId }).from(groups).where(eq(groups.id, groupId)).get()
  if (!group) return 'deleted'
  const next = tx
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(groupMembers.joinedAt, groupMembers.userId)
    .get()
  if (!next) {
    tx.delete(groups).where(eq(groups.id, groupId)).run()
    return 'deleted'
  }
  if (group.ownerId !== userId) return 'left'
  tx.update(groups).set({ ownerId: next.userId }).where(eq(groups.id, groupId)).run()
  return 'handed-on'
}

/** Before an account is removed: out of every group it is in (its groups handed on or deleted). */
export function leaveEveryGroup(tx: Tx, userId: number): void {
  const memberships = tx
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(eq(groupMembers.userId, userId))
    .all()
  for (const { groupId } of memberships) removeMember(tx, groupId, userId)
}
