// The request and answers of the DDO Builder import (import.ts): a file's text in (and what of it
// the player takes), a preview of what taking it would change, or the planned build with warnings
// and what was imported.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { Enum } from '../characters/model'
import { ImportChoice, QuestsPreview } from '../completions/importModel'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../completions/limits'
import { MAX_XML_CHARS } from './ddobuilder'
import { PlannedBuild } from './model'

const ClassLevels = Type.Array(t.Object({ name: t.String(), levels: Type.Integer() }))

const Take = Enum(['plan', 'character', 'history'] as const, {
  description:
    "`plan` (default): the planned build only. `character`: also who the character is now (race, alignment, classes, level, past lives), from the picked build. `history`: also its lives history: the file's lives up to the picked build's, oldest first, replacing the stored ones.",
})

/** POST build/import (and its preview) body: a DDO Builder `.DDOBuild` file's text, and the choices. */
export const BuildImportBody = t.Object({
  xml: t.String({
    maxLength: MAX_XML_CHARS,
    description: "A DDO Builder character file's text (the `.DDOBuild` XML), at most 8 MiB.",
  }),
  build: t.Optional(
    Type.Integer({
      minimum: 1,
      description: "The build the plan is read from (the file's builds in order); default the active one.",
    }),
  ),
  take: t.Optional(Take),
  quests: t.Optional(t.Boolean({ description: "Also import the picked build's completed quests as completions." })),
  choices: t.Optional(t.Array(ImportChoice, { maxItems: MAX_COMPLETIONS_PER_CHARACTER })),
  keepUnmatched: t.Optional(t.Boolean({ description: 'Store quest names the catalog does not have as written.' })),
})

const NewLife = t.Object({
  name: t.String(),
  race: t.String(),
  alignment: t.String(),
  classes: ClassLevels,
  specialFeats: t.Array(t.Object({ name: t.String(), type: t.String(), stacks: Type.Integer() })),
})

export const BuildImportPreview = t.Object({
  build: Type.Integer({ description: 'The build the plan is read from.' }),
  activeBuild: Type.Integer({ description: "The planner's active build." }),
  lives: t.Array(
    t.Object({
      number: Type.Integer(),
      name: t.String(),
      race: t.String(),
      alignment: t.String(),
      classes: ClassLevels,
      builds: Type.Integer(),
    }),
  ),
  builds: t.Array(
    t.Object({
      number: Type.Integer(),
      life: Type.Integer(),
      level: Type.Integer(),
      classes: ClassLevels,
      notes: t.String(),
      quests: Type.Integer({ description: 'Completed quests the build holds.' }),
    }),
  ),
  plan: t.Object({
    name: t.String(),
    race: t.String(),
    alignment: t.String(),
    level: Type.Integer(),
    classes: ClassLevels,
    warnings: t.Array(t.String()),
  }),
  character: t.Array(
    t.Object({
      field: Enum(['race', 'alignment', 'classes', 'level', 'pastLives'] as const),
      now: t.String(),
      file: t.String(),
    }),
    { description: 'What taking the character (or the history) would change on it.' },
  ),
  history: t.Object({
    stored: Type.Integer({ description: 'Lives stored now.' }),
    file: t.Array(NewLife, {
      description: "The history the file gives: its lives up to the picked build's, oldest first.",
    }),
    ignored: Type.Integer({ description: "The file's lives after the picked build's, which a history leaves out." }),
  }),
  quests: QuestsPreview,
})

/** The import answer: the planned build as GET build answers it, what was not imported, and what was. */
export const ImportedBuild = t.Object({
  ...PlannedBuild.properties,
  warnings: Type.Array(t.String(), {
    description: 'One sentence per kind of thing the file holds and the build document cannot (gear, augments, ...).',
  }),
  imported: t.Optional(
    t.Object({
      build: Type.Integer(),
      take: Take,
      lives: t.Nullable(Type.Integer({ description: 'Lives of the history written (take: history).' })),
      quests: t.Nullable(QuestsPreview),
    }),
  ),
})
