// Lives: the current life of a character (created lazily, so a character made by any route has
// one as soon as builds or lives are touched) and reincarnation, which archives it and opens
// the next one with the past lives it earned.
import { and, asc, count, desc, eq } from 'drizzle-orm'
import type { Clock } from '../../../clock'
import { isoNow } from '../../../clock'
import type { DB } from '../../../db/client'
import { characters, lives } from '../../../db/schema'
import type { Writer } from '../../../deps'
import { BadRequest, Conflict, PayloadTooLarge } from '../../../http/errors'
import { jsonBytes, kib } from '../../../http/size'
import {
  addFeats,
  dominantClass,
  heroicPastLife,
  nextLifeFeats,
  normalizeFeats,
  racialPastLife,
} from '../../../rules/character/pastLives'
import {
  grantsProblem,
  kindOfGrants,
  levelsAfter,
  nextQuestLife,
  type ReincarnationKind,
  recordedKind,
  startsQuestLife,
} from '../../../rules/character/reincarnation'
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
  const lifeIndex = (last?.lifeIndex ?? 0) + 1
  return db
    .insert(lives)
    .values({
      characterId: character.id,
      lifeIndex,
      isCurrent: true,
      kind: null,
      questLife: lifeIndex,
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
 * The past lives a reincarnation grants and its kind (rules/character/reincarnation.ts): the
 * heroic past life of the finished life's dominant class when `grantHeroic`, its racial (or
 * iconic) one when `grantRacial`, each defaulting to what `kind` grants, and
 * `additionalPastLives`; the kind as sent, or as the grants say. 400 when the grants are not one
 * reincarnation's, or not what `kind` grants; a grant asked for explicitly that the finished life
 * cannot make (no class levels, no race) is 400 too, one a kind implies is left out.
 */
function grantsOf(finished: LifeRow, body: ReincarnateBody): { kind: ReincarnationKind | null; grants: SpecialFeat[] } {
  const grants: SpecialFeat[] = []
  const wantsHeroic = body.grantHeroic ?? (body.kind === 'heroic' || body.kind === 'iconic')
  const wantsRacial = body.grantRacial ?? (body.kind === 'racial' || body.kind === 'iconic')
  if (wantsHeroic) {
    const dominant = dominantClass(finished.classes)
    if (dominant) grants.push(heroicPastLife(dominant))
    else if (body.grantHeroic) {
      throw new BadRequest(
        'The current life has no class levels, so no heroic past life can be granted; send its build first or set "grantHeroic" to false.',
      )
    }
  }
  if (wantsRacial) {
    const race = finished.race
    if (race) grants.push(racialPastLife(race))
    else if (body.grantRacial) {
      throw new BadRequest(
        'The current life has no race, so no racial past life can be granted; send its build first or set "grantRacial" to false.',
      )
    }
  }
  grants.push(...normalizeFeats(body.additionalPastLives ?? []))
  if (body.kind !== undefined) {
    const problem = grantsProblem(body.kind, grants)
    if (problem) throw new BadRequest(problem)
    return { kind: body.kind, grants }
  }
  const said = kindOfGrants(grants)
  if ('error' in said) throw new BadRequest(said.error)
  return { kind: said.kind, grants }
}

/**
 * Archives the current life and opens the next, of the reincarnation's kind (grantsOf). The new
 * life carries the finished life's special feats forward plus the grants, each past life capped
 * at 3 stacks; a true reincarnation (or one of no kind) drops the favor rewards and begins a new
 * quest life with no class levels, an epic or lesser one stays in the finished life's quest life
 * with its class levels. Name, race and alignment default to the finished life's. The character's
 * profile follows the new life: its race and alignment, and its levels (none after a true
 * reincarnation, the heroic levels after an epic one, all of them after a lesser one).
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
      const { kind, grants } = grantsOf(finished, body)
      const startsOver = startsQuestLife(kind)
      // Feats carry forward from life to life: without a cap each reincarnation could add more.
      // Favor rewards go only where favor does (GAME-RULES.md "Favor").
      const specialFeats = startsOver
        ? nextLifeFeats(finished.specialFeats, grants)
        : addFeats(finished.specialFeats, grants)
      if (specialFeats.length > MAX_SPECIAL_FEATS) {
        throw new Conflict(
          `The new life would have ${specialFeats.length} special feats; a life may have at most ${MAX_SPECIAL_FEATS}.`,
        )
      }
      // The profile's levels: what the character shows and what the website's form checks the kind
      // against (a live snapshot syncs both it and the life; an edit of the character only it).
      const levels = levelsAfter(kind, character.classes, character.epicLevels)
      const next = {
        name: body.name ?? finished.name,
        race: body.race ?? finished.race,
        alignment: body.alignment ?? finished.alignment,
        classes: levels.classes,
        specialFeats,
      }
      assertLifeSize(next, 'The new life')
      const now = isoNow(clock)
      tx.update(lives).set({ isCurrent: false, archivedAt: now }).where(eq(lives.id, finished.id)).run()
      const profile: Partial<typeof characters.$inferInsert> = { updatedAt: now }
      if (next.race.trim()) profile.race = next.race.trim()
      if (next.alignment.trim()) profile.alignment = next.alignment.trim()
      if (kind !== 'lesser') {
        profile.classes = levels.classes
        profile.epicLevels = levels.epicLevels
        // The tracker's own level (PUT progress) was the finished life's.
        profile.characterLevelOverride = null
      }
      tx.update(characters).set(profile).where(eq(characters.id, character.id)).run()
      return tx
        .insert(lives)
        .values({
          characterId: character.id,
          lifeIndex: finished.lifeIndex + 1,
          isCurrent: true,
          kind,
          questLife: nextQuestLife(kind, finished),
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
  const old = db
    .select({ lifeIndex: lives.lifeIndex, questLife: lives.questLife })
    .from(lives)
    .where(and(eq(lives.characterId, character.id), eq(lives.isCurrent, true)))
    .get() ?? { lifeIndex: 1, questLife: 1 }
  // Each life's kind as its feats tell it (recordedKind: an epic reincarnation, or none said).
  const written = history.map((life) => ({ ...life, specialFeats: normalizeFeats(life.specialFeats) }))
  const questLives: number[] = []
  const kinds = written.map((life, i) => {
    const before = written[i - 1]
    const kind = before ? recordedKind(before.specialFeats, life.specialFeats) : null
    questLives.push(before ? nextQuestLife(kind, { lifeIndex: i, questLife: questLives[i - 1] as number }) : 1)
    return kind
  })
  db.delete(lives).where(eq(lives.characterId, character.id)).run()
  // The completions follow their lives: the current quest life's stay the current quest life's.
  moveCompletionsToNewLives(db, character.id, old, questLives)
  return written.map((life, i) => {
    const current = i === history.length - 1
    return db
      .insert(lives)
      .values({
        characterId: character.id,
        lifeIndex: i + 1,
        isCurrent: current,
        ...life,
        kind: kinds[i] ?? null,
        questLife: questLives[i] as number,
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
    kind: row.kind ?? null,
    questLife: row.questLife,
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
  }
}
