// Limits of website sessions (listed in docs/operations.md "Limits").

/**
 * Live website sessions one account keeps: a sign-in beyond the cap ends the least recently used
 * ones; it is never refused. A household's browsers and phones use a handful.
 */
export const MAX_SESSIONS_PER_ACCOUNT = 50
