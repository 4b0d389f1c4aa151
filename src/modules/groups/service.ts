// Groups (issue 24): a guild or a household on one server. Every read and write starts from the
// caller's membership, in the query: a group the caller is not in answers 404 exactly like one
// that does not exist, and so does a character the group does not see. Members see each other's
// names (the username, never the e-mail) and the characters each chose to share.
import { and, count, eq, inArray } from 'drizzle-orm'
import type { Static } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { characters, completions, groupMembers, groupShares, groups, type MemberRole, users } from '../../db/schema'
import { BadRequest, Conflict, Forbidden, NotFound } from '../../http/errors'
import { classSummary, type PlayOn } from '../../rules/character/levels'
import type { Setting } from '../../rules/quests/completion'
import { type NeedsCharacter, partyBand, partyQuests, questNeed } from '../../rules/quests/groupNeeds'
import { ESTIMATED_MINUTES } from '../../rules/quests/nextQuests'
import { indexCompletions } from '../../rules/quests/tracker'
import { checkVisible, normalizedName } from '../account/names'
import { questTimesByRemake, remakeKey } from '../catalog/questTimes'
import { catalogIndex } from '../catalog/service'
import { ownedCharacter } from '../characters/access'
import { characterName, trackerLevel } from '../characters/service'
import { currentQuestLife } from '../completions/service'
import { INVITE_LIFETIME_DAYS } from '../invites/limits'
import {
  createInvite,
  findLiveInvite,
  pendingInvites,
  revokeGroupInvites,
  revokeInvitesMadeBy,
  useInvite,
} from '../invites/service'
import { getRoute } from '../routes/service'
import type { GroupFeed } from './feed'
import {
  MAX_GROUP_NAME_LENGTH,
  MAX_PARTY_SIZE,
  MAX_PENDING_INVITES_PER_GROUP,
  MAX_SHARED_CHARACTERS_PER_GROUP,
} from './limits'
import { addMember, assertRoomForAnotherGroup, isMember, removeMember } from './members'
import type { GroupDetail, GroupList, PartyAnswer, PartyQuery, RouteNeedsAnswer, SharedCharacter } from './model'
import type { ShareChanges } from './shareChanges'

type GroupRow = typeof groups.$inferSelect
type SharedCharacterJson = Static<typeof SharedCharacter>

/** What a group service needs: where it writes, its clock, and the feed the group's open pages follow. */
export interface GroupWriter {
  db: DB
  clock: Clock
  feed: GroupFeed
}

/** A member's name as other members see it: the username, never the e-mail. */
export const memberName = (user: { id: number; username: string | null }): string =>
  user.username ?? `Player ${user.id}`

const noGroup = (groupId: number) => new NotFound(`No group ${groupId} that you are a member of.`)

/** The group, when the caller is a member; the same 404 for a group that does not exist. */
export function memberGroup(db: Pick<DB, 'select'>, userId: number, groupId: number): GroupRow {
  const row = db
    .select({ group: groups })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
    .where(eq(groups.id, groupId))
    .get()
  if (!row) throw noGroup(groupId)
  return row.group
}

function ownerGroup(db: Pick<DB, 'select'>, userId: number, groupId: number, doing: string): GroupRow {
  const group = memberGroup(db, userId, groupId)
  if (group.ownerId !== userId) throw new Forbidden(`Only the group's owner can ${doing}.`)
  return group
}

/** A member's say in a group: its owner, an officer the owner named, or a member. */
export type Say = 'owner' | MemberRole

/** The caller's say in a group they are a member of (404 as memberGroup otherwise). */
export function sayIn(db: Pick<DB, 'select'>, userId: number, groupId: number): { group: GroupRow; say: Say } {
  const group = memberGroup(db, userId, groupId)
  if (group.ownerId === userId) return { group, say: 'owner' }
  return { group, say: roleOf(db, groupId, userId) ?? 'member' }
}

