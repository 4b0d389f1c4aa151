// Completions: the upsert (one INSERT ... ON CONFLICT DO UPDATE against the unique index, so
// two clients posting the same triple at once make one row) and the delete rules.
import { and, count, desc, eq, gt, inArray, lte, notInArray, or, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Static } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { characters, completions, keptDeletions, lives, runs } from '../../db/schema'
import type { Writer } from '../../deps'
import { BadRequest, Conflict } from '../../http/errors'
import {
  type DeleteScope,
  deleteScope,
  mostSkulls,
  type NormalizedCompletion,
  normalizeCompletion,
} from '../../rules/quests/completion'
import { type RemovedTriple, type RunFigures, restorePlan } from '../../rules/quests/restore'
import { currentQuestLifeOf, type LifeWindow, lifeOfRun } from '../../rules/quests/runs'
import { parseTimestamp } from '../../rules/timestamp'
import { questNames } from '../catalog/service'
import { assertOwnsCharacter } from '../characters/access'
import {
  MAX_COMPLETIONS_PER_CHARACTER,
  MAX_KEPT_DELETIONS_PER_CHARACTER,
  MAX_RUNS_PER_CHARACTER,
  MAX_RUNS_PER_COMPLETION,
  RUNS_KEPT_AFTER_PRUNING,
  UNDO_WINDOW_MS,
} from './limits'
import type { CompletionInput, RemovedCompletion, StoredCompletion } from './model'

export type StoredCompletionJson = Static<typeof StoredCompletion>

export const storedColumns = {
  name: completions.name,
  difficulty: completions.difficulty,
  setting: completions.setting,
  completedAt: completions.completedAt,
  durationSeconds: completions.durationSeconds,
  xpEarned: completions.xpEarned,
  reaperXpEarned: completions.reaperXpEarned,
  reaperSkulls: completions.reaperSkulls,
}

/** Normalises one posted completion; a bad completedAt is the only timestamp error. */
export function normalizePosted(input: Static<typeof CompletionInput>, nowIso: string, field = 'completedAt') {
  const completion = normalizeCompletion(input)
  let completedAt = nowIso
  if (completion.completedAt !== undefined && completion.completedAt !== null) {
    const parsed = parseTimestamp(completion.completedAt)
    if (parsed === null) throw new BadRequest(`Body field "${field}" must be an ISO 8601 timestamp.`)
    completedAt = parsed
  }
  return { ...completion, completedAt }
}

function prepareUpsert(db: DB) {
  const p = (name: string) => sql.placeholder(name)
  // The row holds the latest run: a run older than the stored one (a re-sent post of an earlier
  // run) counts, but leaves the row's time and figures alone. For the latest run, an omitted
  // durationSeconds/xpEarned/reaperXpEarned keeps the stored value: the `keep*` flags choose the
  // stored column over the new value inside the one statement (SQLite reads every column of the
  // SET at its value before the update). The skull count is the most of every run's, whenever it
  // was run (SQLite's max() of two values is null when either is).
  const latest = sql`excluded.completed_at >= ${completions.completedAt}`
  const keepOr = (flag: string, column: SQLiteColumn, excluded: string) =>
    sql`case when ${latest} and not ${p(flag)} then ${sql.raw(`excluded.${excluded}`)} else ${column} end`
  return db
    .insert(completions)
    .values({
      characterId: p('characterId'),
      lifeIndex: p('lifeIndex'),
      name: p('name'),
      difficulty: p('difficulty'),
      setting: p('setting'),
      completedAt: p('completedAt'),
      durationSeconds: p('durationSeconds'),
      xpEarned: p('xpEarned'),
      reaperXpEarned: p('reaperXpEarned'),
      reaperSkulls: p('reaperSkulls'),
      runs: 1,
      updatedAt: p('now'),
    })
    .onConflictDoUpdate({
      target: [
        completions.characterId,
        completions.lifeIndex,
        completions.name,
        completions.difficulty,
        completions.setting,
      ],
      set: {
        completedAt: sql`max(${completions.completedAt}, excluded.completed_at)`,
        durationSeconds: keepOr('keepDuration', completions.durationSeconds, 'duration_seconds'),
        xpEarned: keepOr('keepXp', completions.xpEarned, 'xp_earned'),
        reaperXpEarned: keepOr('keepReaperXp', completions.reaperXpEarned, 'reaper_xp_earned'),
        reaperSkulls: sql`nullif(max(coalesce(${completions.reaperSkulls}, 0), coalesce(excluded.reaper_skulls, 0)), 0)`,
        runs: sql`${completions.runs} + 1`,
        updatedAt: sql`excluded.updated_at`,
      },
    })
    .returning({ id: completions.id, ...storedColumns, runs: completions.runs })
    .prepare()
}

