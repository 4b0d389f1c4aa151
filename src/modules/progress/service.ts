// Progress: the tracker state stored on the character plus its completions. PUT changes only
// the fields sent; `completions` replaces the whole set through the completion normaliser.
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import { isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { completions } from '../../db/schema'
import type { Writer } from '../../deps'
import { NotFound } from '../../http/errors'
import { assertJsonSize } from '../../http/size'
import { currentLifeOf } from '../../rules/quests/runs'
import { type CharacterRow, ownedCharacter, updateOwnedCharacter } from '../characters/access'
import { headChange, progressHead } from '../characters/service'
import {
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
  return listStatement(db).all({ characterId, lifeIndex }) as StoredCompletionJson[]
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
  const replacement = body.completions?.map((item, i) => normalizePosted(item, now, `completions.${i}.completedAt`))
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
    if (replacement) {
      // The tracker's set is the current life's: finished lives keep theirs.
      tx.delete(completions)
        .where(and(eq(completions.characterId, characterId), eq(completions.lifeIndex, life.questLife)))
        .run()
      // Prepared statements run on the same connection, so inside this transaction.
      for (const completion of replacement) {
        upsertCompletion(db, characterId, completion, now, { lifeIndex: life.questLife, run: true })
      }
    }
    return { row, answer: toProgress(row, listCompletions(db, characterId, life.questLife), life) }
  }, IMMEDIATE)
  // A new set of completions is re-read; tracker fields alone travel with the event.
  changes.publish(characterId, 'progress', replacement ? undefined : headChange(progress.row))
  return progress.answer
}