function roleOf(db: Pick<DB, 'select'>, groupId: number, userId: number): MemberRole | undefined {
  return db
    .select({ role: groupMembers.role })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .get()?.role
}

/** The group, when the caller owns it or is one of its officers: who lets players in and out. */
function managedGroup(db: Pick<DB, 'select'>, userId: number, groupId: number, doing: string): GroupRow {
  const { group, say } = sayIn(db, userId, groupId)
  if (say === 'member') throw new Forbidden(`Only the group's owner or an officer can ${doing}.`)
  return group
}

/** A group's name as stored: NFKC, trimmed, 1 to MAX_GROUP_NAME_LENGTH characters, none hidden (account/names.ts). */
function checkName(name: string): string {
  const normalized = normalizedName(name)
  if (normalized === '' || [...normalized].length > MAX_GROUP_NAME_LENGTH) {
    throw new BadRequest(`A group's name is 1 to ${MAX_GROUP_NAME_LENGTH} characters.`)
  }
  checkVisible(normalized)
  return normalized
}

export function listGroups(db: DB, userId: number): Static<typeof GroupList> {
  const mine = db
    .select({ id: groups.id, name: groups.name, ownerId: groups.ownerId, createdAt: groups.createdAt })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
    .orderBy(groups.name, groups.id)
    .all()
  const ids = mine.map((g) => g.id)
  const memberCounts = new Map(
    ids.length === 0
      ? []
      : db
          .select({ groupId: groupMembers.groupId, n: count() })
          .from(groupMembers)
          .where(inArray(groupMembers.groupId, ids))
          .groupBy(groupMembers.groupId)
          .all()
          .map((r) => [r.groupId, r.n]),
  )
  const shareCounts = new Map(
    ids.length === 0
      ? []
      : db
          .select({ groupId: groupShares.groupId, n: count() })
          .from(groupShares)
          .where(inArray(groupShares.groupId, ids))
          .groupBy(groupShares.groupId)
          .all()
          .map((r) => [r.groupId, r.n]),
  )
  return {
    groups: mine.map((g) => ({
      id: g.id,
      name: g.name,
      isOwner: g.ownerId === userId,
      members: memberCounts.get(g.id) ?? 0,
      characters: shareCounts.get(g.id) ?? 0,
      createdAt: g.createdAt,
    })),
  }
}

export function createGroup({ db, clock }: GroupWriter, userId: number, name: string): Static<typeof GroupDetail> {
  const groupName = checkName(name)
  const id = db.transaction((tx) => {
    assertRoomForAnotherGroup(tx, userId)
    const now = isoNow(clock)
    const group = tx
      .insert(groups)
      .values({ name: groupName, ownerId: userId, createdAt: now })
      .returning({ id: groups.id })
      .get()
    tx.insert(groupMembers).values({ groupId: group.id, userId, joinedAt: now }).run()
    return group.id
  }, IMMEDIATE)
  return groupDetail(db, clock, userId, id)
}

/** The characters shared with a group, with their owners' names, in the order they were shared. */
export function sharedCharacters(db: DB, groupId: number, only?: readonly number[]): SharedCharacterJson[] {
  const rows = db
    .select({
      character: characters,
      sharedAt: groupShares.sharedAt,
      ownerId: users.id,
      ownerUsername: users.username,
    })
    .from(groupShares)
    .innerJoin(characters, eq(characters.id, groupShares.characterId))
    .innerJoin(users, eq(users.id, characters.userId))
    .where(and(eq(groupShares.groupId, groupId), only ? inArray(groupShares.characterId, [...only]) : undefined))
    .orderBy(groupShares.sharedAt, characters.id)
    .all()
  return rows.map(({ character, sharedAt, ownerId, ownerUsername }) => ({
    id: character.id,
    name: characterName(character),
    owner: { id: ownerId, name: memberName({ id: ownerId, username: ownerUsername }) },
    race: character.race,
    classes: classSummary(character.classes),
    level: trackerLevel(character),
    server: character.server,
    guild: character.guild,
    sharedAt,
  }))
}

