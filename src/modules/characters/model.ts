// Request and response shapes of the character operations. Aliases are declared here (so the
// OpenAPI document lists them) and folded into the canonical field in service.ts.
import type { TSchema } from '@sinclair/typebox'
import { t } from 'elysia'
import { documentOnly, oneOfRequired, Timestamp } from '../../http/model'
import {
  MAX_CLASS_LEVEL,
  MAX_EPIC_LEVELS,
  MAX_HEROIC_LEVEL,
  MAX_MULTICLASS,
  MAX_TOTAL_LEVEL,
  PLAY_ON,
} from '../../rules/character/levels'
import { DEFAULT_LEVELS_ABOVE } from '../../rules/quests/levelBand'

/**
 * One of fixed strings. (Elysia's t.UnionEnum carries `default: values[0]`, which Elysia
 * fills in when the field is omitted: a partial update would silently reset it.)
 */
export const Enum = <const T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    options,
  ) as unknown as TSchema & { static: T }

const text = (description: string) => t.String({ maxLength: 100, description })

export const ClassEntry = t.Object({
  name: t.String({ minLength: 1, maxLength: 60, description: 'Class name, e.g. "Fighter" (see /characters/meta).' }),
  levels: t.Integer({ minimum: 1, maximum: MAX_CLASS_LEVEL }),
})

/**
 * A class as answered: the name without the input length limits, since the live snapshot sync
 * stores class names as the build document spells them (a limit here made reads a 500).
 */
const StoredClassEntry = t.Object({
  name: t.String({ description: 'Class name, e.g. "Fighter".' }),
  levels: t.Integer({ minimum: 1, maximum: MAX_CLASS_LEVEL }),
})

const Classes = (description: string) => t.Array(ClassEntry, { maxItems: MAX_MULTICLASS, description })
const EpicLevels = (description: string) => t.Integer({ minimum: 0, maximum: MAX_EPIC_LEVELS, description })
// The service reads `now` in any case and ISO 8601 in its looser forms too; the document shows
// what a client should send.
const LoginAt = (description: string) =>
  t.Nullable(
    t.String({
      maxLength: 40,
      description,
      ...documentOnly({ anyOf: [{ format: 'date-time' }, { enum: ['now'] }] }),
    }),
  )

/** Fields of create, PATCH and PUT. Ids, owner and share token are not among them. */
export const CharacterInput = t.Object({
  givenName: t.Optional(text('First name. Required on create unless `firstName` or a legacy `name` is sent.')),
  firstName: t.Optional(text('Alias of givenName.')),
  surname: t.Optional(text('Last name.')),
  lastName: t.Optional(text('Alias of surname.')),
  name: t.Optional(
    t.String({
      maxLength: 201,
      description: 'Legacy: "Given Surname", split at the first space when givenName is absent.',
    }),
  ),
  race: t.Optional(text('e.g. "Human" (see /characters/meta; a matching spelling is canonicalised).')),
  gender: t.Optional(text('e.g. "Female".')),
  alignment: t.Optional(text('e.g. "Lawful Good".')),
  server: t.Optional(text('e.g. "Thrane".')),
  guild: t.Optional(text('Guild name.')),
  classes: t.Optional(Classes('Up to 3 classes, each 1 to 20 levels, each class once.')),
  classLevels: t.Optional(Classes('Alias of classes.')),
  epicLevels: t.Optional(EpicLevels('Epic and legendary levels, 0 to 30.')),
  epic_levels: t.Optional(EpicLevels('Alias of epicLevels.')),
  lastLoginAt: t.Optional(LoginAt('The word "now" or an ISO 8601 timestamp; null clears it.')),
  last_login_at: t.Optional(LoginAt('Alias of lastLoginAt.')),
  touchLastLogin: t.Optional(
    t.Boolean({ description: 'Update only: true sets lastLoginAt to now (an explicit lastLoginAt wins).' }),
  ),
  seen: t.Optional(t.Boolean({ description: 'Alias of touchLastLogin.' })),
})

/**
 * The body of create: the same fields, one of the names required (service.ts refuses a create
 * without one, with a sentence naming the three).
 */
export const CharacterCreate = t.Object(CharacterInput.properties, {
  description: 'A name is required: `givenName` (alias `firstName`), or a legacy `name`.',
  ...documentOnly({ anyOf: oneOfRequired('givenName', 'firstName', 'name') }),
})

export const LoginBody = t.Optional(
  t.Object({
    lastLoginAt: t.Optional(LoginAt('The word "now" (the default) or an ISO 8601 timestamp.')),
    last_login_at: t.Optional(LoginAt('Alias of lastLoginAt.')),
  }),
)

