// What to run next for a character: the ranking (rules/quests/nextQuests.ts) fed with the
// catalog, the current life's completions, the character's own runs and the server's times.
import { and, eq, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import type { Clock } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { characterQuestTimes, characterQuestTimesDirty, completions, runs } from '../../db/schema'
import { BadRequest } from '../../http/errors'
import type { PlayOn } from '../../rules/character/levels'
import { type MeasuredTime, nextQuests, timeKey } from '../../rules/quests/nextQuests'
import { median } from '../../rules/quests/runs'
import { questTimesByRemake, remakeKey } from '../catalog/questTimes'
import { catalogIndex } from '../catalog/service'
import { ownedCharacter } from '../characters/access'
import { characterName, trackerLevel } from '../characters/service'
import { currentQuestLife } from '../completions/service'
import { listCompletions } from '../progress/service'
import { DEFAULT_NEXT_LIMIT } from './limits'
import type { NextAnswer, NextQuery, OwnTime as OwnTimeSchema } from './model'

// The character's own times are kept per quest, difficulty and setting (character_quest_times):
// triggers on runs and completions mark a key whenever one of its runs changes, whatever writes
// it, and a read first recomputes the marked keys from their runs alone. A read with nothing
// marked reads one row per key, never a run: at 450,000 runs, reading them all took 0.6-0.8 s of
// every /next and quest-times (issue 39).
const statements = preparedOnce((db: DB) => {
  const characterId = sql.placeholder('characterId')
  return {
    anyDirty: db
      .select({ name: characterQuestTimesDirty.name })
      .from(characterQuestTimesDirty)
      .where(eq(characterQuestTimesDirty.characterId, characterId))
      .limit(1)
      .prepare(),
    dirty: db
      .select({
        name: characterQuestTimesDirty.name,
        difficulty: characterQuestTimesDirty.difficulty,
        setting: characterQuestTimesDirty.setting,
      })
      .from(characterQuestTimesDirty)
      .where(eq(characterQuestTimesDirty.characterId, characterId))
      .prepare(),
    // The timed runs of the marked keys alone, every life: the character's completions through
    // their index, each looked up among the marked keys, then the runs of those that are; a
    // completion's runs come together. As bun:sqlite's arrays of values: building an object per
    // run (Drizzle's mapping, or bun's own) was most of the time at tens of thousands of runs.
    dirtyRuns: (() => {
      const { sql: text } = db
        .select({
          name: completions.name,
          difficulty: completions.difficulty,
          setting: completions.setting,
          durationSeconds: runs.durationSeconds,
          xpEarned: runs.xpEarned,
        })
        .from(completions)
        .innerJoin(runs, eq(runs.completionId, completions.id))
        .where(
          and(
            eq(completions.characterId, characterId),
            sql`${runs.durationSeconds} > 0`,
            sql`exists (select 1 from ${characterQuestTimesDirty} d where d.character_id = ${completions.characterId} and d.name = ${completions.name} and d.difficulty = ${completions.difficulty} and d.setting = ${completions.setting})`,
          ),
        )
        .toSQL()
      return db.$client.prepare(text)
    })(),
    forget: db
      .delete(characterQuestTimes)
      .where(
        and(
          eq(characterQuestTimes.characterId, characterId),
          sql`exists (select 1 from ${characterQuestTimesDirty} d where d.character_id = ${characterQuestTimes.characterId} and d.name = ${characterQuestTimes.name} and d.difficulty = ${characterQuestTimes.difficulty} and d.setting = ${characterQuestTimes.setting})`,
        ),
      )
      .prepare(),
    insert: db
      .insert(characterQuestTimes)
      .values({
        characterId,
        name: sql.placeholder('name'),
        difficulty: sql.placeholder('difficulty'),
        setting: sql.placeholder('setting'),
        timedRuns: sql.placeholder('timedRuns'),
        medianDurationSeconds: sql.placeholder('medianDurationSeconds'),
        xpRuns: sql.placeholder('xpRuns'),
        medianXpPerMinute: sql.placeholder('medianXpPerMinute'),
      })
      .prepare(),
    unmark: db.delete(characterQuestTimesDirty).where(eq(characterQuestTimesDirty.characterId, characterId)).prepare(),
    shown: prepareNative(
      db,
      db
        .select(
          aliased({
            name: characterQuestTimes.name,
            difficulty: characterQuestTimes.difficulty,
            setting: characterQuestTimes.setting,
            runs: characterQuestTimes.timedRuns,
            medianDurationSeconds: characterQuestTimes.medianDurationSeconds,
            medianXpPerMinute: characterQuestTimes.medianXpPerMinute,
          }),
        )
        .from(characterQuestTimes)
        .where(eq(characterQuestTimes.characterId, characterId)),
    ),
  }
})

export type OwnTime = Static<typeof OwnTimeSchema>

/**
 * Recomputes the character's marked keys (if any) in one immediate transaction: the median run and
 * the median XP per minute of the runs with XP, over every timed run of every life (one run is
 * enough: they are its own). A key left with no timed run loses its row.
 */
export function refreshOwnTimes(db: DB, characterId: number): void {
  const s = statements(db)
  // Most reads find nothing marked: one look-up, no transaction.
  if (s.anyDirty.get({ characterId }) === undefined) return
  db.transaction(() => {
    const groups = new Map<string, { seconds: number[]; rates: number[] }>()
    // A completion's runs come one after another: its group is looked up once for them.
    let group = { seconds: [] as number[], rates: [] as number[] }
    let last: [string, string, string] = ['', '', '']
    const rows = s.dirtyRuns.values(characterId) as [string, string, string, number, number | null][]
    for (const [name, difficulty, setting, seconds, xp] of rows) {
      if (name !== last[0] || difficulty !== last[1] || setting !== last[2]) {
        last = [name, difficulty, setting]
        const key = timeKey(name, difficulty, setting)
        const found = groups.get(key)
        if (found) group = found
        else groups.set(key, (group = { seconds: [], rates: [] }))
      }
      group.seconds.push(seconds)
      if (xp !== null) group.rates.push(xp / (seconds / 60))
    }
    const keys = s.dirty.all({ characterId })
    s.forget.run({ characterId })
    for (const { name, difficulty, setting } of keys) {
      const group = groups.get(timeKey(name, difficulty, setting))
      if (!group) continue
      const rate = median(group.rates)
      s.insert.run({
        characterId,
        name,
        difficulty,
        setting,
        timedRuns: group.seconds.length,
        medianDurationSeconds: median(group.seconds) as number,
        xpRuns: group.rates.length,
        medianXpPerMinute: rate === null ? null : Math.round(rate * 10) / 10,
      })
    }
    s.unmark.run({ characterId })
  }, IMMEDIATE)
}

/**
 * The character's own times from every timed run of every life, per quest, difficulty and
 * setting (kept current by refreshOwnTimes), most runs first.
 */
export function ownTimes(db: DB, characterId: number): OwnTime[] {
  refreshOwnTimes(db, characterId)
  return statements(db)
    .shown.all({ characterId })
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
      playOn: row.targetDifficulty,
      characterLevel,
      filters: {
        levelBand: row.levelBand,
        versionFilter: row.versionFilter,
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