export function groupDetail(db: DB, clock: Clock, userId: number, groupId: number): Static<typeof GroupDetail> {
  const group = memberGroup(db, userId, groupId)
  const members = db
    .select({ id: users.id, username: users.username, joinedAt: groupMembers.joinedAt, role: groupMembers.role })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(groupMembers.joinedAt, users.id)
    .all()
  const shared = sharedCharacters(db, groupId)
  const sharedIds = new Set(shared.map((c) => c.id))
  const own = db
    .select({ id: characters.id, givenName: characters.givenName, surname: characters.surname })
    .from(characters)
    .where(eq(characters.userId, userId))
    .orderBy(characters.id)
    .all()
  const isOwner = group.ownerId === userId
  const say: Say = isOwner ? 'owner' : (members.find((m) => m.id === userId)?.role ?? 'member')
  return {
    id: group.id,
    name: group.name,
    createdAt: group.createdAt,
    isOwner,
    members: members.map((m) => ({
      id: m.id,
      name: memberName(m),
      isOwner: m.id === group.ownerId,
      role: m.id === group.ownerId ? ('owner' as const) : m.role,
      joinedAt: m.joinedAt,
    })),
    you: userId,
    yourSay: say,
    characters: shared,
    yourCharacters: own.map((c) => ({ id: c.id, name: characterName(c), shared: sharedIds.has(c.id) })),
    // The owner and the officers hand out links, so only they see the waiting ones (never their
    // codes), each with who made it and how many it admitted.
    invites: say === 'member' ? [] : groupInvites(db, clock, groupId),
  }
}

/** A group's pending invites, with who made each (the member's name; null for an account since removed). */
function groupInvites(db: DB, clock: Clock, groupId: number) {
  const makers = new Map(
    db
      .select({ id: users.id, username: users.username })
      .from(users)
      .innerJoin(groupMembers, and(eq(groupMembers.userId, users.id), eq(groupMembers.groupId, groupId)))
      .all()
      .map((user) => [user.id, memberName(user)]),
  )
  return pendingInvites(db, clock, groupId).map((invite) => {
    const name = invite.createdBy === null ? undefined : makers.get(invite.createdBy)
    return {
      id: invite.id,
      createdAt: invite.createdAt,
      expiresAt: invite.expiresAt,
      maxUses: invite.maxUses,
      uses: invite.uses,
      createdBy: invite.createdBy !== null && name !== undefined ? { id: invite.createdBy, name } : null,
    }
  })
}

export function renameGroup(
  { db, clock, feed }: GroupWriter,
  userId: number,
  groupId: number,
  name: string,
): Static<typeof GroupDetail> {
  const groupName = checkName(name)
  db.transaction((tx) => {
    ownerGroup(tx, userId, groupId, 'rename it')
    tx.update(groups).set({ name: groupName }).where(eq(groups.id, groupId)).run()
  }, IMMEDIATE)
  feed.publish(groupId, 'group')
  return groupDetail(db, clock, userId, groupId)
}

export function deleteGroup({ db, feed }: GroupWriter, userId: number, groupId: number): void {
  db.transaction((tx) => {
    ownerGroup(tx, userId, groupId, 'delete it')
    tx.delete(groups).where(eq(groups.id, groupId)).run()
  }, IMMEDIATE)
  feed.publish(groupId, 'deleted')
}

/** What a new link admits: how many accounts, for how many days. */
export interface LinkTerms {
  uses?: number
  days?: number
}

