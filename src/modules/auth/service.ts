// Credentials: password logins, bearer tokens and their checks, the account a credential
// stands for. Creating and administering accounts is account/service.ts.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import { DEFAULT_TOKEN_IDLE_DAYS } from '../../config'
import type { DB } from '../../db/client'
import { keptRows } from '../../db/freshness'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { apiTokens, sessions, users } from '../../db/schema'
import { unlessFull } from '../../db/space'
import type { AppDeps } from '../../deps'
import { addressKey } from '../../http/address'
import { BadRequest, NotFound, TooManyRequests, Unauthorized } from '../../http/errors'
import { quoted } from '../../logger'
import { normalizedName } from '../account/names'
import { MAX_TOKENS_PER_ACCOUNT } from './limits'
import type { LoginGuard } from './loginGuard'

export const TOKEN_PREFIX = 'qt_'

export interface PublicUser {
  id: number
  email: string | null
  username: string | null
  displayName: string
}

export type UserRow = typeof users.$inferSelect

/** What other players see of an account (a route's owner): its username, never its e-mail. */
export const userDisplayName = (user: { username: string | null }): string => user.username ?? 'Player'

export const toPublicUser = (user: Pick<UserRow, 'id' | 'email' | 'username'>): PublicUser => ({
  id: user.id,
  email: user.email,
  username: user.username,
  displayName: userDisplayName(user),
})

/** SHA-256 in hex (Bun's one-shot hash: a quarter of node:crypto's cost, on every request). */
export const hashToken = (token: string): string => Bun.SHA256.hash(token, 'hex')

/** 32 random bytes (256 bits) behind the fixed prefix. */
export const newToken = (): string => TOKEN_PREFIX + randomBytes(32).toString('base64url')

/**
 * Finds an account by username or e-mail, both without regard to case: as typed first (every
 * name stored before names were normalized keeps signing in), then in its NFKC form (a name is
 * stored so: one typed in full-width letters finds it).
 */
export function findUser(db: Pick<DB, 'select'>, identifier: string): UserRow | undefined {
  const value = identifier.trim()
  const find = (name: string) =>
    db
      .select()
      .from(users)
      .where(sql`${users.email} = lower(${name}) or lower(${users.username}) = lower(${name})`)
      .get()
  const found = find(value)
  if (found) return found
  const normalized = normalizedName(value)
  return normalized === value ? undefined : find(normalized)
}

const BAD_CREDENTIALS = 'Wrong username, e-mail or password.'

/**
 * The credential check every password login shares (the plugin's token login, the website's
 * session login, the account page's current password): returns the account, or throws 401 (the
 * same body for an unknown name and a wrong password), 429 with Retry-After (the name or the
 * address throttled, or holding its share of the checks in flight) or 503 (too much argon2 work
 * in flight). `clientAddress` comes from `guard.clientAddress(request, server)`.
 */
export async function verifyLogin(
  db: DB,
  guard: LoginGuard,
  identifier: string,
  password: string,
  clientAddress: string | undefined,
): Promise<UserRow> {
  const user = findUser(db, identifier)
  const address = addressKey(clientAddress)
  // Security events at warn, with the account (or the unknown name, quoted and cut, so a line
  // cannot be forged through it) and the address, as self-hosted servers log them for fail2ban.
  const who = user
    ? `account ${quoted(user.username ?? user.email ?? '')}`
    : `unknown name ${quoted(identifier.slice(0, 64))}`
  const from = clientAddress ?? 'an unknown address'
  const refuseLockedName = () => {
    const nameWait = guard.names.retryAfterSeconds(identifier)
    if (nameWait === 0) return
    guard.logger.warn(`login refused: ${who} is locked for ${nameWait} s (from ${from})`, {
      event: 'login-locked',
      address: from,
    })
    throw new TooManyRequests(`Too many failed logins for this account; try again in ${nameWait} seconds.`, nameWait)
  }
  refuseLockedName()
  const addressWait = guard.addresses.retryAfterSeconds(address)
  if (addressWait > 0) {
    guard.logger.warn(`login refused: ${from} is locked for ${addressWait} s (${who})`, {
      event: 'address-locked',
      address: from,
    })
    throw new TooManyRequests(
      `Too many failed logins from your address; try again in ${addressWait} seconds.`,
      addressWait,
    )
  }
  const slot = guard.hashing.enter(identifier, address) // throws 429 or 503 now
  // Taken before the (slow) verification, not after it: the logins of one address run side by
  // side, and each must see the others. Only a success gives it back.
  guard.addresses.take(address)
  const release = await slot
  try {
    // This name's turn: its earlier attempts are all counted (one name is checked at a time).
    try {
      refuseLockedName()
    } catch (error) {
      guard.addresses.refund(address)
      throw error
    }
    const account = user ? String(user.id) : undefined
    const accountWait = account === undefined ? 0 : guard.accounts.retryAfterSeconds(account)
    // Counted before the check: the account's other name may be checked at the same time.
    if (account !== undefined && accountWait === 0) guard.accounts.fail(account)
    const checked = user !== undefined && accountWait === 0 ? user : undefined
    // A locked account reached by a name that is not locked itself is answered exactly like a
    // wrong password (a 429 would link that name to the locked one): checked against the dummy
    // hash, as slow as any check and never right, and counted against the name.
    const ok = await guard.hasher.verify(password, checked?.passwordHash ?? (await guard.dummyHash()))
    if (checked && ok) {
      guard.names.succeed(identifier)
      guard.accounts.succeed(String(checked.id))
      guard.addresses.refund(address)
      return checked
    }
    guard.names.fail(identifier)
    if (accountWait > 0) {
      guard.logger.warn(`login refused: ${who} is locked for ${accountWait} s (from ${from})`, {
        event: 'login-locked',
        address: from,
      })
    } else {
      guard.logger.warn(`failed login: ${who} from ${from}`, { event: 'login-failed', address: from })
    }
    throw new Unauthorized(BAD_CREDENTIALS)
  } finally {
    release()
  }
}

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

