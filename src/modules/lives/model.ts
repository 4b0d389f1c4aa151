// Request shapes of the lives operations (the Life record itself is in builds/model.ts, where
// the build wrappers use it too).
import { Type } from '@sinclair/typebox'
import { type Static, t } from 'elysia'

import { MAX_SPECIAL_FEATS } from '../builds/limits'
import { Life } from '../builds/model'

export { Life }

export const ReincarnateBody = t.Object(
  {
    name: t.Optional(t.String({ description: "The new life's name; default the finished life's." })),
    race: t.Optional(t.String({ description: "The new life's race; default the finished life's." })),
    alignment: t.Optional(t.String({ description: "The new life's alignment; default the finished life's." })),
    grantHeroic: t.Optional(
      t.Boolean({ description: "Grant the finished life's heroic past life (its dominant class). Default false." }),
    ),
    grantRacial: t.Optional(
      t.Boolean({ description: "Grant the finished life's racial (or iconic) past life. Default false." }),
    ),
    additionalPastLives: t.Optional(
      t.Array(
        t.Object(
          {
            name: t.String({ minLength: 1 }),
            type: t.String({ description: 'e.g. EpicPastLife, HeroicPastLife.' }),
            stacks: t.Optional(
              Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Default 1.' }),
            ),
          },
          { additionalProperties: t.Unknown() },
        ),
        {
          maxItems: MAX_SPECIAL_FEATS,
          description: 'More past lives to grant (each capped at 3 stacks with what the character has).',
        },
      ),
    ),
  },
  { additionalProperties: t.Unknown() },
)
export type ReincarnateBody = Static<typeof ReincarnateBody>

export const LivesList = t.Object({ lives: t.Array(Life) })
