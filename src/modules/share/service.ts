// The public share view: one character's tracker, read-only, found by its share token while
// sharing is on. The owner turns it off or rotates the token (characters module).
import { and, eq } from 'drizzle-orm'
import type { Static } from 'elysia'
import type { DB } from '../../db/client'
import { characters } from '../../db/schema'
import { NotFound } from '../../http/errors'
import { toCharacterJson } from '../characters/service'
import { progressOf } from '../progress/service'
import type { SharedTracker } from './model'

const sharedBy = (token: string) => and(eq(characters.shareToken, token), eq(characters.shared, true))

export function sharedTracker(db: DB, token: string): Static<typeof SharedTracker> {
  const row = db.select().from(characters).where(sharedBy(token)).get()
  if (!row) throw new NotFound('No shared character at this address (the link was changed or sharing is off).')
  return { character: toCharacterJson(row), progress: progressOf(db, row) }
}

/** Whether `token` is a character's current share link with sharing on (the page's 200 or 404). */
export function isLiveShareLink(db: DB, token: string): boolean {
  return db.select({ id: characters.id }).from(characters).where(sharedBy(token)).get() !== undefined
}
