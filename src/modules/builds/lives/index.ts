// GET /characters/{id}/lives and POST /characters/{id}/lives/reincarnate.
import { t } from 'elysia'
import type { Writer } from '../../../deps'
import { CONDITIONAL, NotModified, tagged } from '../../../http/etag'
import { errors, IdParams } from '../../../http/model'
import { kib } from '../../../http/size'
import type { Guard } from '../../auth/guard'
import { signedInRoutes } from '../../auth/guard'
import { assertOwnsCharacter } from '../../characters/access'
import { MAX_LIFE_BYTES, MAX_LIVES_PAGE, MAX_LIVES_PER_CHARACTER, MAX_NAME_CHARS, MAX_SPECIAL_FEATS } from '../limits'
import { Life, LivesList, LivesQuery, ReincarnateBody } from './model'
import { listLives, livesPage, reincarnate, toLife } from './service'

export function livesModule(writer: Writer, guard: Guard) {
  const { db, clock, changes } = writer
  return signedInRoutes(guard, '/characters', ['Lives'])
    .guard({ params: IdParams })
    .get(
      '/:id/lives',
      ({ user, params, query, request, set }) => {
        livesPage(query)
        assertOwnsCharacter(db, user.id, params.id)
        return tagged(request, set, changes.characterTag(params.id), () => {
          const page = listLives(db, clock, user.id, params.id, query)
          return { ...page, lives: page.lives.map(toLife) }
        })
      },
      {
        query: LivesQuery,
        response: { 200: LivesList, 304: NotModified, ...errors(404) },
        detail: {
          summary: 'Every life of the character, oldest first; the last one is current',
          description: `A page holds \`limit\` lives (default and at most ${MAX_LIVES_PAGE}, every life a character may have) after skipping \`offset\`; \`total\` counts them all, so the plain request answers every life. ${CONDITIONAL}`,
        },
      },
    )
    .post(
      '/:id/lives/reincarnate',
      ({ user, params, body }) => toLife(reincarnate(writer, user.id, params.id, body ?? {})),
      {
        body: t.Optional(ReincarnateBody),
        response: { 200: Life, ...errors(400, 404, 409, 413) },
        detail: {
          summary: 'Archive the current life and open the next one',
          description: `Grants the finished life's heroic past life (dominant class) when grantHeroic, its racial or iconic past life when grantRacial, and additionalPastLives; past lives cap at 3 stacks. Earlier past lives carry forward; favor rewards do not. Answers the new life. Names (\`name\`, \`race\`, \`alignment\`, a past life's \`name\` and \`type\`) may have ${MAX_NAME_CHARS} characters (400). 409 when the character already has ${MAX_LIVES_PER_CHARACTER} lives, or the new life would carry more than ${MAX_SPECIAL_FEATS} special feats; 413 when the new life (name, race, alignment, classes and special feats) would take more than ${kib(MAX_LIFE_BYTES)} as JSON.`,
        },
      },
    )
}
