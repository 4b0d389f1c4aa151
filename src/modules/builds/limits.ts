// Every size limit of the build documents and of lives, in one place (listed in README "Limits"
// and docs/builds.md). The numbers are several times what a complete character needs: DDO
// Builder's example monk (a real character file among the project's fixtures, outside this
// repository) has 34 levels, at most 12 skills on a level, 91 special feats and 20 stances, and
// takes about 10 KB as JSON.

/**
 * The body of the DDO Builder import (`{xml}`, src/modules/builds/import.ts), declared on the
 * route (`maxBodyBytes`). Still the default 1 MiB: the planner's own 2.2 MB example file needs
 * more, and raising it is this number, MAX_XML_CHARS following it, and the website's check
 * (src/web/build/store.ts).
 */
export const MAX_IMPORT_BODY_BYTES = 1024 * 1024

/**
 * A stored build document (live or planned) as JSON, after the merge or replace: 413 beyond it.
 * Per-field limits alone cannot bound a merge, which keeps every key it was ever sent.
 */
export const MAX_BUILD_DOCUMENT_BYTES = 512 * 1024

// Items per array of the document (400 naming the field beyond them).

/** `build.levels`: one entry per level, 34 today; room for a level-cap raise. */
export const MAX_BUILD_LEVELS = 40
/** `build.classes`: the game has 3 slots; a few more are stored and reported by validation, as before. */
export const MAX_CLASS_SLOTS = 10
/** `build.levels[].feats` (automatic feats included). */
export const MAX_FEATS_PER_LEVEL = 100
/** `build.levels[].skills`. */
export const MAX_SKILLS_PER_LEVEL = 100
/** `enhancementTrees.selected`, `destinyTrees.selected`. */
export const MAX_SELECTED_TREES = 20
/** `enhancementTrees.spend`, `destinyTrees.spend`: one entry per tree with points in it. */
export const MAX_SPENT_TREES = 50
/** `…spend[].trained`: enhancements trained in one tree. */
export const MAX_TRAINED_PER_TREE = 200
/** `build.reaper.spend`. */
export const MAX_REAPER_SPEND = 500
/** `build.trainedSpells`. */
export const MAX_TRAINED_SPELLS = 1000
/** `build.stances`. */
export const MAX_STANCES = 100
/** `meta.incomplete` (and the wrapper's `incomplete`): the domains not read yet. */
export const MAX_INCOMPLETE_DOMAINS = 32
/** Entries of the maps `build.levelAbilityBumps` and `tomes.skills`. */
export const MAX_MAP_ENTRIES = 100

/**
 * Special feats: `life.specialFeats`, the patch's `pastLives`, reincarnation's
 * `additionalPastLives` (400 beyond it), and the feats a new life would carry (409).
 */
export const MAX_SPECIAL_FEATS = 500

/**
 * Lives of one character: reincarnation beyond it is 409. GET lives answers them all, so the
 * list must end somewhere; a thousand reincarnations is far more than anyone plays.
 */
export const MAX_LIVES_PER_CHARACTER = 1000
