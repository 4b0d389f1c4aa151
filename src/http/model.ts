// Schemas shared by every module: the error body and the id path parameter.
import { t } from 'elysia'

export const ErrorBody = t.Object(
  { error: t.String({ description: 'A human-readable sentence saying what went wrong.' }) },
  { additionalProperties: true, $id: 'Error' },
)

export const IdParams = t.Object({ id: t.Integer({ minimum: 1, description: 'Numeric id.' }) })

export const OkBody = t.Object({ ok: t.Literal(true) })

/** Response entries for the error statuses a route answers with, all `{"error": "..."}`. */
export function errors<const S extends number>(...statuses: S[]): Record<S, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<S, typeof ErrorBody>
}