const upsertStatement = preparedOnce(prepareUpsert)

// A run is new unless its completion already has a run at the same time: the client re-sent it.
const insertRunStatement = preparedOnce((db: DB) => {
  const p = (name: string) => sql.placeholder(name)
  return db
    .insert(runs)
    .values({
      completionId: p('completionId'),
      completedAt: p('completedAt'),
      durationSeconds: p('durationSeconds'),
      xpEarned: p('xpEarned'),
      reaperXpEarned: p('reaperXpEarned'),
      reaperSkulls: p('reaperSkulls'),
    })
    .onConflictDoNothing()
    .returning({ id: runs.id })
    .prepare()
})

// The same run sent again: its figures as the completion's (omitted keeps, null clears), and the
// completion's count back to what it was.
const resentRunStatements = preparedOnce((db: DB) => {
  const p = (name: string) => sql.placeholder(name)
  const keepOr = (flag: string, column: SQLiteColumn, value: string) =>
    sql`case when ${p(flag)} then ${column} else ${p(value)} end`
  return {
    run: db
      .update(runs)
      .set({
        durationSeconds: keepOr('keepDuration', runs.durationSeconds, 'durationSeconds'),
        xpEarned: keepOr('keepXp', runs.xpEarned, 'xpEarned'),
        reaperXpEarned: keepOr('keepReaperXp', runs.reaperXpEarned, 'reaperXpEarned'),
        reaperSkulls: keepOr('keepSkulls', runs.reaperSkulls, 'reaperSkulls'),
      })
      .where(and(eq(runs.completionId, p('completionId')), eq(runs.completedAt, p('completedAt'))))
      .prepare(),
    count: db
      .update(completions)
      .set({ runs: sql`${completions.runs} - 1` })
      .where(eq(completions.id, p('completionId')))
      .prepare(),
  }
})

// Beyond MAX_RUNS_PER_COMPLETION the oldest runs of the completion go (its count stays).
const pruneRunsStatement = preparedOnce((db: DB) =>
  db
    .delete(runs)
    .where(
      and(
        eq(runs.completionId, sql.placeholder('completionId')),
        sql`${runs.completedAt} < (select r.completed_at from runs r where r.completion_id = ${sql.placeholder('completionId')} order by r.completed_at desc limit 1 offset ${MAX_RUNS_PER_COMPLETION - 1})`,
      ),
    )
    .prepare(),
)

const keptRunsStatement = preparedOnce((db: DB) =>
  db
    .select({ n: characters.keptRuns })
    .from(characters)
    .where(eq(characters.id, sql.placeholder('characterId')))
    .prepare(),
)

// The character's oldest runs, by the time they were run: reads (and sorts) all of them, which is
// why it runs only once a write has passed the bound by RUNS_KEPT_AFTER_PRUNING's margin.
const dropOldestRunsStatement = preparedOnce((db: DB) =>
  db
    .delete(runs)
    .where(
      inArray(
        runs.id,
        db
          .select({ id: runs.id })
          .from(runs)
          .innerJoin(completions, eq(completions.id, runs.completionId))
          .where(eq(completions.characterId, sql.placeholder('characterId')))
          .orderBy(runs.completedAt, runs.id)
          .limit(sql.placeholder('excess')),
      ),
    )
    .prepare(),
)

/**
 * After a write of runs, inside its transaction: a character past MAX_RUNS_PER_CHARACTER loses its
 * oldest runs, down to RUNS_KEPT_AFTER_PRUNING (each completion keeps its count of runs). One read
 * of a counter (characters.kept_runs) otherwise. Every path that writes runs calls it.
 */
export function boundCharacterRuns(db: DB, characterId: number): void {
  const kept = keptRunsStatement(db).get({ characterId })?.n ?? 0
  if (kept <= MAX_RUNS_PER_CHARACTER) return
  dropOldestRunsStatement(db).run({ characterId, excess: kept - RUNS_KEPT_AFTER_PRUNING })
}

