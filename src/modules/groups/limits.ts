// Limits of groups (listed in docs/operations.md "Limits").

/** Groups one account belongs to (owned or joined): a guild, a household, a few static parties. */
export const MAX_GROUPS_PER_ACCOUNT = 10
/** Members of one group: a large DDO guild's active players on one home server. */
export const MAX_MEMBERS_PER_GROUP = 100
/** Invite codes of one group that are neither used up nor expired. */
export const MAX_PENDING_INVITES_PER_GROUP = 20
/**
 * Players one link of a group admits: a guild's whole roster, posted once in its chat. As many as
 * a group has members; the per-day limit on accounts one account's links make (invites/limits.ts)
 * still holds for newcomers.
 */
export const MAX_LINK_USES = MAX_MEMBERS_PER_GROUP
/** A group's name, in characters. */
export const MAX_GROUP_NAME_LENGTH = 60
/**
 * Characters shared with one group (each member's, together). What a group's needs cost grows
 * with them: the first answer after a start reads all their completions (a fifth of a second for
 * 200 characters of 1,000 each), every answer after a change lists them all against every quest
 * (570 KiB of JSON at 200). Two a member in a guild of 100 members, the most a group has.
 */
export const MAX_SHARED_CHARACTERS_PER_GROUP = 200
/**
 * Changes to an account's shared characters (sharing one, taking one back, in any group) at once,
 * and how soon one more comes back: each makes every open page of the group read again. A player
 * ticking their characters on a group's page fits; a script toggling in a loop gets one every 5 s.
 */
export const SHARE_CHANGES_BURST = 20
export const SHARE_CHANGES_REFILL_MS = 5_000
/** Accounts whose share changes are counted at once (as the login limiter's addresses). */
export const MAX_SHARE_CHANGE_ACCOUNTS = 10_000
/**
 * Groups' needs answers kept serialized between requests (one per group and setting asked), the
 * least recently used forgotten first: about 570 KiB each for a group of 200 characters.
 */
export const MAX_KEPT_NEEDS_ANSWERS = 32
/** Characters' done ranks kept for the needs (a byte per catalog row each); all forgotten when full. */
export const MAX_KEPT_NEEDS_CHARACTERS = 10_000
export { MAX_PARTY_SIZE } from '../../rules/quests/groupNeeds'
