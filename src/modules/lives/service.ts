// Lives: the current life of a character (created lazily, so a character made by any route has
// one as soon as builds or lives are touched) and reincarnation, which archives it and opens
// the next one with the past lives it earned.
import { and, asc, count, desc, eq } from 'drizzle-orm'
import type { Clock } from '../../clock'
import { isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { type characters, lives } from '../../db/schema'
import { BadRequest, Conflict } from '../../http/errors'
import { dominantClass, heroicPastLife, nextLifeFeats, normalizeFeats, racialPastLife } from '../../rules/pastLives'
import type { SpecialFeat } from '../../rules/types'
import { MAX_LIVES_PER_CHARACTER, MAX_SPECIAL_FEATS } from '../builds/limits'
import { ownedCharacter } from '../characters/access'
import { characterName } from '../characters/service'
import type { ReincarnateBody } from './model'

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

export function listLives(db: DB, clock: Clock, userId: number, characterId: number): LifeRow[] {
  return db.transaction(
    (tx) => {
      const character = ownedCharacter(tx, userId, characterId)
      currentLife(tx, clock, character)
      return tx.select().from(lives).where(eq(lives.characterId, character.id)).orderBy(asc(lives.lifeIndex)).all()
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
export function reincarnate(db: DB, clock: Clock, userId: number, characterId: number, body: ReincarnateBody) {
  return db.transaction(
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
      const now = isoNow(clock)
      tx.update(lives).set({ isCurrent: false, archivedAt: now }).where(eq(lives.id, finished.id)).run()
      return tx
        .insert(lives)
        .values({
          characterId: character.id,
          lifeIndex: finished.lifeIndex + 1,
          isCurrent: true,
          name: body.name ?? finished.name,
          race: body.race ?? finished.race,
          alignment: body.alignment ?? finished.alignment,
          classes: [],
          specialFeats,
          createdAt: now,
        })
        .returning()
        .get()
    },
    { behavior: 'immediate' },
  )
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