export interface UpsertOptions {
  /** The life it goes to (lifeOfRun for a posted run; the current life for a tracker's set). */
  lifeIndex: number
  /**
   * Whether it is a run to keep: every post is; an import only when its source gave a duration
   * (a completed-quest list says a quest was done, not how a run went).
   */
  run: boolean
}

/**
 * Inserts the triple in the life or updates the row that has it: one INSERT ... ON CONFLICT DO
 * UPDATE against the unique index, prepared once per database, then the run beside it. `runs`
 * (1 after an insert) tells created from updated. Call it inside an immediate transaction of
 * `db` (one connection): the quest name is resolved to the catalog's spelling just before
 * (questNames), from an index that no sync can change until the upsert has run.
 */
export function upsertCompletion(
  db: DB,
  characterId: number,
  c: NormalizedCompletion & { completedAt: string },
  nowIso: string,
  { lifeIndex, run }: UpsertOptions,
): { id: number; created: boolean; completion: StoredCompletionJson } {
  const keep = {
    keepDuration: c.durationSeconds === undefined ? 1 : 0,
    keepXp: c.xpEarned === undefined ? 1 : 0,
    keepReaperXp: c.reaperXpEarned === undefined ? 1 : 0,
    keepSkulls: c.reaperSkulls === undefined ? 1 : 0,
  }
  const figures = {
    completedAt: c.completedAt,
    durationSeconds: c.durationSeconds ?? null,
    xpEarned: c.xpEarned ?? null,
    reaperXpEarned: c.reaperXpEarned ?? null,
    reaperSkulls: c.reaperSkulls ?? null,
  }
  const row = upsertStatement(db).get({
    characterId,
    lifeIndex,
    name: questNames(db)(c.name, c.difficulty),
    difficulty: c.difficulty,
    setting: c.setting,
    ...figures,
    ...keep,
    now: nowIso,
  })
  if (!row) throw new Error('the completion upsert returned no row')
  const { id, runs: count, ...completion } = row
  if (run) {
    const inserted = insertRunStatement(db).get({ completionId: id, ...figures })
    if (inserted) pruneRunsStatement(db).run({ completionId: id })
    else {
      const resent = resentRunStatements(db)
      resent.run.run({ completionId: id, ...figures, ...keep })
      resent.count.run({ completionId: id })
    }
  }
  return { id, created: count === 1, completion }
}

const lifeWindowsStatement = preparedOnce((db: DB) =>
  db
    .select({
      lifeIndex: lives.lifeIndex,
      questLife: lives.questLife,
      isCurrent: lives.isCurrent,
      createdAt: lives.createdAt,
      archivedAt: lives.archivedAt,
    })
    .from(lives)
    .where(eq(lives.characterId, sql.placeholder('characterId')))
    .prepare(),
)

/** The character's lives as windows of time (lifeOfRun): a few rows, read by the unique index. */
export function lifeWindows(db: DB, characterId: number): LifeWindow[] {
  return lifeWindowsStatement(db).all({ characterId })
}

/**
 * The character's current quest life (1 before any life is recorded: the first is opened as 1):
 * the lifeIndex its current completions are stored under (lives.questLife).
 */
export function currentQuestLife(db: DB, characterId: number): number {
  return currentQuestLifeOf(lifeWindows(db, characterId))
}

export function postCompletion(
  { db, clock, changes }: Writer,
  userId: number,
  characterId: number,
  input: Static<typeof CompletionInput>,
) {
  const now = isoNow(clock)
  const completion = normalizePosted(input, now)
  const { lifeIndex, ...result } = db.transaction(() => {
    assertOwnsCharacter(db, userId, characterId)
    const lifeIndex = lifeOfRun(lifeWindows(db, characterId), completion.completedAt)
    const result = upsertCompletion(db, characterId, completion, now, { lifeIndex, run: true })
    // Counted after the upsert, so updating a stored triple never meets the cap (and the hot path
    // of an update reads no count); inside this immediate transaction, so parallel posts at the
    // cap cannot overshoot: throwing rolls the new row back.
    if (result.created && countCompletions(db, characterId) > MAX_COMPLETIONS_PER_CHARACTER) {
      throw new Conflict(
        `Character ${characterId} already has ${MAX_COMPLETIONS_PER_CHARACTER} completions, the most a character may have; delete some before logging another quest (updating one already logged still works).`,
      )
    }
    boundCharacterRuns(db, characterId)
    return { ...result, lifeIndex }
  }, IMMEDIATE)
  // An open tracker puts the completion where a re-read would show it: after the rows of its
  // life that come before it (most recent first; the later id first at the same time).
  changes.publish(characterId, 'completions', () => ({
    kind: 'upsert',
    life: lifeIndex,
    completion: result.completion,
    position:
      positionStatement(db).get({ characterId, lifeIndex, id: result.id, at: result.completion.completedAt })?.n ?? 0,
  }))
  return result
}

