// Shapes of GET /characters/{id}/next.
import { t } from 'elysia'
import { DEFAULT_NEXT_LIMIT, MAX_NEXT_LIMIT } from './limits'

export const NextQuery = t.Object({
  by: t.Optional(
    t.Union([t.Literal('xp'), t.Literal('favor')], {
      description: '`xp` (default): best expected XP per minute. `favor`: soonest to the next favor reward.',
    }),
  ),
  limit: t.Optional(
    t.Integer({
      description: `How many quests (default ${DEFAULT_NEXT_LIMIT}).`,
      minimum: 1,
      maximum: MAX_NEXT_LIMIT,
    }),
  ),
})

const Reward = t.Object({
  kind: t.Union([t.Literal('total'), t.Literal('patron')]),
  patron: t.Optional(t.String()),
  at: t.Integer({ description: 'The favor the reward takes.' }),
  reward: t.String(),
})

const NextReward = t.Object({
  ...Reward.properties,
  have: t.Integer(),
  missing: t.Integer(),
})

export const NextQuest = t.Object(
  {
    name: t.String(),
    difficulty: t.String(),
    level: t.Integer(),
    setting: t.String({ description: 'The setting it is ranked at: the Play on setting (`any`: elite).' }),
    patron: t.String(),
    pack: t.String(),
    expectedXp: t.Integer({
      description: "Catalog XP at the setting with the character's boosts, optionals and the first-time bonus.",
    }),
    firstTimeXp: t.Integer({ description: 'The part of expectedXp the first-time bonus brings.' }),
    expectedMinutes: t.Number(),
    minutesFrom: t.Union([t.Literal('own'), t.Literal('server'), t.Literal('estimate')], {
      description: "The character's median run, else this server's, else the catalog's length word.",
    }),
    timedRuns: t.Integer({ description: 'Runs behind expectedMinutes (0 for an estimate).' }),
    xpPerMinute: t.Number(),
    favorGain: t.Integer({ description: 'Favor the run adds over the best setting already logged for the quest.' }),
    favorStep: t.Nullable(
      t.Object(
        {
          reaches: t.Array(Reward),
          closest: t.Nullable(t.Object({ reward: Reward, missingAfter: t.Integer() })),
        },
        { description: 'By favor: the rewards the run reaches, or the nearest it leaves. Null by xp.' },
      ),
    ),
    raid: t.Boolean({
      description: 'A raid (its group size in the catalog, or "(raid)" in its name): ranked apart, in `raids`.',
    }),
    why: t.String({ description: 'One line saying why it ranks where it does.' }),
  },
  { $id: 'NextQuest' },
)

export const NextAnswer = t.Object({
  character: t.Object({ id: t.Integer(), name: t.String() }),
  by: t.Union([t.Literal('xp'), t.Literal('favor')]),
  life: t.Integer({ description: 'The life ranked for: the current one.' }),
  characterLevel: t.Integer(),
  setting: t.String(),
  quests: t.Array(NextQuest, { description: 'Best first; raids are not among them (`raids`).' }),
  raids: t.Array(NextQuest, {
    description:
      'The raids, best first, ranked as the quests are but apart from them: a raid takes a group of up to 12. Only those the catalog knows as raids (its source says so, or "(raid)" in the name).',
  }),
  nextRewards: t.Array(NextReward, { description: 'The favor rewards nearest now, nearest first (at most 5).' }),
})

export const OwnTime = t.Object(
  {
    name: t.String(),
    difficulty: t.String(),
    setting: t.String(),
    runs: t.Integer({ description: 'Timed runs of every life.' }),
    medianDurationSeconds: t.Number(),
    medianXpPerMinute: t.Nullable(t.Number({ description: 'Of the runs with XP; null when none had XP.' })),
  },
  { $id: 'OwnQuestTime' },
)

export const OwnTimes = t.Object({
  times: t.Array(OwnTime, {
    description: 'One per quest, difficulty and setting the character timed; most runs first.',
  }),
})
