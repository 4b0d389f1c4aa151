// Shapes of a player's data going out and coming in: the completions import (a CSV's text, the
// player's choices, the preview answered) and the whole-account export.
import { t } from 'elysia'
import { Timestamp } from '../../http/model'
import { Life } from '../builds/lives/model'
import { BuildDocument } from '../builds/model'
import { Character } from '../characters/model'
import { ImportChoice, ImportSource, QuestsPreview } from '../completions/importModel'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../completions/limits'
import { StoredCompletion } from '../completions/model'
import { MAX_IMPORT_CSV_CHARS } from './limits'

export const CompletionsImportBody = t.Object({
  csv: t.String({
    maxLength: MAX_IMPORT_CSV_CHARS,
    description:
      'The CSV file’s text: a header line naming the columns (`name` required; `difficulty`, `setting`, `completedAt`, `durationSeconds`, `xpEarned`, `reaperSkulls` optional, in any order; others ignored), then a completion a line.',
  }),
  confirm: t.Optional(
    t.Boolean({
      description: 'true: write what the preview adds. Omitted or false: only the preview; nothing is written.',
    }),
  ),
  choices: t.Optional(t.Array(ImportChoice, { maxItems: MAX_COMPLETIONS_PER_CHARACTER })),
  keepUnmatched: t.Optional(
    t.Boolean({ description: 'Store names the catalog does not have as written (default false: left out).' }),
  ),
})

export const ImportPreview = t.Object({
  confirmed: t.Boolean({ description: 'Whether this answer wrote anything (confirm true).' }),
  ...QuestsPreview.properties,
  invalid: t.Array(t.Object({ source: ImportSource, error: t.String() }), {
    description: 'Lines that could not be read (a bad timestamp or number): left out.',
  }),
})

const ExportedRun = t.Object({
  completedAt: t.String(),
  durationSeconds: t.Nullable(t.Integer()),
  xpEarned: t.Nullable(t.Integer()),
  reaperXpEarned: t.Nullable(t.Integer()),
  reaperSkulls: t.Nullable(t.Integer({ description: 'The skulls of the run (reaper only); null when not given.' })),
})

const ExportedCompletion = t.Object({
  ...StoredCompletion.properties,
  lifeIndex: t.Integer({
    description:
      "The quest life it was logged in: the lifeIndex of the life that began it (1 first; a life's `questLife`).",
  }),
  runs: t.Integer({ description: 'How many times it was logged.' }),
  runList: t.Array(ExportedRun, {
    description: 'Every run kept, oldest first (imported completions without a duration have none).',
  }),
})

const ExportedCharacter = t.Composite([
  t.Omit(Character, ['shareToken', 'shareUrl', 'shared', 'questsDone']),
  t.Object({
    tracker: t.Object({
      levelBand: t.Integer(),
      characterLevelOverride: t.Nullable(t.Integer()),
      excludedPatrons: t.Array(t.Unknown()),
      versionFilter: t.Record(t.String(), t.Unknown()),
      xpBoosts: t.Record(t.String(), t.Unknown()),
      optionalPursuit: t.Record(t.String(), t.Unknown()),
      packState: t.Record(t.String(), t.Unknown()),
      questNotes: t.Record(t.String(), t.Unknown()),
    }),
    completions: t.Array(ExportedCompletion),
    live: t.Nullable(BuildDocument),
    planned: t.Nullable(BuildDocument),
    lives: t.Array(t.Omit(Life, ['id'])),
  }),
])

/** A route as `quest-tracker route export` writes it (docs/routes.md). */
const ExportedRoute = t.Object({
  format: t.Literal('quest-tracker-route'),
  formatVersion: t.Literal(1),
  name: t.String(),
  author: t.String(),
  boosts: t.Record(t.String(), t.Unknown()),
  optionals: t.Record(t.String(), t.Unknown()),
  quests: t.Array(t.Object({ name: t.String(), difficulty: t.String(), setting: t.String() })),
})

export const AccountExport = t.Object(
  {
    format: t.Literal('quest-tracker-export'),
    version: t.Literal(1),
    exportedAt: Timestamp(),
    account: t.Object({ username: t.Nullable(t.String()), email: t.Nullable(t.String()), displayName: t.String() }),
    characters: t.Array(ExportedCharacter),
    routes: t.Array(ExportedRoute),
  },
  {
    description:
      'Everything of the account: each character with its profile, tracker settings, completions, live snapshot, planned build and lives; the routes it made. No passwords, tokens, sessions or share links.',
  },
)
