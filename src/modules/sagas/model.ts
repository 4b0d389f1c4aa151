// Shapes of GET /characters/{id}/sagas: the saga table (src/rules/quests/sagaTable.ts) read
// against the character's completions (src/rules/quests/sagas.ts), with where the table comes from.
import { t } from 'elysia'
import { CHALLENGE_SETTINGS, MAX_REAPER_SKULLS, MIN_REAPER_SKULLS } from '../../rules/quests/completion'
import { Enum } from '../characters/model'

const Setting = Enum(CHALLENGE_SETTINGS)
const Tier = Enum(['Heroic', 'Epic', 'Legendary'] as const)

const SagaQuest = t.Object({
  name: t.String({ description: 'The quest as the saga table names it.' }),
  catalog: t.Nullable(
    t.Object(
      { name: t.String(), difficulty: Enum(['Heroic', 'Epic', 'Legendary', 'Unknown'] as const), level: t.Integer() },
      {
        description:
          "The catalog remake it is (the imports' matcher, at the saga's tier): its name is how completions are stored.",
      },
    ),
    { description: 'null: the quest catalog lacks it (or cannot tell which quest it is); it is listed by name.' },
  ),
  done: t.Boolean({
    description: "Any setting logged at the saga's tier, or without a tier, in the character's current quest life.",
  }),
  settings: t.Array(Setting, { description: 'Every setting it was logged on, least challenging first.' }),
  best: t.Nullable(Setting, { description: 'The most challenging of them (reaper above elite); null when not done.' }),
  reaperSkulls: t.Nullable(
    t.Integer({
      minimum: MIN_REAPER_SKULLS,
      maximum: MAX_REAPER_SKULLS,
      description: 'On reaper: the most skulls logged; null when none said (or not run on reaper).',
    }),
  ),
})

const RewardXp = t.Object(
  {
    normal: t.Integer({ minimum: 0 }),
    hard: t.Integer({ minimum: 0 }),
    elite: t.Integer({ minimum: 0 }),
    trueElite: t.Integer({ minimum: 0 }),
  },
  { description: "The XP of the saga's reward at each of its tiers, as ddoapps/data gives them." },
)

const Saga = t.Object({
  id: t.String({ description: 'Stable: the saga and its tier.' }),
  name: t.String(),
  tier: Tier,
  npc: t.String({ description: 'Who gives the reward.' }),
  levels: t.String({ description: 'The levels it is for ("15-16").' }),
  rewardXp: t.Nullable(RewardXp, {
    description: 'null where no source gives it (or the sources disagree on the saga): the page shows none.',
  }),
  done: t.Integer({ minimum: 0, description: 'Quests done, of `total`.' }),
  total: t.Integer({ minimum: 1 }),
  quests: t.Array(SagaQuest),
})

export const CharacterSagas = t.Object({
  character: t.Object({ id: t.Integer(), name: t.String() }),
  questLife: t.Integer({
    minimum: 1,
    description: 'The quest life whose completions are counted: the current one, as the tracker counts them.',
  }),
  sources: t.Array(
    t.Object({ name: t.String(), url: t.String(), licence: t.String(), asOf: t.String(), gives: t.String() }),
    { description: 'Where the saga table comes from, and what each source gives.' },
  ),
  sagas: t.Array(Saga, { description: 'Every saga of the table, heroic first, in the order of their levels.' }),
})