export function createGroupInvite(
  { db, clock }: GroupWriter,
  userId: number,
  groupId: number,
  rotate: boolean,
  { uses = 1, days = INVITE_LIFETIME_DAYS }: LinkTerms = {},
): { code: string; path: string; expiresAt: string; maxUses: number; revoked: number } {
  return db.transaction((tx) => {
    managedGroup(tx, userId, groupId, 'make a link')
    const revoked = rotate ? revokeGroupInvites(tx, groupId) : 0
    if (pendingInvites(tx, clock, groupId).length >= MAX_PENDING_INVITES_PER_GROUP) {
      throw new Conflict(
        `A group has at most ${MAX_PENDING_INVITES_PER_GROUP} invites waiting to be used: rotate the invite to end them all.`,
      )
    }
    const invite = createInvite(tx, clock, { groupId, createdBy: userId, days, maxUses: uses })
    return { code: invite.code, path: `/join/${invite.code}`, expiresAt: invite.expiresAt, maxUses: uses, revoked }
  }, IMMEDIATE)
}

export function revokeGroupInvite({ db, clock }: GroupWriter, userId: number, groupId: number, inviteId: number): void {
  db.transaction((tx) => {
    managedGroup(tx, userId, groupId, 'end a link')
    if (!pendingInvites(tx, clock, groupId).some((i) => i.id === inviteId)) {
      throw new NotFound(`No invite ${inviteId} waiting in this group.`)
    }
    revokeGroupInvites(tx, groupId, inviteId)
  }, IMMEDIATE)
}

/** Joins the group a code invites to, using the code; a member already keeps the code unused. */
export function joinGroup({ db, clock, feed }: GroupWriter, userId: number, code: string) {
  const group = db.transaction((tx) => {
    const waiting = findLiveInvite(tx, clock, code)
    if (waiting?.groupId != null && isMember(tx, waiting.groupId, userId))
      return memberGroup(tx, userId, waiting.groupId)
    const invite = useInvite(tx, clock, code, userId)
    if (invite.groupId === null) {
      // An operator's invite makes an account; it admits to no group.
      throw new NotFound('This invite is for making an account, not for joining a group.')
    }
    addMember(tx, clock, invite.groupId, userId)
    return memberGroup(tx, userId, invite.groupId)
  }, IMMEDIATE)
  feed.publish(group.id, 'members')
  return { group: { id: group.id, name: group.name } }
}

/**
 * Takes a member out: themselves (leaving), or another member when the caller owns the group, or
 * is an officer and the other a plain member (an officer neither removes the owner nor another
 * officer). Their shared characters and waiting links leave with them.
 */
export function removeFromGroup({ db, feed }: GroupWriter, userId: number, groupId: number, memberId: number) {
  const result = db.transaction((tx) => {
    const { group, say } = sayIn(tx, userId, groupId)
    if (memberId !== userId) {
      if (say === 'member') throw new Forbidden("Only the group's owner or an officer can remove a member.")
      if (!isMember(tx, groupId, memberId)) throw new NotFound(`No member ${memberId} in this group.`)
      if (say === 'officer' && (memberId === group.ownerId || roleOf(tx, groupId, memberId) === 'officer')) {
        throw new Forbidden('An officer removes members, not the owner or another officer.')
      }
    }
    return removeMember(tx, groupId, memberId)
  }, IMMEDIATE)
  feed.publish(groupId, result === 'deleted' ? 'deleted' : 'members')
  return { result }
}

/**
 * The owner names a member an officer, or makes an officer a member again: an officer's waiting
 * links end with their say (as a member's do when they leave).
 */
export function setMemberRole(
  { db, clock, feed }: GroupWriter,
  userId: number,
  groupId: number,
  memberId: number,
  role: MemberRole,
): Static<typeof GroupDetail> {
  db.transaction((tx) => {
    const group = ownerGroup(tx, userId, groupId, 'name officers')
    if (!isMember(tx, groupId, memberId)) throw new NotFound(`No member ${memberId} in this group.`)
    if (memberId === group.ownerId)
      throw new BadRequest('The owner has every say already; an officer is another member.')
    tx.update(groupMembers)
      .set({ role })
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, memberId)))
      .run()
    if (role === 'member') revokeInvitesMadeBy(tx, groupId, memberId)
  }, IMMEDIATE)
  feed.publish(groupId, 'members')
  return groupDetail(db, clock, userId, groupId)
}

