// DDO Builder files on the website's cookie API: POST /api/characters/{id}/build/import/preview
// says what importing a `.DDOBuild` file would do, POST .../build/import imports it (the plan, and
// what else the player chose: fileImport.ts), and GET .../build/export writes the planned build
// and the lives history back as one. See docs/builds.md "DDO Builder files".
import { t } from 'elysia'
import type { Writer } from '../../deps'
import { bodyLimit } from '../../http/body'
import { BadRequest, NotFound } from '../../http/errors'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { DdoBuilderFormatError, toDdoBuilder } from './ddobuilder'
import { plannerQuests } from './exportQuests'
import { importFile, previewFileImport } from './fileImport'
import { BuildImportBody, BuildImportPreview, ImportedBuild } from './importModel'
import { MAX_IMPORT_BODY_BYTES } from './limits'
import { listLives } from './lives/service'
import { getPlanned } from './service'

/** A file name browsers and Windows accept: letters, digits, space, dot, dash, underscore. */
export function exportFileName(name: string): string {
  const safe = name
    .replace(/[^\w .-]+/g, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 80)
  return `${safe || 'character'}.DDOBuild`
}

/** Runs `read` on a file; one it cannot read is a 400 with the reader's sentence. */
function readable<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof DdoBuilderFormatError) throw new BadRequest(error.message)
    throw error
  }
}

const importDescription = `A \`.DDOBuild\` file's text as \`{xml}\` (JSON), or the file itself as a multipart form's \`file\` field with the other fields as one JSON \`options\` field; at most ${MAX_IMPORT_BODY_BYTES / 1024 / 1024} MiB. \`build\` picks the build the plan is read from (default the planner's active one); \`take\` says whether the character as it is now (\`character\`) and its lives history (\`history\`) come too (default \`plan\`: the planned build only, the character unchanged); \`quests\` imports the picked build's completed quests as completions (names matched to the catalog; \`choices\` and \`keepUnmatched\` as for a CSV). 400 naming what could not be read (with its line and column), or the field of the plan that breaks a limit of PUT build; nothing is stored then.`

export function buildImportModule(writer: Writer, guard: Guard) {
  const { db, clock } = writer
  return signedInRoutes(guard, '/characters', ['Builds'])
    .use(bodyLimit)
    .guard({ params: IdParams })
    .post(
      '/:id/build/import/preview',
      ({ user, params, body }) => readable(() => previewFileImport(writer, user.id, params.id, body.xml, body)),
      {
        body: BuildImportBody,
        maxBodyBytes: MAX_IMPORT_BODY_BYTES,
        upload: 'xml',
        response: { 200: BuildImportPreview, ...errors(400, 404) },
        detail: {
          summary: 'What importing a DDO Builder character file would do; nothing is written',
          description: `${importDescription} The answer lists the file's lives and builds, the plan, what taking the character would change, the history the file gives, and how its completed quests match the catalog.`,
        },
      },
    )
    .post(
      '/:id/build/import',
      ({ user, params, body }) => readable(() => importFile(writer, user.id, params.id, body.xml, body)),
      {
        body: BuildImportBody,
        maxBodyBytes: MAX_IMPORT_BODY_BYTES,
        upload: 'xml',
        response: { 200: ImportedBuild, ...errors(400, 404, 409, 413) },
        detail: {
          summary: 'Import a DDO Builder character file: the plan, and what else the player chose',
          description: `${importDescription} The plan is stored like PUT build (breakdown and validation recalculated); the answer is GET build plus \`warnings\` for what the file holds and the document cannot, and \`imported\`: what was taken.`,
        },
      },
    )
    .get(
      '/:id/build/export',
      ({ user, params, set }) => {
        const planned = getPlanned(db, clock, user.id, params.id)
        if (!planned.document) throw new NotFound(`Character ${params.id} has no planned build yet.`)
        const name = planned.document.life?.name?.trim() || planned.life.name.trim() || `character-${params.id}`
        set.headers['content-type'] = 'application/xml; charset=utf-8'
        set.headers['content-disposition'] = `attachment; filename="${exportFileName(name)}"`
        // The finished lives come first, oldest first: the file holds the whole history.
        const history = listLives(db, clock, user.id, params.id).lives.filter((life) => !life.isCurrent)
        return toDdoBuilder(planned.document, history, plannerQuests(db, params.id))
      },
      {
        response: { 200: t.String({ description: 'The `.DDOBuild` XML.' }), ...errors(404) },
        detail: {
          summary: 'The planned build and the lives history as a DDO Builder character file',
          description:
            "The character's finished lives come first, oldest first (each with its race, alignment, class split and own special feats; the past lives are the planned life's), then the planned build's life, the planner's active one, whose build holds the current life's completed quests (each remake once, on the best setting logged; reaper as `R1`…`R10`, the most skulls logged, `R1` when no run gave a count; the setting `unknown` is left out). Importing the file with `take: history` gives the same history back, with `quests: true` the same completions.",
        },
      },
    )
}
