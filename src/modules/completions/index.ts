// POST and DELETE /characters/{id}/completions.
import type { Writer } from '../../deps'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { MAX_COMPLETIONS_PER_CHARACTER } from './limits'
import { CompletionInput, DeleteBody, DeleteQuery, DeleteResult, UpsertResult } from './model'
import { deleteCompletions, deleteScopeFrom, postCompletion } from './service'

export function completionsModule(writer: Writer, guard: Guard) {
  return signedInRoutes(guard, '/characters', ['Completions'])
    .guard({ params: IdParams })
    .post(
      '/:id/completions',
      ({ user, params, body, set }) => {
        const result = postCompletion(writer, user.id, params.id, body)
        set.status = result.created ? 201 : 200
        return { ok: true as const, completion: result.completion }
      },
      {
        body: CompletionInput,
        response: { 200: UpsertResult, 201: UpsertResult, ...errors(404, 409) },
        detail: {
          summary: 'Log a completion (upsert on name, difficulty, setting)',
          description: `201 when the triple is new, 200 when it updated the stored row. Never rejected for a missing or bad difficulty or setting. Omitted xpEarned/reaperXpEarned/durationSeconds keep the stored value; null clears it. 409 when the triple is new and the character already has ${MAX_COMPLETIONS_PER_CHARACTER} completions (an update still works).`,
        },
      },
    )
    .delete(
      '/:id/completions',
      ({ user, params, body, query }) => ({
        ok: true as const,
        deleted: deleteCompletions(writer, user.id, params.id, deleteScopeFrom(body ?? undefined, query)),
      }),
      {
        body: DeleteBody,
        query: DeleteQuery,
        response: { 200: DeleteResult, ...errors(404) },
        detail: {
          summary: 'Remove completions of a remake',
          description:
            'Fields in the body or the query. No setting: the elite row only. A concrete setting: that row. `allSettings` true, or setting `all`, `any` or `*`: every setting of the remake.',
        },
      },
    )
}
