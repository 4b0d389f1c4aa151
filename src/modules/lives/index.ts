// GET /characters/{id}/lives and POST /characters/{id}/lives/reincarnate.
import { t } from 'elysia'
import type { AppDeps } from '../../deps'
import { type Api, signedInRoutes } from '../../http/api'
import { errors, IdParams } from '../../http/model'
import { MAX_LIVES_PER_CHARACTER, MAX_SPECIAL_FEATS } from '../builds/limits'
import { Life, LivesList, ReincarnateBody } from './model'
import { listLives, reincarnate, toLife } from './service'

export function livesModule({ db, clock }: AppDeps, api: Api) {
  return signedInRoutes(api, '/characters', ['Lives'])
    .guard({ params: IdParams })
    .get('/:id/lives', ({ user, params }) => ({ lives: listLives(db, clock, user.id, params.id).map(toLife) }), {
      response: { 200: LivesList, ...errors(404) },
      detail: { summary: 'Every life of the character, oldest first; the last one is current' },
    })
    .post(
      '/:id/lives/reincarnate',
      ({ user, params, body }) => toLife(reincarnate(db, clock, user.id, params.id, body ?? {})),
      {
        body: t.Optional(ReincarnateBody),
        response: { 200: Life, ...errors(400, 404, 409) },
        detail: {
          summary: 'Archive the current life and open the next one',
          description: `Grants the finished life's heroic past life (dominant class) when grantHeroic, its racial or iconic past life when grantRacial, and additionalPastLives; past lives cap at 3 stacks. Earlier past lives carry forward; favor rewards do not. Answers the new life. 409 when the character already has ${MAX_LIVES_PER_CHARACTER} lives, or the new life would carry more than ${MAX_SPECIAL_FEATS} special feats.`,
        },
      },
    )
}
