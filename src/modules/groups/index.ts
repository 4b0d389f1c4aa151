// The group routes of the website API (issue 24): groups, their members and invites, the
// characters each member shares, who still needs what, the party planner, and a group's event
// stream. Every route answers 404 to anyone not in the group (service.ts).
import type { ModuleDeps } from '../../deps'
import { CONDITIONAL, NotModified } from '../../http/etag'
import { errors, OkBody } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { eventStream, type StreamCounter } from '../events/stream'
import { INVITE_LIFETIME_DAYS } from '../invites/limits'
import type { SignOuts } from '../session/signOuts'
import { GroupFeed } from './feed'
import {
  MAX_GROUPS_PER_ACCOUNT,
  MAX_LINK_USES,
  MAX_MEMBERS_PER_GROUP,
  MAX_PARTY_SIZE,
  MAX_PENDING_INVITES_PER_GROUP,
  MAX_SHARED_CHARACTERS_PER_GROUP,
  SHARE_CHANGES_BURST,
  SHARE_CHANGES_REFILL_MS,
} from './limits'
import { isMember } from './members'
import {
  GroupCharacterParams,
  GroupDetail,
  GroupInviteParams,
  GroupList,
  GroupMemberParams,
  GroupNameBody,
  GroupParams,
  GroupRouteParams,
  HandOnBody,
  InviteCreated,
  JoinBody,
  Joined,
  LinkBody,
  NeedsAnswer,
  NeedsQuery,
  PartyAnswer,
  PartyQuery,
  Removed,
  RoleBody,
  RotateQuery,
  RouteNeedsAnswer,
  SharedCharacter,
  SharedList,
} from './model'
import { GroupNeeds } from './needs'
import {
  createGroup,
  createGroupInvite,
  deleteGroup,
  groupDetail,
  handOnGroup,
  joinGroup,
  listGroups,
  memberGroup,
  partyPlan,
  removeFromGroup,
  renameGroup,
  revokeGroupInvite,
  routeNeeds,
  setMemberRole,
  sharedCharacter,
  sharedCharacterIds,
  shareWithGroup,
  withdrawFromGroup,
} from './service'
import { ShareChanges } from './shareChanges'

const OWNER_ONLY = "403 for a member who is not the group's owner."
const MANAGERS_ONLY = '403 unless the caller owns the group or is one of its officers.'
const NOT_YOURS = '404 for a group the caller is not a member of, exactly as for one that does not exist.'

/**
 * What the group routes of both APIs share: the feed the group's open pages follow, the needs kept
 * between requests, and each account's share changes counted (once, whichever API it uses).
 */
export interface Groups {
  feed: GroupFeed
  needs: GroupNeeds
  shareChanges: ShareChanges
}

export const groupsOf = ({ clock, changes }: Pick<ModuleDeps, 'clock' | 'changes'>): Groups => ({
  feed: new GroupFeed(),
  needs: new GroupNeeds(changes),
  shareChanges: new ShareChanges(clock),
})

const SHARE_LIMITS = `429 with Retry-After when the account made ${SHARE_CHANGES_BURST} changes to its shared characters (in any group) at once; one more comes back every ${SHARE_CHANGES_REFILL_MS / 1000} s.`

