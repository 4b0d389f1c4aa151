// Limits of invite codes and of signing up with one (listed in docs/operations.md "Limits").

/** How long an invite code works: a week, time enough to pass a link on in a guild's chat. */
export const INVITE_LIFETIME_DAYS = 7
/** The longest an operator's invite may work (`invite create --days N`): a month. */
export const MAX_INVITE_DAYS = 30
/**
 * Sign-up attempts one client address may make before it waits, and how soon it gets another:
 * like failed sign-ins, each attempt is taken when it arrives and only a success gives it back.
 * A guild's evening of newcomers behind one router signs up in a few tries each; a script
 * trying codes or filling the password hasher gets one a minute.
 */
export const SIGNUP_ATTEMPTS_PER_ADDRESS = 10
export const SIGNUP_REFILL_MS = 60_000
/**
 * Accounts one account's invites (its groups' links) may make in 24 hours, counted over every
 * group it owns. Each account carries its own quotas (characters, routes, groups, streams), so an
 * account that could mint accounts without end would multiply them all: one did 25 in 3 s. A
 * guild's evening of newcomers fits; a larger move-in takes the operator's invites, which are
 * not counted. A rolling window: a place comes back 24 hours after the sign-up that took it.
 */
export const MAX_SIGNUPS_PER_INVITER_PER_DAY = 10
