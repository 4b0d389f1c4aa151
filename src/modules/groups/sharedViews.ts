// What members see of each other's characters (issue 42, "Seeing each other"): the group's
// quests × characters grid over its shared characters, a shared character's tracker (read-only),
// and which of the caller's groups see a character (the tracker page's way to it). Every read
// starts from the caller's membership (memberGroup: 404 for a group they are not in, as every
// group route) and from the share itself: a character the group does not see is 404 too.
import { and, eq } from 'drizzle-orm'
import type { Static } from 'elysia'
import type { DB } from '../../db/client'
import { characters, groupMembers, groupShares, groups, users } from '../../db/schema'
import type { ModuleDeps } from '../../deps'
import { NotFound } from '../../http/errors'
import { versionedRows } from '../catalog/service'
import { toCharacterJson } from '../characters/service'
import type { GridCells } from '../grid/cells'
import { progressOf } from '../progress/service'
import type { GroupGrid, MemberTracker, Seeing } from './model'
import { memberGroup, memberName, sharedCharacters } from './service'

/** The group's shares in the order sharedCharacters lists them, with when each was shared. */
function shares(db: DB, groupId: number): { id: number; sharedAt: string }[] {
  return db
    .select({ id: groupShares.characterId, sharedAt: groupShares.sharedAt })
    .from(groupShares)
    .where(eq(groupShares.groupId, groupId))
    .orderBy(groupShares.sharedAt, groupShares.characterId)
    .all()
}

/**
 * The ETag of the group's grid for a member (404 first for anyone else): the shared characters'
 * change tags, when each was shared and the catalog's version. A share or a withdrawal changes
 * the list, a completion the character's tag.
 */
export function groupGridTag({ db, changes }: Pick<ModuleDeps, 'db' | 'changes'>, userId: number, groupId: number) {
  memberGroup(db, userId, groupId)
  const shared = shares(db, groupId)
  let scope = `g${groupId}.grid.${versionedRows(db).version}`
  for (const share of shared) scope += `,${share.sharedAt}`
  return changes.charactersTag(
    scope,
    shared.map((share) => share.id),
  )
}

export function groupGrid(db: DB, cells: GridCells, userId: number, groupId: number): Static<typeof GroupGrid> {
  memberGroup(db, userId, groupId)
  const catalog = versionedRows(db)
  return {
    catalog: { version: catalog.version, rows: catalog.rows.length },
    characters: sharedCharacters(db, groupId).map((character) => ({
      ...character,
      ...cells.of(db, character.id, catalog),
    })),
  }
}

/** The character's row, when the group (one the caller is a member of) sees it; 404 otherwise. */
function sharedRow(db: DB, userId: number, groupId: number, characterId: number) {
  memberGroup(db, userId, groupId)
  const row = db
    .select({ character: characters, ownerName: users.username })
    .from(groupShares)
    .innerJoin(characters, eq(characters.id, groupShares.characterId))
    .innerJoin(users, eq(users.id, characters.userId))
    .where(and(eq(groupShares.groupId, groupId), eq(groupShares.characterId, characterId)))
    .get()
  if (!row) throw new NotFound(`No character ${characterId} shared with this group.`)
  return row
}

/** The shared character's ETag (its own change tag), after the same checks as its read. */
export function memberTrackerTag(
  { db, changes }: Pick<ModuleDeps, 'db' | 'changes'>,
  userId: number,
  groupId: number,
  characterId: number,
): string {
  sharedRow(db, userId, groupId, characterId)
  return changes.characterTag(characterId)
}

/**
 * A shared character's tracker, read-only: the character (without the owner's public share link,
 * which is theirs to hand out) and the progress of its current life, as its share page shows it.
 */
export function memberTracker(
  db: DB,
  userId: number,
  groupId: number,
  characterId: number,
): Static<typeof MemberTracker> {
  const { character, ownerName } = sharedRow(db, userId, groupId, characterId)
  const { shareToken: _token, shareUrl: _url, shared: _shared, ...json } = toCharacterJson(character)
  return {
    character: json,
    progress: progressOf(db, character),
    owner: { id: character.userId, name: memberName({ id: character.userId, username: ownerName }) },
  }
}

/** The caller's groups that see the character (none for a character no group of theirs sees, or none at all). */
export function groupsSeeing(db: DB, userId: number, characterId: number): Static<typeof Seeing> {
  return {
    groups: db
      .select({ id: groups.id, name: groups.name })
      .from(groupShares)
      .innerJoin(groups, eq(groups.id, groupShares.groupId))
      .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
      .where(eq(groupShares.characterId, characterId))
      .orderBy(groups.name, groups.id)
      .all(),
  }
}