// Rows listed before a completion in its life's list (listCompletions: completed_at desc, id
// desc), counted through the (character, life, completed_at) index: a new run is the most recent,
// so this usually counts nothing.
const positionStatement = preparedOnce((db: DB) => {
  const p = (name: string) => sql.placeholder(name)
  return db
    .select({ n: count() })
    .from(completions)
    .where(
      and(
        eq(completions.characterId, p('characterId')),
        eq(completions.lifeIndex, p('lifeIndex')),
        or(
          sql`${completions.completedAt} > ${p('at')}`,
          and(eq(completions.completedAt, p('at')), sql`${completions.id} > ${p('id')}`),
        ),
      ),
    )
    .prepare()
})

function prepareCount(db: DB) {
  return db
    .select({ n: count() })
    .from(completions)
    .where(eq(completions.characterId, sql.placeholder('characterId')))
    .prepare()
}

const countStatement = preparedOnce(prepareCount)

/** The character's stored completions (read through the unique index, which starts with it). */
export function countCompletions(db: DB, characterId: number): number {
  return countStatement(db).get({ characterId })?.n ?? 0
}

export interface DeleteFields {
  name?: string
  difficulty?: unknown
  setting?: unknown
  allSettings?: boolean | string
}

function flag(value: boolean | string | undefined): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value
  const word = value.trim().toLowerCase()
  if (['true', '1', 'yes'].includes(word)) return true
  if (['false', '0', 'no', ''].includes(word)) return false
  throw new BadRequest('Field "allSettings" must be true or false.')
}

/** Body fields win; the query fills in what the body does not carry. */
export function deleteScopeFrom(body: DeleteFields | undefined, query: DeleteFields): DeleteScope {
  const pick = <K extends keyof DeleteFields>(key: K) => (body?.[key] !== undefined ? body[key] : query[key])
  const name = pick('name')
  if (typeof name !== 'string' || name.trim() === '') {
    throw new BadRequest('Field "name" is required (in the body or the query).')
  }
  return deleteScope({
    name,
    difficulty: pick('difficulty'),
    setting: pick('setting'),
    allSettings: flag(pick('allSettings') as boolean | string | undefined),
  })
}

export type RemovedCompletionJson = Static<typeof RemovedCompletion>

/** The runs kept of these completions, oldest first, by completion. */
function historyOf(db: Pick<DB, 'select'>, completionIds: readonly number[]): Map<number, RunFigures[]> {
  const byCompletion = new Map<number, RunFigures[]>()
  if (completionIds.length === 0) return byCompletion
  const rows = db
    .select()
    .from(runs)
    .where(inArray(runs.completionId, [...completionIds]))
    .orderBy(runs.completedAt)
    .all()
  for (const { completionId, completedAt, durationSeconds, xpEarned, reaperXpEarned, reaperSkulls } of rows) {
    const list = byCompletion.get(completionId) ?? []
    list.push({ completedAt, durationSeconds, xpEarned, reaperXpEarned, reaperSkulls })
    byCompletion.set(completionId, list)
  }
  return byCompletion
}

/**
 * Deletes what the scope names in the current life, and answers it whole (each completion with its
 * count and its runs), so that POST completions/restore can put it back exactly. What it removed
 * is kept for the undo window under `undoId` (null when nothing was removed): the restore puts
 * back only that.
 */
