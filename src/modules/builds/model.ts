// The build document (one schema for the live snapshot and the planned build, plugin-api.md
// "Build document") and the request and response shapes of the build operations.
// Every path is optional (partial documents are allowed) and every object keeps keys it does
// not know (`additionalProperties: t.Unknown()`), so a newer client loses nothing; only a known path
// holding the wrong type, or an array longer than its limit (limits.ts), is refused, with a 400
// that names it.
import { type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { type Static, t } from 'elysia'
import { documentOnly, Timestamp } from '../../http/model'
import { describeSchema, fieldName, type SchemaLike } from '../../http/validationMessages'
import type { BuildDocument as RulesBuildDocument } from '../../rules/builds/buildDocument'
import {
  MAX_BUILD_LEVELS,
  MAX_CLASS_SLOTS,
  MAX_FEATS_PER_LEVEL,
  MAX_INCOMPLETE_DOMAINS,
  MAX_MAP_ENTRIES,
  MAX_NAME_CHARS,
  MAX_REAPER_SPEND,
  MAX_SELECTED_TREES,
  MAX_SKILLS_PER_LEVEL,
  MAX_SPECIAL_FEATS,
  MAX_SPENT_TREES,
  MAX_STANCES,
  MAX_TRAINED_PER_TREE,
  MAX_TRAINED_SPELLS,
} from './limits'
import { Life } from './lives/model'

// A schema, not `true`: with `normalize: 'typebox'` (src/app.ts), TypeBox's Clean drops extra
// keys unless they pass an additionalProperties schema.
const open = { additionalProperties: t.Unknown() }

// TypeBox's own number types: Elysia's `t.Integer` would also take numeric strings ("16"), and a
// document field of the wrong type must be refused, not converted.
// Likewise its arrays: Elysia's `t.Array` would try to read an object or a string as an array.
// Input integers stay within +-2^53: 1.7e308 is an integer to TypeBox, but two of them add up to
// Infinity, which JSON stores as null (a 500 on every later read of the character).
const SAFE = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }
const Integer = (options: Parameters<typeof Type.Integer>[0] = {}) => Type.Integer({ ...SAFE, ...options })
const NumberType = Type.Number
const ArrayType = Type.Array

/** An object whose listed keys are all optional and whose unknown keys are kept. */
function section<P extends TProperties>(properties: P, options: { description?: string; $id?: string } = {}) {
  const optional = Object.fromEntries(
    Object.entries(properties).map(([key, schema]) => [key, t.Optional(schema as TSchema)]),
  )
  return t.Object(optional as { [K in keyof P]: TOptional<P[K]> }, { ...open, ...options })
}

const abilityIntegers = {
  str: Integer(),
  dex: Integer(),
  con: Integer(),
  int: Integer(),
  wis: Integer(),
  cha: Integer(),
}

// Maps are Records: under `normalize: 'typebox'` an object with an additionalProperties schema
// silently drops a wrong-typed entry, while a Record refuses it (400). The OpenAPI generator
// turns a Record's patternProperties into additionalProperties, which 3.0 can describe.
const mapOf = <V>(values: TSchema, description: string, options: { maxProperties?: number } = {}) =>
  Type.Unsafe<Record<string, V>>(t.Record(t.String(), values, { ...options, description }))

/**
 * The document's schemas, twice: with the limits of limits.ts (what requests may send) and
 * without them (what answers may hold), so a document stored before a limit existed, or grown
 * past one by a merge, is still read back instead of failing its response schema (a 500).
 */
