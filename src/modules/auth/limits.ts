// Limits of accounts' credentials (listed in docs/operations.md "Limits").

/**
 * Live plugin tokens one account keeps. Each login makes a token and game clients log in often,
 * so a login beyond the cap deletes the least recently used ones; it is never refused. Several
 * game clients on a few PCs use a handful at a time.
 */
export const MAX_TOKENS_PER_ACCOUNT = 50
