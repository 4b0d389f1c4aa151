// POST and DELETE /characters/{id}/completions.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import type { Api } from '../../http/api'
import { errors, IdParams } from '../../http/model'
import { MAX_COMPLETIONS_PER_CHARACTER } from './limits'
import { CompletionInput, DeleteBody, DeleteQuery, DeleteResult, UpsertResult } from './model'
import { deleteCompletions, deleteScopeFrom, postCompletion } from './service'

const tags = ['Completions']

export function completionsModule(deps: AppDeps, api: Api) {
  const { db, clock } = deps
  return new Elysia({ prefix: `${api.prefix}/characters` })
    .use(api.guard)
    .post(
      '/:id/completions',
      ({ user, params, body, set }) => {
        const result = postCompletion(db, clock, user.id, params.id, body)
        set.status = result.created ? 201 : 200
        return { ok: true as const, completion: result.completion }
      },
      {
        auth: true,
        params: IdParams,
        body: CompletionInput,
        response: { 200: UpsertResult, 201: UpsertResult, ...errors(404, 409) },
        detail: {
          summary: 'Log a completion (upsert on name, difficulty, setting)',
          description: `201 when the triple is new, 200 when it updated the stored row. Never rejected for a missing or bad difficulty or setting. Omitted xpEarned/reaperXpEarned/durationSeconds keep the stored value; null clears it. 409 when the triple is new and the character already has ${MAX_COMPLETIONS_PER_CHARACTER} completions (an update still works).`,
          tags,
        },
      },
    )
    .delete(
      '/:id/completions',
      ({ user, params, body, query }) => ({
        ok: true as const,
        deleted: deleteCompletions(db, user.id, params.id, deleteScopeFrom(body ?? undefined, query)),
      }),
      {
        auth: true,
        params: IdParams,
        body: DeleteBody,
        query: DeleteQuery,
        response: { 200: DeleteResult, ...errors(404) },
        detail: {
          summary: 'Remove completions of a remake',
          description:
            'Fields in the body or the query. No setting: the elite row only. A concrete setting: that row. `allSettings` true, or setting `all`, `any` or `*`: every setting of the remake.',
          tags,
        },
      },
    )
}
