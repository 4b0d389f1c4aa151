// Shapes of the completion operations. `difficulty` and `setting` take any JSON value: a
// completion is never rejected for them (junk is stored as Unknown/unknown).
import { t } from 'elysia'
import { documentOnly, Timestamp } from '../../http/model'
import {
  CHALLENGE_SETTINGS,
  MAX_REAPER_SKULLS,
  MIN_REAPER_SKULLS,
  REAPER_SKULLS_KEYS,
  REAPER_XP_KEYS,
  REMAKE_TIERS,
  XP_KEYS,
} from '../../rules/quests/completion'
import { Enum } from '../characters/model'
import { MAX_RESTORED_COMPLETIONS, MAX_RUNS_PER_COMPLETION, UNDO_WINDOW_MS } from './limits'

/**
 * Bounds that refuse nonsense (1e308) without ever refusing a real run: the largest elite base XP
 * in the catalog is 113,031, and every bonus together multiplies it a few times, not 900 times.
 * Reaper XP is far smaller still. A run longer than a week is a client bug.
 */
export const MAX_XP = 100_000_000
export const MAX_DURATION_SECONDS = 7 * 24 * 60 * 60

const Xp = (description: string) => t.Optional(t.Nullable(t.Integer({ minimum: 0, maximum: MAX_XP, description })))

const xpFields = <const K extends readonly string[]>(keys: K, what: string) =>
  Object.fromEntries(
    keys.map((key, i) => [
      key,
      Xp(i === 0 ? `${what}; omitted keeps the stored value, null clears it.` : `Alias of ${keys[0]}.`),
    ]),
  ) as { [P in K[number]]: ReturnType<typeof Xp> }

const AnyValue = (description: string) => t.Optional(t.Unknown({ description }))

const Skulls = (description: string) =>
  t.Integer({ minimum: MIN_REAPER_SKULLS, maximum: MAX_REAPER_SKULLS, description })

const SkullField = (description: string) => t.Optional(t.Nullable(Skulls(description)))

/** The skull count and its aliases (rules/quests/completion.ts REAPER_SKULLS_KEYS). */
const skullFields = Object.fromEntries(
  REAPER_SKULLS_KEYS.map((key, i) => [
    key,
    SkullField(
      i === 0
        ? `Skulls of a reaper run (${MIN_REAPER_SKULLS} to ${MAX_REAPER_SKULLS}). A setting of \`R5\` or \`reaper 5\` says the same (this field wins over it). Ignored on any other setting. Older clients that send only \`reaper\` log a run without a count.`
        : `Alias of ${REAPER_SKULLS_KEYS[0]}.`,
    ),
  ]),
) as { [P in (typeof REAPER_SKULLS_KEYS)[number]]: ReturnType<typeof SkullField> }

/** A stored skull count: null where none was given (and on every setting but reaper). */
const StoredSkulls = (description: string) => t.Nullable(Skulls(description))

export const CompletionInput = t.Object({
  name: t.String({
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    description:
      'Quest name, as the game shows it or as the catalog spells it; stored with the catalog spelling when it means one catalog quest (another case, or without the wiki disambiguator: "Devil Assault" for "Devil Assault (quest)").',
  }),
  difficulty: AnyValue(
    `Remake: ${REMAKE_TIERS.join(', ')} (any case). Omitted or unrecognised: Unknown. A challenge word here moves to setting when setting is omitted.`,
  ),
  setting: AnyValue(
    `Challenge setting: ${CHALLENGE_SETTINGS.join(', ')} (any case); \`R1\` to \`R10\` or \`reaper 1\` to \`reaper 10\` is reaper with that many skulls. Omitted: elite. Unknown, any or unrecognised: unknown.`,
  ),
  challengeSetting: AnyValue('Alias of setting.'),
  challenge_setting: AnyValue('Alias of setting.'),
  // The service reads ISO 8601 in its looser forms too; the document shows what to send.
  completedAt: t.Optional(
    t.Nullable(
      t.String({
        maxLength: 40,
        description: 'ISO 8601 timestamp; default now.',
        ...documentOnly({ format: 'date-time' }),
      }),
    ),
  ),
  durationSeconds: t.Optional(
    t.Nullable(
      t.Integer({
        minimum: 0,
        maximum: MAX_DURATION_SECONDS,
        description: 'Run length in seconds (at most 7 days); omitted keeps the stored value, null clears it.',
      }),
    ),
  ),
  ...xpFields(XP_KEYS, 'Actual XP awarded in game'),
  ...xpFields(REAPER_XP_KEYS, 'Reaper experience (RXP)'),
  ...skullFields,
})

export const StoredCompletion = t.Object(
  {
    name: t.String(),
    difficulty: Enum(REMAKE_TIERS),
    setting: Enum(CHALLENGE_SETTINGS),
    completedAt: Timestamp(),
    durationSeconds: t.Nullable(t.Integer()),
    xpEarned: t.Nullable(t.Integer()),
    reaperXpEarned: t.Nullable(t.Integer()),
    reaperSkulls: StoredSkulls(
      'The most skulls any run of it was logged with (reaper only); null when no run gave a count.',
    ),
  },
  { $id: 'Completion' },
)

