// Past lives at a glance from what is stored: every life of a character and its live snapshot's
// past lives, fed to the rule (src/rules/character/pastLifeGlance.ts). Reads only: a character
// whose current life was never opened (GET lives opens it) counts its profile as life 1.
import { and, asc, eq, sql } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { builds, characters, lives } from '../../db/schema'
import { isPlainObject } from '../../json'
import { totalLevel } from '../../rules/character/levels'
import {
  accountPastLives,
  type FeatInput,
  type PastLifeGlance,
  pastLifeGlance,
} from '../../rules/character/pastLifeGlance'
import { type CharacterRow, ownedCharacter } from '../characters/access'
import { characterName } from '../characters/service'

type Reader = Pick<DB, 'select'>

/** The snapshot's `life.specialFeats` as stored (the document keeps what the client sent). */
function featsOf(json: string | null): FeatInput[] {
  if (json === null) return []
  const parsed: unknown = JSON.parse(json)
  if (!Array.isArray(parsed)) return []
  return parsed.filter(isPlainObject).map((f) => ({
    name: typeof f.name === 'string' ? f.name : undefined,
    type: typeof f.type === 'string' ? f.type : undefined,
    stacks: typeof f.stacks === 'number' ? f.stacks : undefined,
  }))
}

interface Glanced {
  glance: PastLifeGlance
  lives: number
  snapshotUpdatedAt: string | null
}

/**
 * One character's glance. Its lives are read whole (at most 200 of at most 24 KiB: builds/limits.ts);
 * of the snapshot, only its past lives leave the database, not the whole document.
 */
function glanceOf(db: Reader, character: CharacterRow): Glanced {
  const history = db
    .select({ race: lives.race, classes: lives.classes, specialFeats: lives.specialFeats, isCurrent: lives.isCurrent })
    .from(lives)
    .where(eq(lives.characterId, character.id))
    .orderBy(asc(lives.lifeIndex))
    .all()
  const live = db
    .select({
      feats: sql<string | null>`json_extract(${builds.document}, '$.life.specialFeats')`,
      updatedAt: builds.updatedAt,
    })
    .from(builds)
    .where(and(eq(builds.characterId, character.id), eq(builds.role, 'live')))
    .get()
  const current = history.find((life) => life.isCurrent) ?? character
  const glance = pastLifeGlance({
    history: history.map((life) => life.specialFeats),
    snapshot: live ? featsOf(live.feats) : null,
    current: { race: current.race, classes: current.classes },
    level: totalLevel(character.classes, character.epicLevels),
  })
  return { glance, lives: Math.max(history.length, 1), snapshotUpdatedAt: live?.updatedAt ?? null }
}

/** GET /characters/{id}/past-lives: 404 for a character of another account, as for none. */
export function characterPastLives(db: DB, userId: number, characterId: number) {
  return db.transaction((tx) => {
    const character = ownedCharacter(tx, userId, characterId)
    const { glance, lives: count, snapshotUpdatedAt } = glanceOf(tx, character)
    return {
      character: { id: character.id, name: characterName(character) },
      lives: count,
      snapshotUpdatedAt,
      ...glance,
    }
  })
}

/**
 * GET /past-lives: every character of the account, one at a time (so at most one character's
 * lives are in memory), then the sums. The event loop turns between two characters, so other
 * requests are answered meanwhile: an account's lives are up to 200 characters of 200 lives of
 * 24 KiB, and read in one piece they held every request behind them (issue 39). Each character
 * is read in a transaction of its own; one changed meanwhile is counted as it is when read.
 */
export async function accountPastLivesOf(db: DB, userId: number) {
  const ids = db
    .select({ id: characters.id })
    .from(characters)
    .where(eq(characters.userId, userId))
    .orderBy(asc(characters.id))
    .all()
  const glances: ({ character: CharacterRow } & Glanced)[] = []
  for (const { id } of ids) {
    await new Promise((resolve) => setImmediate(resolve))
    const glanced = db.transaction((tx) => {
      // Deleted meanwhile, or given to another account: left out.
      const character = tx
        .select()
        .from(characters)
        .where(and(eq(characters.id, id), eq(characters.userId, userId)))
        .get()
      return character ? { character, ...glanceOf(tx, character) } : null
    })
    if (glanced) glances.push(glanced)
  }
  return {
    characters: glances.map(({ character, glance, lives: count }) => ({
      id: character.id,
      name: characterName(character),
      server: character.server,
      lives: count,
      totals: glance.totals,
      max: glance.max,
    })),
    ...accountPastLives(glances.map((g) => g.glance)),
  }
}
