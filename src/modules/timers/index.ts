// GET /characters/{id}/timers and GET /characters/timers: raid lockouts and chest ransack, from
// the runs this server keeps (both APIs).
import type { ModuleDeps } from '../../deps'
import { errors, IdParams } from '../../http/model'
import { NORMAL_LOOT_LOOTINGS, RAID_TIMER_HOURS, RANSACK_TIMER_HOURS } from '../../rules/quests/timers'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { AccountTimers, CharacterTimers } from './model'
import { accountTimers, characterTimers } from './service'

const RULES = [
  `A raid the character ran (any tier, any setting; the catalog says which quests are raids) is on lockout for ${RAID_TIMER_HOURS} hours after its latest run (Tempest's Spine has no raid timer).`,
  `A quest's chest window begins with a run when none is running and lasts ${RANSACK_TIMER_HOURS} hours; the first ${NORMAL_LOOT_LOOTINGS} lootings in it drop normal loot, from the ${NORMAL_LOOT_LOOTINGS + 1}th its chests are ransacked (the DDO wiki's "Chest ransack").`,
  'Runs of every life and setting count; a run is a completion the client posted, not a chest looting, so `ransackLikely` is an estimate.',
].join(' ')

export function timersModule({ db, clock }: ModuleDeps, guard: Guard) {
  return signedInRoutes(guard, '/characters', ['Progress'])
    .get('/timers', ({ user }) => accountTimers(db, clock, user.id), {
      response: { 200: AccountTimers },
      detail: {
        summary: "Every character's raid lockouts and runs this week, for an overview of the alts",
        description: `The same lists as GET /characters/{id}/timers, for each of the account's characters. ${RULES}`,
      },
    })
    .guard({ params: IdParams })
    .get('/:id/timers', ({ user, params }) => characterTimers(db, clock, user.id, params.id), {
      response: { 200: CharacterTimers, ...errors(404) },
      detail: {
        summary: 'Raid lockouts and runs this week (chest ransack), from the runs this server keeps',
        description: RULES,
      },
    })
}
