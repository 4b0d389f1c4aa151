// Accounts and bearer tokens: used by the HTTP routes and by the admin CLI.
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { apiTokens, users } from '../../db/schema'
import { BadRequest, TooManyRequests, Unauthorized } from '../../http/errors'
import type { LoginThrottle } from './throttle'

export const TOKEN_PREFIX = 'qt_'

export interface PublicUser {
  id: number
  email: string | null
  username: string | null
  displayName: string
}

type UserRow = typeof users.$inferSelect

export const displayName = (user: { username: string | null }): string => user.username ?? 'Player'

export const toPublicUser = (user: Pick<UserRow, 'id' | 'email' | 'username'>): PublicUser => ({
  id: user.id,
  email: user.email,
  username: user.username,
  displayName: displayName(user),
})

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')

/** 32 random bytes (256 bits) behind the fixed prefix. */
export const newToken = (): string => TOKEN_PREFIX + randomBytes(32).toString('base64url')

/** Finds an account by username or e-mail, both without regard to case. */
export function findUser(db: DB, identifier: string): UserRow | undefined {
  const value = identifier.trim()
  return db
    .select()
    .from(users)
    .where(sql`${users.email} = lower(${value}) or lower(${users.username}) = lower(${value})`)
    .get()
}

// Verifying against this when the account does not exist makes a wrong username take as long
// as a wrong password, so the two cannot be told apart by timing either.
let dummyHash: Promise<string> | undefined
const dummy = () => {
  dummyHash ??= Bun.password.hash('no such account, no such password')
  return dummyHash
}

const BAD_CREDENTIALS = 'Wrong username, e-mail or password.'

export interface LoginResult {
  token: string
  tokenId: number
  label: string
  user: PublicUser
}

/** The identifier under any of its aliases; 400 when none is given. */
export function identifierOf(body: { identifier?: string; email?: string; username?: string; login?: string }): string {
  const identifier = body.identifier ?? body.email ?? body.username ?? body.login
  if (identifier === undefined || identifier.trim() === '') {
    throw new BadRequest('One of "identifier", "email", "username" or "login" is required.')
  }
  return identifier
}

/**
 * The password check every login shares (plugin tokens and website sessions): the throttle,
 * then argon2id (against a dummy hash when the account does not exist). Answers the account.
 */
export async function verifyLogin(
  db: DB,
  throttle: LoginThrottle,
  identifier: string,
  password: string,
): Promise<UserRow> {
  const wait = throttle.retryAfterSeconds(identifier)
  if (wait > 0) {
    throw new TooManyRequests(`Too many failed logins for this account; try again in ${wait} seconds.`, wait)
  }
  const user = findUser(db, identifier)
  const ok = await Bun.password.verify(password, user?.passwordHash ?? (await dummy()))
  if (!user || !ok) {
    throttle.fail(identifier)
    throw new Unauthorized(BAD_CREDENTIALS)
  }
  throttle.succeed(identifier)
  return user
}

export async function login(
  db: DB,
  clock: Clock,
  throttle: LoginThrottle,
  identifier: string,
  password: string,
  label: string,
): Promise<LoginResult> {
  const user = await verifyLogin(db, throttle, identifier, password)
  const token = newToken()
  const row = db
    .insert(apiTokens)
    .values({ userId: user.id, label, tokenHash: hashToken(token), createdAt: isoNow(clock) })
    .returning({ id: apiTokens.id })
    .get()
  return { token, tokenId: row.id, label, user: toPublicUser(user) }
}

export interface Session {
  user: PublicUser
  tokenId: number
}

// Every authenticated request runs this query: prepare it once per database, not per request.
const tokenLookups = new WeakMap<DB, ReturnType<typeof prepareTokenLookup>>()
const prepareTokenLookup = (db: DB) =>
  db
    .select({ tokenId: apiTokens.id, id: users.id, email: users.email, username: users.username })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, sql.placeholder('hash')), isNull(apiTokens.revokedAt)))
    .prepare()