function documentSchemas(limited: boolean) {
  const most = (maxItems: number) => (limited ? { maxItems } : {})
  const entries = (maxProperties: number) => (limited ? { maxProperties } : {})
  // Names that land in the lives (and are copied by every reincarnation) or name a feat.
  const named = limited ? { maxLength: MAX_NAME_CHARS } : {}

  const SpecialFeat = section(
    {
      name: t.String(named),
      type: t.String({
        ...named,
        description:
          'HeroicPastLife, RacialPastLife, IconicPastLife, EpicPastLife, Special, Favor, UniversalTree or EpicDestinyTree.',
      }),
      stacks: Integer({ minimum: 0, description: 'Default 1. Past lives stack up to 3.' }),
    },
    { description: 'A past life or other special feat.' },
  )

  const BuildMeta = section({
    source: t.String(),
    // Stored as sent: the document asks for a date-time, answers hold what was stored.
    capturedAt: t.String({
      description: 'ISO 8601 timestamp.',
      ...(limited ? documentOnly({ format: 'date-time' }) : {}),
    }),
    gameCharacterId: t.Union([t.String(), NumberType(), t.Null()]),
    incomplete: ArrayType(t.String(), {
      ...most(MAX_INCOMPLETE_DOMAINS),
      description: 'Live only: domains not read yet (feats, skills, enhancements, destiny, spells, tomes, reaper).',
    }),
  })

  const LifeSection = section({
    name: t.String(named),
    race: t.String(named),
    alignment: t.String(named),
    specialFeats: ArrayType(SpecialFeat, most(MAX_SPECIAL_FEATS)),
  })

  const Tomes = section({
    ...abilityIntegers,
    skills: mapOf<number>(Integer(), 'Skill name to tome bonus.', entries(MAX_MAP_ENTRIES)),
  })

  const Trees = section({
    selected: ArrayType(t.String(), most(MAX_SELECTED_TREES)),
    tier5: t.Union([t.String(), t.Null()]),
    spend: ArrayType(
      section({
        treeName: t.String(),
        treeVersion: Integer(),
        trained: ArrayType(
          section({ enhancementName: t.String(), selection: t.String(), ranks: Integer() }),
          most(MAX_TRAINED_PER_TREE),
        ),
      }),
      most(MAX_SPENT_TREES),
    ),
  })

  const BuildSection = section({
    level: Integer({ description: 'Character level the build reaches (heroic plus epic).' }),
    classes: ArrayType(t.Union([t.String(named), t.Null()]), {
      ...most(MAX_CLASS_SLOTS),
      description: 'The three class slots; null when unused.',
    }),
    abilitySpend: section(
      { available: Integer(), ...abilityIntegers },
      { description: 'Build points spent per ability (not scores) out of `available`.' },
    ),
    levelAbilityBumps: mapOf<string>(
      t.String(),
      'Level number (as key, e.g. "4") to the ability raised there, e.g. "Wisdom" or "wis".',
      entries(MAX_MAP_ENTRIES),
    ),
    levels: ArrayType(
      section({
        class: t.String(named),
        feats: ArrayType(section({ name: t.String(named), type: t.String(named) }), most(MAX_FEATS_PER_LEVEL)),
        skills: ArrayType(t.String(), most(MAX_SKILLS_PER_LEVEL)),
      }),
      { ...most(MAX_BUILD_LEVELS), description: 'One entry per character level, level 1 first.' },
    ),
    enhancementTrees: Trees,
    destinyTrees: Trees,
    reaper: section({ pointsAvailable: Integer(), spend: ArrayType(t.Unknown(), most(MAX_REAPER_SPEND)) }),
    trainedSpells: ArrayType(
      section({ class: t.String(), level: Integer(), name: t.String() }),
      most(MAX_TRAINED_SPELLS),
    ),
    stances: ArrayType(t.String(), most(MAX_STANCES)),
    notes: t.String(),
  })

  const Breakdown = section({
    hp: NumberType(),
    sp: NumberType(),
    saves: t.Object({}, open),
    abilities: t.Object({}, open),
  })

  const properties = {
    schemaVersion: Integer(),
    role: t.String({ description: '`live` or `planned`: set by the server to the slot the document is in.' }),
    meta: BuildMeta,
    life: LifeSection,
    tomes: Tomes,
    build: BuildSection,
    breakdown: Breakdown,
  }
  return { SpecialFeat, properties }
}

