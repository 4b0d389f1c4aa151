// A character's loot timers (rules/quests/timers.ts) from the runs this server keeps: the raids
// it is locked out of (the catalog says which quests are raids) and its quests' chest windows.
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import type { Clock } from '../../clock'
import type { DB } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { characters, completions, runs } from '../../db/schema'
import { isRaid } from '../../rules/quests/catalogFacts'
import {
  NORMAL_LOOT_LOOTINGS,
  type QuestWeek,
  questWeeks,
  RAID_TIMER_HOURS,
  RANSACK_TIMER_HOURS,
  type RaidLockout,
  raidLockouts,
  timersSince,
} from '../../rules/quests/timers'
import type { QuestRow } from '../catalog/parse'
import { catalogIndex } from '../catalog/service'
import { ownedCharacter } from '../characters/access'
import { characterName } from '../characters/service'
import type { AccountTimers, CharacterTimers } from './model'

export const TIMER_RULES = {
  raidTimerHours: RAID_TIMER_HOURS,
  ransackTimerHours: RANSACK_TIMER_HOURS,
  normalLootLootings: NORMAL_LOOT_LOOTINGS,
}

/**
 * The character's runs (every life: a reincarnation resets neither timer) of the quests it ran
 * since `since`, each quest's runs all of them (an earlier window of a quest decides where its
 * current one began). Read through the completions of the character and their runs' index.
 */
const timerRunsStatement = preparedOnce((db: DB) => {
  const p = (name: string) => sql.placeholder(name)
  return db
    .select({ name: completions.name, difficulty: completions.difficulty, completedAt: runs.completedAt })
    .from(runs)
    .innerJoin(completions, eq(completions.id, runs.completionId))
    .where(
      and(
        eq(completions.characterId, p('characterId')),
        sql`(${completions.name}, ${completions.difficulty}) in (select c.name, c.difficulty from ${runs} r join ${completions} c on c.id = r.completion_id where c.character_id = ${p('characterId')} and r.completed_at >= ${p('since')})`,
      ),
    )
    .prepare()
})

/** Whether each catalog name is a raid: one of its rows is (isRaid); false when its rows say they are not. */
const raidNamesByRows = new WeakMap<readonly QuestRow[], Map<string, boolean>>()

function raidNames(rows: readonly QuestRow[]): Map<string, boolean> {
  let names = raidNamesByRows.get(rows)
  if (!names) {
    names = new Map()
    for (const row of rows) {
      const raid = isRaid(row)
      if (raid === true) names.set(row.name, true)
      else if (raid === false && !names.has(row.name)) names.set(row.name, false)
    }
    raidNamesByRows.set(rows, names)
  }
  return names
}

/** Which run names are raids: as the catalog says, else (a name it lacks) by the name alone. */
export function raidTest(db: DB): (name: string, difficulty: string) => boolean {
  const names = raidNames(catalogIndex(db).rows)
  return (name, difficulty) => names.get(name) ?? isRaid({ name, groupSize: null, difficulty }) === true
}

export interface Timers {
  raids: RaidLockout[]
  quests: QuestWeek[]
}

/** One character's timers at `now` (its ownership checked by the caller). */
export function timersOf(db: DB, characterId: number, now: Date, raid = raidTest(db)): Timers {
  const list = timerRunsStatement(db).all({ characterId, since: timersSince(now) })
  return { raids: raidLockouts(list, raid, now), quests: questWeeks(list, now) }
}

/** A character's runs since `since` (every life), read through the completions of each character asked for. */
const recentRunsStatement = preparedOnce((db: DB) => {
  const p = (name: string) => sql.placeholder(name)
  return db
    .select({
      characterId: completions.characterId,
      name: completions.name,
      difficulty: completions.difficulty,
      completedAt: runs.completedAt,
    })
    .from(completions)
    .innerJoin(runs, eq(runs.completionId, completions.id))
    .where(
      and(
        sql`${completions.characterId} in (select value from json_each(${p('ids')}))`,
        sql`${runs.completedAt} >= ${p('since')}`,
      ),
    )
    .prepare()
})

/**
 * Per character asked for (in that order, each one present, an empty list when none), the raids
 * it is locked out of at `now` and when each ends: the `raids` of timersOf, for many characters
 * in one read of their last RAID_TIMER_HOURS of runs. For the alts grid and the party planner;
 * the caller checks the characters are the reader's to see (its own, or shared with its group).
 */
export function raidLockoutsByCharacter(
  db: DB,
  characterIds: readonly number[],
  now: Date,
  raid = raidTest(db),
): Map<number, RaidLockout[]> {
  if (characterIds.length === 0) return new Map()
  const runsOf = new Map<number, { name: string; difficulty: string; completedAt: string }[]>(
    characterIds.map((id) => [id, []]),
  )
  const since = new Date(now.getTime() - RAID_TIMER_HOURS * 3_600_000).toISOString()
  for (const row of recentRunsStatement(db).all({ ids: JSON.stringify([...new Set(characterIds)]), since })) {
    runsOf.get(row.characterId)?.push(row)
  }
  return new Map([...runsOf].map(([id, list]) => [id, raidLockouts(list, raid, now)]))
}

export function characterTimers(
  db: DB,
  clock: Clock,
  userId: number,
  characterId: number,
): Static<typeof CharacterTimers> {
  const row = ownedCharacter(db, userId, characterId)
  const now = clock.now()
  return {
    character: { id: row.id, name: characterName(row) },
    at: now.toISOString(),
    rules: TIMER_RULES,
    ...timersOf(db, characterId, now),
  }
}

const accountCharactersStatement = preparedOnce((db: DB) =>
  db
    .select({ id: characters.id, givenName: characters.givenName, surname: characters.surname })
    .from(characters)
    .where(eq(characters.userId, sql.placeholder('userId')))
    .orderBy(asc(characters.id))
    .prepare(),
)

/** Every character of the account with its timers: what an overview of the alts reads at once. */
export function accountTimers(db: DB, clock: Clock, userId: number): Static<typeof AccountTimers> {
  const now = clock.now()
  const raid = raidTest(db)
  return {
    at: now.toISOString(),
    rules: TIMER_RULES,
    characters: accountCharactersStatement(db)
      .all({ userId })
      .map((row) => ({ id: row.id, name: characterName(row), ...timersOf(db, row.id, now, raid) })),
  }
}
