// DDO Builder files on the website's cookie API: POST /api/characters/{id}/build/import reads a
// `.DDOBuild` file into the planned build (through the same service as PUT build), and GET
// .../build/export writes the planned build back as one. See docs/builds.md "DDO Builder files".
import { t } from 'elysia'
import type { Writer } from '../../deps'
import { bodyLimit } from '../../http/body'
import { BadRequest, NotFound } from '../../http/errors'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { assertOwnsCharacter } from '../characters/access'
import { DdoBuilderFormatError, type DdoBuilderImport, fromDdoBuilder, toDdoBuilder } from './ddobuilder'
import { BuildImportBody, ImportedBuild } from './importModel'
import { MAX_IMPORT_BODY_BYTES } from './limits'
import { documentLimitProblem } from './model'
import { getPlanned, putPlanned } from './service'

/** A file name browsers and Windows accept: letters, digits, space, dot, dash, underscore. */
export function exportFileName(name: string): string {
  const safe = name
    .replace(/[^\w .-]+/g, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 80)
  return `${safe || 'character'}.DDOBuild`
}

/** The file read; one it cannot read is a 400 with the reader's sentence. */
function readFile(xml: string): DdoBuilderImport {
  try {
    return fromDdoBuilder(xml)
  } catch (error) {
    if (error instanceof DdoBuilderFormatError) throw new BadRequest(error.message)
    throw error
  }
}

/**
 * A DDO Builder file as a planned build, held to the limits PUT build's body is (a file can hold
 * thousands of levels or skills the document may not): 400 naming the field otherwise.
 */
export function readBuildFile(xml: string): DdoBuilderImport {
  const imported = readFile(xml)
  const problem = documentLimitProblem(imported.document)
  if (problem) throw new BadRequest(`The file's build breaks a limit of the build document: ${problem}.`)
  return imported
}

export function buildImportModule(writer: Writer, guard: Guard) {
  const { db, clock } = writer
  return signedInRoutes(guard, '/characters', ['Builds'])
    .use(bodyLimit)
    .guard({ params: IdParams })
    .post(
      '/:id/build/import',
      ({ user, params, body }) => {
        // Someone else's character is a 404 whatever the file holds.
        assertOwnsCharacter(db, user.id, params.id)
        const { document, warnings } = readBuildFile(body.xml)
        return { ...putPlanned(writer, user.id, params.id, document), warnings }
      },
      {
        body: BuildImportBody,
        maxBodyBytes: MAX_IMPORT_BODY_BYTES,
        response: { 200: ImportedBuild, ...errors(400, 404) },
        detail: {
          summary: 'Replace the planned build with a DDO Builder character file',
          description:
            'Body `{xml}`: the text of a `.DDOBuild` file. Stored like PUT build (breakdown and validation recalculated); the answer is GET build plus `warnings` for what the file holds and the document cannot. 400 naming what could not be read, or the field of the document it would produce that breaks a limit of PUT build (levels, skills or feats of a level, ...); nothing is stored then.',
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
        return toDdoBuilder(planned.document)
      },
      {
        response: { 200: t.String({ description: 'The `.DDOBuild` XML.' }), ...errors(404) },
        detail: { summary: 'The planned build as a DDO Builder character file' },
      },
    )
}
