// Progress: the tracker state stored on the character plus its completions. PUT changes only
// the fields sent; `completions` replaces the whole set of the current quest life (syncSet).
import { and, desc, eq, inArray, max, ne, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import { isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { completions, runs } from '../../db/schema'
import type { Writer } from '../../deps'
import { NotFound } from '../../http/errors'
import { assertJsonSize } from '../../http/size'
import { mostSkulls, type NormalizedCompletion } from '../../rules/quests/completion'
import { currentLifeOf } from '../../rules/quests/runs'
import { questNames } from '../catalog/service'
import { type CharacterRow, ownedCharacter, updateOwnedCharacter } from '../characters/access'
import { headChange, progressHead } from '../characters/service'
import {
  boundCharacterRuns,
  lifeWindows,
  normalizePosted,
  type StoredCompletionJson,
  storedColumns,
  upsertCompletion,
} from '../completions/service'
import { MAX_TRACKER_FIELD_BYTES } from './limits'
import type { LifeView, Progress, ProgressPut } from './model'

type ProgressJson = Static<typeof Progress>

/** The free-form fields, stored as sent: each is capped by its size as JSON. */
const TRACKER_FIELDS = ['xpBoosts', 'optionalPursuit', 'packState', 'questNotes', 'excludedPatrons'] as const

function prepareList(db: DB) {
  return prepareNative(
    db,
    db
      .select(aliased(storedColumns))
      .from(completions)
      .where(
        and(
          eq(completions.characterId, sql.placeholder('characterId')),
          eq(completions.lifeIndex, sql.placeholder('lifeIndex')),
        ),
      )
      .orderBy(desc(completions.completedAt), desc(completions.id)),
  )
}

const listStatement = preparedOnce(prepareList)

/**
 * One life's completions, most recent first. Prepared once per database; its rows come straight
 * from bun:sqlite.
 */
export function listCompletions(db: DB, characterId: number, lifeIndex: number): StoredCompletionJson[] {
  return listStatement(db).all({ characterId, lifeIndex })
}

export type LifeViewJson = Static<typeof LifeView>

/**
 * The life a request asks for (default the current one) among the character's, with the quest
 * life it is in (whose completions it shows) and where each quest life began: 404 for a life it
 * never had. Lives are recorded from the first build, lives or reincarnation request; before
 * that the character is in life 1 of 1.
 */
export function lifeView(db: DB, characterId: number, requested?: number): LifeViewJson {
  const windows = lifeWindows(db, characterId)
  const current = currentLifeOf(windows)
  const count = Math.max(current, ...windows.map((life) => life.lifeIndex))
  const index = requested ?? current
  if (index > count) {
    throw new NotFound(
      `Character ${characterId} has no life ${index}; it has had ${count} ${count === 1 ? 'life' : 'lives'}.`,
    )
  }
  const questLife = windows.find((life) => life.lifeIndex === index)?.questLife ?? index
  const questLives = [...new Set([1, ...windows.map((life) => life.questLife)])].sort((a, b) => a - b)
  return { index, current: index === current, count, questLife, questLives }
}

export function toProgress(row: CharacterRow, done: StoredCompletionJson[], life: LifeViewJson): ProgressJson {
  return {
    ...progressHead(row),
    completions: done,
    completedQuests: [...new Set(done.map((c) => c.name))].sort(),
    life,
  }
}

export function getProgress(db: DB, userId: number, characterId: number, life?: number): ProgressJson {
  return progressOf(db, ownedCharacter(db, userId, characterId), life)
}

/** The progress payload of a character row already read (the share page's, too): one life's. */
export function progressOf(db: DB, row: CharacterRow, requestedLife?: number): ProgressJson {
  const life = lifeView(db, row.id, requestedLife)
  return toProgress(row, listCompletions(db, row.id, life.questLife), life)
}

/** An item of a PUT's set, normalised; `completedAt` undefined when the client sent none. */
type SetItem = Omit<NormalizedCompletion, 'completedAt'> & { completedAt: string | undefined }

/** Deletes per statement at most this many ids (SQLite's limit on bound values is far above). */
const DELETE_CHUNK = 500

/**
 * Makes the quest life's completions the set sent, changing only what the set says is different,
 * so a client that sends back what it read changes nothing (issue 38 part 2; the contract's
 * "replaces the whole set"). Per item, matched by (name in the catalog's spelling, or as stored in
 * any case; difficulty; setting):
 * - not stored: a new completion with one run of what was sent (completedAt default now), as a post;
 * - stored, completedAt later than the stored one: one run more, as a post of it;
 * - stored, the same completedAt: the stored latest run; a figure sent and different from the
 *   stored one corrects the completion and that run (a client's fix of what it reported), a
 *   figure omitted or the same changes nothing. The stored figures may be an earlier run's (an
 *   omitted duration keeps the stored one), so a figure sent back unchanged is never copied onto
 *   the latest run;
 * - stored, completedAt omitted or earlier (a client that keeps no times, or a stale one): unchanged.
 * A stored completion no item names goes, with its runs. Items of one triple are taken in order,
 * each against what the ones before left (an omitted completedAt of a triple this set made is its
 * time).
 */
function syncSet(db: DB, characterId: number, lifeIndex: number, items: readonly SetItem[], now: string): void {
  const columns = {
    id: completions.id,
    name: completions.name,
    completedAt: completions.completedAt,
    durationSeconds: completions.durationSeconds,
    xpEarned: completions.xpEarned,
    reaperXpEarned: completions.reaperXpEarned,
    reaperSkulls: completions.reaperSkulls,
  }
  type Held = { [K in keyof typeof columns]: (typeof completions.$inferSelect)[K] }
  const key = (c: { name: string; difficulty: string; setting: string }) =>
    `${c.name}\u0000${c.difficulty}\u0000${c.setting}`
  const held = new Map<string, Held>()
  // A name sent in another case finds the stored one too (as DELETE completions does).
  const anyCase = new Map<string, string>()
  for (const row of db
    .select({ ...columns, difficulty: completions.difficulty, setting: completions.setting })
    .from(completions)
    .where(and(eq(completions.characterId, characterId), eq(completions.lifeIndex, lifeIndex)))
    .all()) {
    held.set(key(row), row)
    anyCase.set(key(row).toLowerCase(), key(row))
  }
  const stored = [...held.values()].map((row) => row.id)
  const kept = new Set<number>()
  const madeHere = new Set<number>()
  const spelling = questNames(db)
  for (const item of items) {
    const name = spelling(item.name, item.difficulty)
    const sentKey = key({ name, difficulty: item.difficulty, setting: item.setting })
    const k = held.has(sentKey) ? sentKey : (anyCase.get(sentKey.toLowerCase()) ?? sentKey)
    const row = held.get(k)
    const at = item.completedAt ?? (row === undefined || madeHere.has(row.id) ? now : undefined)
    if (row === undefined || (at !== undefined && at > row.completedAt)) {
      const { id, completion } = upsertCompletion(
        db,
        characterId,
        { ...item, name: row?.name ?? name, completedAt: at ?? now },
        now,
        { lifeIndex, run: true },
      )
      if (row === undefined) madeHere.add(id)
      kept.add(id)
      held.set(k, { id, ...completion })
      continue
    }
    kept.add(row.id)
    if (at !== row.completedAt) continue
    const corrected: Partial<Pick<Held, 'durationSeconds' | 'xpEarned' | 'reaperXpEarned'>> = {}
    for (const figure of ['durationSeconds', 'xpEarned', 'reaperXpEarned'] as const) {
      const sent = item[figure]
      if (sent !== undefined && sent !== row[figure]) corrected[figure] = sent
    }
    // The completion's skulls are the most of its runs': a count sent and different from it
    // corrects the latest run's, and the completion's becomes the most of that and its other runs'.
    const skulls =
      item.reaperSkulls !== undefined && item.reaperSkulls !== row.reaperSkulls ? item.reaperSkulls : undefined
    if (Object.keys(corrected).length === 0 && skulls === undefined) continue
    const best =
      skulls === undefined ? {} : { reaperSkulls: mostSkulls(skulls, otherRunsSkulls(db, row.id, row.completedAt)) }
    db.update(completions)
      .set({ ...corrected, ...best, updatedAt: now })
      .where(eq(completions.id, row.id))
      .run()
    db.update(runs)
      .set({ ...corrected, ...(skulls === undefined ? {} : { reaperSkulls: skulls }) })
      .where(and(eq(runs.completionId, row.id), eq(runs.completedAt, row.completedAt)))
      .run()
    held.set(k, { ...row, ...corrected, ...best })
  }
  const dropped = stored.filter((id) => !kept.has(id))
  for (let i = 0; i < dropped.length; i += DELETE_CHUNK) {
    // Their runs go with them (ON DELETE CASCADE).
    db.delete(completions)
      .where(inArray(completions.id, dropped.slice(i, i + DELETE_CHUNK)))
      .run()
  }
  boundCharacterRuns(db, characterId)
}

/** The most skulls of a completion's runs other than the one at `completedAt`. */
function otherRunsSkulls(db: DB, completionId: number, completedAt: string): number | null {
  return (
    db
      .select({ most: max(runs.reaperSkulls) })
      .from(runs)
      .where(and(eq(runs.completionId, completionId), ne(runs.completedAt, completedAt)))
      .get()?.most ?? null
  )
}

export function putProgress(
  { db, clock, changes }: Writer,
  userId: number,
  characterId: number,
  body: Static<typeof ProgressPut>,
): ProgressJson {
  const now = isoNow(clock)
  // Size and normalise everything first: a field too big or an item bad is refused before
  // anything is written.
  for (const field of TRACKER_FIELDS) {
    if (body[field] !== undefined) assertJsonSize(`Body field "${field}"`, body[field], MAX_TRACKER_FIELD_BYTES)
  }
  const replacement = body.completions?.map(
    (item, i): SetItem => ({
      ...normalizePosted(item, now, `completions.${i}.completedAt`),
      // Omitted means unchanged for a stored completion (syncSet), not "now".
      ...(item.completedAt === undefined || item.completedAt === null ? { completedAt: undefined } : {}),
    }),
  )
  const set: Partial<CharacterRow> = { updatedAt: now }
  if (body.targetDifficulty !== undefined) set.targetDifficulty = body.targetDifficulty
  if (body.levelBand !== undefined) set.levelBand = body.levelBand
  if (body.characterLevel !== undefined) set.characterLevelOverride = body.characterLevel
  if (body.excludedPatrons !== undefined) set.excludedPatrons = body.excludedPatrons
  if (body.versionFilter !== undefined)
    set.versionFilter = { heroic: 'any', epic: 'any', legendary: 'any', ...body.versionFilter }
  if (body.xpBoosts !== undefined) set.xpBoosts = body.xpBoosts
  if (body.optionalPursuit !== undefined) set.optionalPursuit = body.optionalPursuit
  if (body.packState !== undefined) set.packState = body.packState
  if (body.questNotes !== undefined) set.questNotes = body.questNotes
  const progress = db.transaction((tx) => {
    const row = updateOwnedCharacter(tx, userId, characterId, set)
    const life = lifeView(db, characterId)
    // The tracker's set is the current quest life's: earlier ones keep theirs. Prepared
    // statements run on the same connection, so inside this transaction.
    if (replacement) syncSet(db, characterId, life.questLife, replacement, now)
    return { row, answer: toProgress(row, listCompletions(db, characterId, life.questLife), life) }
  }, IMMEDIATE)
  // A new set of completions is re-read; tracker fields alone travel with the event.
  changes.publish(characterId, 'progress', replacement ? undefined : headChange(progress.row))
  return progress.answer
}
