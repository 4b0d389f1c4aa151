// The server's quest times: per remake and setting, the median run and XP per minute over every
// account that shares its runs, one vote each (rules/quests/runs.ts says from how many accounts a
// figure shows, and how it is rounded). Kept current without re-reading every run: database triggers mark a key whenever one
// of its runs changes (migration 0005), and a refresh recomputes only the marked keys, at most
// once per QUEST_TIMES_REFRESH_MS, from the catalog read that finds them.
import { and, eq, gt, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Static } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { characters, completions, questTimes, questTimesDirty, runs, users } from '../../db/schema'
import { MIN_ACCOUNTS_FOR_FIGURE, questTimeFigures } from '../../rules/quests/runs'
import type { QuestTime as QuestTimeSchema } from './model'

/** How far behind the runs the served figures may be: a refresh runs at most this often. */
export const QUEST_TIMES_REFRESH_MS = 10_000
/**
 * Keys recomputed by one refresh, so no catalog read does unbounded work; the rest wait for the
 * next. As many as a bite of runs (below) can take when each key has a run or more.
 */
export const MAX_QUEST_TIMES_KEYS_PER_REFRESH = 100
/**
 * Runs one refresh reads (after the key that passes it, it stops): a key's median reads every run
 * of it on the server, about 450 per remake and setting in a community of five million
 * completions, so 500 keys took seconds, and every request waited behind the catalog read that
 * ran them (bench/README.md "The community"). A bite of 100 runs is a few keys of a household's
 * (well under a millisecond), one key of a community's (2-3 ms): requests wait behind it no
 * longer than behind another request.
 */
export const MAX_QUEST_TIMES_RUNS_PER_REFRESH = 100
/**
 * When a refresh left keys marked (a burst of posts), the next comes as soon as this rate allows,
 * not a whole interval later: 50 ms after a bite of 100 runs, 225 ms after a key of 450. A backlog
 * is caught up at 2,000 runs a second (several times what a community's players post), in bites
 * as small as a key allows, and the figures served change once it is (or every interval).
 */
export const QUEST_TIMES_RUNS_PER_SECOND = 2_000

/** How long after a bite of `runs` runs the next may come, while a backlog lasts. */
export const backlogWaitMs = (runs: number): number => (Math.max(runs, 1) * 1000) / QUEST_TIMES_RUNS_PER_SECOND

/** A remake's figures on one setting, as the catalog serves them (the QuestTime schema). */
export type QuestTime = Static<typeof QuestTimeSchema>

interface State {
  lastRefreshMs: number
  /** When the figures served last changed (a new generation). */
  lastServedMs: number
  /** Changes whenever the figures served change: part of the catalog's ETag. */
  generation: number
  byRemake?: Map<string, QuestTime[]>
}

const states = new WeakMap<DB, State>()
const stateOf = (db: DB): State => {
  let state = states.get(db)
  if (!state)
    states.set(
      db,
      (state = {
        lastRefreshMs: Number.NEGATIVE_INFINITY,
        lastServedMs: Number.NEGATIVE_INFINITY,
        generation: 0,
      }),
    )
  return state
}

// A process starts its generations apart from the last one's, so a restart never reuses an ETag.
const processNonce = Bun.randomUUIDv7().slice(-8)

/** A tag that changes whenever the served figures change. */
export function questTimesVersion(db: DB): string {
  return `${processNonce}.${stateOf(db).generation}`
}

export const remakeKey = (name: string, difficulty: string) => `${name}\u0000${difficulty}`

const statements = preparedOnce((db: DB) => {
  const p = (name: string) => sql.placeholder(name)
  return {
    dirty: db.select().from(questTimesDirty).limit(p('limit')).prepare(),
    // The runs of one key, of accounts that share them: by the completions_quest index.
    runsOf: db
      .select({
        accountId: users.id,
        characterId: completions.characterId,
        completedAt: runs.completedAt,
        durationSeconds: runs.durationSeconds,
        xpEarned: runs.xpEarned,
      })
      .from(completions)
      .innerJoin(runs, eq(runs.completionId, completions.id))
      .innerJoin(characters, eq(characters.id, completions.characterId))
      .innerJoin(users, eq(users.id, characters.userId))
      .where(
        and(
          eq(completions.name, p('name')),
          eq(completions.difficulty, p('difficulty')),
          eq(completions.setting, p('setting')),
          eq(users.shareQuestTimes, true),
          gt(runs.durationSeconds, 0),
        ),
      )
      .prepare(),
  }
})

/**
 * Recomputes the marked keys when the last refresh is QUEST_TIMES_REFRESH_MS old (or `force`):
 * one immediate transaction, so a key marked while it runs is either read or stays marked.
 * Answers whether any figure was recomputed.
 */
