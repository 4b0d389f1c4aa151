// GET and PUT /characters/{id}/progress.
import type { Writer } from '../../deps'
import { CONDITIONAL, NotModified, tagged } from '../../http/etag'
import { errors, IdParams } from '../../http/model'
import { kib } from '../../http/size'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { assertOwnsCharacter } from '../characters/access'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../completions/limits'
import { MAX_TRACKER_FIELD_BYTES } from './limits'
import { Progress, ProgressPut, ProgressQuery } from './model'
import { getProgress, lifeView, putProgress } from './service'

export function progressModule(writer: Writer, guard: Guard) {
  const { db, changes } = writer
  return signedInRoutes(guard, '/characters', ['Progress'])
    .guard({ params: IdParams })
    .get(
      '/:id/progress',
      ({ user, params, query, request, set }) => {
        assertOwnsCharacter(db, user.id, params.id)
        if (query.life !== undefined) lifeView(db, params.id, query.life)
        return tagged(request, set, changes.characterTag(params.id), () =>
          getProgress(db, user.id, params.id, query.life),
        )
      },
      {
        query: ProgressQuery,
        response: { 200: Progress, 304: NotModified, ...errors(404) },
        detail: {
          summary: "A character's tracker state and completions",
          description: `The completions are those of one life: the current one by default (what the game client logs into), an earlier one with \`life\`. 404 for a life the character never had. ${CONDITIONAL}`,
        },
      },
    )
    .put('/:id/progress', ({ user, params, body }) => putProgress(writer, user.id, params.id, body), {
      body: ProgressPut,
      response: { 200: Progress, ...errors(404) },
      detail: {
        summary: 'Change tracker state (partial)',
        description: `Only the fields sent change. \`completions\` replaces the whole set of the current quest life (each item normalised as when posting; at most ${MAX_COMPLETIONS_PER_CHARACTER}), changing only what differs: sending back what GET answered keeps every run; without it completions are untouched. \`xpBoosts\`, \`optionalPursuit\`, \`packState\`, \`questNotes\` and \`excludedPatrons\` may each take at most ${kib(MAX_TRACKER_FIELD_BYTES)} as JSON (413 otherwise, nothing written).`,
      },
    })
}
