// The character quota (listed in docs/operations.md "Limits" and docs/characters.md).

/**
 * Characters of one account: creating one more is 409. The game gives an account a handful of
 * slots on each of its servers, so even a household sharing one account stays well under it.
 */
export const MAX_CHARACTERS_PER_ACCOUNT = 200
