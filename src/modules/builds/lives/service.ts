// Lives: the current life of a character (created lazily, so a character made by any route has
// one as soon as builds or lives are touched) and reincarnation, which archives it and opens
// the next one with the past lives it earned.
import { and, asc, count, desc, eq } from 'drizzle-orm'
import type { Clock } from '../../../clock'
import { isoNow } from '../../../clock'
import type { DB } from '../../../db/client'
import { type characters, lives } from '../../../db/schema'
import type { Writer } from '../../../deps'
import { BadRequest, Conflict, PayloadTooLarge } from '../../../http/errors'
import { jsonBytes, kib } from '../../../http/size'
import {
  dominantClass,
  heroicPastLife,
  nextLifeFeats,
  normalizeFeats,
  racialPastLife,
} from '../../../rules/character/pastLives'
import type { SpecialFeat } from '../../../rules/character/shapes'
import { ownedCharacter } from '../../characters/access'
import { characterName } from '../../characters/service'
import { moveCompletionsToNewLives } from '../../completions/service'
import { MAX_LIFE_BYTES, MAX_LIVES_PAGE, MAX_LIVES_PER_CHARACTER, MAX_SPECIAL_FEATS } from '../limits'
import type { LivesQuery, ReincarnateBody } from './model'

/** The database or a transaction: what the services write through. */
export type Db = Pick<DB, 'select' | 'insert' | 'update' | 'delete'>
export type LifeRow = typeof lives.$inferSelect
type CharacterRow = typeof characters.$inferSelect

/** The current life, opened (as life 1, from the character's profile) when there is none yet. */
export function currentLife(db: Db, clock: Clock, character: CharacterRow): LifeRow {
  const found = db
    .select()
    .from(lives)
    .where(and(eq(lives.characterId, character.id), eq(lives.isCurrent, true)))
    .get()
  if (found) return found
  const last = db
    .select({ lifeIndex: lives.lifeIndex })
    .from(lives)
    .where(eq(lives.characterId, character.id))
    .orderBy(desc(lives.lifeIndex))
    .limit(1)
    .get()
  return db
    .insert(lives)
    .values({
      characterId: character.id,
      lifeIndex: (last?.lifeIndex ?? 0) + 1,
      isCurrent: true,
      name: characterName(character),
      race: character.race,
      alignment: character.alignment,
      classes: character.classes,
      specialFeats: [],
      createdAt: isoNow(clock),
    })
    .returning()
    .get()
}

/** What a life's size limit measures: everything of it a client sends or reincarnation copies. */
type LifeContent = Pick<LifeRow, 'name' | 'race' | 'alignment' | 'classes' | 'specialFeats'>

/**
 * 413 when the life would take more than MAX_LIFE_BYTES as JSON. Its names have length limits
 * (the request schemas) and its feats a count, but 500 long names still make a large life, and
 * every reincarnation copies it. `subject` starts the sentence ("The new life"); `advice` ends it.
 */
export function assertLifeSize(life: LifeContent, subject: string, advice = ''): void {
  const { name, race, alignment, classes, specialFeats } = life
  const size = jsonBytes({ name, race, alignment, classes, specialFeats })
  if (size > MAX_LIFE_BYTES) {
    throw new PayloadTooLarge(
      `${subject} would take ${kib(size)} as JSON; a life (name, race, alignment, classes and special feats) may take at most ${kib(MAX_LIFE_BYTES)}${advice}.`,
    )
  }
}

export interface LivesPage {
  lives: LifeRow[]
  total: number
  limit: number
  offset: number
}

/** The page a lives query asks for: 400 for a limit or an offset out of range. */
export function livesPage(query: LivesQuery): { limit: number; offset: number } {
  const limit = query.limit ?? MAX_LIVES_PAGE
  const offset = query.offset ?? 0
  if (limit < 1 || limit > MAX_LIVES_PAGE) {
    throw new BadRequest(`Query parameter "limit" must be an integer from 1 to ${MAX_LIVES_PAGE}.`)
  }
  // Beyond 2^53 a number is no longer an exact integer for SQLite to bind.
  if (offset < 0 || offset > Number.MAX_SAFE_INTEGER) {
    throw new BadRequest(`Query parameter "offset" must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}.`)
  }
  return { limit, offset }
}

/**
 * One page of the character's lives, oldest first, with the count of them all (one transaction,
 * so they agree). The default page holds every life a character may have, so the plain request
 * answers them all, as the contract's `{lives}` always has.
 */
export function listLives(
  db: DB,
  clock: Clock,
  userId: number,
  characterId: number,
  query: LivesQuery = {},
): LivesPage {
  const { limit, offset } = livesPage(query)
  return db.transaction(
    (tx) => {
      const character = ownedCharacter(tx, userId, characterId)
      currentLife(tx, clock, character)
      const total = tx.select({ n: count() }).from(lives).where(eq(lives.characterId, character.id)).get()?.n ?? 0
      const rows = tx
        .select()
        .from(lives)
        .where(eq(lives.characterId, character.id))
        .orderBy(asc(lives.lifeIndex))
        .limit(limit)
        .offset(offset)
        .all()
      return { lives: rows, total, limit, offset }
    },
    { behavior: 'immediate' },
  )
}

