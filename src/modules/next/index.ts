// GET /characters/{id}/next: what to run next, ranked (both APIs).
import type { ModuleDeps } from '../../deps'
import { errors, IdParams } from '../../http/model'
import { MIN_ACCOUNTS_FOR_FIGURE } from '../../rules/quests/runs'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { MAX_NEXT_LIMIT } from './limits'
import { NextAnswer, NextQuery, OwnTimes } from './model'
import { characterTimes, nextForCharacter } from './service'

export function nextModule({ db, clock }: ModuleDeps, guard: Guard) {
  return signedInRoutes(guard, '/characters', ['Progress'])
    .guard({ params: IdParams })
    .get('/:id/quest-times', ({ user, params }) => characterTimes(db, user.id, params.id), {
      response: { 200: OwnTimes, ...errors(404) },
      detail: {
        summary: "The character's own quest times, from every run",
        description:
          "Per quest, difficulty and setting the character has timed runs of (any life): the run count, the median run and the median XP per minute of the runs with XP. Only this character's runs; no threshold.",
      },
    })
    .get('/:id/next', ({ user, params, query }) => nextForCharacter(db, clock, user.id, params.id, query), {
      query: NextQuery,
      response: { 200: NextAnswer, ...errors(400, 404) },
      detail: {
        summary: 'What to run next: quests ranked by XP per minute or by the next favor reward',
        description: [
          "Candidates: catalog remakes the tracker's filters show (packs owned, patrons not excluded, tiers), inside the character's level band (the player's range `levelsBelow`/`levelsAbove`, else the Full XP band: progress `levelFrom` to `levelTo`; Epic and Legendary remakes from level 20), at most the character's level unless the player set the band's top (`levelsAbove`), not yet done in the current life at the Play on setting (`any`: elite) or a harder one.",
          "`by=xp` (default): never below the Full XP minimum (`minLevel`), ranked by expected XP per minute — the catalog XP at the setting with the character's boosts and optionals and the first-time bonus, over the character's own median run of the quest, else this server's median",
          `(the median of each account's median run, from ${MIN_ACCOUNTS_FOR_FIGURE} accounts, in whole minutes), else the catalog's length word (Very short 5, Short 10, Medium 20, Long 30, Very long 45 minutes).`,
          "`by=favor`: any level up to that top, only runs that add favor over the best setting logged for the quest (any tier), ranked by the favor reward they reach (total favor or the patron's tier, DDO wiki Favor page), else by the smallest gap they leave, then the shorter run.",
          `At most ${MAX_NEXT_LIMIT} quests (\`limit\`). Each has a \`why\` line.`,
        ].join(' '),
      },
    })
}