export function deleteCompletions(
  { db, clock, changes }: Writer,
  userId: number,
  characterId: number,
  scope: DeleteScope,
): { removed: RemovedCompletionJson[]; undoId: number | null; undoUntil: string | null } {
  const now = clock.now()
  const { life, removed, undoId, undoUntil } = db.transaction((tx) => {
    assertOwnsCharacter(db, userId, characterId)
    // A completion posted by its bare name was stored with the catalog's spelling.
    const catalogSpelling = questNames(db)(scope.name, scope.difficulty)
    // A finished life's completions are its history: the tracker unticks this life's.
    const life = currentQuestLife(db, characterId)
    const rows = tx
      .select({ id: completions.id, ...storedColumns, runs: completions.runs })
      .from(completions)
      .where(
        and(
          eq(completions.characterId, characterId),
          eq(completions.lifeIndex, life),
          // Any case: a name typed differently from how it was logged still finds the row.
          or(eq(completions.name, catalogSpelling), sql`lower(${completions.name}) = lower(${scope.name})`),
          eq(completions.difficulty, scope.difficulty),
          scope.setting === null ? undefined : eq(completions.setting, scope.setting),
        ),
      )
      .all()
    const ids = rows.map((row) => row.id)
    // Read before the delete: the runs go with their completion (ON DELETE CASCADE).
    const history = historyOf(tx, ids)
    if (ids.length > 0) tx.delete(completions).where(inArray(completions.id, ids)).run()
    const removed = rows.map(({ id, ...row }) => ({ ...row, runList: history.get(id) ?? [] }))
    if (removed.length === 0) return { life, removed, undoId: null, undoUntil: null }
    return { life, removed, ...keepDeletion(tx, characterId, removed, now) }
  }, IMMEDIATE)
  changes.publish(characterId, 'completions', () => ({
    kind: 'remove',
    life,
    removed: removed.map(({ name, difficulty, setting }) => ({ name, difficulty, setting })),
  }))
  return { removed, undoId, undoUntil }
}

/**
 * Keeps what a DELETE removed for UNDO_WINDOW_MS, inside its transaction; the character's kept
 * deletes that ended, and those beyond the newest MAX_KEPT_DELETIONS_PER_CHARACTER, go.
 */
function keepDeletion(tx: Tx, characterId: number, removed: readonly RemovedTriple[], now: Date) {
  const removedAt = now.toISOString()
  const undoUntil = new Date(now.getTime() + UNDO_WINDOW_MS).toISOString()
  const { id } = tx
    .insert(keptDeletions)
    .values({ characterId, removedAt, expiresAt: undoUntil, completions: [...removed] })
    .returning({ id: keptDeletions.id })
    .get()
  tx.delete(keptDeletions)
    .where(
      and(
        eq(keptDeletions.characterId, characterId),
        or(
          lte(keptDeletions.expiresAt, removedAt),
          notInArray(
            keptDeletions.id,
            tx
              .select({ id: keptDeletions.id })
              .from(keptDeletions)
              .where(eq(keptDeletions.characterId, characterId))
              .orderBy(desc(keptDeletions.id))
              .limit(MAX_KEPT_DELETIONS_PER_CHARACTER),
          ),
        ),
      ),
    )
    .run()
  return { undoId: id, undoUntil }
}

/** Housekeeping: deletes every kept delete whose undo window ended; how many. */
export function pruneKeptDeletions(db: Pick<DB, 'delete'>, clock: Clock): number {
  return db
    .delete(keptDeletions)
    .where(lte(keptDeletions.expiresAt, isoNow(clock)))
    .returning({ id: keptDeletions.id })
    .all().length
}

// The undo window in words: "the last hour", "for an hour after it".
const UNDO_HOURS = UNDO_WINDOW_MS / 3_600_000
const UNDO_WINDOW_WORDS_SHORT = UNDO_HOURS === 1 ? 'hour' : `${UNDO_HOURS} hours`
const UNDO_WINDOW_WORDS = UNDO_HOURS === 1 ? 'an hour' : `${UNDO_HOURS} hours`

const triple = ({ name, difficulty, setting }: { name: string; difficulty: string; setting: string }) =>
  `"${name}" (${difficulty}, ${setting})`

/**
 * What a restore asks for, as the server kept it: the deletes named by `undoIds` (each must be
 * kept for the character, not yet ended), and of them (or of every delete kept for the
 * character, the latest first) each completion sent, found by its name, remake and setting; with
 * no completions sent, everything those deletes removed. 409 for anything not kept: a restore
 * never writes what a client made up.
 */
