// The shapes of a completions import (import.ts), whatever the source: a spreadsheet's CSV
// (playerData) or a DDO Builder file's completed quests (builds). The player's choices for
// ambiguous names going in, and the preview coming out: what would be added, what is stored
// already, what the player must choose, what the catalog does not have. Each route adds its own
// fields around them.
import { type Static, t } from 'elysia'
import { CHALLENGE_SETTINGS, REMAKE_TIERS } from '../../rules/quests/completion'
import { MAX_SUGGESTIONS } from '../../rules/quests/questMatch'
import { Enum } from '../characters/model'

export const ImportSource = t.String({
  maxLength: 40,
  description: 'Where in the source the completion is: `line 4` of a CSV, a quest of a DDO Builder file.',
})
const Difficulty = Enum(REMAKE_TIERS)
const Setting = Enum(CHALLENGE_SETTINGS)

export const ImportChoice = t.Object(
  { source: ImportSource, name: t.String({ maxLength: 200 }), difficulty: Difficulty },
  { description: 'The player’s answer for an ambiguous name: the remake it is.' },
)
export type ImportChoice = Static<typeof ImportChoice>

const PlannedCompletion = t.Object({
  source: ImportSource,
  given: t.String({ description: 'The name as the source writes it.' }),
  name: t.String({ description: 'The catalog’s name of the remake.' }),
  difficulty: Difficulty,
  setting: Setting,
  how: Enum(['exact', 'spelling', 'chosen', 'kept'] as const, {
    description:
      '`exact`: the catalog’s own name; `spelling`: another spelling of it (case, apostrophes, `the`, …); `chosen`: the player’s choice; `kept`: not in the catalog, stored as written.',
  }),
})
/** One completion the import matched to a remake. */
export type PlannedCompletion = Static<typeof PlannedCompletion>

/** What an import does (or would do), by completion of the source. */
export const QuestsPreview = t.Object({
  total: t.Integer({ description: 'Completions in the source.' }),
  add: t.Array(PlannedCompletion, { description: 'Matched and not stored yet: what the import adds (or added).' }),
  stored: t.Array(PlannedCompletion, {
    description: 'Matched, but the character has it already (or the source lists it twice): left as stored.',
  }),
  ambiguous: t.Array(
    t.Object({
      source: ImportSource,
      name: t.String(),
      setting: Setting,
      candidates: t.Array(t.Object({ name: t.String(), difficulty: Difficulty, level: t.Integer() })),
    }),
    { description: 'Several remakes fit: left out until the player chooses one (`choices`).' },
  ),
  unmatched: t.Array(
    t.Object({
      source: ImportSource,
      name: t.String(),
      setting: Setting,
      suggestions: t.Array(t.String(), {
        maxItems: MAX_SUGGESTIONS,
        description: 'Catalog names nearest it, nearest first ("did you mean"); empty when none is near.',
      }),
    }),
    {
      description: 'No catalog quest has this name in any spelling: left out, or kept as written (`keepUnmatched`).',
    },
  ),
})
export type QuestsPreview = Static<typeof QuestsPreview>
