// The website's routes for a player's data out and in: a character's completions as CSV, the same
// CSV back in (a preview, then the player's confirmation), and the whole account as one JSON file.
// CLI equivalents: `quest-tracker data export` and `completions export|import`.
import { type Static, t } from 'elysia'
import { isoNow } from '../../clock'
import type { Writer } from '../../deps'
import { bodyLimit } from '../../http/body'
import { BadRequest } from '../../http/errors'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { applyImport, previewImport } from '../completions/import'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../completions/limits'
import { CsvFormatError } from './csv'
import { EXPORT_PIECE_CHARS, MAX_IMPORT_BODY_BYTES } from './limits'
import { AccountExport, CompletionsImportBody, ImportPreview } from './model'
import { completionsCsv, completionsFromCsv, exportAccountPieces, safeFileName } from './service'

/** The CSV's completions; a file that is not CSV is a 400 with its line and column. */
function readCsv(text: string) {
  try {
    return completionsFromCsv(text)
  } catch (error) {
    if (error instanceof CsvFormatError) throw new BadRequest(error.message)
    throw error
  }
}

/**
 * The pieces of a generator as a byte stream, read only as fast as the client takes them; the
 * event loop turns before each piece, so other requests are answered between two. The generator
 * is closed if the client goes away.
 */
function streamed(first: IteratorResult<string, void>, rest: Generator<string, void, undefined>) {
  const encoder = new TextEncoder()
  let next: IteratorResult<string, void> | null = first
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (next === null) {
          await new Promise((resolve) => setImmediate(resolve))
          next = rest.next()
        }
        const piece = next
        next = null
        if (piece.done) controller.close()
        else controller.enqueue(encoder.encode(piece.value))
      },
      cancel() {
        rest.return(undefined)
      },
    },
    { highWaterMark: 0 },
  )
}

const attachment = (set: { headers: Record<string, unknown> }, type: string, fileName: string) => {
  set.headers['content-type'] = type
  set.headers['content-disposition'] = `attachment; filename="${fileName}"`
}

export function playerDataModule(writer: Writer, guard: Guard) {
  const { db, clock } = writer
  return signedInRoutes(guard, '', ['Website'])
    .use(bodyLimit)
    .get(
      '/account/export',
      ({ user }) => {
        const pieces = exportAccountPieces(db, clock, user.id)
        // The account's piece now: a refusal is an answer, not a broken download.
        const head = pieces.next()
        const day = isoNow(clock).slice(0, 10)
        const name = `${safeFileName(user.displayName, 'account')} ${day}.json`
        return new Response(streamed(head, pieces), {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="${name}"`,
          },
        }) as unknown as Static<typeof AccountExport>
      },
      {
        response: { 200: AccountExport },
        detail: {
          summary: 'Everything of the account as one JSON file',
          description: `Sent as it is read, in pieces of about ${EXPORT_PIECE_CHARS / 1024} KiB (chunked, no Content-Length).`,
        },
      },
    )
    .guard({ params: IdParams })
    .get(
      '/characters/:id/completions/csv',
      ({ user, params, set }) => {
        const { fileName, text } = completionsCsv(db, user.id, params.id)
        attachment(set, 'text/csv; charset=utf-8', fileName)
        return text
      },
      {
        response: {
          200: t.String({ description: 'name,difficulty,setting,completedAt,durationSeconds,xpEarned,reaperSkulls' }),
          ...errors(404),
        },
        detail: { summary: "The character's completions as CSV" },
      },
    )
    .post(
      '/characters/:id/completions/import',
      ({ user, params, body }) => {
        const { items, invalid } = readCsv(body.csv)
        const options = { choices: body.choices, keepUnmatched: body.keepUnmatched }
        const result = body.confirm
          ? applyImport(writer, user.id, params.id, items, options)
          : previewImport(writer, user.id, params.id, items, options)
        return { confirmed: body.confirm === true, ...result, invalid }
      },
      {
        body: CompletionsImportBody,
        maxBodyBytes: MAX_IMPORT_BODY_BYTES,
        response: { 200: ImportPreview, ...errors(400, 404, 409) },
        detail: {
          summary: 'Import completions from CSV: a preview, then (confirm) the import',
          description: `Names are matched to the catalog forgiving case, apostrophes, \`:\` and hyphen spacing, "the" and the wiki's disambiguators; a tier or level in the file picks the remake. Without confirm nothing is written. A completion already stored is left as it is, so importing a file twice adds nothing twice. 409 when the character would pass ${MAX_COMPLETIONS_PER_CHARACTER} completions.`,
        },
      },
    )
}
