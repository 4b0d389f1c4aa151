// What to run next for a character: the ranking (rules/quests/nextQuests.ts) fed with the
// catalog, the current life's completions, the character's own runs and the server's times.
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import type { Clock } from '../../clock'
import type { DB } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { completions, runs } from '../../db/schema'
import type { PlayOn } from '../../rules/character/levels'
import { type MeasuredTime, nextQuests, timeKey } from '../../rules/quests/nextQuests'
import { median } from '../../rules/quests/runs'
import type { VersionFilter } from '../../rules/quests/tracker'
import { questTimesByRemake, remakeKey } from '../catalog/questTimes'
import { catalogIndex } from '../catalog/service'
import { ownedCharacter } from '../characters/access'
import { characterName, trackerLevel } from '../characters/service'
import { currentQuestLife } from '../completions/service'
import { listCompletions } from '../progress/service'
import { DEFAULT_NEXT_LIMIT } from './limits'
import type { NextAnswer, NextQuery, OwnTime as OwnTimeSchema } from './model'

// The character's timed runs of every life: how long it takes this character, whatever the life.
const ownRunsStatement = preparedOnce((db: DB) =>
  db
    .select({
      name: completions.name,
      difficulty: completions.difficulty,
      setting: completions.setting,
      durationSeconds: runs.durationSeconds,
      xpEarned: runs.xpEarned,
    })
    .from(runs)
    .innerJoin(completions, eq(completions.id, runs.completionId))
    .where(and(eq(completions.characterId, sql.placeholder('characterId')), gt(runs.durationSeconds, 0)))
    .prepare(),
)

export type OwnTime = Static<typeof OwnTimeSchema>

/**
 * The character's own times from every timed run of every life, per quest, difficulty and
 * setting: the median run and the median XP per minute of the runs with XP (one run is enough:
 * they are its own), most runs first.
 */
export function ownTimes(db: DB, characterId: number): OwnTime[] {
  const groups = new Map<
    string,
    { name: string; difficulty: string; setting: string; seconds: number[]; rates: number[] }
  >()
  for (const run of ownRunsStatement(db).all({ characterId })) {
    const key = timeKey(run.name, run.difficulty, run.setting)
    let group = groups.get(key)
    if (!group)
      groups.set(
        key,
        (group = { name: run.name, difficulty: run.difficulty, setting: run.setting, seconds: [], rates: [] }),
      )
    const seconds = run.durationSeconds as number
    group.seconds.push(seconds)
    if (run.xpEarned !== null) group.rates.push(run.xpEarned / (seconds / 60))
  }
  return [...groups.values()]
    .map(({ name, difficulty, setting, seconds, rates }) => {
      const rate = median(rates)
      return {
        name,
        difficulty,
        setting,
        runs: seconds.length,
        medianDurationSeconds: median(seconds) as number,
        medianXpPerMinute: rate === null ? null : Math.round(rate * 10) / 10,
      }
    })
    .sort((a, b) => b.runs - a.runs || a.name.localeCompare(b.name))
}

/** The character's median run per quest, difficulty and setting, for the ranking. */
function ownMedians(db: DB, characterId: number): Map<string, MeasuredTime> {
  return new Map(
    ownTimes(db, characterId).map((time) => [
      timeKey(time.name, time.difficulty, time.setting),
      { medianSeconds: time.medianDurationSeconds, runs: time.runs },
    ]),
  )
}

export function characterTimes(db: DB, userId: number, characterId: number) {
  ownedCharacter(db, userId, characterId)
  return { times: ownTimes(db, characterId) }
}

export function nextForCharacter(
  db: DB,
  clock: Clock,
  userId: number,
  characterId: number,
  query: Static<typeof NextQuery>,
): Static<typeof NextAnswer> {
  const limit = query.limit ?? DEFAULT_NEXT_LIMIT
  const by = query.by ?? 'xp'
  const row = ownedCharacter(db, userId, characterId)
  const life = currentQuestLife(db, characterId)
  const times = questTimesByRemake(db, clock)
  const server = (name: string, difficulty: string, setting: string): MeasuredTime | undefined => {
    const time = times.get(remakeKey(name, difficulty))?.find((t) => t.setting === setting)
    return time?.medianDurationSeconds == null
      ? undefined
      : { medianSeconds: time.medianDurationSeconds, runs: time.runs }
  }
  const characterLevel = trackerLevel(row)
  const result = nextQuests(
    {
      rows: catalogIndex(db).rows,
      completions: listCompletions(db, characterId, life),
      playOn: row.targetDifficulty as PlayOn,
      characterLevel,
      filters: {
        levelsBelow: row.levelsBelow,
        levelsAbove: row.levelsAbove,
        versionFilter: row.versionFilter as VersionFilter,
        excludedPatrons: row.excludedPatrons,
        packState: row.packState,
      },
      xpBoosts: row.xpBoosts,
      optionalPursuit: row.optionalPursuit,
      own: ownMedians(db, characterId),
      server,
    },
    by,
    limit,
  )
  return { character: { id: row.id, name: characterName(row) }, by, life, characterLevel, ...result }
}