/** The group routes, written once and mounted in both APIs (a game client may ask who needs a quest). */
export function groupsModule({ db, clock }: ModuleDeps, guard: Guard, { feed, needs, shareChanges }: Groups) {
  const writer = { db, clock, feed }
  return signedInRoutes(guard, '/groups', ['Groups'])
    .get('', ({ user }) => listGroups(db, user.id), {
      response: { 200: GroupList },
      detail: { summary: 'The groups the account belongs to' },
    })
    .post(
      '',
      ({ user, body, set }) => {
        set.status = 201
        return createGroup(writer, user.id, body.name)
      },
      {
        body: GroupNameBody,
        response: { 201: GroupDetail, ...errors(409) },
        detail: {
          summary: 'Make a group (the caller owns it)',
          description: `409 when the account already belongs to ${MAX_GROUPS_PER_ACCOUNT} groups.`,
        },
      },
    )
    .post('/join', ({ user, body }) => joinGroup(writer, user.id, body.code), {
      body: JoinBody,
      response: { 200: Joined, ...errors(404, 409) },
      detail: {
        summary: "Join a group with its owner's one-time invite code",
        description: `The code is used (once) only when the caller joins; a member already keeps it unused. 404 for a used, expired or unknown code (the same answer). 409 when the caller belongs to ${MAX_GROUPS_PER_ACCOUNT} groups or the group has ${MAX_MEMBERS_PER_GROUP} members.`,
      },
    })
    .get('/:id', ({ user, params }) => groupDetail(db, clock, user.id, params.id), {
      params: GroupParams,
      response: { 200: GroupDetail, ...errors(404) },
      detail: {
        summary: 'A group: its members, the characters they share, and your own characters',
        description: NOT_YOURS,
      },
    })
    .patch('/:id', ({ user, params, body }) => renameGroup(writer, user.id, params.id, body.name), {
      params: GroupParams,
      body: GroupNameBody,
      response: { 200: GroupDetail, ...errors(403, 404) },
      detail: { summary: 'Rename a group', description: `${OWNER_ONLY} ${NOT_YOURS}` },
    })
    .delete(
      '/:id',
      ({ user, params }) => {
        deleteGroup(writer, user.id, params.id)
        return { ok: true as const }
      },
      {
        params: GroupParams,
        response: { 200: OkBody, ...errors(403, 404) },
        detail: {
          summary: 'Delete a group (its members, shares and invites go with it; no character is touched)',
          description: `${OWNER_ONLY} ${NOT_YOURS}`,
        },
      },
    )
    .post(
      '/:id/invites',
      ({ user, params, query, body, set }) => {
        set.status = 201
        return createGroupInvite(writer, user.id, params.id, query.rotate === 'true', body ?? {})
      },
      {
        params: GroupParams,
        query: RotateQuery,
        body: LinkBody,
        response: { 201: InviteCreated, ...errors(403, 404, 409) },
        detail: {
          summary: 'An invite link for the group: one player, or a guild',
          description: `\`uses\` players (default 1, up to ${MAX_LINK_USES}: one link for a guild's chat), for \`days\` (default ${INVITE_LIFETIME_DAYS}). \`?rotate=true\` first ends every link still admitting players (one passed too far). ${MANAGERS_ONLY} 409 with ${MAX_PENDING_INVITES_PER_GROUP} links waiting. ${NOT_YOURS}`,
        },
      },
    )
    .delete(
      '/:id/invites/:inviteId',
      ({ user, params }) => {
        revokeGroupInvite(writer, user.id, params.id, params.inviteId)
        return { ok: true as const }
      },
      {
        params: GroupInviteParams,
        response: { 200: OkBody, ...errors(403, 404) },
        detail: { summary: 'End one waiting link', description: `${MANAGERS_ONLY} ${NOT_YOURS}` },
      },
    )
    .delete('/:id/members/:userId', ({ user, params }) => removeFromGroup(writer, user.id, params.id, params.userId), {
      params: GroupMemberParams,
      response: { 200: Removed, ...errors(403, 404) },
      detail: {
        summary: 'Leave the group (your own id), or remove a member (the owner, or an officer)',
        description: `The member's shared characters and waiting links leave with them. The owner leaving hands the group to the longest-standing member; the last member leaving deletes it. 403 for removing another member as a plain member, or the owner or an officer as an officer. ${NOT_YOURS}`,
      },
    })
    .put(
      '/:id/members/:userId/role',
      ({ user, params, body }) => setMemberRole(writer, user.id, params.id, params.userId, body.role),
      {
        params: GroupMemberParams,
        body: RoleBody,
        response: { 200: GroupDetail, ...errors(403, 404) },
        detail: {
          summary: 'Name a member an officer, or make an officer a member again',
          description: `An officer makes and ends the group's links and removes members (not the owner, not another officer). An officer made a member again: their waiting links end. 400 for the owner. ${OWNER_ONLY} ${NOT_YOURS}`,
        },
      },
    )
    .put('/:id/owner', ({ user, params, body }) => handOnGroup(writer, user.id, params.id, body.userId), {
      params: GroupParams,
      body: HandOnBody,
      response: { 200: GroupDetail, ...errors(403, 404) },
      detail: { summary: 'Hand the group on to another member', description: `${OWNER_ONLY} ${NOT_YOURS}` },
    })
    .put(
      '/:id/characters/:characterId',
      ({ user, params }) => shareWithGroup(writer, shareChanges, user.id, params.id, params.characterId),
      {
        params: GroupCharacterParams,
        response: { 200: SharedList, ...errors(404, 409, 429) },
        detail: {
          summary: 'Let the group see one of your characters',
          description: `Idempotent. 404 for a character of another account. 409 when the group sees ${MAX_SHARED_CHARACTERS_PER_GROUP} characters already. ${SHARE_LIMITS} ${NOT_YOURS}`,
        },
      },
    )
    .delete(
      '/:id/characters/:characterId',
      ({ user, params }) => withdrawFromGroup(writer, shareChanges, user.id, params.id, params.characterId),
      {
        params: GroupCharacterParams,
        response: { 200: SharedList, ...errors(404, 429) },
        detail: {
          summary: 'Take one of your characters back from the group',
          description: `At once: the group's pages and streams stop showing it. 404 for a character of another account. ${SHARE_LIMITS} ${NOT_YOURS}`,
        },
      },
    )
    .get(
      '/:id/characters/:characterId',
      ({ user, params }) => sharedCharacter(db, user.id, params.id, params.characterId),
      {
        params: GroupCharacterParams,
        response: { 200: SharedCharacter, ...errors(404) },
        detail: {
          summary: 'A character shared with the group',
          description: `404 for one not shared with it (or taken back). ${NOT_YOURS}`,
        },
      },
    )
    .get(
      '/:id/needs',
      ({ user, params, query, request, set }) => needs.answer(db, user.id, params.id, query, request, set),
      {
        params: GroupParams,
        query: NeedsQuery,
        response: { 200: NeedsAnswer, 304: NotModified, ...errors(404) },
        detail: {
          summary: 'Who still needs what: per quest, the shared characters that have not done it at a setting',
          description: `Current lives only; a harder setting counts (reaper as elite). 404 for a \`quest\` the catalog does not have. The same answer for every member, computed once per change of the shared characters, the shares or the catalog. ${CONDITIONAL} ${NOT_YOURS}`,
        },
      },
    )
    .get('/:id/routes/:routeId/needs', ({ user, params }) => routeNeeds(db, user.id, params.id, params.routeId), {
      params: GroupRouteParams,
      response: { 200: RouteNeedsAnswer, ...errors(404) },
      detail: { summary: 'Who still needs each step of a route', description: NOT_YOURS },
    })
    .get('/:id/party', ({ user, params, query }) => partyPlan(db, clock, user.id, params.id, query), {
      params: GroupParams,
      query: PartyQuery,
      response: { 200: PartyAnswer, ...errors(404) },
      detail: {
        summary: 'The party planner: quests every character of a party can run for full XP',
        description: `Up to ${MAX_PARTY_SIZE} characters shared with the group. The quests inside every character's full XP band and in packs each has, most needed first, with favor and this server's median run. 404 for a character not shared with the group. ${NOT_YOURS}`,
      },
    })
}

