// Schemas shared by every module: the error body and the id path parameter, and the way to
// state a rule in the OpenAPI document that the service, not the schema, enforces.
import { t } from 'elysia'

/** The one error shape, `Error` in the OpenAPI document: every status of 400 and above. */
export const ErrorBody = t.Object(
  { error: t.String({ description: 'A human-readable sentence saying what went wrong.' }) },
  { additionalProperties: t.Unknown(), $id: 'Error' },
)

// No minimum: Elysia reports a range failure on a coerced path parameter without its name, and
// an id of 0 or below is simply one that does not exist (404, like any other unknown id).
export const IdParams = t.Object({ id: t.Integer({ description: 'Numeric id.' }) })

export const OkBody = t.Object({ ok: t.Literal(true) })

/** Response entries for the error statuses a route answers with, all `{"error": "..."}`. */
export function errors<const S extends number>(...statuses: S[]): Record<S, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<S, typeof ErrorBody>
}

/** The schema key whose keywords the OpenAPI document shows and run-time validation does not. */
export const DOCUMENT_ONLY = 'x-document-only'

/**
 * Keywords for the OpenAPI document only, spread into a schema's options: a rule the service
 * checks itself, so that its 400 names the field (Elysia's message for a coerced query value
 * does not), or one that spans fields (one of several aliases is required). TypeBox ignores
 * the key; the document merges its keywords into the schema (src/apiDocs/openapi.ts).
 */
export const documentOnly = (keywords: Record<string, unknown>) => ({ [DOCUMENT_ONLY]: keywords })

/** "At least one of these fields, not blank": the document's form of an alias rule. */
export const oneOfRequired = (...fields: string[]) =>
  fields.map((field) => ({ required: [field], properties: { [field]: { pattern: '\\S' } } }))

/** A timestamp the server writes: always UTC ISO 8601 (`2026-11-21T12:00:00.000Z`). */
export const Timestamp = (options: { description?: string } = {}) => t.String({ ...options, format: 'date-time' })
