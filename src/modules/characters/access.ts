// Ownership in the query: a character that does not exist and one that belongs to another
// account are the same 404, so nothing leaks whether an id exists.
import { and, eq, sql } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { keptRows } from '../../db/freshness'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { characters } from '../../db/schema'
import { NotFound } from '../../http/errors'

export type CharacterRow = typeof characters.$inferSelect

type Reader = Pick<DB, 'select'>

const noCharacter = (characterId: number) => new NotFound(`No character ${characterId} on this account.`)

function prepareOwned(db: Reader) {
  return db
    .select()
    .from(characters)
    .where(and(eq(characters.id, sql.placeholder('id')), eq(characters.userId, sql.placeholder('userId'))))
    .prepare()
}

// One prepared statement per database (or transaction) object: building the query is most
// of the cost of reading one row.
const ownedStatement = preparedOnce(prepareOwned)

export function ownedCharacter(db: Reader, userId: number, characterId: number): CharacterRow {
  const row = ownedStatement(db).get({ id: characterId, userId })
  if (!row) throw noCharacter(characterId)
  return row
}

/**
 * Updates a character the user owns and returns the new row; the same 404 otherwise, with
 * nothing written (the ownership is in the update's own WHERE).
 */
export function updateOwnedCharacter(
  db: Pick<DB, 'update'>,
  userId: number,
  characterId: number,
  set: Partial<CharacterRow>,
): CharacterRow {
  const row = db
    .update(characters)
    .set(set)
    .where(and(eq(characters.id, characterId), eq(characters.userId, userId)))
    .returning()
    .get()
  if (!row) throw noCharacter(characterId)
  return row
}

// Prepared once per database, its row straight from bun:sqlite: the hot write path (a completion
// after every quest) and every conditional read (a 304) only need to know the character is the
// caller's, not to read and parse the whole row.
const ownsStatement = preparedOnce(prepareOwns)

function prepareOwns(db: DB) {
  return prepareNative(
    db,
    db
      .select(aliased({ id: characters.id }))
      .from(characters)
      .where(and(eq(characters.id, sql.placeholder('id')), eq(characters.userId, sql.placeholder('userId')))),
  )
}

// Whose a character is, kept between requests while no character was deleted or moved and no
// other connection wrote (src/db/freshness.ts): an unchanged read (a 304) reads nothing.
const keptOwners = keptRows<string, true>()

/** The same 404 as ownedCharacter, reading only the id. */
export function assertOwnsCharacter(db: DB, userId: number, characterId: number): void {
  const owned = keptOwners(db).get(`${characterId}:${userId}`, () =>
    ownsStatement(db).get({ id: characterId, userId }) ? true : undefined,
  )
  if (!owned) throw noCharacter(characterId)
}

/** What a character's name and Play on setting take: its own row's few columns. */
export type CharacterHead = Pick<CharacterRow, 'id' | 'givenName' | 'surname' | 'targetDifficulty'>

// A read that shows only the character's name (navigation) parses none of its JSON columns.
const headStatement = preparedOnce((db: DB) =>
  prepareNative(
    db,
    db
      .select(
        aliased({
          id: characters.id,
          givenName: characters.givenName,
          surname: characters.surname,
          targetDifficulty: characters.targetDifficulty,
        }),
      )
      .from(characters)
      .where(and(eq(characters.id, sql.placeholder('id')), eq(characters.userId, sql.placeholder('userId')))),
  ),
)

/** The same 404 as ownedCharacter, reading only the name and the Play on setting. */
export function ownedCharacterHead(db: DB, userId: number, characterId: number): CharacterHead {
  const row = headStatement(db).get({ id: characterId, userId })
  if (!row) throw noCharacter(characterId)
  return row
}