const tokenLookup = (db: DB) => {
  let statement = tokenLookups.get(db)
  if (!statement) tokenLookups.set(db, (statement = prepareTokenLookup(db)))
  return statement
}

/** Resolves an Authorization header to its account, or throws 401 saying why. */
export function authenticate(db: DB, authorization: string | null | undefined): Session {
  if (!authorization) throw new Unauthorized('Missing bearer token: send "Authorization: Bearer <token>".')
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  if (!match) throw new Unauthorized('Malformed Authorization header: expected "Bearer <token>".')
  const row = tokenLookup(db).get({ hash: hashToken(match[1] as string) })
  if (!row) throw new Unauthorized('Invalid or revoked token; log in again.')
  return { tokenId: row.tokenId, user: toPublicUser(row) }
}

export function revokeToken(db: DB, clock: Clock, tokenId: number): void {
  db.update(apiTokens)
    .set({ revokedAt: isoNow(clock) })
    .where(eq(apiTokens.id, tokenId))
    .run()
}

// ---- Account administration (the CLI) ----

export interface NewUser {
  username?: string
  email?: string
  password: string
}

export function checkPassword(password: string): void {
  if (password.length < 8) throw new BadRequest('The password must be at least 8 characters long.')
}

export function checkUsername(username: string): void {
  if (!/^[^\s@]{1,64}$/.test(username)) {
    throw new BadRequest('A username is 1 to 64 characters without spaces or "@".')
  }
}

export function checkEmail(email: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254)
    throw new BadRequest(`"${email}" is not an e-mail address.`)
}

export async function createUser(db: DB, clock: Clock, input: NewUser): Promise<PublicUser> {
  const username = input.username?.trim() || null
  const email = input.email?.trim().toLowerCase() || null
  if (!username && !email) throw new BadRequest('Give a username, an e-mail address, or both.')
  if (username) checkUsername(username)
  if (email) checkEmail(email)
  checkPassword(input.password)
  for (const identifier of [username, email]) {
    if (identifier && findUser(db, identifier)) throw new BadRequest(`An account "${identifier}" already exists.`)
  }
  const passwordHash = await Bun.password.hash(input.password)
  const row = db
    .insert(users)
    .values({ username, email, passwordHash, createdAt: isoNow(clock) })
    .returning()
    .get()
  return toPublicUser(row)
}

export async function setPassword(db: DB, identifier: string, password: string): Promise<PublicUser> {
  checkPassword(password)
  const user = requireUser(db, identifier)
  const passwordHash = await Bun.password.hash(password)
  db.update(users).set({ passwordHash }).where(eq(users.id, user.id)).run()
  return toPublicUser(user)
}

export interface UserListItem extends PublicUser {
  createdAt: string
  activeTokens: number
}

export function listUsers(db: DB): UserListItem[] {
  return db
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      createdAt: users.createdAt,
      activeTokens: sql<number>`(select count(*) from ${apiTokens} where ${apiTokens.userId} = ${users.id} and ${apiTokens.revokedAt} is null)`,
    })
    .from(users)
    .orderBy(users.id)
    .all()
    .map((row) => ({ ...toPublicUser(row), createdAt: row.createdAt, activeTokens: row.activeTokens }))
}

/** Removes the account; its tokens, characters and routes go with it (foreign-key cascade). */
export function removeUser(db: DB, identifier: string): PublicUser {
  const user = requireUser(db, identifier)
  db.transaction((tx) => {
    tx.delete(apiTokens).where(eq(apiTokens.userId, user.id)).run()
    tx.delete(users).where(eq(users.id, user.id)).run()
  })
  return toPublicUser(user)
}

function requireUser(db: DB, identifier: string): UserRow {
  const user = findUser(db, identifier)
  if (!user) throw new BadRequest(`No account "${identifier}".`)
  return user
}
