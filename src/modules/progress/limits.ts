// The limits of the tracker state a client stores through PUT progress (listed in
// docs/operations.md "Limits" and docs/characters.md). These fields are free-form, so only their
// size is bounded.

/** `xpBoosts`, `optionalPursuit`, `packState`, `questNotes`, `excludedPatrons`: each, as JSON (413). */
export const MAX_TRACKER_FIELD_BYTES = 64 * 1024

/** Entries of `excludedPatrons` (400); the game has a few dozen patrons. */
export const MAX_EXCLUDED_PATRONS = 1000