function keptToRestore(
  tx: Tx,
  characterId: number,
  nowIso: string,
  sent: readonly RemovedTriple[] | undefined,
  undoIds: readonly number[] | undefined,
): RemovedTriple[] {
  const kept = tx
    .select({ id: keptDeletions.id, completions: keptDeletions.completions })
    .from(keptDeletions)
    .where(and(eq(keptDeletions.characterId, characterId), gt(keptDeletions.expiresAt, nowIso)))
    .orderBy(desc(keptDeletions.id))
    .all()
  const window = `a restore puts back only what a DELETE removed, for ${UNDO_WINDOW_WORDS} after it.`
  let deletes = kept
  if (undoIds) {
    deletes = undoIds.map((undoId) => {
      const found = kept.find((k) => k.id === undoId)
      if (!found) {
        throw new Conflict(
          `Nothing deleted from character ${characterId} in the last ${UNDO_WINDOW_WORDS_SHORT} is kept under undoId ${undoId}: ${window}`,
        )
      }
      return found
    })
  }
  if (!sent) return deletes.flatMap((d) => d.completions)
  return sent.map((item) => {
    for (const d of deletes) {
      const found = d.completions.find(
        (c) => c.name === item.name && c.difficulty === item.difficulty && c.setting === item.setting,
      )
      if (found) return found
    }
    throw new Conflict(
      `Nothing deleted from character ${characterId} in the last ${UNDO_WINDOW_WORDS_SHORT} matches ${triple(item)}: ${window}`,
    )
  })
}

const parsedTime = (value: string, field: string): string => {
  const parsed = parseTimestamp(value)
  if (parsed === null) throw new BadRequest(`Body field "${field}" must be an ISO 8601 timestamp.`)
  return parsed
}

/**
 * Puts back completions a DELETE removed (the tracker's undo), in the current life, by the merge
 * of rules/quests/restore.ts: as they were where the triple is gone, run by run where the life
 * holds it again, and not at all where they are back already (so a restore sent twice counts
 * once). What goes back is what the server kept of the delete (keptToRestore), never the figures
 * or runs a client sends: those only name what to put back. A triple that is new again counts
 * toward MAX_COMPLETIONS_PER_CHARACTER (409).
 */
export function restoreCompletions(
  { db, clock, changes }: Writer,
  userId: number,
  characterId: number,
  request: { completions?: readonly RemovedCompletionJson[]; undoIds?: readonly number[] },
) {
  const now = isoNow(clock)
  if (!request.completions && !request.undoIds) {
    throw new BadRequest('Body field "undoIds" (the undoId a DELETE answered) or "completions" is required.')
  }
  // Read as before (a timestamp that is not one is still a 400), though only names are used.
  const sent = request.completions?.map((item, i) => {
    parsedTime(item.completedAt, `completions[${i}].completedAt`)
    for (const [j, run] of item.runList.entries()) {
      parsedTime(run.completedAt, `completions[${i}].runList[${j}].completedAt`)
    }
    return item
  })
  const result = db.transaction((tx) => {
    assertOwnsCharacter(db, userId, characterId)
    const wanted = keptToRestore(tx, characterId, now, sent, request.undoIds)
    const lifeIndex = currentQuestLife(db, characterId)
    let restored = 0
    let created = false
    const stored: StoredCompletionJson[] = []
    for (const item of wanted) {
      const triple = and(
        eq(completions.characterId, characterId),
        eq(completions.lifeIndex, lifeIndex),
        eq(completions.name, item.name),
        eq(completions.difficulty, item.difficulty),
        eq(completions.setting, item.setting),
      )
      const row = tx.select().from(completions).where(triple).get()
      const kept = row ? (historyOf(tx, [row.id]).get(row.id) ?? []) : []
      const plan = restorePlan(
        row
          ? {
              latest: row,
              runs: row.runs,
              runTimes: new Set(kept.map((r) => r.completedAt)),
              reaperSkulls: row.reaperSkulls,
            }
          : null,
        item,
      )
      if (plan) {
        restored++
        const { completedAt, durationSeconds, xpEarned, reaperXpEarned } = plan.latest
        const figures = {
          completedAt,
          durationSeconds,
          xpEarned,
          reaperXpEarned,
          reaperSkulls: plan.reaperSkulls,
          runs: plan.runs,
          updatedAt: now,
        }
        let id = row?.id
        if (id === undefined) {
          created = true
          const key = { characterId, lifeIndex, name: item.name, difficulty: item.difficulty, setting: item.setting }
          id = tx
            .insert(completions)
            .values({ ...key, ...figures })
            .returning({ id: completions.id })
            .get().id
        } else tx.update(completions).set(figures).where(eq(completions.id, id)).run()
        const completionId = id
        for (const run of plan.newRuns)
          tx.insert(runs)
            .values({ completionId, ...run })
            .onConflictDoNothing()
            .run()
        pruneRunsStatement(db).run({ completionId })
      }
      const after = tx.select(storedColumns).from(completions).where(triple).get()
      if (after) stored.push(after)
    }
    // As for a post: counted after the insert, inside the transaction; throwing rolls it back.
    if (created && countCompletions(db, characterId) > MAX_COMPLETIONS_PER_CHARACTER) {
      throw new Conflict(
        `Character ${characterId} already has ${MAX_COMPLETIONS_PER_CHARACTER} completions, the most a character may have; delete some before putting one back.`,
      )
    }
    boundCharacterRuns(db, characterId)
    return { restored, completions: stored }
  }, IMMEDIATE)
  if (result.restored > 0) changes.publish(characterId, 'completions')
  return result
}