const stored = documentSchemas(false)
const input = documentSchemas(true)

export const SpecialFeat = input.SpecialFeat
const documentProperties = input.properties

/** The document as answered (no input limits). */
export const BuildDocument = section(stored.properties, { $id: 'BuildDocument' })
/** The document as sent: the same paths, with the limits of limits.ts. */
const BuildDocumentInput = section(documentProperties, { $id: 'BuildDocumentInput' })
export type BuildDocument = Static<typeof BuildDocument>

/**
 * The first way a document breaks the limits a sent document is held to (the input schema:
 * item counts, entries, types), as `"build.levels" must be an array of at most 40 items`;
 * undefined when it keeps them. For documents no request schema checked: a DDO Builder import.
 */
export function documentLimitProblem(document: BuildDocument): string | undefined {
  const error = Value.Errors(BuildDocumentInput, document).First()
  if (!error) return undefined
  return `"${fieldName(error.path)}" must be ${describeSchema(error.schema as SchemaLike, error.value)}`
}

// Compile-time check: every document this schema accepts is one the rules can read.
const rulesReadThis = (document: BuildDocument): RulesBuildDocument => document
void rulesReadThis
export type SpecialFeatInput = Static<typeof SpecialFeat>

/**
 * PUT body: the document itself, or `{document}` with optional `meta`, `incomplete`, `source`.
 * One object schema covers both forms (the document's own keys and the wrapper's are disjoint
 * apart from `meta`, which has the same shape in both), so a wrong type is reported at its exact
 * path, e.g. `build.abilitySpend.str` or `document.build.abilitySpend.str`.
 */
const putProperties = {
  ...documentProperties,
  document: BuildDocumentInput,
  incomplete: ArrayType(t.String(), {
    maxItems: MAX_INCOMPLETE_DOMAINS,
    description: 'Wrapper form: sets meta.incomplete.',
  }),
  source: t.String({ description: 'Wrapper form: sets meta.source.' }),
}

export const PlannedPutBody = section(putProperties)
export const LivePutBody = section({
  ...putProperties,
  merge: t.Boolean({ description: 'Merge into the stored snapshot (shallow per section) instead of replacing it.' }),
})
export type PutBody = Static<typeof LivePutBody>

export const LivePutQuery = t.Object({
  merge: t.Optional(
    t.Union([t.Literal('1'), t.Literal('0'), t.Literal('true'), t.Literal('false')], {
      description: '`1` or `true` merges instead of replacing.',
    }),
  ),
})

const patchProperties = {
  ...documentProperties,
  pastLives: ArrayType(SpecialFeat, {
    maxItems: MAX_SPECIAL_FEATS,
    description: 'The complete list of past lives: replaces every *PastLife entry of life.specialFeats.',
  }),
  reaperPoints: Integer({ description: 'Sets build.reaper.pointsAvailable.' }),
}

/** Merge patch: each section sent is merged key by key into the stored one (shallow per section). */
export const PartialBody = section(patchProperties)
export type PartialBody = Static<typeof PartialBody>

export const LiveBuild = t.Object(
  {
    role: t.Literal('live'),
    life: Life,
    document: BuildDocument,
    meta: t.Object({}, open),
    updatedAt: Timestamp(),
  },
  { $id: 'LiveBuild' },
)

export const PlannedBuild = t.Object(
  {
    role: t.Literal('planned'),
    life: Life,
    document: t.Nullable(BuildDocument, { description: 'null until a planned build is saved.' }),
    reaperPointsAvailable: t.Nullable(NumberType()),
    breakdownCache: t.Nullable(t.Object({}, open)),
    validationErrors: ArrayType(t.String()),
    updatedAt: t.Nullable(Timestamp()),
  },
  { $id: 'PlannedBuild' },
)
