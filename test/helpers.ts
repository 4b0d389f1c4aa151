// Builds an app on a fresh in-memory database, with a movable clock, a cheap password hasher,
// and small request helpers.
import { createApp } from '../src/app'
import type { Clock } from '../src/clock'
import { loadConfig } from '../src/config'
import { type DB, openDatabase } from '../src/db/client'
import { characters } from '../src/db/schema'
import { type Logger, silentLogger } from '../src/logger'
import { argon2idHasher, type PasswordHasher } from '../src/modules/auth/password'
import { createUser, findUser } from '../src/modules/auth/service'

/**
 * argon2id at the smallest cost it accepts (8 KiB, 1 pass): a login takes well under a
 * millisecond instead of a quarter of a second. test/password.test.ts checks the real cost.
 */
export const cheapHasher: PasswordHasher = argon2idHasher({ memoryCost: 8, timeCost: 1 })

export class FakeClock implements Clock {
  constructor(private ms = Date.parse('2026-11-21T12:00:00.000Z')) {}
  now() {
    return new Date(this.ms)
  }
  advance(ms: number) {
    this.ms += ms
  }
}

/**
 * Every answer, of any app the tests build, that does not match the schema its route documents
 * (the server itself no longer checks: src/http/responses.ts). test/setup.ts fails the test.
 */
export const invalidResponses: string[] = []
export const reportInvalidResponse = (problem: string): void => {
  invalidResponses.push(problem)
}

export interface TestApp {
  app: ReturnType<typeof createApp>
  db: DB
  clock: FakeClock
  passwordHasher: PasswordHasher
  request(method: string, path: string, options?: RequestOptions): Promise<Response>
  json<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: RequestOptions,
  ): Promise<{ status: number; body: T; headers: Headers }>
  /** Creates an account and logs it in; returns its token. */
  userWithToken(username: string, password?: string): Promise<string>
  /** Signs an existing account in to the website; returns its `Cookie` header value. */
  signIn(username: string, password?: string): Promise<string>
}

export interface RequestOptions {
  body?: unknown
  /** A raw body string, sent as is. */
  raw?: string
  token?: string
  /** A `Cookie` header value (the website's session). */
  cookie?: string
  headers?: Record<string, string>
}

export function testApp(
  env: Record<string, string> = {},
  { passwordHasher = cheapHasher, logger = silentLogger }: { passwordHasher?: PasswordHasher; logger?: Logger } = {},
): TestApp {
  const db = openDatabase(':memory:')
  const clock = new FakeClock()
  const config = loadConfig({ CATALOG_SYNC_CRON: 'off', ...env })
  const app = createApp({ db, config, clock, logger, passwordHasher }, { onInvalidResponse: reportInvalidResponse })

  const request = (method: string, path: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    let body: string | undefined = options.raw
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    if (options.cookie) headers.cookie = options.cookie
    return app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
  }

  const json = async <T>(method: string, path: string, options?: RequestOptions) => {
    const response = await request(method, path, options)
    const text = await response.text()
    let body: T
    try {
      body = JSON.parse(text) as T
    } catch {
      throw new Error(`${method} ${path} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`)
    }
    return { status: response.status, body, headers: response.headers }
  }

  const userWithToken = async (username: string, password = 'correct horse battery') => {
    await createUser({ db, clock, passwordHasher }, { username, password })
    const { status, body } = await json<{ token: string }>('POST', '/api/plugin/auth/login', {
      body: { identifier: username, password },
    })
    if (status !== 200) throw new Error(`login failed: ${status}`)
    return body.token
  }

  const signIn = async (username: string, password = 'correct horse battery') => {
    const response = await request('POST', '/api/session', { body: { identifier: username, password } })
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`)
    const cookie = /^(qt_session=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')
    if (!cookie) throw new Error('sign-in set no session cookie')
    return cookie[1] as string
  }

  return { app, db, clock, passwordHasher, request, json, userWithToken, signIn }
}

/**
 * Inserts a character row directly (for tests of features that need one to exist).
 * `owner` is a username created with userWithToken.
 */
export function insertCharacter(
  db: DB,
  owner: string,
  fields: Partial<typeof characters.$inferInsert> = {},
): typeof characters.$inferSelect {
  const user = findUser(db, owner)
  if (!user) throw new Error(`no user ${owner}`)
  const now = '2026-11-21T12:00:00.000Z'
  return db
    .insert(characters)
    .values({
      userId: user.id,
      givenName: 'Tester',
      shareToken: crypto.randomUUID(),
      createdAt: now,
      updatedAt: now,
      ...fields,
    })
    .returning()
    .get()
}
