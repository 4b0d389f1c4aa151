// Characters: create, list, get, find, update, login, and the JSON shape every route returns.
// Ownership is in every query (see access.ts); derived fields come from src/rules/character/levels.ts.
import { randomBytes } from 'node:crypto'
import { and, asc, count, eq, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { characters, completions } from '../../db/schema'
import type { Writer } from '../../deps'
import { BadRequest, Conflict } from '../../http/errors'
import * as levels from '../../rules/character/levels'
import {
  ALIGNMENTS,
  canonicalClass,
  canonicalRace,
  canonicalSpelling,
  GENDERS,
  SERVERS,
} from '../../rules/character/picklists'
import { parseTimestampOrNow } from '../../rules/timestamp'
import type { ChangeDelta, ChangeFeed, ProgressHead } from '../events/feed'
import { type CharacterRow, ownedCharacter, updateOwnedCharacter } from './access'
import { MAX_CHARACTERS_PER_ACCOUNT } from './limits'
import type { Character, CharacterInput, FindQuery } from './model'

export type CharacterJson = Static<typeof Character>
type Input = Static<typeof CharacterInput>
type Profile = Partial<
  Pick<
    CharacterRow,
    | 'givenName'
    | 'surname'
    | 'race'
    | 'gender'
    | 'alignment'
    | 'server'
    | 'guild'
    | 'classes'
    | 'epicLevels'
    | 'lastLoginAt'
  >
>

/** A share token: 16 random bytes, URL-safe. Never client-assignable. */
export const newShareToken = (): string => randomBytes(16).toString('base64url')

export const shareUrl = (token: string): string => `/s/${token}`

/** The one name of a character shown anywhere (its JSON, progress, navigation, a new life). */
export const characterName = (row: Pick<CharacterRow, 'givenName' | 'surname'>): string =>
  row.surname ? `${row.givenName} ${row.surname}` : row.givenName

/** The level the tracker works with: the PUT-progress override, else the derived total level. */
export const trackerLevel = (row: CharacterRow): number =>
  row.characterLevelOverride ?? levels.totalLevel(row.classes, row.epicLevels)

/**
 * The progress fields the character's own row decides, in the answer's order: what an open
 * tracker takes from an event when only the row changed (src/modules/events/feed.ts).
 */
export function progressHead(row: CharacterRow): ProgressHead {
  const level = trackerLevel(row)
  const targetDifficulty = row.targetDifficulty as levels.PlayOn
  return {
    character: { id: row.id, name: characterName(row), targetDifficulty },
    minLevel: levels.minLevel(level, targetDifficulty),
    characterLevel: level,
    targetDifficulty,
    levelBand: row.levelBand,
    excludedPatrons: row.excludedPatrons,
    versionFilter: row.versionFilter,
    xpBoosts: row.xpBoosts,
    optionalPursuit: row.optionalPursuit,
    packState: row.packState,
    questNotes: row.questNotes,
  }
}

/** A change of the character's row alone, as its event carries it. */
export const headChange = (row: CharacterRow) => (): ChangeDelta => ({ kind: 'head', head: progressHead(row) })

export function toCharacterJson(row: CharacterRow): CharacterJson {
  const total = levels.totalLevel(row.classes, row.epicLevels)
  return {
    id: row.id,
    name: characterName(row),
    givenName: row.givenName,
    firstName: row.givenName,
    surname: row.surname,
    race: row.race,
    gender: row.gender,
    alignment: row.alignment,
    server: row.server,
    guild: row.guild,
    classes: row.classes,
    classSummary: levels.classSummary(row.classes),
    epicLevels: row.epicLevels,
    heroicLevel: levels.heroicLevel(row.classes),
    totalLevel: total,
    characterLevel: total,
    minLevel: levels.minLevel(trackerLevel(row), row.targetDifficulty as levels.PlayOn),
    lastLoginAt: row.lastLoginAt,
    targetDifficulty: row.targetDifficulty as levels.PlayOn,
    levelBand: row.levelBand,
    excludedPatrons: row.excludedPatrons,
    versionFilter: row.versionFilter,
    xpBoosts: row.xpBoosts,
    optionalPursuit: row.optionalPursuit,
    shareToken: row.shareToken,
    shareUrl: shareUrl(row.shareToken),
    shared: row.shared,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

/** Legacy `{name: "Given Surname"}`: split at the first space. */
export function splitLegacyName(name: string): { givenName: string; surname: string } {
  const trimmed = name.trim()
  const space = trimmed.indexOf(' ')
  if (space < 0) return { givenName: trimmed, surname: '' }
  return { givenName: trimmed.slice(0, space), surname: trimmed.slice(space + 1).trim() }
}

function checkClasses(classes: { name: string; levels: number }[], field: string) {
  const seen = new Set<string>()
  return classes.map((entry, i) => {
    const name = canonicalClass(entry.name.trim())
    if (name === '') throw new BadRequest(`Body field "${field}.${i}.name" must be a non-empty string.`)
    if (seen.has(name.toLowerCase())) throw new BadRequest(`Body field "${field}" lists "${name}" more than once.`)
    seen.add(name.toLowerCase())
    return { name, levels: entry.levels }
  })
}

/**
 * Folds aliases (canonical name wins) and checks what the schema cannot: non-empty names,
 * distinct classes, timestamps. Returns only the fields that were sent.
 */
export function profileFromInput(input: Input, nowIso: string, touch: boolean): Profile {
  const out: Profile = {}
  const legacy = input.name !== undefined ? splitLegacyName(input.name) : undefined
  const given = input.givenName ?? input.firstName ?? legacy?.givenName
  const givenField = input.givenName !== undefined ? 'givenName' : input.firstName !== undefined ? 'firstName' : 'name'
  if (given !== undefined) {
    if (given.trim() === '') throw new BadRequest(`Body field "${givenField}" must be a non-empty name.`)
    out.givenName = given.trim()
  }
  const fromLegacy = input.givenName === undefined && input.firstName === undefined
  const surname = input.surname ?? input.lastName ?? (fromLegacy ? legacy?.surname : undefined)
  if (surname !== undefined) out.surname = surname.trim()
  const pick = (value: string | undefined, list: readonly string[]) =>
    value === undefined ? undefined : canonicalSpelling(value.trim(), list)
  const race = input.race === undefined ? undefined : canonicalRace(input.race.trim())
  const gender = pick(input.gender, GENDERS)
  const alignment = pick(input.alignment, ALIGNMENTS)
  const server = pick(input.server, SERVERS)
  if (race !== undefined) out.race = race
  if (gender !== undefined) out.gender = gender
  if (alignment !== undefined) out.alignment = alignment
  if (server !== undefined) out.server = server
  if (input.guild !== undefined) out.guild = input.guild.trim()
  const classes = input.classes ?? input.classLevels
  if (classes !== undefined) out.classes = checkClasses(classes, input.classes ? 'classes' : 'classLevels')
  const epic = input.epicLevels ?? input.epic_levels
  if (epic !== undefined) out.epicLevels = epic
  const loginKey = input.lastLoginAt !== undefined ? 'lastLoginAt' : 'last_login_at'
  const login = input.lastLoginAt !== undefined ? input.lastLoginAt : input.last_login_at
  if (login !== undefined) out.lastLoginAt = loginTimestamp(login, nowIso, loginKey)
  else if (touch) out.lastLoginAt = nowIso
  return out
}

/** `now`, an ISO 8601 timestamp (stored as UTC), or null (clears it). */
export function loginTimestamp(value: string | null, nowIso: string, field = 'lastLoginAt'): string | null {
  if (value === null) return null
  const parsed = parseTimestampOrNow(value, nowIso)
  if (parsed === null) throw new BadRequest(`Body field "${field}" must be "now" or an ISO 8601 timestamp.`)
  return parsed
}

export function createCharacter(db: DB, clock: Clock, userId: number, input: Input): CharacterJson {
  const now = isoNow(clock)
  const profile = profileFromInput(input, now, false)
  if (profile.givenName === undefined) {
    throw new BadRequest('Body field "givenName" is required (or "firstName", or a legacy "name").')
  }
  const givenName = profile.givenName
  // The count and the insert in one immediate transaction: parallel creates at the cap queue
  // for the write lock, and each sees the others' rows, so the cap is never overshot.
  const row = db.transaction((tx) => {
    const owned = tx.select({ n: count() }).from(characters).where(eq(characters.userId, userId)).get()?.n ?? 0
    if (owned >= MAX_CHARACTERS_PER_ACCOUNT) {
      throw new Conflict(
        `This account already has ${MAX_CHARACTERS_PER_ACCOUNT} characters, the most one account may have; delete one first.`,
      )
    }
    return (
      tx
        .insert(characters)
        // Sharing starts off: the link answers only once the player turns it on (POST …/share).
        .values({
          ...profile,
          givenName,
          userId,
          shareToken: newShareToken(),
          shared: false,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .get()
    )
  }, IMMEDIATE)
  return toCharacterJson(row)
}

// Prepared once per database: building and compiling the statement cost a fifth of the request.
const listStatement = preparedOnce((db: DB) =>
  db
    .select()
    .from(characters)
    .where(eq(characters.userId, sql.placeholder('userId')))
    .orderBy(asc(characters.id))
    .prepare(),
)

// Of the current quest life (1 before any life is recorded), as the tracker counts them.
const questsDoneStatement = preparedOnce((db: DB) =>
  db
    .select({ n: sql<number>`count(distinct ${completions.name})` })
    .from(completions)
    .where(
      and(
        eq(completions.characterId, sql.placeholder('id')),
        eq(
          completions.lifeIndex,
          sql`coalesce((select l.quest_life from lives l where l.character_id = ${sql.placeholder('id')} and l.is_current = 1), 1)`,
        ),
      ),
    )
    .prepare(),
)

/**
 * Each character's count of quests done, with the version of the character it was counted at
 * (its ETag): counting reads all of the character's completions of its life, and the list is
 * read far more often than a character changes, so it is counted again only after a write.
 */
const counted = new WeakMap<ChangeFeed, Map<number, { tag: string; n: number }>>()

/**
 * The account's characters, each with its count of distinct quests done: counted once per
 * version of the character when `changes` (the feed whose versions say when) is given.
 */
export function listCharacters(db: DB, userId: number, changes?: ChangeFeed): CharacterJson[] {
  let cache = changes ? counted.get(changes) : undefined
  if (changes && !cache) counted.set(changes, (cache = new Map()))
  const count = questsDoneStatement(db)
  return listStatement(db)
    .all({ userId })
    .map((row) => {
      const tag = changes?.characterTag(row.id) ?? ''
      let entry = cache?.get(row.id)
      if (!entry || entry.tag !== tag) {
        entry = { tag, n: count.get({ id: row.id })?.n ?? 0 }
        cache?.set(row.id, entry)
      }
      return { ...toCharacterJson(row), questsDone: entry.n }
    })
}

// The list's ETag needs only the ids: read from the (user_id) index, no row.
const idsStatement = preparedOnce((db: DB) =>
  db
    .select({ id: characters.id })
    .from(characters)
    .where(eq(characters.userId, sql.placeholder('userId')))
    .orderBy(asc(characters.id))
    .prepare(),
)

/** The ids of the account's characters, in the list's order. */
export function characterIds(db: DB, userId: number): number[] {
  return idsStatement(db)
    .all({ userId })
    .map((row) => row.id)
}

/** Deletes the character; its completions, lives and builds go with it (foreign-key cascade). */
export function deleteCharacter({ db, changes }: Writer, userId: number, id: number): void {
  const removed = db
    .delete(characters)
    .where(and(eq(characters.id, id), eq(characters.userId, userId)))
    .returning({ id: characters.id })
    .get()
  if (!removed) ownedCharacter(db, userId, id) // throws the usual 404
  changes.publish(id, 'character')
}

/** A new share token (the old link stops working) and sharing on. */
export function shareCharacter(writer: Writer, userId: number, id: number): CharacterJson {
  return updateCharacterRow(writer, userId, id, {
    shareToken: newShareToken(),
    shared: true,
    updatedAt: isoNow(writer.clock),
  })
}

/** Sharing off: the link answers 404 until the character is shared again. */
export function unshareCharacter(writer: Writer, userId: number, id: number): CharacterJson {
  return updateCharacterRow(writer, userId, id, { shared: false, updatedAt: isoNow(writer.clock) })
}

export function getCharacter(db: DB, userId: number, id: number): CharacterJson {
  return toCharacterJson(ownedCharacter(db, userId, id))
}

const same = (a: string, b: string) => a.toLocaleLowerCase() === b.trim().toLocaleLowerCase()

/**
 * Any combination of criteria, all case-insensitive, among the caller's characters only.
 * No criteria: all of them. Compared here rather than in SQL so case folding covers accents.
 */
/**
 * The characters matching every field asked (any case), the best match first: the game plugin
 * DungeonTracker takes the first as its character (settoloki/DungeonTracker,
 * DdoTrackerSyncService.FindWebsiteCharacterAsync) and asks without a server. So first those
 * whose given name and surname (or display name) are exactly as asked, then the asked server's
 * (exactly as written), then the one logged in last; the account's order (by id) breaks ties.
 */
export function findCharacters(
  db: DB,
  userId: number,
  query: Static<typeof FindQuery>,
  changes?: ChangeFeed,
): CharacterJson[] {
  const given = query.givenName ?? query.firstName
  const surname = query.surname ?? query.lastName
  const name = query.name
  const matches = listCharacters(db, userId, changes).filter(
    (c) =>
      (given === undefined || same(c.givenName, given)) &&
      (surname === undefined || same(c.surname, surname)) &&
      (name === undefined ||
        same(c.name, name) ||
        (given === undefined && surname === undefined && same(c.givenName, name))) &&
      (query.server === undefined || same(c.server, query.server)),
  )
  const exactly = (value: string, asked: string | undefined) => asked === undefined || value === asked.trim()
  /** 0 for a character named exactly as asked, then 1 for one on the server exactly as asked; 2 else. */
  const rank = (c: CharacterJson) =>
    exactly(c.givenName, given) && exactly(c.surname, surname) && (exactly(c.name, name) || exactly(c.givenName, name))
      ? 0
      : query.server !== undefined && exactly(c.server, query.server)
        ? 1
        : 2
  const lastLogin = (c: CharacterJson) => c.lastLoginAt ?? ''
  // Array.prototype.sort is stable: equals keep the account's order.
  return matches.sort((a, b) => rank(a) - rank(b) || lastLogin(b).localeCompare(lastLogin(a)))
}

/** PATCH and PUT: only the fields sent change. */
export function updateCharacter(writer: Writer, userId: number, id: number, input: Input): CharacterJson {
  const now = isoNow(writer.clock)
  const profile = profileFromInput(input, now, input.touchLastLogin === true || input.seen === true)
  return updateCharacterRow(writer, userId, id, { ...profile, updatedAt: now })
}

/** POST .../login: lastLoginAt = the given timestamp, or now. */
export function noteLogin(
  writer: Writer,
  userId: number,
  id: number,
  lastLoginAt: string | null | undefined,
  field: string,
): CharacterJson {
  const now = isoNow(writer.clock)
  const at = lastLoginAt === undefined || lastLoginAt === null ? now : loginTimestamp(lastLoginAt, now, field)
  return updateCharacterRow(writer, userId, id, { lastLoginAt: at, updatedAt: now })
}

/** The owned character with `set` applied; the change is published. */
function updateCharacterRow({ db, changes }: Writer, userId: number, id: number, set: Partial<CharacterRow>) {
  const row = updateOwnedCharacter(db, userId, id, set)
  changes.publish(id, 'character', headChange(row))
  return toCharacterJson(row)
}