/** The database or a transaction, for the writes that follow a change of lives. */
type Tx = Pick<DB, 'select' | 'update' | 'delete' | 'insert'>

/**
 * After a character's lives were written anew (an imported history whose lives are in the quest
 * lives `questLives`, oldest first), each completion moves to the quest life that now stands where
 * its own stood: the old current quest life's to the new current one's, an earlier one's to the
 * quest life of the life as many lives before the new current one as it began before the old
 * current life (the first life at the least). Where two old quest lives meet in one, a triple
 * logged in both becomes one completion: the runs of both (a run at the same time once), the
 * counts added, the later run's figures. Nothing is lost.
 */
export function moveCompletionsToNewLives(
  db: Tx,
  characterId: number,
  oldCurrent: { lifeIndex: number; questLife: number },
  questLives: readonly number[],
): void {
  const lifeCount = questLives.length
  const questLifeOf = (life: number) => questLives[Math.max(1, Math.min(lifeCount, life)) - 1] as number
  const target = (old: number) =>
    questLifeOf(old === oldCurrent.questLife ? lifeCount : old - oldCurrent.lifeIndex + lifeCount)
  mergeCompletionsInto(db, characterId, target)
}

/**
 * Moves each of the character's completions to the quest life `target` names for its own; where
 * two meet on one triple they become one completion: the runs of both (a run at the same time
 * once), the counts added, the later run's figures. Nothing is lost.
 */
function mergeCompletionsInto(db: Tx, characterId: number, target: (lifeIndex: number) => number): void {
  const rows = db.select().from(completions).where(eq(completions.characterId, characterId)).all()
  if (rows.every((row) => target(row.lifeIndex) === row.lifeIndex)) return
  // Out of the way first (negative), so no move meets a row that has not moved yet.
  db.update(completions)
    .set({ lifeIndex: sql`-${completions.lifeIndex}` })
    .where(eq(completions.characterId, characterId))
    .run()
  const placed = new Map<string, (typeof rows)[number]>()
  const key = (life: number, c: (typeof rows)[number]) =>
    `${life}\u0000${c.name}\u0000${c.difficulty}\u0000${c.setting}`
  for (const row of [...rows].sort((a, b) => b.lifeIndex - a.lifeIndex)) {
    const life = target(row.lifeIndex)
    const there = placed.get(key(life, row))
    if (!there) {
      db.update(completions).set({ lifeIndex: life }).where(eq(completions.id, row.id)).run()
      placed.set(key(life, row), { ...row, lifeIndex: life })
      continue
    }
    // A run at a time the kept row has already is the same run: it stays behind and goes with its row.
    db.update(runs)
      .set({ completionId: there.id })
      .where(
        and(
          eq(runs.completionId, row.id),
          sql`not exists (select 1 from runs r where r.completion_id = ${there.id} and r.completed_at = ${runs.completedAt})`,
        ),
      )
      .run()
    const later = row.completedAt > there.completedAt ? row : there
    const merged = {
      runs: there.runs + row.runs,
      completedAt: later.completedAt,
      durationSeconds: later.durationSeconds,
      xpEarned: later.xpEarned,
      reaperXpEarned: later.reaperXpEarned,
      reaperSkulls: mostSkulls(there.reaperSkulls, row.reaperSkulls),
    }
    db.update(completions).set(merged).where(eq(completions.id, there.id)).run()
    db.delete(completions).where(eq(completions.id, row.id)).run()
    placed.set(key(life, row), { ...there, ...merged })
  }
}
