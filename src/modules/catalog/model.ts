// Request and response shapes of the catalog operations (plugin-api.md "Quest catalog row", "Catalog").
import { t } from 'elysia'
import { documentOnly, oneOfRequired, Timestamp } from '../../http/model'
import { MIN_ACCOUNTS_FOR_FIGURE, RUNS_COUNTED_PER_CHARACTER } from '../../rules/quests/runs'
import { DEFAULT_SEARCH_LIMIT, MAX_CHARACTER_LEVEL, MAX_SEARCH_LIMIT } from './limits'

// The contract's type lists Unknown too; catalog rows are always one of the three tiers.
const Tier = t.Union([t.Literal('Heroic'), t.Literal('Epic'), t.Literal('Legendary'), t.Literal('Unknown')], {
  description: 'Remake tier: Heroic, Epic or Legendary for catalog rows, which are never merged across tiers.',
})

const rowFields = {
  name: t.String(),
  difficulty: Tier,
  level: t.Integer({ description: 'Quest level of this remake (for Epic rows, the epic level).' }),
  soloXP: t.Nullable(t.Integer({ description: 'Casual/solo base XP; null when unknown.' })),
  normalXP: t.Nullable(t.Integer({ description: 'Null when unknown.' })),
  hardXP: t.Nullable(t.Integer({ description: 'Null when unknown.' })),
  eliteXP: t.Nullable(t.Integer({ description: 'Null when unknown.' })),
  duration: t.String({ description: 'A descriptive phrase ("Short", "Very long").' }),
  pack: t.String({ description: 'Adventure pack.' }),
  patron: t.String({ description: 'Empty when the wiki names none.' }),
  favor: t.Nullable(t.Integer({ description: 'Base favor; null when unknown.' })),
  // Additive (not in the contract's QuestRow): facts only some catalog sources carry.
  questId: t.Nullable(
    t.Integer({ description: "The game's own id of the quest (from DDO Audit's list); null when unknown." }),
  ),
  groupSize: t.Nullable(
    t.Union([t.Literal('Solo'), t.Literal('Party'), t.Literal('Raid')], {
      description:
        'Who the quest is made for; `Raid` for a raid (a name ending in "(raid)" is one too). Null when no source has said.',
    }),
  ),
  freeToVip: t.Nullable(t.Boolean({ description: 'Free to VIP subscribers; null when unknown.' })),
}

export const QuestRow = t.Object(rowFields, { $id: 'QuestRow' })

export const QuestTime = t.Object(
  {
    setting: t.String({ description: 'The challenge setting the runs were on (casual … reaper, or unknown).' }),
    runs: t.Integer({
      description: `Runs with a duration this server counted: each character's latest ${RUNS_COUNTED_PER_CHARACTER} (accounts that opted out excluded).`,
    }),
    medianDurationSeconds: t.Nullable(
      t.Number({
        description: `The median of each account's median run, in seconds, in whole minutes (a multiple of 60, at least 60); null until runs of ${MIN_ACCOUNTS_FOR_FIGURE} accounts.`,
      }),
    ),
    medianXpPerMinute: t.Nullable(
      t.Number({
        description: `The median of each account's median XP per minute (each run's own), to two significant figures; null until runs with XP of ${MIN_ACCOUNTS_FOR_FIGURE} accounts.`,
      }),
    ),
  },
  { $id: 'QuestTime' },
)

export const QuestListRow = t.Object(
  {
    ...rowFields,
    times: t.Array(QuestTime, {
      description:
        "This server's measured runs of the remake, one entry per setting with a figure to show; empty until then.",
    }),
  },
  { $id: 'QuestListRow' },
)

export const QuestList = t.Object({
  count: t.Integer(),
  quests: t.Array(QuestListRow, { description: 'One object per remake row, in the wiki list order.' }),
})

export const SearchRow = t.Object(
  {
    ...rowFields,
    score: t.Number({ description: 'Higher ranks first.' }),
    enterable: t.Nullable(t.Boolean({ description: 'Character level >= quest level; null when no level was given.' })),
  },
  { $id: 'QuestSearchRow' },
)

// The ranges are checked with the query (src/http/integers.ts coerces the integers, so a refusal
// names its parameter); the required search text, one of three aliases, by the service.
const level = (description: string) => t.Optional(t.Integer({ description, minimum: 1, maximum: MAX_CHARACTER_LEVEL }))

