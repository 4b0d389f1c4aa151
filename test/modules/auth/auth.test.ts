import { beforeEach, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import type { Static } from 'elysia'
import { apiTokens } from '../../../src/db/schema'
import { createUser } from '../../../src/modules/account/service'
import { MAX_TOKENS_PER_ACCOUNT } from '../../../src/modules/auth/limits'
import type { LoginBody } from '../../../src/modules/auth/model'
import type { PasswordHasher } from '../../../src/modules/auth/password'
import { hashToken } from '../../../src/modules/auth/service'
import { FIRST_LOCK_MS, MAX_FAILURES } from '../../../src/modules/auth/throttle'
import { cheapHasher, ok, refused, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'

let t: TestApp

beforeEach(async () => {
  t = testApp()
  await createUser(t, { username: 'Alice', email: 'Alice@Example.com', password: PASSWORD })
})

const login = (body: Static<typeof LoginBody>) => t.api.plugin.auth.login.post(body)
/** A token's account, or a refusal (401). */
const me = (token: string) => t.plugin(token).auth.me.get()

describe('POST /auth/login', () => {
  test.each([
    ['identifier', 'Alice'],
    ['identifier', 'alice@example.com'],
    ['email', 'ALICE@EXAMPLE.COM'],
    ['username', 'alice'],
    ['login', 'Alice@example.com'],
  ] as const)('logs in with %s=%s (case-insensitive)', async (field, value) => {
    const body = ok(await login({ [field]: value, password: PASSWORD }))
    expect(body.user).toEqual({ id: 1, email: 'alice@example.com', username: 'Alice', displayName: 'Alice' })
    expect(body.token).toStartWith('qt_')
    expect(body.label).toBe('plugin')
    expect(body.tokenId).toBeGreaterThan(0)
  })

  test('the token is random, long, and stored only as its SHA-256', async () => {
    const body = ok(await login({ identifier: 'Alice', password: PASSWORD, label: 'laptop' }))
    expect(body.label).toBe('laptop')
    expect(body.token.length).toBeGreaterThanOrEqual(3 + 43) // prefix + 32 bytes base64url
    const rows = t.db.select().from(apiTokens).all()
    expect(rows).toHaveLength(1)
    expect(rows[0]?.tokenHash).toBe(hashToken(body.token))
    expect(hashToken(body.token)).toBe(createHash('sha256').update(body.token).digest('hex'))
    expect(JSON.stringify(rows)).not.toContain(body.token)
  })

  test('an account can hold many tokens', async () => {
    const first = ok(await login({ identifier: 'Alice', password: PASSWORD }))
    const second = ok(await login({ identifier: 'Alice', password: PASSWORD, label: 'second' }))
    expect(first.token).not.toBe(second.token)
    expect(t.db.select().from(apiTokens).all()).toHaveLength(2)
    for (const token of [first.token, second.token]) {
      ok(await me(token))
    }
  })

  test('wrong password and unknown account are indistinguishable', async () => {
    const wrongPassword = refused(await login({ identifier: 'Alice', password: 'nope nope nope' }), 401)
    const wrongUser = refused(await login({ identifier: 'Mallory', password: PASSWORD }), 401)
    expect(wrongPassword).toEqual(wrongUser)
    expect(wrongPassword).toEqual({ error: expect.any(String) })
    expect(t.db.select().from(apiTokens).all()).toHaveLength(0)
  })

  test("an unknown name is checked against a hash from the app's own hasher (same cost, same time)", async () => {
    const made: string[] = []
    const checked: string[] = []
    const recording: PasswordHasher = {
      hash: async (password) => {
        made.push(await cheapHasher.hash(password))
        return made.at(-1) as string
      },
      verify: (password, hash) => {
        checked.push(hash)
        return cheapHasher.verify(password, hash)
      },
    }
    const app = testApp({}, { passwordHasher: recording })
    await createUser(app, { username: 'Alice', password: PASSWORD })
    for (const identifier of ['Alice', 'Mallory', 'Trent']) {
      refused(await app.api.plugin.auth.login.post({ identifier, password: 'nope nope' }), 401)
    }
    // Alice's own hash, then the one dummy hash, made once, for both unknown names.
    expect(made).toHaveLength(2)
    expect(checked).toEqual([made[0], made[1], made[1]] as string[])
  })

  test('an identifier is required', async () => {
    const body = refused(await login({ password: PASSWORD }), 400)
    expect(body).toEqual({ error: expect.stringContaining('identifier') })
  })

  test('a password is required and must be a string', async () => {
    // Raw: the typed client would not send a login without a password, or with a number for one.
    const rawLogin = (body: unknown) => t.json<{ error: string }>('POST', '/api/plugin/auth/login', { body })
    const missing = await rawLogin({ identifier: 'Alice' })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ error: 'Body field "password" is required.' })
    const wrongType = await rawLogin({ identifier: 'Alice', password: 12345678 })
    expect(wrongType.status).toBe(400)
    expect(wrongType.body).toEqual({
      error: 'Body field "password" must be a string of at most 1024 characters.',
    })
  })

  test('a username-only account shows displayName "Player" only when it has no username', async () => {
    await createUser(t, { email: 'nobody@example.com', password: PASSWORD })
    const body = ok(await login({ email: 'nobody@example.com', password: PASSWORD }))
    expect(body.user).toMatchObject({ email: 'nobody@example.com', username: null, displayName: 'Player' })
  })
})

