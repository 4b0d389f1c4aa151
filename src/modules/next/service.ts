// What to run next for a character: the ranking (rules/quests/nextQuests.ts) fed with the
// catalog, the current life's completions, the character's own runs and the server's times.
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import type { Clock } from '../../clock'
import type { DB } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { completions, runs } from '../../db/schema'
import { BadRequest } from '../../http/errors'
import type { PlayOn } from '../../rules/character/levels'
import { type MeasuredTime, nextQuests, timeKey } from '../../rules/quests/nextQuests'
import { median } from '../../rules/quests/runs'
import type { VersionFilter } from '../../rules/quests/tracker'
import { questTimesByRemake } from '../catalog/questTimes'
import { catalogIndex } from '../catalog/service'
import { ownedCharacter } from '../characters/access'
import { characterName, trackerLevel } from '../characters/service'
import { currentLifeIndex } from '../completions/service'
import { listCompletions } from '../progress/service'
import { DEFAULT_NEXT_LIMIT, MAX_NEXT_LIMIT } from './limits'
import type { NextAnswer, NextQuery } from './model'

// The character's timed runs of every life: how long it takes this character, whatever the life.
const ownRunsStatement = preparedOnce((db: DB) =>
  db
    .select({
      name: completions.name,
      difficulty: completions.difficulty,
      setting: completions.setting,
      durationSeconds: runs.durationSeconds,
    })
    .from(runs)
    .innerJoin(completions, eq(completions.id, runs.completionId))
    .where(and(eq(completions.characterId, sql.placeholder('characterId')), gt(runs.durationSeconds, 0)))
    .prepare(),
)

/** The character's median run per quest, difficulty and setting (one run is enough: it is its own). */
export function ownMedians(db: DB, characterId: number): Map<string, MeasuredTime> {
  const durations = new Map<string, number[]>()
  for (const run of ownRunsStatement(db).all({ characterId })) {
    const key = timeKey(run.name, run.difficulty, run.setting)
    const list = durations.get(key)
    if (list) list.push(run.durationSeconds as number)
    else durations.set(key, [run.durationSeconds as number])
  }
  const medians = new Map<string, MeasuredTime>()
  for (const [key, list] of durations) medians.set(key, { medianSeconds: median(list) as number, runs: list.length })
  return medians
}

export function nextForCharacter(
  db: DB,
  clock: Clock,
  userId: number,
  characterId: number,
  query: Static<typeof NextQuery>,
): Static<typeof NextAnswer> {
  const limit = query.limit ?? DEFAULT_NEXT_LIMIT
  if (limit < 1 || limit > MAX_NEXT_LIMIT) {
    throw new BadRequest(`Query parameter "limit" must be an integer from 1 to ${MAX_NEXT_LIMIT}.`)
  }
  const by = query.by ?? 'xp'
  const row = ownedCharacter(db, userId, characterId)
  const life = currentLifeIndex(db, characterId)
  const server = new Map<string, MeasuredTime>()
  for (const [remake, times] of questTimesByRemake(db, clock)) {
    const [name = '', difficulty = ''] = remake.split('\u0000')
    for (const time of times) {
      if (time.medianDurationSeconds === null) continue
      server.set(timeKey(name, difficulty, time.setting), {
        medianSeconds: time.medianDurationSeconds,
        runs: time.runs,
      })
    }
  }
  const characterLevel = trackerLevel(row)
  const result = nextQuests(
    {
      rows: catalogIndex(db).rows,
      completions: listCompletions(db, characterId, life),
      playOn: row.targetDifficulty as PlayOn,
      characterLevel,
      filters: {
        levelBand: row.levelBand,
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
