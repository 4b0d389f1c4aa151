// Shapes of GET and PUT /characters/{id}/progress.
import { t } from 'elysia'
import { kib } from '../../http/size'
import { MAX_TOTAL_LEVEL } from '../../rules/character/levels'
import { DEFAULT_LEVELS_ABOVE, FIRST_EPIC_LEVEL } from '../../rules/quests/levelBand'
import { Enum, OpenObject, PlayOn, trackerState, VERSION_FLAGS } from '../characters/model'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../completions/limits'
import { CompletionInput, StoredCompletion } from '../completions/model'
import { MAX_EXCLUDED_PATRONS, MAX_TRACKER_FIELD_BYTES } from './limits'

/** Which life a tracker payload shows, of how many. */
export const LifeView = t.Object(
  {
    index: t.Integer({ description: 'The life shown (lifeIndex, 1 first).' }),
    current: t.Boolean({ description: 'Whether it is the current life (what posts and the tracker change).' }),
    count: t.Integer({ description: 'Lives the character has had, the current one included.' }),
    questLife: t.Integer({
      description:
        'The quest life the life shown is in, whose completions these are: the lifeIndex of the life that began it (a true reincarnation, or life 1).',
    }),
    questLives: t.Array(t.Integer(), {
      description:
        "Where each of the character's quest lives began (a lifeIndex), oldest first: ask for one with `life` to see its completions.",
    }),
  },
  {
    description:
      'A true reincarnation (heroic, racial, iconic) starts quests, favor and first-time bonuses over: its life begins a quest life with completions of its own. An epic or lesser reincarnation keeps the quest life it is in, and its completions.',
  },
)

export const Progress = t.Object(
  {
    character: t.Object({ id: t.Integer(), name: t.String(), targetDifficulty: PlayOn }),
    minLevel: t.Integer({ description: 'Lowest base quest level that still gives full XP at targetDifficulty.' }),
    characterLevel: t.Integer({ description: 'The PUT override when set, else the derived total level.' }),
    levelFrom: t.Integer({
      description: "The lowest base quest level levelBand 0 shows: minLevel, or the player's range (`levelsBelow`).",
    }),
    levelTo: t.Integer({
      description: `The highest base quest level levelBand 0 shows: ${DEFAULT_LEVELS_ABOVE} above characterLevel, or the player's range (\`levelsAbove\`). Epic and Legendary remakes are in the band from level ${FIRST_EPIC_LEVEL} only.`,
    }),
    ...trackerState,
    packState: OpenObject('Pack state.'),
    questNotes: OpenObject('Quest notes.'),
    completions: t.Array(StoredCompletion, { description: "The life's completions, most recent first." }),
    completedQuests: t.Array(t.String(), { description: "Distinct names of the life's completed quests, sorted." }),
    life: LifeView,
  },
  { $id: 'Progress' },
)

export const ProgressQuery = t.Object({
  life: t.Optional(
    t.Integer({
      minimum: 1,
      description: "Which life (lifeIndex) to show, with its quest life's completions; default the current one.",
    }),
  ),
})

const Flag = Enum(VERSION_FLAGS)

// Free-form, so no schema can bound them: their size is checked in service.ts (413).
const REPLACES = `Replaces the stored value; at most ${kib(MAX_TRACKER_FIELD_BYTES)} as JSON.`

export const ProgressPut = t.Object({
  targetDifficulty: t.Optional(PlayOn),
  levelBand: t.Optional(
    t.Integer({
      minimum: 0,
      maximum: 255,
      description:
        "0 = Full XP, 255 = any level. Sent without `levelsBelow` and `levelsAbove`, it also drops the player's range: 0 is the Full XP band itself.",
    }),
  ),
  levelsBelow: t.Optional(
    t.Nullable(
      t.Integer({
        minimum: 0,
        maximum: MAX_TOTAL_LEVEL,
        description:
          "The bottom of the player's range at levelBand 0, in levels below the character's (it follows the character's level); null goes back to the Full XP minimum.",
      }),
    ),
  ),
  levelsAbove: t.Optional(
    t.Nullable(
      t.Integer({
        minimum: 0,
        maximum: MAX_TOTAL_LEVEL,
        description: `The top of the player's range at levelBand 0, in levels above the character's; null goes back to ${DEFAULT_LEVELS_ABOVE}.`,
      }),
    ),
  ),
  characterLevel: t.Optional(
    t.Nullable(
      t.Integer({
        minimum: 1,
        maximum: MAX_TOTAL_LEVEL,
        description: 'Overrides the derived level for the tracker; null goes back to the derived level.',
      }),
    ),
  ),
  excludedPatrons: t.Optional(t.Array(t.Unknown(), { maxItems: MAX_EXCLUDED_PATRONS })),
  versionFilter: t.Optional(
    t.Object(
      { heroic: t.Optional(Flag), epic: t.Optional(Flag), legendary: t.Optional(Flag) },
      { description: 'Replaces the whole filter; a tier not sent is `any`.' },
    ),
  ),
  xpBoosts: t.Optional(OpenObject(REPLACES)),
  optionalPursuit: t.Optional(OpenObject(REPLACES)),
  packState: t.Optional(OpenObject(REPLACES)),
  questNotes: t.Optional(OpenObject(REPLACES)),
  completions: t.Optional(
    t.Array(CompletionInput, {
      maxItems: MAX_COMPLETIONS_PER_CHARACTER,
      description:
        "Replaces the whole set of the current quest life; each item normalised as when posting. Only what differs changes: an item not stored makes a completion with one run of what it says; a stored one gets a run more when its completedAt is later than the stored one's, a correction of the latest run's figures it sends differently at the same completedAt, and nothing otherwise (completedAt or figures omitted: unchanged); a stored completion no item names is deleted with its runs. Sending back what GET answered changes nothing. Omitted: completions untouched.",
    }),
  ),
})