export const SearchQuery = t.Object(
  {
    q: t.Optional(t.String({ description: 'Substring of the name; weaker on pack and patron.' })),
    query: t.Optional(t.String({ description: 'Alias of q.' })),
    name: t.Optional(t.String({ description: 'Alias of q.' })),
    difficulty: t.Optional(
      t.String({ description: 'Heroic, Epic or Legendary (any case). Empty, "any" or "Unknown": no filter.' }),
    ),
    level: level(
      `Character level, 1 to ${MAX_CHARACTER_LEVEL}: ranks enterable remakes and the tier of that level first.`,
    ),
    characterLevel: level('Alias of level.'),
    cl: level('Alias of level.'),
    limit: t.Optional(
      t.Integer({
        description: `Rows returned, 1 to ${MAX_SEARCH_LIMIT}; default ${DEFAULT_SEARCH_LIMIT}.`,
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        ...documentOnly({ default: DEFAULT_SEARCH_LIMIT }),
      }),
    ),
  },
  {
    description: 'The search text is required, as `q` or its alias `query` or `name` (the first one not blank).',
    ...documentOnly({ title: 'QuestSearchQuery', anyOf: oneOfRequired('q', 'query', 'name') }),
  },
)

export const SearchResponse = t.Object({
  query: t.String(),
  count: t.Integer({ description: 'Rows returned.' }),
  totalMatches: t.Integer({ description: 'Rows matching before the limit.' }),
  level: t.Nullable(t.Integer()),
  quests: t.Array(SearchRow),
})

export const LookupQuery = t.Object({
  name: t.String({
    description:
      'Quest name, case-insensitive: the catalog spelling, or the name the game shows ("Devil Assault" finds "Devil Assault (quest)") when it means one quest.',
  }),
  difficulty: t.Optional(
    t.String({ description: 'Filters `quests` to that remake. Empty, "any" or "Unknown": no filter.' }),
  ),
})

export const LookupQuest = t.Object(
  {
    name: t.String(),
    difficulty: Tier,
    level: t.Integer(),
    pack: t.String(),
    patron: t.String(),
    favor: t.Nullable(t.Integer()),
  },
  { $id: 'QuestLookupRow' },
)

export const LookupRemake = t.Object(
  { name: t.String(), difficulty: Tier, level: t.Integer(), pack: t.String(), patron: t.String() },
  { $id: 'QuestRemake' },
)

export const LookupResponse = t.Object({
  quests: t.Array(LookupQuest, { description: 'The remakes of the name, filtered by difficulty when given.' }),
  remakes: t.Array(LookupRemake, { description: 'Every tier of the name, whatever the difficulty filter.' }),
  remakeCount: t.Integer(),
})

export const Scorecards = t.Object({
  // additionalProperties rather than t.Record: OpenAPI 3.0 has no patternProperties.
  scorecards: t.Object(
    {},
    {
      additionalProperties: t.Object({}, { additionalProperties: t.Unknown() }),
      description:
        'Optional-pursuit thresholds keyed by quest name, as loaded by `quest-tracker scorecards import FILE`; empty until then.',
    },
  ),
})

export const SourceAttempt = t.Object(
  {
    source: t.String({
      description: 'The public name of the source: "the DDO wiki", "DDO Audit", a host, a file name.',
    }),
    at: Timestamp(),
    outcome: t.Union([t.Literal('ok'), t.Literal('challenge'), t.Literal('failed')], {
      description: '`challenge`: the source refused this server with a bot challenge; `failed`: any other failure.',
    }),
    detail: t.String({ description: 'What happened, in a few words ("did not answer within 30 s").' }),
  },
  { $id: 'CatalogSourceAttempt' },
)

export const CatalogProvenance = t.Object(
  {
    source: t.String({
      description:
        'Where the catalog comes from: "the DDO wiki", "DDO Audit", the host of a URL or the name of a file, nothing more.',
    }),
    syncedAt: t.Nullable(Timestamp({ description: 'When the last successful sync finished; null before the first.' })),
    rows: t.Integer(),
    origin: t.Union([t.Literal('snapshot'), t.Literal('sync'), t.Literal('none')], {
      description:
        "`snapshot`: the copy of the DDO wiki's list that ships with the server, not synced since; `sync`: synced; `none`: empty.",
    }),
    asOf: t.Nullable(
      Timestamp({ description: "When its source was read: the snapshot's date, or the last sync's time." }),
    ),
    attempts: t.Array(SourceAttempt, { description: 'The last try of each source, newest first.' }),
  },
  { $id: 'CatalogProvenance' },
)

export const CatalogExport = t.Object({
  format: t.Literal('quest-tracker-catalog', { description: "How another Quest Tracker's sync knows this answer." }),
  source: t.String({ description: 'The public name of the source of the rows (as `/info` gives it).' }),
  origin: t.Union([t.Literal('snapshot'), t.Literal('sync'), t.Literal('none')]),
  syncedAt: t.Nullable(Timestamp()),
  asOf: t.Nullable(Timestamp()),
  licence: t.String({ description: "The licence of the rows: the DDO wiki's content licence." }),
  attribution: t.String(),
  count: t.Integer(),
  quests: t.Array(QuestRow, { description: 'Every remake row, in catalog order.' }),
})