/**
 * Archives the current life and opens the next. The new life carries the finished life's special
 * feats forward (favor rewards excepted), plus the heroic past life of its dominant class when
 * `grantHeroic`, its racial (or iconic) past life when `grantRacial`, and `additionalPastLives`,
 * each past life capped at 3 stacks. Name, race and alignment default to the finished life's.
 */
export function reincarnate(
  { db, clock, changes }: Writer,
  userId: number,
  characterId: number,
  body: ReincarnateBody,
) {
  const life = db.transaction(
    (tx) => {
      const character = ownedCharacter(tx, userId, characterId)
      const finished = currentLife(tx, clock, character)
      // Counted inside this immediate transaction, so parallel reincarnations cannot overshoot.
      const livesSoFar = tx.select({ n: count() }).from(lives).where(eq(lives.characterId, character.id)).get()?.n ?? 0
      if (livesSoFar >= MAX_LIVES_PER_CHARACTER) {
        throw new Conflict(
          `Character ${characterId} already has ${MAX_LIVES_PER_CHARACTER} lives, the most a character may have.`,
        )
      }
      const grants: SpecialFeat[] = []
      if (body.grantHeroic) {
        const dominant = dominantClass(finished.classes)
        if (!dominant) {
          throw new BadRequest(
            'The current life has no class levels, so no heroic past life can be granted; send its build first or set "grantHeroic" to false.',
          )
        }
        grants.push(heroicPastLife(dominant))
      }
      if (body.grantRacial) {
        const race = finished.race
        if (!race) {
          throw new BadRequest(
            'The current life has no race, so no racial past life can be granted; send its build first or set "grantRacial" to false.',
          )
        }
        grants.push(racialPastLife(race))
      }
      grants.push(...normalizeFeats(body.additionalPastLives ?? []))
      // Feats carry forward from life to life: without a cap each reincarnation could add more.
      const specialFeats = nextLifeFeats(finished.specialFeats, grants)
      if (specialFeats.length > MAX_SPECIAL_FEATS) {
        throw new Conflict(
          `The new life would have ${specialFeats.length} special feats; a life may have at most ${MAX_SPECIAL_FEATS}.`,
        )
      }
      const next = {
        name: body.name ?? finished.name,
        race: body.race ?? finished.race,
        alignment: body.alignment ?? finished.alignment,
        classes: [],
        specialFeats,
      }
      assertLifeSize(next, 'The new life')
      const now = isoNow(clock)
      tx.update(lives).set({ isCurrent: false, archivedAt: now }).where(eq(lives.id, finished.id)).run()
      return tx
        .insert(lives)
        .values({
          characterId: character.id,
          lifeIndex: finished.lifeIndex + 1,
          isCurrent: true,
          ...next,
          createdAt: now,
        })
        .returning()
        .get()
    },
    { behavior: 'immediate' },
  )
  changes.publish(characterId, 'lives')
  return life
}

/** A life a caller writes whole (an imported history): its content, oldest life first. */
export type NewLife = Pick<LifeRow, 'name' | 'race' | 'alignment' | 'classes' | 'specialFeats'>

/**
 * Replaces the character's lives with `history`, oldest first, inside the caller's transaction:
 * every life but the last archived, the last the current one. 409 beyond the lives a character
 * may have, 413 for a life over its size; nothing is written then (the caller's transaction).
 * The character's completions move with their lives (moveCompletionsToNewLives).
 */
export function replaceLives(db: Db, clock: Clock, character: CharacterRow, history: readonly NewLife[]): LifeRow[] {
  if (history.length === 0) throw new BadRequest('A history needs at least one life.')
  if (history.length > MAX_LIVES_PER_CHARACTER) {
    throw new Conflict(
      `The history has ${history.length} lives; a character may have at most ${MAX_LIVES_PER_CHARACTER}.`,
    )
  }
  history.forEach((life, i) => {
    assertLifeSize(life, `Life ${i + 1} of the history`)
  })
  const now = isoNow(clock)
  const oldCurrent =
    db
      .select({ lifeIndex: lives.lifeIndex })
      .from(lives)
      .where(and(eq(lives.characterId, character.id), eq(lives.isCurrent, true)))
      .get()?.lifeIndex ?? 1
  db.delete(lives).where(eq(lives.characterId, character.id)).run()
  // The completions follow their lives: the current life's stay the current life's.
  moveCompletionsToNewLives(db, character.id, oldCurrent, history.length)
  return history.map((life, i) => {
    const current = i === history.length - 1
    return db
      .insert(lives)
      .values({
        characterId: character.id,
        lifeIndex: i + 1,
        isCurrent: current,
        ...life,
        specialFeats: normalizeFeats(life.specialFeats),
        createdAt: now,
        archivedAt: current ? null : now,
      })
      .returning()
      .get()
  })
}

export function toLife(row: LifeRow) {
  return {
    id: row.id,
    lifeIndex: row.lifeIndex,
    isCurrent: row.isCurrent,
    name: row.name,
    race: row.race,
    alignment: row.alignment,
    classes: row.classes,
    specialFeats: row.specialFeats,
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
  }
}
