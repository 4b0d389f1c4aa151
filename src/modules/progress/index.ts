// GET and PUT /characters/{id}/progress.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import type { Api } from '../../http/api'
import { errors, IdParams } from '../../http/model'
import { kib } from '../../http/size'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../completions/limits'
import { MAX_TRACKER_FIELD_BYTES } from './limits'
import { Progress, ProgressPut } from './model'
import { getProgress, putProgress } from './service'

const tags = ['Progress']

export function progressModule(deps: AppDeps, api: Api) {
  const { db, clock } = deps
  return new Elysia({ prefix: `${api.prefix}/characters` })
    .use(api.guard)
    .get('/:id/progress', ({ user, params }) => getProgress(db, user.id, params.id), {
      auth: true,
      params: IdParams,
      response: { 200: Progress, ...errors(404) },
      detail: { summary: "A character's tracker state and completions", tags },
    })
    .put('/:id/progress', ({ user, params, body }) => putProgress(db, clock, user.id, params.id, body), {
      auth: true,
      params: IdParams,
      body: ProgressPut,
      response: { 200: Progress, ...errors(404) },
      detail: {
        summary: 'Change tracker state (partial)',
        description: `Only the fields sent change. \`completions\` replaces the whole set (each item normalised as when posting; at most ${MAX_COMPLETIONS_PER_CHARACTER}); without it completions are untouched. \`xpBoosts\`, \`optionalPursuit\`, \`packState\`, \`questNotes\` and \`excludedPatrons\` may each take at most ${kib(MAX_TRACKER_FIELD_BYTES)} as JSON (413 otherwise, nothing written).`,
        tags,
      },
    })
}