export function refreshQuestTimes(db: DB, clock: Clock, force = false): boolean {
  const state = stateOf(db)
  const nowMs = clock.now().getTime()
  if (!force && nowMs - state.lastRefreshMs < QUEST_TIMES_REFRESH_MS) return false
  state.lastRefreshMs = nowMs
  const { dirty, runsOf } = statements(db)
  // Most requests find nothing marked: one read, no transaction.
  if (dirty.all({ limit: 1 }).length === 0) return false
  const now = isoNow(clock)
  const keys = dirty.all({ limit: MAX_QUEST_TIMES_KEYS_PER_REFRESH })
  let done = 0
  let read = 0
  db.transaction((tx) => {
    for (const key of keys) {
      if (read >= MAX_QUEST_TIMES_RUNS_PER_REFRESH) break
      done++
      const rows = runsOf.all(key)
      read += rows.length
      const figures = questTimeFigures(rows)
      const where = and(
        eq(questTimes.name, key.name),
        eq(questTimes.difficulty, key.difficulty),
        eq(questTimes.setting, key.setting),
      )
      if (figures.timedRuns === 0) tx.delete(questTimes).where(where).run()
      else
        tx.insert(questTimes)
          .values({ ...key, ...figures, updatedAt: now })
          .onConflictDoUpdate({
            target: [questTimes.name, questTimes.difficulty, questTimes.setting],
            set: { ...figures, updatedAt: now },
          })
          .run()
      tx.delete(questTimesDirty)
        .where(
          and(
            eq(questTimesDirty.name, key.name),
            eq(questTimesDirty.difficulty, key.difficulty),
            eq(questTimesDirty.setting, key.setting),
          ),
        )
        .run()
    }
  }, IMMEDIATE)
  // Keys left over (this refresh's share was read, or more were marked than it lists): sooner.
  const left = done < keys.length || keys.length === MAX_QUEST_TIMES_KEYS_PER_REFRESH
  if (left) state.lastRefreshMs = nowMs - QUEST_TIMES_REFRESH_MS + backlogWaitMs(read)
  // The figures served (and the catalog answer built from them, some milliseconds each time) change
  // once a backlog is caught up, or once an interval while it lasts: not at every bite of it.
  if (left && nowMs - state.lastServedMs < QUEST_TIMES_REFRESH_MS) return true
  state.lastServedMs = nowMs
  state.generation++
  state.byRemake = undefined
  return true
}

// A stored figure is served only when its accounts were counted, and were enough: a row computed
// before they were (migration 0010) waits for its new figure, rather than show one player's run.
const shownIf = (accounts: SQLiteColumn, figure: SQLiteColumn) =>
  sql<number | null>`case when ${accounts} >= ${sql.raw(String(MIN_ACCOUNTS_FOR_FIGURE))} then ${figure} end`
const durationShown = shownIf(questTimes.timedAccounts, questTimes.medianDurationSeconds)
const rateShown = shownIf(questTimes.xpAccounts, questTimes.medianXpPerMinute)

// Every figure a catalog answer shows, after each refresh: straight from bun:sqlite (a row per
// remake and setting, about 12,000 in a community; Drizzle's mapping of them took 30-40 ms).
const shownStatement = preparedOnce((db: DB) =>
  prepareNative(
    db,
    db
      .select({
        ...aliased({
          name: questTimes.name,
          difficulty: questTimes.difficulty,
          setting: questTimes.setting,
          runs: questTimes.timedRuns,
        }),
        medianDurationSeconds: durationShown.as('medianDurationSeconds'),
        medianXpPerMinute: rateShown.as('medianXpPerMinute'),
      })
      .from(questTimes)
      .where(sql`${durationShown} is not null or ${rateShown} is not null`),
  ),
)

/**
 * The figures that may be shown (a duration or an XP rate over enough runs), by remake
 * (remakeKey), each remake's settings in the order of the table. Read once per generation.
 */
export function questTimesByRemake(db: DB, clock: Clock): Map<string, QuestTime[]> {
  refreshQuestTimes(db, clock)
  const state = stateOf(db)
  if (state.byRemake) return state.byRemake
  const byRemake = new Map<string, QuestTime[]>()
  for (const { name, difficulty, ...time } of shownStatement(db).all()) {
    const key = remakeKey(name, difficulty)
    const list = byRemake.get(key)
    if (list) list.push(time)
    else byRemake.set(key, [time])
  }
  state.byRemake = byRemake
  return byRemake
}

/**
 * Marks every key the account has runs of (its sharing was switched on or off), inside the
 * caller's transaction; the next refresh recomputes them with or without its runs.
 */
export function markAccountQuestTimes(db: Pick<DB, 'run'>, userId: number): void {
  db.run(sql`insert or ignore into quest_times_dirty (name, difficulty, setting)
    select distinct c.name, c.difficulty, c.setting from completions c
    join characters ch on ch.id = c.character_id where ch.user_id = ${userId}`)
}
