// Limits of groups (listed in docs/operations.md "Limits").

/** Groups one account belongs to (owned or joined): a guild, a household, a few static parties. */
export const MAX_GROUPS_PER_ACCOUNT = 10
/** Members of one group: a large DDO guild's active players on one home server. */
export const MAX_MEMBERS_PER_GROUP = 100
/** Invite codes of one group that are neither used nor expired. */
export const MAX_PENDING_INVITES_PER_GROUP = 20
/** A group's name, in characters. */
export const MAX_GROUP_NAME_LENGTH = 60
export { MAX_PARTY_SIZE } from '../../rules/quests/groupNeeds'
