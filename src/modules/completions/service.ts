// Completions: the upsert (one INSERT ... ON CONFLICT DO UPDATE against the unique index, so
// two clients posting the same triple at once make one row) and the delete rules.
import { and, count, eq, or, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Static } from 'elysia'
import { isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { completions } from '../../db/schema'
import type { Writer } from '../../deps'
import { BadRequest, Conflict } from '../../http/errors'
import {
  type DeleteScope,
  deleteScope,
  type NormalizedCompletion,
  normalizeCompletion,
  type CompletionInput as RuleInput,
} from '../../rules/quests/completion'
import { parseTimestamp } from '../../rules/timestamp'
import { questNames } from '../catalog/service'
import { assertOwnsCharacter } from '../characters/access'
import { MAX_COMPLETIONS_PER_CHARACTER } from './limits'
import type { CompletionInput, StoredCompletion } from './model'

export type StoredCompletionJson = Static<typeof StoredCompletion>

export const storedColumns = {
  name: completions.name,
  difficulty: completions.difficulty,
  setting: completions.setting,
  completedAt: completions.completedAt,
  durationSeconds: completions.durationSeconds,
  xpEarned: completions.xpEarned,
  reaperXpEarned: completions.reaperXpEarned,
}

/** Normalises one posted completion; a bad completedAt is the only timestamp error. */
export function normalizePosted(input: Static<typeof CompletionInput>, nowIso: string, field = 'completedAt') {
  const completion = normalizeCompletion(input as RuleInput)
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
  // Omitted durationSeconds/xpEarned/reaperXpEarned keep the stored value: the `keep*` flags
  // choose the stored column over the new value inside the one statement.
  const keepOr = (flag: string, column: SQLiteColumn, excluded: string) =>
    sql`case when ${p(flag)} then ${column} else ${sql.raw(`excluded.${excluded}`)} end`
  return db
    .insert(completions)
    .values({
      characterId: p('characterId'),
      name: p('name'),
      difficulty: p('difficulty'),
      setting: p('setting'),
      completedAt: p('completedAt'),
      durationSeconds: p('durationSeconds'),
      xpEarned: p('xpEarned'),
      reaperXpEarned: p('reaperXpEarned'),
      runs: 1,
      updatedAt: p('now'),
    })
    .onConflictDoUpdate({
      target: [completions.characterId, completions.name, completions.difficulty, completions.setting],
      set: {
        completedAt: sql`excluded.completed_at`,
        durationSeconds: keepOr('keepDuration', completions.durationSeconds, 'duration_seconds'),
        xpEarned: keepOr('keepXp', completions.xpEarned, 'xp_earned'),
        reaperXpEarned: keepOr('keepReaperXp', completions.reaperXpEarned, 'reaper_xp_earned'),
        runs: sql`${completions.runs} + 1`,
        updatedAt: sql`excluded.updated_at`,
      },
    })
    .returning({ ...storedColumns, runs: completions.runs })
    .prepare()
}

const upsertStatement = preparedOnce(prepareUpsert)

/**
 * Inserts the triple or updates the row that has it: one INSERT ... ON CONFLICT DO UPDATE
 * against the unique index, prepared once per database. `runs` (1 after an insert) tells
 * created from updated. Call it inside an immediate transaction of `db` (one connection): the
 * quest name is resolved to the catalog's spelling just before (questNames), from an index that
 * no sync can change until the upsert has run.
 */
export function upsertCompletion(
  db: DB,
  characterId: number,
  c: NormalizedCompletion & { completedAt: string },
  nowIso: string,
): { created: boolean; completion: StoredCompletionJson } {
  const statement = upsertStatement(db)
  const row = statement.get({
    characterId,
    name: questNames(db)(c.name, c.difficulty),
    difficulty: c.difficulty,
    setting: c.setting,
    completedAt: c.completedAt,
    durationSeconds: c.durationSeconds ?? null,
    xpEarned: c.xpEarned ?? null,
    reaperXpEarned: c.reaperXpEarned ?? null,
    keepDuration: c.durationSeconds === undefined ? 1 : 0,
    keepXp: c.xpEarned === undefined ? 1 : 0,
    keepReaperXp: c.reaperXpEarned === undefined ? 1 : 0,
    now: nowIso,
  })
  if (!row) throw new Error('the completion upsert returned no row')
  const { runs, ...completion } = row
  return { created: runs === 1, completion: completion as StoredCompletionJson }
}

export function postCompletion(
  { db, clock, changes }: Writer,
  userId: number,
  characterId: number,
  input: Static<typeof CompletionInput>,
) {
  const now = isoNow(clock)
  const completion = normalizePosted(input, now)
  const result = db.transaction(() => {
    assertOwnsCharacter(db, userId, characterId)
    const result = upsertCompletion(db, characterId, completion, now)
    // Counted after the upsert, so updating a stored triple never meets the cap (and the hot path
    // of an update reads no count); inside this immediate transaction, so parallel posts at the
    // cap cannot overshoot: throwing rolls the new row back.
    if (result.created && countCompletions(db, characterId) > MAX_COMPLETIONS_PER_CHARACTER) {
      throw new Conflict(
        `Character ${characterId} already has ${MAX_COMPLETIONS_PER_CHARACTER} completions, the most a character may have; delete some before logging another quest (updating one already logged still works).`,
      )
    }
    return result
  }, IMMEDIATE)
  changes.publish(characterId, 'completions')
  return result
}

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

export function deleteCompletions({ db, changes }: Writer, userId: number, characterId: number, scope: DeleteScope) {
  const deleted = db.transaction((tx) => {
    assertOwnsCharacter(db, userId, characterId)
    // A completion posted by its bare name was stored with the catalog's spelling.
    const catalogSpelling = questNames(db)(scope.name, scope.difficulty)
    const removed = tx
      .delete(completions)
      .where(
        and(
          eq(completions.characterId, characterId),
          // Any case: a name typed differently from how it was logged still finds the row.
          or(eq(completions.name, catalogSpelling), sql`lower(${completions.name}) = lower(${scope.name})`),
          eq(completions.difficulty, scope.difficulty),
          scope.setting === null ? undefined : eq(completions.setting, scope.setting),
        ),
      )
      .returning({ id: completions.id })
      .all()
    return removed.length
  }, IMMEDIATE)
  changes.publish(characterId, 'completions')
  return deleted
}
