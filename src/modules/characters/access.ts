// Ownership in the query: a character that does not exist and one that belongs to another
// account are the same 404, so nothing leaks whether an id exists.
import { and, eq } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { characters } from '../../db/schema'
import { NotFound } from '../../http/errors'

export type CharacterRow = typeof characters.$inferSelect

export function ownedCharacter(db: Pick<DB, 'select'>, userId: number, characterId: number): CharacterRow {
  const row = db
    .select()
    .from(characters)
    .where(and(eq(characters.id, characterId), eq(characters.userId, userId)))
    .get()
  if (!row) throw new NotFound(`No character ${characterId} on this account.`)
  return row
}