export function handOnGroup(
  { db, clock, feed }: GroupWriter,
  userId: number,
  groupId: number,
  memberId: number,
): Static<typeof GroupDetail> {
  db.transaction((tx) => {
    ownerGroup(tx, userId, groupId, 'hand it on')
    if (!isMember(tx, groupId, memberId)) throw new NotFound(`No member ${memberId} in this group.`)
    tx.update(groups).set({ ownerId: memberId }).where(eq(groups.id, groupId)).run()
    // Who may let players in is the new owner's to say: the links the old owner made end.
    if (memberId !== userId) revokeInvitesMadeBy(tx, groupId, userId)
  }, IMMEDIATE)
  feed.publish(groupId, 'members')
  return groupDetail(db, clock, userId, groupId)
}

/**
 * The group sees one of the caller's characters (sharing it twice changes nothing). 409 when the
 * group sees MAX_SHARED_CHARACTERS_PER_GROUP already; 429 when the account changed its shares too
 * often (ShareChanges).
 */
export function shareWithGroup(
  { db, clock, feed }: GroupWriter,
  shareChanges: ShareChanges,
  userId: number,
  groupId: number,
  characterId: number,
) {
  shareChanges.take(userId)
  const changed = db.transaction((tx) => {
    memberGroup(tx, userId, groupId)
    ownedCharacter(tx, userId, characterId)
    const shared = tx
      .select({ characterId: groupShares.characterId })
      .from(groupShares)
      .where(and(eq(groupShares.groupId, groupId), eq(groupShares.characterId, characterId)))
      .get()
    if (shared) return false
    const seen = tx.select({ n: count() }).from(groupShares).where(eq(groupShares.groupId, groupId)).get()?.n ?? 0
    if (seen >= MAX_SHARED_CHARACTERS_PER_GROUP) {
      throw new Conflict(
        `A group sees at most ${MAX_SHARED_CHARACTERS_PER_GROUP} characters: one of them must be taken back before another is shared.`,
      )
    }
    tx.insert(groupShares)
      .values({ groupId, characterId, sharedAt: isoNow(clock) })
      .run()
    return true
  }, IMMEDIATE)
  // Every open page of the group reads again: only when something changed.
  if (changed) feed.publish(groupId, 'shares')
  return { characters: sharedCharacters(db, groupId) }
}

/** The group no longer sees the character (taking back one not shared changes nothing); 429 as above. */
export function withdrawFromGroup(
  { db, feed }: GroupWriter,
  shareChanges: ShareChanges,
  userId: number,
  groupId: number,
  characterId: number,
) {
  shareChanges.take(userId)
  const changed = db.transaction((tx) => {
    memberGroup(tx, userId, groupId)
    ownedCharacter(tx, userId, characterId)
    return (
      tx
        .delete(groupShares)
        .where(and(eq(groupShares.groupId, groupId), eq(groupShares.characterId, characterId)))
        .returning({ characterId: groupShares.characterId })
        .all().length > 0
    )
  }, IMMEDIATE)
  if (changed) feed.publish(groupId, 'shares')
  return { characters: sharedCharacters(db, groupId) }
}

/** Ids of the characters shared with the group (for its event stream). */
export function sharedCharacterIds(db: DB, groupId: number): Set<number> {
  return new Set(
    db
      .select({ id: groupShares.characterId })
      .from(groupShares)
      .where(eq(groupShares.groupId, groupId))
      .all()
      .map((r) => r.id),
  )
}