export const FindQuery = t.Object({
  givenName: t.Optional(t.String({ description: 'Exact given name, any case.' })),
  firstName: t.Optional(t.String({ description: 'Alias of givenName.' })),
  surname: t.Optional(t.String({ description: 'Exact surname, any case.' })),
  lastName: t.Optional(t.String({ description: 'Alias of surname.' })),
  name: t.Optional(
    t.String({ description: 'Display name, or given name when givenName and surname are not sent; any case.' }),
  ),
  server: t.Optional(t.String({ description: 'Exact server, any case.' })),
})

export const VERSION_FLAGS = ['any', 'yes', 'no'] as const

export const VersionFilter = t.Object(
  {
    heroic: Enum(VERSION_FLAGS),
    epic: Enum(VERSION_FLAGS),
    legendary: Enum(VERSION_FLAGS),
  },
  { description: '`yes`: the quest family must include the tier; `no`: hide the tier; `any`: no constraint.' },
)

/** An object whose inner shape the contract leaves open (a Record: kept whole by validation). */
export const OpenObject = (description: string) => t.Record(t.String(), t.Unknown(), { description })

export const PlayOn = Enum(PLAY_ON, { description: 'Play on: default `any`.' })

/** The tracker filters kept on the character, shown both on it and in its progress. */
export const trackerState = {
  targetDifficulty: PlayOn,
  levelBand: t.Integer({ description: '0 = Full XP filter, 255 = any level.' }),
  levelsBelow: t.Nullable(
    t.Integer({
      description:
        "The player's range at levelBand 0: its bottom is this many levels below the character's. Null: the Full XP minimum (`minLevel`).",
    }),
  ),
  levelsAbove: t.Nullable(
    t.Integer({
      description: `The player's range at levelBand 0: its top is this many levels above the character's. Null: ${DEFAULT_LEVELS_ABOVE} above.`,
    }),
  ),
  excludedPatrons: t.Array(t.Unknown()),
  versionFilter: VersionFilter,
  xpBoosts: OpenObject('Same shape as the website tracker.'),
  optionalPursuit: OpenObject('Same shape as the website tracker.'),
}

export const Character = t.Object(
  {
    id: t.Integer(),
    name: t.String({ description: 'Display name: given name and surname.' }),
    givenName: t.String(),
    firstName: t.String({ description: 'Same as givenName.' }),
    surname: t.String(),
    race: t.String(),
    gender: t.String(),
    alignment: t.String(),
    server: t.String(),
    guild: t.String(),
    classes: t.Array(StoredClassEntry),
    classSummary: t.String({ description: 'e.g. "Fighter 12 / Rogue 6 / Wizard 2".' }),
    epicLevels: t.Integer(),
    heroicLevel: t.Integer({ minimum: 0, maximum: MAX_HEROIC_LEVEL, description: 'Sum of class levels, at most 20.' }),
    totalLevel: t.Integer({
      minimum: 0,
      maximum: MAX_TOTAL_LEVEL,
      description: 'Sum of class levels plus epicLevels, capped at 34.',
    }),
    characterLevel: t.Integer({ minimum: 0, maximum: MAX_TOTAL_LEVEL, description: 'Same as totalLevel.' }),
    minLevel: t.Integer({
      description: 'Lowest base quest level that still gives full XP at targetDifficulty (progress characterLevel).',
    }),
    lastLoginAt: t.Nullable(Timestamp()),
    ...trackerState,
    shareToken: t.String(),
    shareUrl: t.String({ pattern: '^/s/', description: 'Path of the public read-only page: /s/<shareToken>.' }),
    shared: t.Boolean({ description: 'Whether the share page answers; false after DELETE .../share.' }),
    questsDone: t.Optional(
      t.Integer({ description: 'Distinct quest names with any completion (in the character list only).' }),
    ),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { $id: 'Character' },
)

export const CharacterList = t.Object({ characters: t.Array(Character) })

export const FindResult = t.Object({ count: t.Integer(), characters: t.Array(Character) })

export const CharacterMeta = t.Object(
  {
    classes: t.Array(t.String(), { description: 'Every class, archetypes included.' }),
    races: t.Array(t.String(), { description: 'Every race, iconics included.' }),
    alignments: t.Array(t.String()),
    genders: t.Array(t.String()),
    servers: t.Array(t.String(), { description: 'Live servers.' }),
    maxMulticlass: t.Literal(3),
    maxClassLevel: t.Literal(20),
    maxEpicLevels: t.Literal(30),
    maxTotalLevel: t.Literal(34),
  },
  { $id: 'CharacterMeta' },
)
