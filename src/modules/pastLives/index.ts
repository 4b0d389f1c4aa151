// GET /characters/{id}/past-lives and GET /past-lives: past lives at a glance, per character and
// per account (src/rules/character/pastLifeGlance.ts says how the numbers are made).
import type { AppDeps } from '../../deps'
import { errors, IdParams } from '../../http/model'
import { MAX_PAST_LIFE_STACKS } from '../../rules/character/gameData'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { AccountPastLives, CharacterPastLives } from './model'
import { accountPastLivesOf, characterPastLives } from './service'

const HOW = `From the lives history and the live snapshot: per past life the larger of the two (the history's figure is the most stacks any of its lives had), capped at ${MAX_PAST_LIFE_STACKS}.`

export function pastLivesModule({ db }: AppDeps, guard: Guard) {
  return signedInRoutes(guard, '', ['Past lives'])
    .get('/past-lives', ({ user }) => accountPastLivesOf(db, user.id), {
      response: { 200: AccountPastLives },
      detail: {
        summary: "The account's past lives at a glance",
        description: `Each past life summed over the account's characters (a sum may pass ${MAX_PAST_LIFE_STACKS}), with every character's totals. ${HOW}`,
      },
    })
    .get('/characters/:id/past-lives', ({ user, params }) => characterPastLives(db, user.id, params.id), {
      params: IdParams,
      response: { 200: CharacterPastLives, ...errors(404) },
      detail: {
        summary: "A character's past lives at a glance, and what its next reincarnation would grant",
        description: `Heroic past lives per class, racial per race, iconic per iconic race and epic per sphere, every one the game data knows (0 included), then any it does not; totals; and what each kind of reincarnation out of the current life would grant. ${HOW}`,
      },
    })
}