/** Checks the credentials (verifyLogin), then issues a new bearer token (issueToken). */
export async function login(
  { db, clock, config }: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  guard: LoginGuard,
  identifier: string,
  password: string,
  label: string,
  clientAddress: string | undefined,
): Promise<LoginResult> {
  const user = await verifyLogin(db, guard, identifier, password, clientAddress)
  const { token, tokenId } = issueToken(db, clock, user.id, label, config.tokenIdleDays * DAY_MS)
  return { token, tokenId, label, user: toPublicUser(user) }
}

/** When a token was last used: its creation until its first use. */
const lastUse = sql`coalesce(${apiTokens.lastUsedAt}, ${apiTokens.createdAt})`

/**
 * A new token for the account, in one transaction that also keeps the account's rows bounded
 * (every login adds one, and game clients log in often): the account's revoked tokens and those
 * unused for `idleMs` (expired, see authenticate) are deleted, and beyond MAX_TOKENS_PER_ACCOUNT
 * live ones the least recently used are deleted too. The login itself is never refused.
 */
export function issueToken(db: DB, clock: Clock, userId: number, label: string, idleMs: number) {
  const token = newToken()
  const now = clock.now().getTime()
  const expired = new Date(now - idleMs).toISOString()
  return db.transaction(
    (tx) => {
      tx.delete(apiTokens)
        .where(and(eq(apiTokens.userId, userId), or(isNotNull(apiTokens.revokedAt), lt(lastUse, expired))))
        .run()
      const row = tx
        .insert(apiTokens)
        .values({ userId, label, tokenHash: hashToken(token), createdAt: isoNow(clock) })
        .returning({ id: apiTokens.id })
        .get()
      const kept = tx
        .select({ id: apiTokens.id })
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(desc(lastUse), desc(apiTokens.id))
        .limit(MAX_TOKENS_PER_ACCOUNT)
      tx.delete(apiTokens)
        .where(and(eq(apiTokens.userId, userId), notInArray(apiTokens.id, kept)))
        .run()
      return { token, tokenId: row.id }
    },
    { behavior: 'immediate' },
  )
}

/**
 * Deletes every account's ended tokens: revoked ones, and those unused for `idleMs` (which
 * authenticate refuses already). A login cleans its own account's; this reaches the accounts that
 * never log in again (the scheduled housekeeping). Answers how many went.
 */
export function pruneTokens(db: DB, clock: Clock, idleMs: number): number {
  const expired = new Date(clock.now().getTime() - idleMs).toISOString()
  return db
    .delete(apiTokens)
    .where(or(isNotNull(apiTokens.revokedAt), lt(lastUse, expired)))
    .returning({ id: apiTokens.id })
    .all().length
}

export interface Session {
  user: PublicUser
  tokenId: number
}

export const DAY_MS = 24 * 60 * 60_000
/** lastUsedAt is moved at most this often: a write per request would cost an fsync each. */
export const TOKEN_TOUCH_MS = 60 * 60_000

