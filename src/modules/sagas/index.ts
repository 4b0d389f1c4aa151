// GET /characters/{id}/sagas: which quests of each saga the character has done, and on what
// (issue 41 section 4). Mounted in both APIs.
import type { AppDeps } from '../../deps'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { CharacterSagas } from './model'
import { characterSagas } from './service'

export function sagasModule({ db }: AppDeps, guard: Guard) {
  return signedInRoutes(guard, '/characters', ['Sagas']).get(
    '/:id/sagas',
    ({ user, params }) => characterSagas(db, user.id, params.id),
    {
      params: IdParams,
      response: { 200: CharacterSagas, ...errors(404) },
      detail: {
        summary: "A character's saga progress",
        description:
          "Every saga of the server's saga table (its sources in `sources`: YourDDO's saga tracker for the sagas and their quests, ddoapps/data for reward XP, both MIT), each quest with the catalog remake it is (null: the catalog lacks it) and whether the character's current quest life has it done, at the saga's tier or without a tier, on which settings, the best, and the most reaper skulls. No points or reward tier: no cited source says how a saga counts them.",
      },
    },
  )
}
