// Schemas shared by every module: the error body and the id path parameter.
import { t } from 'elysia'

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