// Every authenticated request runs this query: prepared once per database, its row straight
// from bun:sqlite (Drizzle's mapping of it was a tenth of a request that reads little else).
const prepareTokenLookup = (db: DB) =>
  prepareNative(
    db,
    db
      .select(
        aliased({
          tokenId: apiTokens.id,
          createdAt: apiTokens.createdAt,
          lastUsedAt: apiTokens.lastUsedAt,
          id: users.id,
          email: users.email,
          username: users.username,
        }),
      )
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(and(eq(apiTokens.tokenHash, sql.placeholder('hash')), isNull(apiTokens.revokedAt))),
  )
const tokenLookup = preparedOnce(prepareTokenLookup)

/** What a request needs of a token's row, worked out once when it is read. */
interface KeptToken extends Session {
  /** Its last use (its creation until then), in ms. */
  lastUsedMs: number
  /** Whether a use was ever recorded. */
  used: boolean
}

// A token's row, kept between its requests while nothing could have changed it (src/db/freshness.ts):
// revoked, deleted, its account changed or removed, by this process or another. Requests share
// its objects (frozen: no request may change what the next one is answered).
const keptTokens = keptRows<string, KeptToken>()

function keptToken(db: DB, hash: string): KeptToken | undefined {
  const row = tokenLookup(db).get({ hash })
  if (!row) return undefined
  const lastUsed = row.lastUsedAt ?? row.createdAt
  return Object.freeze({
    tokenId: row.tokenId,
    user: Object.freeze(toPublicUser(row)),
    lastUsedMs: Date.parse(lastUsed),
    used: row.lastUsedAt !== null,
  })
}

/**
 * Resolves an Authorization header to its account, or throws 401 saying why. A token unused
 * for `idleMs` has expired; a used one has its lastUsedAt moved (at most once an hour).
 */
export function authenticate(
  db: DB,
  clock: Clock,
  authorization: string | null | undefined,
  idleMs = DEFAULT_TOKEN_IDLE_DAYS * DAY_MS,
): Session {
  if (!authorization) throw new Unauthorized('Missing bearer token: send "Authorization: Bearer <token>".')
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  if (!match) throw new Unauthorized('Malformed Authorization header: expected "Bearer <token>".')
  const hash = hashToken(match[1] as string)
  const token = keptTokens(db).get(hash, () => keptToken(db, hash))
  if (!token) throw new Unauthorized('Invalid or revoked token; log in again.')
  const now = clock.now().getTime()
  if (now - token.lastUsedMs > idleMs) {
    throw new Unauthorized(
      `This token was not used for ${Math.round(idleMs / 86_400_000)} days and has expired; log in again.`,
    )
  }
  if (!token.used || now - token.lastUsedMs >= TOKEN_TOUCH_MS) {
    // On a full disk the request goes on without it: a read must not fail for its bookkeeping.
    unlessFull(db, 'the last use of a token', () =>
      db
        .update(apiTokens)
        .set({ lastUsedAt: isoNow(clock) })
        .where(eq(apiTokens.id, token.tokenId))
        .run(),
    )
  }
  return token
}

export function revokeToken(db: DB, clock: Clock, tokenId: number): void {
  db.update(apiTokens)
    .set({ revokedAt: isoNow(clock) })
    .where(eq(apiTokens.id, tokenId))
    .run()
}

export interface TokenListItem {
  id: number
  label: string
  createdAt: string
  lastUsedAt: string | null
}

/** What a list of tokens shows of each: never the token (nor its hash). */
export const tokenColumns = {
  id: apiTokens.id,
  label: apiTokens.label,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
}

/** The account's live (unrevoked) tokens, newest first. */
export function listTokens(db: DB, userId: number): TokenListItem[] {
  return db
    .select(tokenColumns)
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.id))
    .all()
}

/** Revokes one of the account's own live tokens; another account's or a revoked one is 404. */
export function revokeOwnToken(db: DB, clock: Clock, userId: number, tokenId: number): void {
  const row = db
    .update(apiTokens)
    .set({ revokedAt: isoNow(clock) })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id })
    .get()
  if (!row) throw new NotFound(`No live token ${tokenId} on this account.`)
}

/** Every live token and website session of the account ends; `tx` may be a transaction. */
export function revokeEverything(tx: Pick<DB, 'update'>, clock: Clock, userId: number): void {
  const at = isoNow(clock)
  tx.update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .run()
  tx.update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .run()
}
