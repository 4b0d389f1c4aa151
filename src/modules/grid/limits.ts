// Limits of the quests × characters grid (listed in docs/operations.md "Limits").
import { MAX_CHARACTERS_PER_ACCOUNT } from '../characters/limits'

/**
 * Characters' done quests kept for the grids between requests, by each character's change tag:
 * a character's cells are read from its completions once per change, not once per grid read
 * (about a kilobyte each for the whole catalog); all forgotten when full.
 */
export const MAX_KEPT_GRID_CHARACTERS = 10_000
/** Character ids in a view's `order` and `hidden`: an account has at most this many characters. */
export const MAX_GRID_VIEW_CHARACTERS = MAX_CHARACTERS_PER_ACCOUNT
/** Names in a view's `excludedPatrons` and `hiddenPacks`, each: the catalog has a few hundred packs. */
export const MAX_GRID_VIEW_NAMES = 1000
/** One patron's or pack's name in a view, in characters. */
export const MAX_GRID_VIEW_NAME_LENGTH = 200