/**
 * GET /api/groups/{id}/events (website): the group's server-sent events. A shared character's
 * change, the group's own, and the end of the caller's membership, which ends the stream at once.
 */
export function groupEventsModule(
  { db, clock, changes }: ModuleDeps,
  guard: Guard,
  feed: GroupFeed,
  signOuts: SignOuts,
  counter: StreamCounter,
) {
  return signedInRoutes(guard, '/groups', ['Website']).get(
    '/:id/events',
    ({ user, credential, params, request, server }) => {
      memberGroup(db, user.id, params.id)
      const groupId = params.id
      const stillMember = () => isMember(db, groupId, user.id)
      return eventStream(
        { db, clock, signOuts, counter },
        { user, credential, request, server },
        {
          stillValid: stillMember,
          listen: ({ send, end }) => {
            let shared = sharedCharacterIds(db, groupId)
            const out = () => {
              send('removed', { groupId })
              end()
            }
            const stopGroup = feed.subscribe(groupId, (what) => {
              if (what === 'deleted' || !stillMember()) return out()
              shared = sharedCharacterIds(db, groupId)
              send('group', { what })
            })
            const stopCharacters = changes.subscribeAll((change) => {
              if (!shared.has(change.characterId)) return
              if (!stillMember()) return out()
              // A character deleted by its owner leaves the group's shares by cascade.
              if (change.what === 'character') shared = sharedCharacterIds(db, groupId)
              // Which character and what: the group's pages re-read (the tag and the delta are the owner's tracker's).
              send('change', { characterId: change.characterId, what: change.what })
            })
            return () => {
              stopGroup()
              stopCharacters()
            }
          },
        },
      )
    },
    {
      params: GroupParams,
      response: { ...errors(404, 429) },
      detail: {
        summary: "Server-sent events: a shared character's data or the group changed",
        description: `\`change\` {characterId, what} when a shared character's data changes; \`group\` {what} when the group's name, members or shares change (read it again); \`removed\` when the caller is no longer a member (the stream ends). ${NOT_YOURS}`,
      },
    },
  )
}
