// Shapes of GET /characters/{id}/past-lives and GET /past-lives: the rule's glance
// (src/rules/character/pastLifeGlance.ts) with who it is of.
import { t } from 'elysia'
import { Timestamp } from '../../http/model'
import { MAX_PAST_LIFE_STACKS } from '../../rules/character/gameData'
import { MAX_OTHER_PAST_LIVES, PAST_LIFE_KINDS } from '../../rules/character/pastLifeGlance'
import { Enum } from '../characters/model'

const Count = (description: string) => t.Integer({ minimum: 0, description })
const Feat = t.String({ description: 'The past-life feat, as DDO Builder spells it (e.g. "Past Life: Fighter").' })
const Kind = Enum(PAST_LIFE_KINDS)

const Totals = (description: string) =>
  t.Object(
    {
      heroic: t.Integer({ minimum: 0 }),
      racial: t.Integer({ minimum: 0 }),
      iconic: t.Integer({ minimum: 0 }),
      epic: t.Integer({ minimum: 0 }),
      all: t.Integer({ minimum: 0 }),
    },
    { description },
  )

const PER_CHARACTER = `0 to ${MAX_PAST_LIFE_STACKS} for a character; summed over the characters for an account.`

/** The lists and totals a character's glance and an account's share. */
const summary = {
  heroic: t.Array(
    t.Object({
      class: t.String({ description: 'The class; an archetype is a class of its own, with its own past life.' }),
      baseClass: t.Nullable(
        t.String({ description: "An archetype's class; null for a base class or an unknown one." }),
      ),
      feat: Feat,
      count: Count(PER_CHARACTER),
    }),
    {
      description:
        'Every class of the game data (base classes in order, each followed by its archetypes), then heroic past lives of classes it does not know.',
    },
  ),
  racial: t.Array(t.Object({ race: t.String(), feat: Feat, count: Count(PER_CHARACTER) }), {
    description:
      "Every race of the game data that is not iconic (a Wood Elf's past life is the Elf's), then racial past lives it does not know.",
  }),
  iconic: t.Array(
    t.Object({
      race: t.String(),
      class: t.Nullable(t.String({ description: 'The class the iconic starts in; null for an unknown race.' })),
      feat: Feat,
      count: Count(PER_CHARACTER),
    }),
    { description: 'Every iconic race of the game data, then iconic past lives it does not know.' },
  ),
  epic: t.Array(
    t.Object({
      sphere: t.String({
        description: 'Arcane, Divine, Martial or Primal; Other for epic past lives of no known sphere.',
      }),
      count: Count("The sphere's past lives together."),
      max: Count(`The most they can hold: ${MAX_PAST_LIFE_STACKS} per past life (per character).`),
      feats: t.Array(t.Object({ name: t.String(), feat: Feat, count: Count(PER_CHARACTER) })),
    }),
    { description: 'Per epic destiny sphere, each with its epic past lives.' },
  ),
  totals: Totals('Stacks of each kind, and all together.'),
  max: Totals(`The most the lists can hold: ${MAX_PAST_LIFE_STACKS} per past life listed (per character).`),
  unlisted: Count(
    `Past lives the game data does not know beyond the first ${MAX_OTHER_PAST_LIVES}, left out of the lists and totals.`,
  ),
}

const Grant = t.Object({
  kind: Kind,
  name: t.String({ description: 'The class, race or epic past life.' }),
  sphere: t.Nullable(t.String({ description: 'Epic past lives: their sphere; null for the others.' })),
  feat: Feat,
  from: Count('Stacks now.'),
  to: Count(`Stacks after: one more, but at most ${MAX_PAST_LIFE_STACKS} (at ${MAX_PAST_LIFE_STACKS} nothing more).`),
})

export const CharacterPastLives = t.Object(
  {
    character: t.Object({ id: t.Integer(), name: t.String() }),
    lives: t.Integer({ minimum: 1, description: 'Lives in the history, the current one included.' }),
    snapshotUpdatedAt: t.Nullable(
      Timestamp({ description: 'When the live snapshot was last stored; null without one.' }),
    ),
    ...summary,
    nextReincarnation: t.Object(
      {
        race: t.String({ description: "The current life's race." }),
        dominantClass: t.Nullable(t.String({ description: 'The class with the most levels; null without levels.' })),
        level: t.Integer({
          minimum: 0,
          description: "The character's level (its profile's class and epic levels): each kind needs one.",
        }),
        options: t.Array(
          t.Object({
            kind: Kind,
            choice: t.Boolean({ description: 'True: the player picks one of the grants (epic); false: all of them.' }),
            requiredLevel: t.Integer({
              minimum: 1,
              description: 'The level this kind of reincarnation needs: heroic and racial 20, iconic and epic 30.',
            }),
            allowed: t.Boolean({ description: "Whether the character's level reaches `requiredLevel`." }),
            grants: t.Array(Grant),
          }),
          {
            description:
              'Heroic and racial for a race that is not iconic, iconic for an iconic one (its past life and the class one), and epic (one epic past life still below 3, the player choosing).',
          },
        ),
      },
      { description: 'What reincarnating out of the current life would grant.' },
    ),
  },
  { $id: 'CharacterPastLives' },
)

export const AccountPastLives = t.Object(
  {
    characters: t.Array(
      t.Object({
        id: t.Integer(),
        name: t.String(),
        server: t.String(),
        lives: t.Integer({ minimum: 1 }),
        totals: Totals("The character's stacks of each kind."),
        max: Totals('The most its lists can hold.'),
      }),
      { description: "The account's characters, oldest first." },
    ),
    ...summary,
  },
  { $id: 'AccountPastLives' },
)
