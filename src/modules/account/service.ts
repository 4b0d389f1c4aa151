// Account administration: create an account, change its password, list and remove accounts, and
// the admin's view of every plugin token. Used by the admin CLI and the website's account page;
// logging in and checking a credential are auth/service.ts.
import { and, count, eq, isNull, sql } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import { type DB, IMMEDIATE } from '../../db/client'
import { apiTokens, users } from '../../db/schema'
import type { AppDeps } from '../../deps'
import { BadRequest } from '../../http/errors'
import { MAX_PASSWORD_LENGTH } from '../auth/model'
import {
  findUser,
  type PublicUser,
  revokeEverything,
  type TokenListItem,
  tokenColumns,
  toPublicUser,
  type UserRow,
} from '../auth/service'
import { markAccountQuestTimes } from '../catalog/questTimes'
import { leaveEveryGroup } from '../groups/members'
import { checkVisible, nameKey, normalizedName } from './names'

export interface NewUser {
  username?: string
  email?: string
  password: string
}

export function checkPassword(password: string): void {
  if (password.length < 8) throw new BadRequest('The password must be at least 8 characters long.')
  // Login accepts no longer one (LoginBody): a longer password could never be used.
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new BadRequest(`The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`)
  }
}

/** A username as normalizedName makes it: no spaces or "@", no hidden character (names.ts). */
export function checkUsername(username: string): void {
  checkVisible(username)
  if (!/^[^\s@]{1,64}$/.test(username)) {
    throw new BadRequest('A username is 1 to 64 characters without spaces or "@".')
  }
}

export function checkEmail(email: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254 || /[\p{C}\p{Z}]/u.test(email))
    throw new BadRequest(`"${email}" is not an e-mail address.`)
}

/** A new account's names, as stored: the username in its NFKC form, the e-mail lower-cased. */
export interface NewUserNames {
  username: string | null
  email: string | null
}

/**
 * Checks a new account before its password is hashed: a name (a username, an e-mail or both),
 * each well formed and taken by no account (as a username or an e-mail), and the password's
 * length. 400 with a sentence otherwise. Run it again in the transaction that inserts, when
 * another request may have taken the name in between (sign-up: checkNamesFree).
 */
export function checkNewUser(db: Pick<DB, 'select'>, input: NewUser): NewUserNames {
  const username = normalizedName(input.username ?? '') || null
  const email = input.email?.trim().toLowerCase() || null
  if (!username && !email) throw new BadRequest('Give a username, an e-mail address, or both.')
  if (username) checkUsername(username)
  if (email) checkEmail(email)
  checkPassword(input.password)
  checkNamesFree(db, { username, email })
  return { username, email }
}

/**
 * 400 when an account already has the username or the e-mail (as either), the username compared
 * on its normalized form (nameKey): "gwen" is taken by "GWEN", by "ｇｗｅｎ" stored before names
 * were normalized, and by "Gwen" however it is typed.
 */
export function checkNamesFree(db: Pick<DB, 'select'>, { username, email }: NewUserNames): void {
  for (const identifier of [username, email]) {
    if (identifier && findUser(db, identifier)) throw new BadRequest(`An account "${identifier}" already exists.`)
  }
  if (username && usernameKeyTaken(db, username)) throw new BadRequest(`An account "${username}" already exists.`)
}

/**
 * Whether an account's username has the same nameKey as `username`. The unique index on
 * lower(username) finds ASCII names (findUser, by the key itself); SQLite's lower() folds ASCII
 * only and knows no NFKC, so the names that hold any other character (few: they are read whole,
 * a scan of the accounts' names) are compared here.
 */
function usernameKeyTaken(db: Pick<DB, 'select'>, username: string): boolean {
  const key = nameKey(username)
  if (findUser(db, key)) return true
  return db
    .select({ username: users.username })
    .from(users)
    .where(sql`${users.username} GLOB '*[^ -~]*'`)
    .all()
    .some((row) => row.username !== null && nameKey(row.username) === key)
}

/**
 * Inserts the account (its names checked by checkNewUser, its password hashed); `invitedBy`, the
 * account whose invite made it (sign-up with a group's invite).
 */
export function insertUser(
  db: Pick<DB, 'insert'>,
  clock: Clock,
  names: NewUserNames,
  passwordHash: string,
  invitedBy: number | null = null,
): UserRow {
  return db
    .insert(users)
    .values({ ...names, passwordHash, createdAt: isoNow(clock), invitedBy })
    .returning()
    .get()
}

