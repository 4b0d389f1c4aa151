// Limits of invite codes (listed in README "Limits").

/** How long an invite code works: a week, time enough to pass a link on in a guild's chat. */
export const INVITE_LIFETIME_DAYS = 7