export function sharedCharacter(db: DB, userId: number, groupId: number, characterId: number): SharedCharacterJson {
  memberGroup(db, userId, groupId)
  const [character] = sharedCharacters(db, groupId, [characterId])
  if (!character) throw new NotFound(`No character ${characterId} shared with this group.`)
  return character
}

/** The current life's completions of each character, as the needs rules read them. */
function needsCharacters(db: DB, shared: readonly SharedCharacterJson[]): NeedsCharacter[] {
  if (shared.length === 0) return []
  const rows = db
    .select({ character: characters })
    .from(characters)
    .where(
      inArray(
        characters.id,
        shared.map((c) => c.id),
      ),
    )
    .all()
  const byId = new Map(rows.map((r) => [r.character.id, r.character]))
  return shared.map((c) => {
    const row = byId.get(c.id)
    const life = currentQuestLife(db, c.id)
    const done = db
      .select({ name: completions.name, difficulty: completions.difficulty, setting: completions.setting })
      .from(completions)
      .where(and(eq(completions.characterId, c.id), eq(completions.lifeIndex, life)))
      .all()
    return {
      id: c.id,
      index: indexCompletions(done),
      level: row ? trackerLevel(row) : c.level,
      packState: row?.packState ?? {},
    }
  })
}

const settingOf = (value: string | undefined): Exclude<Setting, 'unknown'> =>
  (value ?? 'elite') as Exclude<Setting, 'unknown'>

export function routeNeeds(db: DB, userId: number, groupId: number, routeId: number): Static<typeof RouteNeedsAnswer> {
  memberGroup(db, userId, groupId)
  const route = getRoute(db, userId, routeId)
  const shared = sharedCharacters(db, groupId)
  const needs = needsCharacters(db, shared)
  return {
    route: { id: route.id, name: route.name },
    characters: shared,
    steps: route.quests.map((step) => ({
      position: step.position,
      setting: step.setting,
      ...questNeed(step, needs, step.setting),
    })),
  }
}

/** "1,2,3" → [1, 2, 3], each a character shared with the group, at most a party. */
function partyIds(text: string): number[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
  if (parts.length === 0) throw new BadRequest('Query parameter "characters" names no character: give ids like 12,15.')
  if (parts.some((p) => !/^\d{1,9}$/.test(p))) {
    throw new BadRequest('Query parameter "characters" must be character ids separated by commas, like 12,15.')
  }
  const ids = [...new Set(parts.map(Number))]
  if (ids.length > MAX_PARTY_SIZE) throw new BadRequest(`A party has at most ${MAX_PARTY_SIZE} characters.`)
  return ids
}

export function partyPlan(
  db: DB,
  clock: Clock,
  userId: number,
  groupId: number,
  query: Static<typeof PartyQuery>,
): Static<typeof PartyAnswer> {
  memberGroup(db, userId, groupId)
  const ids = partyIds(query.characters)
  const setting = settingOf(query.setting)
  const party = sharedCharacters(db, groupId, ids)
  const missing = ids.filter((id) => !party.some((c) => c.id === id))
  if (missing.length > 0) {
    throw new NotFound(
      `No character ${missing.join(', ')} shared with this group: its owner shares it on the group's page.`,
    )
  }
  // In the order asked for, so the link the party passes around reads the same for everyone.
  party.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
  const times = questTimesByRemake(db, clock)
  const quests = partyQuests(catalogIndex(db).rows, needsCharacters(db, party), setting).map((quest) => {
    const time = times.get(remakeKey(quest.name, quest.difficulty))?.find((t) => t.setting === setting)
    const measured =
      time?.medianDurationSeconds == null ? null : { medianSeconds: time.medianDurationSeconds, runs: time.runs }
    const { duration, ...rest } = quest
    return {
      ...rest,
      time: measured,
      estimatedMinutes: ESTIMATED_MINUTES[duration.trim().toLowerCase()] ?? null,
    }
  })
  const band = partyBand(party, setting as PlayOn)
  return { setting, band, characters: party, quests }
}
