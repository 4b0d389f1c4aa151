// The completion quota (listed in docs/operations.md "Limits" and docs/characters.md).

/**
 * Completions (distinct name, difficulty, setting triples) of one character: a new triple beyond
 * it is 409, an upsert of a stored one still works; `PUT progress` may send at most this many
 * (400). Every remake of the wiki catalog (about 720) at each of the 6 settings is about 4,300
 * triples, so a real character stays well under it.
 */
export const MAX_COMPLETIONS_PER_CHARACTER = 10_000

/**
 * Runs kept of one completion (a quest, difficulty and setting in one life): beyond it the oldest
 * run goes when a new one arrives (the completion's count of runs still counts it). A player
 * farming one quest every evening for a year stays under it, and the newest runs are the ones a
 * median of "how long it takes now" wants.
 */
export const MAX_RUNS_PER_COMPLETION = 500

/**
 * Runs kept of one character, over all its completions and lives: every run a client writes (a
 * post, a tracker's set, an import, a restore) counts, and a write that passes it drops the
 * character's oldest runs, down to RUNS_KEPT_AFTER_PRUNING (each completion keeps its count).
 * Without it a character could hold MAX_COMPLETIONS_PER_CHARACTER × MAX_RUNS_PER_COMPLETION
 * runs, five million, and every read of them (the export) grew with it (issue 39). Dropping the
 * oldest rather than refusing: the game posts a completion after each quest, and a refused one
 * would be lost, where the oldest runs are the ones the figures ("how long it takes now") want
 * least. A run a day of every quest in the catalog for fifty years stays under it; a completionist
 * running forty lives of 500 quests makes 20,000.
 */
export const MAX_RUNS_PER_CHARACTER = 50_000

/**
 * Where a character that passed MAX_RUNS_PER_CHARACTER is brought back to: finding its oldest
 * runs reads all of them (tens of milliseconds), so it is done once per thousand runs past the
 * bound, not at every post.
 */
export const RUNS_KEPT_AFTER_PRUNING = MAX_RUNS_PER_CHARACTER - 1_000

/**
 * Completions one restore may put back: what one DELETE can remove, every setting of one remake
 * (the six stored settings). The tracker restores what one untick deleted.
 */
export const MAX_RESTORED_COMPLETIONS = 6

/**
 * How long the server keeps what a DELETE removed, for its undo (POST completions/restore). The
 * website offers an undo for 10 seconds (src/web/tracker/undo.ts); an hour leaves room for a
 * slow network, a tab asleep, or a client that offers its undo longer. After it the restore is
 * 409 and housekeeping deletes the kept rows.
 */
export const UNDO_WINDOW_MS = 60 * 60 * 1000

/**
 * Deletes kept for undo per character: at each DELETE the oldest beyond these go (their undo
 * ends early). Unticking twenty boxes within one undo bar's ten seconds is beyond any player;
 * without it, deleting and restoring again and again would keep copies without end (each up to
 * MAX_RESTORED_COMPLETIONS completions of MAX_RUNS_PER_COMPLETION runs).
 */
export const MAX_KEPT_DELETIONS_PER_CHARACTER = 20
