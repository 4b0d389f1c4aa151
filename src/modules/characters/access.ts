// Ownership in the query: a character that does not exist and one that belongs to another
// account are the same 404, so nothing leaks whether an id exists.
import { and, eq, sql } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { characters } from '../../db/schema'
import { NotFound } from '../../http/errors'

export type CharacterRow = typeof characters.$inferSelect

type Reader = Pick<DB, 'select'>

function prepareOwned(db: Reader) {
  return db
    .select()
    .from(characters)
    .where(and(eq(characters.id, sql.placeholder('id')), eq(characters.userId, sql.placeholder('userId'))))
    .prepare()
}

// One prepared statement per database (or transaction) object: building the query is most
// of the cost of reading one row.
const ownedStatements = new WeakMap<Reader, ReturnType<typeof prepareOwned>>()

export function ownedCharacter(db: Reader, userId: number, characterId: number): CharacterRow {
  let statement = ownedStatements.get(db)
  if (!statement) ownedStatements.set(db, (statement = prepareOwned(db)))
  const row = statement.get({ id: characterId, userId })
  if (!row) throw new NotFound(`No character ${characterId} on this account.`)
  return row
}

// Prepared once per database: the hot write path (a completion after every quest) only
// needs to know the character is the caller's, not to read and parse the whole row.
const ownsStatements = new WeakMap<DB, ReturnType<typeof prepareOwns>>()

function prepareOwns(db: DB) {
  return db
    .select({ id: characters.id })
    .from(characters)
    .where(and(eq(characters.id, sql.placeholder('id')), eq(characters.userId, sql.placeholder('userId'))))
    .prepare()
}

/** The same 404 as ownedCharacter, reading only the id. */
export function assertOwnsCharacter(db: DB, userId: number, characterId: number): void {
  let statement = ownsStatements.get(db)
  if (!statement) ownsStatements.set(db, (statement = prepareOwns(db)))
  if (!statement.get({ id: characterId, userId })) throw new NotFound(`No character ${characterId} on this account.`)
}
