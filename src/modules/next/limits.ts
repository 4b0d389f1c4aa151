// The size of a "what to run next" answer (listed in docs/operations.md "Limits").

/** Quests in one answer by default: a panel's worth. */
export const DEFAULT_NEXT_LIMIT = 10
/** At most: the ranking is over the whole catalog, the answer need not be. */
export const MAX_NEXT_LIMIT = 50
