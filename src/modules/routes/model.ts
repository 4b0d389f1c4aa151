// Request and response shapes of shared routes and navigation.
import { t } from 'elysia'
import { documentOnly, Timestamp } from '../../http/model'
import { kib } from '../../http/size'
import { DEFAULT_ROUTE_PAGE, MAX_ROUTE_FIELD_BYTES, MAX_ROUTE_PAGE, MAX_ROUTE_STEPS } from './limits'

const NAME = { minLength: 1, maxLength: 200 }

const FreeObject = (description: string) => t.Object({}, { additionalProperties: t.Unknown(), description })

// In a request body, Elysia coerces anything into a t.Object (an array or a string becomes
// {"0": ...}), so free-form objects are taken as unknown and checked in the service.
const FreeInput = (description: string) => t.Unknown({ description: `A JSON object. ${description}` })

const stepInputSchema = () =>
  t.Object({
    name: t.String({
      ...NAME,
      description:
        'Quest name, as the game shows it or as the catalog spells it; stored with the catalog spelling when it means one catalog quest for the step remake.',
    }),
    difficulty: t.Optional(
      t.Nullable(
        t.String({
          description:
            'Heroic, Epic or Legendary (any case); default Heroic. A challenge word here with no setting moves to setting.',
        }),
      ),
    ),
    setting: t.Optional(
      t.Nullable(t.String({ description: 'casual, normal, hard, elite or reaper (any case); default elite.' })),
    ),
    challengeSetting: t.Optional(t.Nullable(t.String({ description: 'Alias of setting.' }))),
    challenge_setting: t.Optional(t.Nullable(t.String({ description: 'Alias of setting.' }))),
  })

/**
 * The body of POST and PUT /routes, and the core of a route file. A factory, because Elysia
 * rewrites the schemas it is given (it sets additionalProperties: false and strips extras), so
 * the file importer checks against an instance of its own.
 */
export const routeInputSchema = () =>
  t.Object({
    // Not blank, and at least one step: the service says so with a sentence of its own.
    name: t.String({ ...NAME, description: 'Route name.', ...documentOnly({ pattern: '\\S' }) }),
    quests: t.Array(stepInputSchema(), {
      maxItems: MAX_ROUTE_STEPS,
      description: 'The steps in order (at least one); each gets position 1..n.',
      ...documentOnly({ minItems: 1 }),
    }),
    boosts: t.Optional(
      FreeInput(
        `XP boosts the route assumes (free-form, as in the tracker); default {}; at most ${kib(MAX_ROUTE_FIELD_BYTES)} as JSON.`,
      ),
    ),
    optionals: t.Optional(
      FreeInput(
        `Optional objectives the route assumes (free-form); default {}; at most ${kib(MAX_ROUTE_FIELD_BYTES)} as JSON.`,
      ),
    ),
  })

export const RouteInput = routeInputSchema()

export type RouteInputBody = typeof RouteInput.static

const Difficulty = t.Union([t.Literal('Heroic'), t.Literal('Epic'), t.Literal('Legendary')])
const Setting = t.Union([
  t.Literal('casual'),
  t.Literal('normal'),
  t.Literal('hard'),
  t.Literal('elite'),
  t.Literal('reaper'),
])

export const RouteStep = t.Object(
  { position: t.Integer({ minimum: 1 }), name: t.String(), difficulty: Difficulty, setting: Setting },
  { $id: 'RouteStep' },
)

const common = {
  id: t.Integer(),
  name: t.String(),
  ownerDisplayName: t.String({ description: "The owner's username, or Player. Never an e-mail." }),
  owned: t.Boolean({ description: 'True when the route belongs to the caller (who may then update or delete it).' }),
  questCount: t.Integer(),
  boosts: FreeObject('Free-form XP boosts object.'),
  optionals: FreeObject('Free-form optionals object.'),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
}

export const RouteListItem = t.Object(common, { $id: 'RouteListItem' })

/** One page of the list; a client that reads only `routes` still works. */
export const RouteList = t.Object({
  routes: t.Array(RouteListItem),
  total: t.Integer({ description: 'Routes on the server, on every page together.' }),
  limit: t.Integer({ description: 'The page size used.' }),
  offset: t.Integer({ description: 'The routes skipped before this page.' }),
})

// The ranges are checked with the query (src/http/integers.ts coerces the integers, so a refusal
// names its parameter); the defaults are the service's.
export const RouteListQuery = t.Object({
  limit: t.Optional(
    t.Integer({
      description: `Routes per page, 1 to ${MAX_ROUTE_PAGE}; default ${DEFAULT_ROUTE_PAGE}.`,
      minimum: 1,
      maximum: MAX_ROUTE_PAGE,
      ...documentOnly({ default: DEFAULT_ROUTE_PAGE }),
    }),
  ),
  offset: t.Optional(
    t.Integer({
      description: 'Routes to skip, in list order (0 or more); default 0.',
      // Beyond 2^53 a number is no longer an exact integer for SQLite to bind.
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      ...documentOnly({ default: 0 }),
    }),
  ),
})

export const RouteDetail = t.Object({ ...common, quests: t.Array(RouteStep) }, { $id: 'Route' })

// No `minimum` on the ids: Elysia reports a range failure of a coerced query integer without its
// field name, and an id of 0 is simply one that does not exist (404, with a sentence naming it).
export const NavigationQuery = t.Object({
  characterId: t.Integer({ description: "One of the caller's characters." }),
  routeId: t.Integer({ description: 'Any route on the server.' }),
  match: t.Optional(
    t.Union([t.Literal('setting'), t.Literal('remake')], {
      description: 'setting (default): a step needs its exact setting; remake: any setting of the remake.',
    }),
  ),
})

export const NavigationStep = t.Object(
  {
    position: t.Integer(),
    name: t.String(),
    difficulty: Difficulty,
    setting: Setting,
    completed: t.Boolean({ description: 'settingCompleted with match=setting, remakeCompleted with match=remake.' }),
    settingCompleted: t.Boolean({ description: 'The exact setting is logged for this remake (or an Unknown remake).' }),
    remakeCompleted: t.Boolean({ description: 'Any setting is logged for this remake (or an Unknown remake).' }),
    settingsLogged: t.Array(t.String(), {
      description: 'Every setting logged for this remake (or an Unknown remake), in the order casual..reaper, unknown.',
    }),
    completedAt: t.Nullable(
      Timestamp({ description: 'Of the best completion that completes the step; null when not completed.' }),
    ),
    durationSeconds: t.Nullable(t.Integer()),
  },
  { $id: 'NavigationStep' },
)

export const Navigation = t.Object(
  {
    character: t.Object({ id: t.Integer(), name: t.String(), targetDifficulty: t.String() }),
    route: t.Object({ id: t.Integer(), name: t.String() }),
    match: t.Union([t.Literal('setting'), t.Literal('remake')]),
    steps: t.Array(NavigationStep),
    nextQuest: t.Nullable(
      t.Object({
        position: t.Integer(),
        name: t.String(),
        difficulty: Difficulty,
        setting: Setting,
        completed: t.Boolean(),
      }),
      { description: 'The first step not completed; when the route is finished, its last step (completed: true).' },
    ),
    progress: t.Object({
      completed: t.Integer(),
      total: t.Integer(),
      remaining: t.Integer({ description: 'total minus completed' }),
      finished: t.Boolean(),
    }),
  },
  { $id: 'Navigation' },
)
