// The request and answer of the DDO Builder import (import.ts): a file's text in, the planned
// build with warnings out.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { MAX_XML_CHARS } from './ddobuilder'
import { PlannedBuild } from './model'

/** POST build/import body: a DDO Builder `.DDOBuild` file's text. */
export const BuildImportBody = t.Object({
  xml: t.String({
    maxLength: MAX_XML_CHARS,
    description: "A DDO Builder character file's text (the `.DDOBuild` XML), at most 1 MiB.",
  }),
})

/** The import answer: the planned build as GET build answers it, plus what was not imported. */
export const ImportedBuild = t.Object({
  ...PlannedBuild.properties,
  warnings: Type.Array(t.String(), {
    description: 'One sentence per kind of thing the file holds and the build document cannot (gear, augments, ...).',
  }),
})
