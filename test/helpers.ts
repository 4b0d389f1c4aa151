// Builds an app on a fresh in-memory database, with a movable clock, a cheap password hasher,
// and small request helpers. Every request an app of the tests handles passes a validating
// proxy: it and its answer are checked against the OpenAPI document that app serves.

import { Database } from 'bun:sqlite'
import { expect } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import { and, asc, eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { isDocumented } from '../src/apiDocs/openapi'
import { createApp } from '../src/app'
import type { Clock } from '../src/clock'
import { loadConfig } from '../src/config'
import { type DB, openDatabase, openMemoryCopy } from '../src/db/client'
import { countOwnWrites } from '../src/db/freshness'
import * as schema from '../src/db/schema'
import { builds, characters, lives } from '../src/db/schema'
import { type Logger, silentLogger } from '../src/logger'
import { createUser } from '../src/modules/account/service'
import { argon2idHasher, type PasswordHasher } from '../src/modules/auth/password'
import { findUser } from '../src/modules/auth/service'
import { type Exchange, type OpenApiValidator, validatorFor } from './openapiValidator'

/**
 * argon2id at the smallest cost it accepts (8 KiB, 1 pass): a login takes well under a
 * millisecond instead of a quarter of a second. test/modules/auth/password.test.ts checks the real cost.
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

/**
 * Every request and answer, of any app the tests build, that departs from the OpenAPI document
 * the app serves (see test/openapiValidator.ts for the rules). test/setup.ts fails the test.
 */
export const documentViolations: string[] = []

/** Header names in lower case, as an Exchange records them. */
const headersOf = (headers: Headers): Record<string, string> => Object.fromEntries(headers)

/**
 * The validator of the document an app serves, fetched from the first app of each route table:
 * building the document costs more than most tests (tens of milliseconds), and every app of
 * the same code serves the same document, whatever its configuration (test/apiDocs/openapi.test.ts
 * proves it), so the apps of one route table share it.
 */
const served = new Map<string, Promise<OpenApiValidator>>()

function servedValidator(app: ReturnType<typeof createApp>, handle: (request: Request) => Promise<Response>) {
  const table = app.routes.map((route) => `${route.method} ${route.path}`).join('\n')
  let validator = served.get(table)
  if (!validator) {
    validator = handle(new Request('http://localhost/api/openapi.json')).then(async (response) =>
      validatorFor(await response.text()),
    )
    served.set(table, validator)
  }
  return validator
}

/**
 * Puts the validating proxy in front of `app.handle` (which `request` and `json` below, and
 * tests that call `t.app.handle` directly, all go through): every documented request and its
 * answer are checked against the app's OpenAPI document (test/openapiValidator.ts).
 */
function validateTraffic(app: ReturnType<typeof createApp>, report: (problems: string[]) => void): void {
  const forward = app.handle
  app.handle = async (request: Request) => {
    if (request.method === 'OPTIONS' || !isDocumented(new URL(request.url).pathname)) return forward(request)
    const sent = request.body ? request.clone() : undefined
    const response = await forward(request)
    const exchange: Exchange = {
      method: request.method,
      url: request.url,
      request: { headers: headersOf(request.headers), body: sent ? await sent.text() : undefined },
      response: { status: response.status, headers: headersOf(response.headers), body: await bodyText(response) },
    }
    report((await servedValidator(app, forward)).check(exchange))
    return response
  }
}

/** An answer's body as the client reads it: a gzipped one (Content-Encoding) unpacked, as fetch does. */
async function bodyText(response: Response): Promise<string> {
  const bytes = new Uint8Array(await response.clone().arrayBuffer())
  const gzipped = response.headers.get('content-encoding') === 'gzip'
  return new TextDecoder().decode(gzipped ? Bun.gunzipSync(bytes) : bytes)
}

type App = ReturnType<typeof createApp>

/**
 * Eden Treaty over an app, sending `headers` with every call: typed from the app's own routes.
 * `parseDate: false`: timestamps stay the strings the API sends (Eden would make them Dates).
 * `treaty<App>`: left to infer its header type from `headers`, Eden asked every call's options
 * for a `headers` string, so no call could pass a `query`.
 */
const clientOf = (app: App, headers: Record<string, string> = {}) => treaty<App>(app, { headers, parseDate: false }).api

/** The typed client of an app, at `/api`: `.plugin` for the plugin API, the rest the website's. */
export type Client = ReturnType<typeof clientOf>

/** What an Eden call resolves to, as far as the assertions below read it. */
interface Answer {
  data: unknown
  error: { status: unknown; value: unknown } | null
  status: number
}

/**
 * The status first, then the body, narrowed: `const character = ok(await api.characters.post(...), 201)`.
 * Fails the test with the error body when the status is another.
 */
export function ok<A extends Answer>(answer: A, status = 200): NonNullable<A['data']> {
  expect({ status: answer.status, error: answer.error?.value }).toEqual({ status, error: undefined })
  return answer.data as NonNullable<A['data']>
}

/** An error answer: the status, then the one-sentence body every error has. */
export function refused(answer: Answer, status: number): { error: string } {
  expect(answer.status).toBe(status)
  const value = answer.error?.value
  expect(value).toEqual({ error: expect.any(String) })
  return value as { error: string }
}

/**
 * Lets the event loop turn, as it does before a request that a client sends after something
 * else ended (the CLI's write) reaches the server: `app.handle` in a test skips the socket, and
 * the server reads another connection's commits once per turn (src/db/freshness.ts).
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export interface TestApp {
  app: ReturnType<typeof createApp>
  /** Typed calls without a credential (public routes, and 401s). */
  api: Client
  /** Typed calls with a plugin bearer token: `plugin(token).characters.get()`. */
  plugin(token: string): Client['plugin']
  /** Typed calls of the website's cookie API with a session cookie (from signIn). */
  web(cookie: string): Client
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

/** A copy of a freshly migrated database, made once per test process. */
let migratedImage: Uint8Array | undefined

/**
 * A fresh in-memory database at this binary's schema, as `openDatabase(':memory:')` gives: a copy
 * of one migrated once per process (the fourteen migrations took most of a small test's time).
 */
export function freshDatabase(): DB {
  migratedImage ??= openDatabase(':memory:').$client.serialize()
  return openMemoryCopy(migratedImage)
}

export function testApp(
  env: Record<string, string> = {},
  {
    passwordHasher = cheapHasher,
    logger = silentLogger,
    bodyTimeLimitMs,
    db = freshDatabase(),
  }: {
    passwordHasher?: PasswordHasher
    logger?: Logger
    bodyTimeLimitMs?: number
    /** A database of the test's own (a file, an older schema); a fresh in-memory one by default. */
    db?: DB
  } = {},
): TestApp {
  const clock = new FakeClock()
  const config = loadConfig({ CATALOG_SYNC_CRON: 'off', ...env })
  const app = createApp(
    { db, config, clock, logger, passwordHasher },
    { onInvalidResponse: reportInvalidResponse, bodyTimeLimitMs },
  )
  validateTraffic(app, (problems) => documentViolations.push(...problems))

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

  const api = clientOf(app)
  const plugin = (token: string) => clientOf(app, { authorization: `Bearer ${token}` }).plugin
  const web = (cookie: string) => clientOf(app, { cookie })

  return { app, api, plugin, web, db, clock, passwordHasher, request, json, userWithToken, signIn }
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

/** A character's stored build document row of one role (live or planned), if any. */
export const storedBuild = (db: DB, characterId: number, role: 'live' | 'planned') =>
  db
    .select()
    .from(builds)
    .where(and(eq(builds.characterId, characterId), eq(builds.role, role)))
    .get()

/** A character's stored row (it must exist). */
export const storedCharacter = (db: DB, id: number) => db.select().from(characters).where(eq(characters.id, id)).get()!

/** A character's stored lives, oldest first. */
export const storedLives = (db: DB, id: number) =>
  db.select().from(lives).where(eq(lives.characterId, id)).orderBy(asc(lives.lifeIndex)).all()

/** Reads server-sent events from a streaming response until `until` matches or time runs out. */
export async function readEvents(response: Response, until: (text: string) => boolean, ms = 2000): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + ms
  while (!until(text) && Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      Bun.sleep(deadline - Date.now()).then(() => ({ done: true, value: undefined })),
    ])
    if (chunk.done) break
    text += decoder.decode(chunk.value)
  }
  await reader.cancel()
  return text
}

/**
 * A copy of a test's in-memory database (`t.db.$client.serialize()`), for a file whose every test
 * starts from the same accounts, sessions and characters: built once, copied per test in a
 * millisecond instead of made again through the API. Ids and session cookies stay valid.
 */
export function databaseFrom(snapshot: Uint8Array): DB {
  const sqlite = Database.deserialize(snapshot, { strict: true })
  sqlite.run('PRAGMA foreign_keys = ON')
  // What openDatabase does per connection: the count of its own writes (src/db/freshness.ts).
  countOwnWrites(sqlite)
  return drizzle({ client: sqlite, schema, casing: 'snake_case' }) as DB
}