export const UpsertResult = t.Object({ ok: t.Literal(true), completion: StoredCompletion })

const Flag = t.Union([t.Boolean(), t.String()], {
  description: 'true (or "true", "1", "yes") removes every setting of the remake.',
})

const deleteFields = {
  name: t.Optional(t.String({ maxLength: 200, description: 'Quest name (required, in the body or the query).' })),
  difficulty: AnyValue('Remake, normalised as when posting.'),
  setting: AnyValue('Omitted: the elite row. A concrete setting: that row. all, any or *: every setting.'),
  allSettings: t.Optional(Flag),
}

/** DELETE takes its fields from the body or the query (some clients send no body with DELETE). */
export const DeleteBody = t.Optional(t.Object(deleteFields))
export const DeleteQuery = t.Object({
  ...deleteFields,
  difficulty: t.Optional(t.String()),
  setting: t.Optional(t.String()),
})

/** A run's time as sent back (the service reads ISO 8601 in its looser forms too). */
const RunTime = (description: string) =>
  t.String({ minLength: 1, maxLength: 40, description, ...documentOnly({ format: 'date-time' }) })
const Figure = (maximum: number, description: string) => t.Nullable(t.Integer({ minimum: 0, maximum, description }))

/** One kept run of a completion: its time and what the game reported for it. */
export const RunRecord = t.Object(
  {
    completedAt: RunTime('When the run was logged.'),
    durationSeconds: Figure(MAX_DURATION_SECONDS, 'Run length in seconds, as reported.'),
    xpEarned: Figure(MAX_XP, 'XP the game reported for the run.'),
    reaperXpEarned: Figure(MAX_XP, 'Reaper XP the game reported for the run.'),
    // Optional: a restore kept by a browser from before skulls were kept has none.
    reaperSkulls: t.Optional(StoredSkulls('The skulls of the run (reaper only); null when not given.')),
  },
  { $id: 'Run' },
)

/**
 * A completion as a DELETE removed it, whole: what `POST completions/restore` takes back. The
 * tracker keeps it for a few seconds to offer an undo.
 */
export const RemovedCompletion = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'As stored.' }),
    difficulty: Enum(REMAKE_TIERS),
    setting: Enum(CHALLENGE_SETTINGS),
    completedAt: RunTime('The latest run: when.'),
    durationSeconds: Figure(MAX_DURATION_SECONDS, 'The latest run: its length in seconds.'),
    xpEarned: Figure(MAX_XP, 'The latest run: the XP the game reported.'),
    reaperXpEarned: Figure(MAX_XP, 'The latest run: the reaper XP the game reported.'),
    reaperSkulls: t.Optional(StoredSkulls('The most skulls of its runs (reaper only), as stored.')),
    runs: t.Integer({
      minimum: 1,
      description: 'How many times it was logged (runs older than those kept, or logged without one, count here only).',
    }),
    runList: t.Array(RunRecord, {
      maxItems: MAX_RUNS_PER_COMPLETION,
      description: `The runs kept of it, oldest first (at most ${MAX_RUNS_PER_COMPLETION}).`,
    }),
  },
  { $id: 'RemovedCompletion' },
)

const UNDO_HOURS = UNDO_WINDOW_MS / 3_600_000

export const DeleteResult = t.Object({
  ok: t.Literal(true),
  deleted: t.Integer(),
  removed: t.Array(RemovedCompletion, {
    description: 'What was deleted, whole: send it to POST completions/restore to put it back.',
  }),
  undoId: t.Nullable(
    t.Integer({
      description: `Under which the server keeps what was removed, until \`undoUntil\` (${UNDO_HOURS} h): POST completions/restore with \`undoIds\` puts it back. Null when nothing was removed.`,
    }),
  ),
  undoUntil: t.Nullable(
    Timestamp({ description: 'Until when the restore can put it back; null when nothing was removed.' }),
  ),
})

export const RestoreBody = t.Object({
  completions: t.Optional(
    t.Array(RemovedCompletion, {
      minItems: 1,
      maxItems: MAX_RESTORED_COMPLETIONS,
      description: `What a DELETE answered as \`removed\` (at most ${MAX_RESTORED_COMPLETIONS}): each is put back as the server kept it (found by its name, remake and setting among the character's deletes of the last ${UNDO_HOURS} h, the latest first); the figures and runs sent are not used.`,
    }),
  ),
  undoIds: t.Optional(
    t.Array(t.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: MAX_RESTORED_COMPLETIONS,
      description: `The \`undoId\` of one or more DELETE answers: everything those deletes removed, or with \`completions\`, those of it.`,
    }),
  ),
})

export const RestoreResult = t.Object({
  ok: t.Literal(true),
  restored: t.Integer({ description: 'Completions put back or merged; 0 when every one was back already.' }),
  completions: t.Array(StoredCompletion, { description: 'Each one as stored now, in the order sent.' }),
})
