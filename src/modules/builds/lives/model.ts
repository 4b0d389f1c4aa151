// The Life record (the build wrappers of ../model.ts answer it too) and the request shapes of the
// lives operations.
import { Type } from '@sinclair/typebox'
import { type Static, t } from 'elysia'
import { documentOnly, Timestamp } from '../../../http/model'
import { REINCARNATION_KINDS } from '../../../rules/character/reincarnation'
import { Enum } from '../../characters/model'
import { MAX_LIVES_PAGE, MAX_NAME_CHARS, MAX_SPECIAL_FEATS } from '../limits'

export const Life = t.Object(
  {
    id: Type.Integer(),
    lifeIndex: Type.Integer({ minimum: 1, description: 'Counts from 1.' }),
    isCurrent: t.Boolean(),
    name: t.String(),
    race: t.String(),
    alignment: t.String(),
    classes: Type.Array(t.Object({ name: t.String(), levels: Type.Integer() })),
    specialFeats: Type.Array(t.Object({ name: t.String(), type: t.String(), stacks: Type.Integer() })),
    kind: t.Nullable(
      Enum(REINCARNATION_KINDS, {
        description:
          'How this life began: the kind of the reincarnation out of the life before (heroic, racial and iconic are true reincarnations; epic and lesser keep the quests and favor). Null for life 1, for the lives of an imported history, and for a reincarnation that said no kind and granted no past life (taken as a true one).',
      }),
    ),
    questLife: Type.Integer({
      minimum: 1,
      description:
        "The quest life this life is in: the lifeIndex of the life that began it (its own after a true reincarnation and for life 1; the life before's after an epic or lesser reincarnation). The tracker, favor, first-time bonuses and progress's completions are those of the current life's quest life.",
    }),
    createdAt: Timestamp(),
    archivedAt: t.Nullable(Timestamp()),
  },
  { $id: 'Life' },
)

const named = (description: string, options: { minLength?: number } = {}) =>
  t.String({ ...options, maxLength: MAX_NAME_CHARS, description })

export const ReincarnateBody = t.Object(
  {
    kind: t.Optional(
      Enum(REINCARNATION_KINDS, {
        description:
          "The kind of reincarnation, as the game names them. heroic, racial and iconic are true reincarnations: the new life starts quests, favor and first-time bonuses over, with no class levels. epic (level 30 back to 20) and lesser keep the quests, favor and class levels; epic drops the epic levels. With a kind, grantHeroic and grantRacial default to what it grants (heroic: the dominant class's past life; racial: the race's; iconic: both). Without one, the kind is what the grants say: an iconic past life granted is iconic, a racial one racial, a heroic one heroic, an epic one epic; nothing granted is taken as a true reincarnation (as before kinds were kept). Grants the kind does not make (or two of one kind, or a heroic and a racial past life at once) are 400.",
      }),
    ),
    name: t.Optional(named("The new life's name; default the finished life's.")),
    race: t.Optional(named("The new life's race; default the finished life's.")),
    alignment: t.Optional(named("The new life's alignment; default the finished life's.")),
    grantHeroic: t.Optional(
      t.Boolean({
        description:
          "Grant the finished life's heroic past life (its dominant class). Default: true for kind heroic or iconic, else false.",
      }),
    ),
    grantRacial: t.Optional(
      t.Boolean({
        description:
          "Grant the finished life's racial (or, for an iconic race, iconic) past life. Default: true for kind racial or iconic, else false.",
      }),
    ),
    additionalPastLives: t.Optional(
      t.Array(
        t.Object(
          {
            name: named('e.g. Past Life: Monk.', { minLength: 1 }),
            type: named('e.g. EpicPastLife, HeroicPastLife.'),
            stacks: t.Optional(
              Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Default 1.' }),
            ),
          },
          { additionalProperties: t.Unknown() },
        ),
        {
          maxItems: MAX_SPECIAL_FEATS,
          description:
            'More past lives to grant (each capped at 3 stacks with what the character has): an epic reincarnation names its epic past life here.',
        },
      ),
    ),
  },
  { additionalProperties: t.Unknown() },
)
export type ReincarnateBody = Static<typeof ReincarnateBody>

/** One page of the lives; the contract's `{lives}` is unchanged, and the default page holds them all. */
export const LivesList = t.Object({
  lives: t.Array(Life),
  total: t.Integer({ description: "The character's lives, on every page together." }),
  limit: t.Integer({ description: 'The page size used.' }),
  offset: t.Integer({ description: 'The lives skipped before this page.' }),
})

// No minimum or maximum at run time: Elysia reports a range failure of a coerced query integer
// without its field name, so the service checks the range with a sentence that names it (as
// GET /routes does). The document shows the range.
export const LivesQuery = t.Object({
  limit: t.Optional(
    t.Integer({
      description: `Lives per page, 1 to ${MAX_LIVES_PAGE}; default ${MAX_LIVES_PAGE} (every life a character may have).`,
      ...documentOnly({ minimum: 1, maximum: MAX_LIVES_PAGE, default: MAX_LIVES_PAGE }),
    }),
  ),
  offset: t.Optional(
    t.Integer({
      description: 'Lives to skip, oldest first (0 or more); default 0.',
      ...documentOnly({ minimum: 0, default: 0 }),
    }),
  ),
})
export type LivesQuery = Static<typeof LivesQuery>