export async function createUser(
  { db, clock, passwordHasher }: Pick<AppDeps, 'db' | 'clock' | 'passwordHasher'>,
  input: NewUser,
): Promise<PublicUser> {
  const names = checkNewUser(db, input)
  const passwordHash = await passwordHasher.hash(input.password)
  // Checked again with the insert: a sign-up may have taken the name while the password was hashed.
  return toPublicUser(
    db.transaction((tx) => {
      checkNamesFree(tx, names)
      return insertUser(tx, clock, names, passwordHash)
    }, IMMEDIATE),
  )
}

/**
 * A new password, and every token and session of the account revoked in the same
 * transaction: whoever knew the old password is out everywhere.
 */
export async function setPassword(
  { db, clock, passwordHasher }: Pick<AppDeps, 'db' | 'clock' | 'passwordHasher'>,
  identifier: string,
  password: string,
): Promise<PublicUser> {
  checkPassword(password)
  const user = requireUser(db, identifier)
  const passwordHash = await passwordHasher.hash(password)
  db.transaction((tx) => {
    tx.update(users).set({ passwordHash }).where(eq(users.id, user.id)).run()
    revokeEverything(tx, clock, user.id)
  })
  return toPublicUser(user)
}

export interface UserListItem extends PublicUser {
  createdAt: string
  activeTokens: number
}

export function listUsers(db: DB): UserListItem[] {
  // A join, not a correlated subquery: Drizzle writes columns unqualified in a one-table select,
  // and `"user_id" = "id"` inside the subquery compared each token with its own id.
  return db
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      createdAt: users.createdAt,
      activeTokens: count(apiTokens.id),
    })
    .from(users)
    .leftJoin(apiTokens, and(eq(apiTokens.userId, users.id), isNull(apiTokens.revokedAt)))
    .groupBy(users.id)
    .orderBy(users.id)
    .all()
    .map((row) => ({ ...toPublicUser(row), createdAt: row.createdAt, activeTokens: row.activeTokens }))
}

/** Removes the account; its tokens, characters and routes go with it (foreign-key cascade). */
export function removeUser(db: DB, identifier: string): PublicUser {
  const user = requireUser(db, identifier)
  db.transaction((tx) => {
    // Groups keep going without the account: each it owned goes to its longest-standing member.
    leaveEveryGroup(tx, user.id)
    tx.delete(apiTokens).where(eq(apiTokens.userId, user.id)).run()
    tx.delete(users).where(eq(users.id, user.id)).run()
  })
  return toPublicUser(user)
}

export interface AdminTokenItem extends TokenListItem {
  owner: string
}

/** Every live token (of one account when `identifier` is given), for `quest-tracker token list`. */
export function listLiveTokens(db: DB, identifier?: string): AdminTokenItem[] {
  const owner = identifier === undefined ? undefined : requireUser(db, identifier)
  return db
    .select({ ...tokenColumns, username: users.username, email: users.email })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(isNull(apiTokens.revokedAt), owner ? eq(apiTokens.userId, owner.id) : undefined))
    .orderBy(apiTokens.id)
    .all()
    .map(({ username, email, ...token }) => ({ ...token, owner: username ?? email ?? '?' }))
}

/** Revokes a live token by id (`quest-tracker token revoke ID`); an unknown or revoked id is refused. */
export function revokeTokenById(db: DB, clock: Clock, tokenId: number): void {
  const row = db
    .update(apiTokens)
    .set({ revokedAt: isoNow(clock) })
    .where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id })
    .get()
  if (!row) throw new BadRequest(`No live token ${tokenId}.`)
}

function requireUser(db: DB, identifier: string): UserRow {
  const user = findUser(db, identifier)
  if (!user) throw new BadRequest(`No account "${identifier}".`)
  return user
}

export interface AccountSettings {
  shareQuestTimes: boolean
}

export function getSettings(db: Pick<DB, 'select'>, userId: number): AccountSettings {
  const row = db.select({ shareQuestTimes: users.shareQuestTimes }).from(users).where(eq(users.id, userId)).get()
  return { shareQuestTimes: row?.shareQuestTimes ?? true }
}

/**
 * Changes the settings in one transaction; a change of sharing marks the account's quest keys,
 * so the server's quest times are recomputed with or without its runs at the next refresh.
 */
export function putSettings(db: DB, userId: number, settings: AccountSettings): AccountSettings {
  return db.transaction((tx) => {
    const before = getSettings(tx, userId)
    tx.update(users).set({ shareQuestTimes: settings.shareQuestTimes }).where(eq(users.id, userId)).run()
    if (before.shareQuestTimes !== settings.shareQuestTimes) markAccountQuestTimes(tx, userId)
    return { shareQuestTimes: settings.shareQuestTimes }
  }, IMMEDIATE)
}