describe('login throttling', () => {
  const fail = () => login({ identifier: 'Alice', password: 'wrong password' })

  test(`after ${MAX_FAILURES} failures the identifier gets 429 with Retry-After, then works after the wait`, async () => {
    for (let i = 0; i < MAX_FAILURES; i++) refused(await fail(), 401)
    const locked = await login({ identifier: 'alice', password: PASSWORD }) // same identifier, any case
    expect(refused(locked, 429)).toEqual({ error: expect.stringContaining('Too many failed logins') })
    expect(Number(locked.response.headers.get('retry-after'))).toBe(FIRST_LOCK_MS / 1000)

    t.clock.advance(FIRST_LOCK_MS - 1000)
    refused(await login({ identifier: 'Alice', password: PASSWORD }), 429)
    t.clock.advance(1000)
    ok(await login({ identifier: 'Alice', password: PASSWORD }))
  })

  test('other accounts are not blocked', async () => {
    await createUser(t, { username: 'Bob', password: PASSWORD })
    for (let i = 0; i < MAX_FAILURES; i++) await fail()
    refused(await login({ identifier: 'Alice', password: PASSWORD }), 429)
    ok(await login({ identifier: 'Bob', password: PASSWORD }))
  })

  test('a success clears the count of failures', async () => {
    for (let i = 0; i < MAX_FAILURES - 1; i++) await fail()
    ok(await login({ identifier: 'Alice', password: PASSWORD }))
    for (let i = 0; i < MAX_FAILURES - 1; i++) refused(await fail(), 401)
    ok(await login({ identifier: 'Alice', password: PASSWORD }))
  })

  test('each further lock lasts twice as long', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await fail()
    t.clock.advance(FIRST_LOCK_MS)
    for (let i = 0; i < MAX_FAILURES; i++) await fail()
    const locked = await fail()
    refused(locked, 429)
    expect(Number(locked.response.headers.get('retry-after'))).toBe((2 * FIRST_LOCK_MS) / 1000)
  })
})

describe('bearer tokens', () => {
  let token: string
  beforeEach(async () => {
    token = ok(await login({ identifier: 'Alice', password: PASSWORD })).token
  })

  test('GET /auth/me returns the account', async () => {
    expect(ok(await me(token))).toEqual({ id: 1, email: 'alice@example.com', username: 'Alice', displayName: 'Alice' })
  })

  test.each([
    ['missing', undefined, /Missing bearer token/],
    ['malformed', 'Token abc', /Malformed Authorization header/],
    ['empty bearer', 'Bearer ', /Malformed Authorization header/],
    ['unknown', 'Bearer qt_doesnotexist', /Invalid or revoked token/],
  ])('%s Authorization answers 401 with a sentence', async (_, header, message) => {
    const headers: Record<string, string> = header === undefined ? {} : { authorization: header }
    const body = refused(await t.api.plugin.auth.me.get({ headers }), 401)
    expect(body.error).toMatch(message)
    expect(Object.keys(body)).toEqual(['error'])
  })

  test.each([
    ['a wrong-typed body field', 'POST', '/api/plugin/characters', { givenName: 5 }],
    ['a missing required field', 'POST', '/api/plugin/characters/1/completions', {}],
    ['a non-integer path id', 'GET', '/api/plugin/characters/abc', undefined],
    ['a bad query parameter', 'GET', '/api/plugin/navigation?characterId=x&routeId=y', undefined],
  ])('without a token, a request with %s is still 401, not 400', async (_, method, path, body) => {
    // Raw: most of these requests are ones the typed client would not send.
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer qt_doesnotexist' }]
    for (const headers of variants) {
      const answer = await t.json<{ error: string }>(method, path, { body, headers })
      expect(answer.status).toBe(401)
      expect(Object.keys(answer.body)).toEqual(['error'])
    }
  })

  test('the scheme is case-insensitive', async () => {
    ok(await t.api.plugin.auth.me.get({ headers: { authorization: `bearer ${token}` } }))
  })

  test('logout revokes only the presented token', async () => {
    const other = ok(await login({ identifier: 'Alice', password: PASSWORD, label: 'other' })).token
    expect(ok(await t.plugin(token).auth.logout.post())).toEqual({ ok: true })
    expect(refused(await me(token), 401).error).toMatch(/Invalid or revoked token/)
    ok(await me(other))
    refused(await t.plugin(token).auth.logout.post(), 401)
  })
})

