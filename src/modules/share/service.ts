// The public share view: one character's tracker, read-only, found by its share token while
// sharing is on. The owner turns it off or rotates the token (characters module).
import { and, eq } from 'drizzle-orm'
import type { Static } from 'elysia'
import type { DB } from '../../db/client'
import { characters } from '../../db/schema'
import type { ModuleDeps } from '../../deps'
import { NotFound } from '../../http/errors'
import { toCharacterJson } from '../characters/service'
import { progressOf } from '../progress/service'
import type { SharedTracker } from './model'

const sharedBy = (token: string) => and(eq(characters.shareToken, token), eq(characters.shared, true))

const noShare = () => new NotFound('No shared character at this address (the link was changed or sharing is off).')

export function sharedTracker(db: DB, token: string): Static<typeof SharedTracker> {
  const row = db.select().from(characters).where(sharedBy(token)).get()
  if (!row) throw noShare()
  return { character: toCharacterJson(row), progress: progressOf(db, row) }
}

/** The ETag of the share view (the character's: src/http/etag.ts); 404 when the link is not live. */
export function sharedTag({ db, changes }: Pick<ModuleDeps, 'db' | 'changes'>, token: string): string {
  const id = sharedCharacterId(db, token)
  if (id === null) throw noShare()
  return changes.characterTag(id)
}

/** The character whose current share link `token` is, with sharing on; null otherwise. */
export function sharedCharacterId(db: DB, token: string): number | null {
  return db.select({ id: characters.id }).from(characters).where(sharedBy(token)).get()?.id ?? null
}

/** Whether `token` is a character's current share link with sharing on (the page's 200 or 404). */
export function isLiveShareLink(db: DB, token: string): boolean {
  return sharedCharacterId(db, token) !== null
}
