// POST and DELETE /characters/{id}/completions, and POST .../completions/restore (the undo of a DELETE).
import type { Writer } from '../../deps'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { MAX_COMPLETIONS_PER_CHARACTER, MAX_RESTORED_COMPLETIONS, UNDO_WINDOW_MS } from './limits'
import {
  CompletionInput,
  DeleteBody,
  DeleteQuery,
  DeleteResult,
  RestoreBody,
  RestoreResult,
  UpsertResult,
} from './model'
import { deleteCompletions, deleteScopeFrom, postCompletion, restoreCompletions } from './service'

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
      ({ user, params, body, query }) => {
        const result = deleteCompletions(writer, user.id, params.id, deleteScopeFrom(body ?? undefined, query))
        return { ok: true as const, deleted: result.removed.length, ...result }
      },
      {
        body: DeleteBody,
        query: DeleteQuery,
        response: { 200: DeleteResult, ...errors(404) },
        detail: {
          summary: 'Remove completions of a remake',
          description:
            'Fields in the body or the query. No setting: the elite row only. A concrete setting: that row. `allSettings` true, or setting `all`, `any` or `*`: every setting of the remake. The answer carries what was removed, whole (each completion with its count of runs and the runs kept of it), and `undoId`, under which the server keeps it until `undoUntil`: POST completions/restore puts it back.',
        },
      },
    )
    .post(
      '/:id/completions/restore',
      ({ user, params, body }) => ({
        ok: true as const,
        ...restoreCompletions(writer, user.id, params.id, body),
      }),
      {
        body: RestoreBody,
        response: { 200: RestoreResult, ...errors(404, 409) },
        detail: {
          summary: 'Put back completions a DELETE removed (undo)',
          description: `Takes the \`undoIds\` of DELETE answers, or the \`removed\` of one (at most ${MAX_RESTORED_COMPLETIONS}), or both, and puts back in the current life exactly what those deletes removed, as the server kept it (for ${UNDO_WINDOW_MS / 3_600_000} h after each): its figures, its count of runs, its runs; the figures and runs a client sends are not used. Idempotent: where the life holds the completion again, only the runs it lacks are added (a run at the same time is the same run) and the counts add up; sent twice, the second changes nothing. 409 when something asked for is not kept for the character (never deleted, deleted longer ago, or another character's), and when a completion that is new again would pass ${MAX_COMPLETIONS_PER_CHARACTER} for the character.`,
        },
      },
    )
}