// Hardening II item 6: every login made a token row forever (189 live tokens for one account
// after a test). Now an account keeps at most MAX_TOKENS_PER_ACCOUNT; a login beyond it deletes
// the least recently used, and each login deletes the account's revoked and expired rows.
describe('tokens per account', () => {
  const tokenRows = () => t.db.select().from(apiTokens).all()
  const status = async (token: string) => (await me(token)).status

  test(`300 logins keep ${MAX_TOKENS_PER_ACCOUNT} tokens; the least recently used go first, never the login`, async () => {
    // A long day: a login every two minutes from several clients, while one game PC keeps using
    // its token (its last use is recorded at most once an hour).
    const inUse = ok(await login({ identifier: 'Alice', password: PASSWORD, label: 'game PC' })).token
    const tokens: string[] = []
    for (let i = 1; i <= 300; i++) {
      t.clock.advance(2 * 60_000)
      tokens.push(ok(await login({ identifier: 'Alice', password: PASSWORD, label: `client ${i}` })).token)
      expect(tokenRows().length).toBeLessThanOrEqual(MAX_TOKENS_PER_ACCOUNT)
      if (i % 10 === 0) expect(await status(inUse)).toBe(200)
    }
    expect(tokenRows()).toHaveLength(MAX_TOKENS_PER_ACCOUNT)
    expect(await status(inUse)).toBe(200)
    // The newest 49 logins and the token in use are kept; login 251 and older are gone.
    for (const token of tokens.slice(-(MAX_TOKENS_PER_ACCOUNT - 1))) expect(await status(token)).toBe(200)
    expect(await status(tokens.at(-MAX_TOKENS_PER_ACCOUNT) as string)).toBe(401)
    expect(await status(tokens[0] as string)).toBe(401)
    // The account page lists the same live tokens.
    const cookie = await t.signIn('Alice', PASSWORD)
    const listed = ok(await t.web(cookie).account.tokens.get())
    expect(listed.tokens).toHaveLength(MAX_TOKENS_PER_ACCOUNT)
    expect(listed.tokens.map((token) => token.label)).toContain('game PC')
    expect(listed.tokens.map((token) => token.label)).not.toContain('client 251')
  })

  test("a login deletes the account's revoked and expired tokens, not another account's", async () => {
    await createUser(t, { username: 'Bob', password: PASSWORD })
    const bobs = ok(await login({ identifier: 'Bob', password: PASSWORD })).token
    const old = ok(await login({ identifier: 'Alice', password: PASSWORD })).token
    const revoked = ok(await login({ identifier: 'Alice', password: PASSWORD })).token
    ok(await t.plugin(revoked).auth.logout.post())
    // 180 days unused: `old` has expired (TOKEN_IDLE_DAYS), and so has Bob's.
    t.clock.advance(181 * 24 * 60 * 60_000)
    expect(await status(old)).toBe(401)
    const fresh = ok(await login({ identifier: 'Alice', password: PASSWORD })).token
    const rows = tokenRows()
    expect(rows.map((row) => row.tokenHash).sort()).toEqual([hashToken(bobs), hashToken(fresh)].sort())
  })
})
