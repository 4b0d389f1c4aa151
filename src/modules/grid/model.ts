// Shapes of the quests × characters grid: the account's (GET /account/grid), a group's
// (GET /groups/{id}/grid, in groups/model.ts from the parts here) and the view kept on the account.
import { t } from 'elysia'
import { CELL_ALPHABET, CELL_SETTINGS } from '../../rules/quests/grid'
import { LEVEL_BAND_ANY, LEVEL_BAND_FULL_XP } from '../../rules/quests/tracker'
import { Enum, PlayOn, VERSION_FLAGS } from '../characters/model'
import { MAX_GRID_VIEW_CHARACTERS, MAX_GRID_VIEW_NAME_LENGTH, MAX_GRID_VIEW_NAMES } from './limits'

const MASK = `a bitmask of the settings done (bit 0 ${CELL_SETTINGS.map((s, i) => `${i} ${s}`)
  .join(', ')
  .slice(2)}) written as one letter of \`${CELL_ALPHABET}\` (the letter at that index: \`0\` none)`

/** A character's completions of its current life over the catalog (rules/quests/grid.ts). */
export const cellFields = {
  done: t.String({
    description: `One letter per catalog row, in the order of GET /quests: the remake's settings done in its own tier, ${MASK}.`,
  }),
  unknownTier: t.Record(t.String(), t.String({ minLength: 1, maxLength: 1 }), {
    description:
      'Per quest name, the settings of its completions logged without a tier (they count for every remake of the name), the same letter; only names the catalog has, only those with such completions.',
  }),
}

export const GridCatalog = t.Object(
  {
    version: t.String({
      description:
        "The catalog the letters follow: the part of GET /quests's ETag before the dot. A client holding another catalog reads both again.",
    }),
    rows: t.Integer({ minimum: 0, description: 'Catalog rows: the length of every `done`.' }),
  },
  { description: 'Which catalog `done` is over.' },
)

export const GridCharacter = t.Object({
  id: t.Integer(),
  name: t.String(),
  level: t.Integer({ description: "The level the character's tracker works with (its band)." }),
  classes: t.String({ description: 'e.g. "Fighter 12 / Rogue 6".' }),
  race: t.String(),
  server: t.String(),
  ...cellFields,
})

export const AccountGrid = t.Object({
  catalog: GridCatalog,
  characters: t.Array(GridCharacter, {
    description: "Every character of the account, by id: the view's order is the page's to apply.",
  }),
})

const Ids = (description: string) =>
  t.Array(t.Integer(), {
    maxItems: MAX_GRID_VIEW_CHARACTERS,
    description: `${description} At most ${MAX_GRID_VIEW_CHARACTERS}.`,
  })
const Names = (description: string) =>
  t.Array(t.String({ maxLength: MAX_GRID_VIEW_NAME_LENGTH }), {
    maxItems: MAX_GRID_VIEW_NAMES,
    description: `${description} At most ${MAX_GRID_VIEW_NAMES}, each at most ${MAX_GRID_VIEW_NAME_LENGTH} characters.`,
  })
const Band = t.Union([t.Literal(LEVEL_BAND_FULL_XP), t.Literal(LEVEL_BAND_ANY)], {
  description: `${LEVEL_BAND_FULL_XP}: the rows in the Full XP band of at least one character shown; ${LEVEL_BAND_ANY}: every level.`,
})
const Flag = Enum(VERSION_FLAGS)

const viewFields = {
  order: Ids('Character ids in the order their columns show; a character not listed follows, by id.'),
  hidden: Ids('Character ids whose columns are hidden.'),
  playOn: PlayOn,
  levelBand: Band,
  versionFilter: t.Object({ heroic: Flag, epic: Flag, legendary: Flag }),
  excludedPatrons: Names('Patrons whose quests are hidden.'),
  hiddenPacks: Names('Packs whose quests are hidden.'),
  hideDoneByAll: t.Boolean({ description: 'Hide the quests every character shown (in its band) has done.' }),
}

export const GridView = t.Object(viewFields, {
  description:
    "How the account looks at its grids: the columns of its own (order, hidden) and the filters of both its own and its groups' (the tracker's).",
})

export const GridViewPatch = t.Object(
  {
    order: t.Optional(viewFields.order),
    hidden: t.Optional(viewFields.hidden),
    playOn: t.Optional(viewFields.playOn),
    levelBand: t.Optional(viewFields.levelBand),
    versionFilter: t.Optional(viewFields.versionFilter),
    excludedPatrons: t.Optional(viewFields.excludedPatrons),
    hiddenPacks: t.Optional(viewFields.hiddenPacks),
    hideDoneByAll: t.Optional(viewFields.hideDoneByAll),
  },
  { description: 'The fields sent replace theirs; the others keep their value.' },
)
