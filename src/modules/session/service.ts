// Website sessions: a random token in an HttpOnly cookie, stored only as its SHA-256, revocable,
// with an idle expiry that slides forward with use.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, gt, isNotNull, isNull, lte, notInArray, or, sql } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { keptRows } from '../../db/freshness'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { sessions, users } from '../../db/schema'
import { unlessFull } from '../../db/space'
import { Unauthorized } from '../../http/errors'
import { hashToken, type PublicUser, toPublicUser } from '../auth/service'
import { MAX_SESSIONS_PER_ACCOUNT } from './limits'

export const SESSION_COOKIE = 'qt_session'
const SESSION_PREFIX = 'qs_'

/** An unused session ends after 30 days; each use moves the end forward. */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60_000
/** The end is moved (a write and a new cookie) at most once an hour per session, not per request. */
export const SESSION_REFRESH_MS = 60 * 60_000

export interface ActiveSession {
  id: number
  user: PublicUser
  /** True when this request moved the expiry: the cookie is sent again with the new Max-Age. */
  renewed: boolean
}

const expiryFrom = (clock: Clock) => new Date(clock.now().getTime() + SESSION_IDLE_MS).toISOString()

/**
 * Opens a session; answers the plain token for the cookie (only its hash is stored). In the same
 * transaction the account's rows stay bounded: its ended and expired sessions are deleted, and
 * beyond MAX_SESSIONS_PER_ACCOUNT live ones the least recently used (the earliest expiry, which
 * slides with use) are deleted too. The sign-in itself is never refused.
 */
export function createSession(db: DB, clock: Clock, userId: number): string {
  const token = SESSION_PREFIX + randomBytes(32).toString('base64url')
  const now = isoNow(clock)
  db.transaction(
    (tx) => {
      tx.delete(sessions)
        .where(and(eq(sessions.userId, userId), or(isNotNull(sessions.revokedAt), lte(sessions.expiresAt, now))))
        .run()
      tx.insert(sessions)
        .values({ userId, tokenHash: hashToken(token), createdAt: now, expiresAt: expiryFrom(clock) })
        .run()
      const kept = tx
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(desc(sessions.expiresAt), desc(sessions.id))
        .limit(MAX_SESSIONS_PER_ACCOUNT)
      tx.delete(sessions)
        .where(and(eq(sessions.userId, userId), notInArray(sessions.id, kept)))
        .run()
    },
    { behavior: 'immediate' },
  )
  return token
}

/**
 * Deletes every account's ended sessions: signed out, or past their expiry. A sign-in cleans its
 * own account's; this reaches the accounts that never sign in again (the scheduled housekeeping).
 */
export function pruneSessions(db: DB, clock: Clock): number {
  return db
    .delete(sessions)
    .where(or(isNotNull(sessions.revokedAt), lte(sessions.expiresAt, isoNow(clock))))
    .returning({ id: sessions.id })
    .all().length
}

// Every cookie API request runs this query: prepared once per database, its row straight from
// bun:sqlite (src/db/native.ts).
function prepareLookup(db: DB) {
  return prepareNative(
    db,
    db
      .select(
        aliased({
          id: sessions.id,
          expiresAt: sessions.expiresAt,
          userId: users.id,
          email: users.email,
          username: users.username,
        }),
      )
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder('hash')),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql.placeholder('now')),
        ),
      ),
  )
}

const lookups = preparedOnce(prepareLookup)

/** What a request needs of a session's row, worked out once when it is read. */
interface KeptSession {
  id: number
  user: PublicUser
  expiresAt: string
  expiresMs: number
}

// A session's row, kept between its requests while nothing could have changed it (src/db/freshness.ts);
// its end is checked against the clock on every request, as the query does. Requests share its
// objects (frozen: no request may change what the next one is answered).
const keptSessions = keptRows<string, KeptSession>()

function keptSession(db: DB, hash: string, now: string): KeptSession | undefined {
  const row = lookups(db).get({ hash, now })
  if (!row) return undefined
  return Object.freeze({
    id: row.id,
    user: Object.freeze(toPublicUser({ ...row, id: row.userId })),
    expiresAt: row.expiresAt,
    expiresMs: Date.parse(row.expiresAt),
  })
}

/** The live session behind a cookie value at `iso` (now), or undefined: not one, or ended. */
function liveSession(db: DB, token: string | undefined, iso: string): KeptSession | undefined {
  if (!token) return undefined
  const hash = hashToken(token)
  const session = keptSessions(db).get(hash, () => keptSession(db, hash, iso))
  // Both ISO-8601 in UTC, so compared as text exactly as the query compares them.
  return session && session.expiresAt > iso ? session : undefined
}

/**
 * The account a cookie value signs in, or null: a look that changes nothing (no expiry slid), for
 * a page that only draws what the account may see (src/modules/web/firstScreen.ts). The reads
 * that page makes next go through the guard, which slides the expiry and sends the cookie again.
 */
export function sessionUser(db: DB, clock: Clock, token: string | undefined): PublicUser | null {
  return liveSession(db, token, clock.now().toISOString())?.user ?? null
}

/** The session behind a cookie value, or 401. Slides the expiry when it is due. */
export function sessionFromToken(db: DB, clock: Clock, token: string | undefined): ActiveSession {
  if (!token) throw new Unauthorized('Not signed in.')
  const now = clock.now()
  const session = liveSession(db, token, now.toISOString())
  if (!session) throw new Unauthorized('Your session has ended; sign in again.')
  const remaining = session.expiresMs - now.getTime()
  // On a full disk the expiry stays where it was (and the cookie with it): the request goes on.
  const renewed =
    SESSION_IDLE_MS - remaining >= SESSION_REFRESH_MS &&
    unlessFull(db, "a session's new expiry", () =>
      db
        .update(sessions)
        .set({ expiresAt: expiryFrom(clock) })
        .where(eq(sessions.id, session.id))
        .run(),
    )
  return { id: session.id, user: session.user, renewed }
}

/**
 * Whether a session still lets its holder in: not revoked, not expired, its account not removed
 * (its sessions go with it). For what outlives the request that checked it, such as a stream.
 */
export function sessionIsLive(db: DB, clock: Clock, sessionId: number): boolean {
  const row = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, isoNow(clock))))
    .get()
  return row !== undefined
}

export function revokeSession(db: DB, clock: Clock, sessionId: number): void {
  db.update(sessions)
    .set({ revokedAt: isoNow(clock) })
    .where(eq(sessions.id, sessionId))
    .run()
}

/**
 * The answer of a sign-out: the session cookie cleared in this browser, and `{ok: true}`.
 * `secure`: the request came over HTTPS (TrustedProxies.isHttps).
 */
export function signedOut(secure: boolean, set: { headers: Record<string, unknown> }) {
  set.headers['set-cookie'] = sessionCookie(null, secure)
  return { ok: true as const }
}

/** The value of one cookie in a Cookie header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/**
 * The Set-Cookie value (null: clear it): HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site
 * POSTs; following a link to the tracker still works), Secure when the request came over HTTPS,
 * directly or through a trusted proxy (TrustedProxies.isHttps): behind Caddy or nginx the server
 * itself only ever sees plain HTTP.
 */
export function sessionCookie(token: string | null, secure: boolean): string {
  const maxAge = token ? SESSION_IDLE_MS / 1000 : 0
  return [
    `${SESSION_COOKIE}=${token ?? ''}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAge}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ')
}
