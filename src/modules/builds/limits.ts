// Every size limit of the build documents and of lives, in one place (listed in
// docs/operations.md "Limits" and docs/builds.md). The numbers are several times what a complete
// character needs: DDO Builder's example monk (a real character file among the project's
// fixtures, outside this repository) has 34 levels, at most 12 skills on a level, 91 special
// feats and 20 stances, and takes about 10 KB as JSON.

/**
 * The body of the DDO Builder import and its preview (`{xml}` or an uploaded file,
 * src/modules/builds/import.ts), declared on those two routes only (`maxBodyBytes`); the XML
 * reader's own size limit (MAX_XML_CHARS) follows it, and the website checks it before sending
 * (src/web/build/fileImportStore.ts). Leveling guides with a build per level are the files
 * players share: the planner's own showcase guide is 2.2 MB, and every version of it 1.3 to
 * 2.4 MB; 8 MiB leaves room for three times that.
 */
export const MAX_IMPORT_BODY_BYTES = 8 * 1024 * 1024

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
 * A name of the life and of what it holds: the life's `name`, `race` and `alignment` (the build
 * document's `life` and reincarnation's body), a class name (`build.classes`, `build.levels[].class`),
 * and a feat's `name` and `type` (special feats, `additionalPastLives`, `build.levels[].feats`).
 * 400 beyond it. The longest real ones are under 60 characters ("Past Life: Paladin - Sacred
 * Fist" is 32); without a limit, one feat could take a megabyte and every life copy it.
 */
export const MAX_NAME_CHARS = 200

/**
 * A life as stored (`name`, `race`, `alignment`, `classes`, `specialFeats`), as JSON: 413
 * beyond it, on reincarnation (the new life, with what it carries) and on a build's sync into
 * the current life. The fullest real life, DDO Builder's example monk with every heroic, racial,
 * iconic and epic past life of the game plus its inherent and favor feats (112 entries), takes
 * 7.9 KB; 500 special feats with short names still fit.
 */
export const MAX_LIFE_BYTES = 24 * 1024

/**
 * Lives of one character: reincarnation beyond it is 409. Every life copies the special feats of
 * the one before, so what one character's lives can take is this count times MAX_LIFE_BYTES:
 * 200 x 24 KiB = 4.7 MiB at most (before these limits, 848 reincarnations of a 1 MB life took
 * 976 MB). Real players have a few dozen lives. Taking every past life of the game three times
 * (the monk above holds 24 heroic, 27 racial or iconic and 18 epic ones) takes about 80 heroic
 * reincarnations, each granting a heroic and a racial or iconic past life, and 54 epic ones:
 * about 135 lives.
 */
export const MAX_LIVES_PER_CHARACTER = 200

/**
 * GET lives pages: `limit` defaults to every life a character may have, so the plain request
 * answers all of them as before (at most MAX_LIVES_PER_CHARACTER x MAX_LIFE_BYTES); a client may
 * ask for smaller pages.
 */
export const MAX_LIVES_PAGE = MAX_LIVES_PER_CHARACTER
