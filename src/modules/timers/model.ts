// Shapes of GET /characters/{id}/timers and GET /characters/timers: raid lockouts and the chest
// ransack window, from the character's runs (rules/quests/timers.ts).
import { t } from 'elysia'
import { Timestamp } from '../../http/model'
import { NORMAL_LOOT_LOOTINGS, RAID_TIMER_HOURS, RANSACK_TIMER_HOURS } from '../../rules/quests/timers'

export const RaidLockout = t.Object(
  {
    name: t.String({ description: 'The raid, as its runs are stored (the catalog\u2019s spelling).' }),
    lastRunAt: Timestamp({ description: 'The latest run of it, any tier or setting.' }),
    readyAt: Timestamp({
      description: `When its end reward can be looted again: lastRunAt + ${RAID_TIMER_HOURS} hours.`,
    }),
  },
  { description: 'A raid the character is locked out of now.' },
)

export const QuestWeek = t.Object(
  {
    name: t.String(),
    difficulty: t.String({ description: 'The tier the runs were logged at (each tier is a quest of its own here).' }),
    runsThisWeek: t.Integer({
      minimum: 1,
      description: "Runs of the quest in this tier, every setting together, in the chest timer's current window.",
    }),
    windowStartedAt: Timestamp({ description: 'The run that began the window.' }),
    resetsAt: Timestamp({
      description: `When the window ends and the count starts over: windowStartedAt + ${RANSACK_TIMER_HOURS} hours.`,
    }),
    ransackLikely: t.Boolean({
      description: `runsThisWeek is ${NORMAL_LOOT_LOOTINGS} or more: the next run is the ${NORMAL_LOOT_LOOTINGS + 1}th or later of the window, whose chests are likely ransacked.`,
    }),
  },
  { description: "A quest with the chest timer's window running." },
)

const Rules = t.Object(
  {
    raidTimerHours: t.Integer({ description: 'How long a raid locks its end reward after a run.' }),
    ransackTimerHours: t.Integer({ description: "How long a chest's ransack window lasts from its first looting." }),
    normalLootLootings: t.Integer({ description: 'Lootings with normal loot in one window; the next is ransacked.' }),
  },
  { description: 'The numbers these answers are computed with.' },
)

const TimerLists = {
  raids: t.Array(RaidLockout, { description: 'Raids on lockout now, soonest ready first.' }),
  quests: t.Array(QuestWeek, { description: "Quests with the chest timer's window running, most runs first." }),
}

export const CharacterTimers = t.Object({
  character: t.Object({ id: t.Integer(), name: t.String() }),
  at: Timestamp({ description: "The server's time the answer was computed at." }),
  rules: Rules,
  ...TimerLists,
})

export const AccountTimers = t.Object({
  at: Timestamp({ description: "The server's time the answer was computed at." }),
  rules: Rules,
  characters: t.Array(t.Object({ id: t.Integer(), name: t.String(), ...TimerLists }), {
    description: "Every character of the account, in the characters list's order.",
  }),
})
