import { beforeEach, describe, expect, test } from 'bun:test'
import { apiTokens } from '../src/db/schema'
import { createUser } from '../src/modules/account/service'
import { MAX_TOKENS_PER_ACCOUNT } from '../src/modules/auth/limits'
import type { PasswordHasher } from '../src/modules/auth/password'
import { hashToken } from '../src/modules/auth/service'
import { FIRST_LOCK_MS, MAX_FAILURES } from '../src/modules/auth/throttle'
import { cheapHasher, type TestApp, testApp } from './helpers'

const PASSWORD = 'correct horse battery'

interface LoginBody {
  token: string
  tokenId: number
  label: string
  user: { id: number; email: string | null; username: string | null; displayName: string }
}

let t: TestApp

beforeEach(async () => {
  t = testApp()
  await createUser(t, { username: 'Alice', email: 'Alice@Example.com', password: PASSWORD })
})

const login = (body: Record<string, unknown>) => t.json<LoginBody>('POST', '/api/plugin/auth/login', { body })

describe('POST /auth/login', () => {
  test.each([
    ['identifier', 'Alice'],
    ['identifier', 'alice@example.com'],
    ['email', 'ALICE@EXAMPLE.COM'],
    ['username', 'alice'],
    ['login', 'Alice@example.com'],
  ])('logs in with %s=%s (case-insensitive)', async (field, value) => {
    const { status, body } = await login({ [field]: value, password: PASSWORD })
    expect(status).toBe(200)
    expect(body.user).toEqual({ id: 1, email: 'alice@example.com', username: 'Alice', displayName: 'Alice' })
    expect(body.token).toStartWith('qt_')
    expect(body.label).toBe('plugin')
    expect(body.tokenId).toBeGreaterThan(0)
  })

  test('the token is random, long, and stored only as its SHA-256', async () => {
    const { body } = await login({ identifier: 'Alice', password: PASSWORD, label: 'laptop' })
    expect(body.label).toBe('laptop')
    expect(body.token.length).toBeGreaterThanOrEqual(3 + 43) // prefix + 32 bytes base64url
    const rows = t.db.select().from(apiTokens).all()
    expect(rows).toHaveLength(1)
    expect(rows[0]?.tokenHash).toBe(hashToken(body.token))
    expect(JSON.stringify(rows)).not.toContain(body.token)
  })

  test('an account can hold many tokens', async () => {
    const first = await login({ identifier: 'Alice', password: PASSWORD })
    const second = await login({ identifier: 'Alice', password: PASSWORD, label: 'second' })
    expect(first.body.token).not.toBe(second.body.token)
    expect(t.db.select().from(apiTokens).all()).toHaveLength(2)
    for (const token of [first.body.token, second.body.token]) {
      expect((await t.json('GET', '/api/plugin/auth/me', { token })).status).toBe(200)
    }
  })

  test('wrong password and unknown account are indistinguishable', async () => {
    const wrongPassword = await login({ identifier: 'Alice', password: 'nope nope nope' })
    const wrongUser = await login({ identifier: 'Mallory', password: PASSWORD })
    expect(wrongPassword.status).toBe(401)
    expect(wrongUser.status).toBe(401)
    expect(wrongPassword.body).toEqual(wrongUser.body as never)
    expect(wrongPassword.body).toEqual({ error: expect.any(String) } as never)
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
      const { status } = await app.json('POST', '/api/plugin/auth/login', {
        body: { identifier, password: 'nope nope' },
      })
      expect(status).toBe(401)
    }
    // Alice's own hash, then the one dummy hash, made once, for both unknown names.
    expect(made).toHaveLength(2)
    expect(checked).toEqual([made[0], made[1], made[1]] as string[])
  })

  test('an identifier is required', async () => {
    const { status, body } = await login({ password: PASSWORD })
    expect(status).toBe(400)
    expect(body).toEqual({ error: expect.stringContaining('identifier') } as never)
  })

  test('a password is required and must be a string', async () => {
    const missing = await login({ identifier: 'Alice' })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ error: 'Body field "password" is required.' } as never)
    const wrongType = await login({ identifier: 'Alice', password: 12345678 })
    expect(wrongType.status).toBe(400)
    expect(wrongType.body).toEqual({
      error: 'Body field "password" must be a string of at most 1024 characters.',
    } as never)
  })

  test('a username-only account shows displayName "Player" only when it has no username', async () => {
    await createUser(t, { email: 'nobody@example.com', password: PASSWORD })
    const { body } = await login({ email: 'nobody@example.com', password: PASSWORD })
    expect(body.user).toMatchObject({ email: 'nobody@example.com', username: null, displayName: 'Player' })
  })
})

describe('login throttling', () => {
  const fail = () => login({ identifier: 'Alice', password: 'wrong password' })

  test(`after ${MAX_FAILURES} failures the identifier gets 429 with Retry-After, then works after the wait`, async () => {
    for (let i = 0; i < MAX_FAILURES; i++) expect((await fail()).status).toBe(401)
    const refused = await login({ identifier: 'alice', password: PASSWORD }) // same identifier, any case
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: expect.stringContaining('Too many failed logins') } as never)
    expect(Number(refused.headers.get('retry-after'))).toBe(FIRST_LOCK_MS / 1000)

    t.clock.advance(FIRST_LOCK_MS - 1000)
    expect((await login({ identifier: 'Alice', password: PASSWORD })).status).toBe(429)
    t.clock.advance(1000)
    expect((await login({ identifier: 'Alice', password: PASSWORD })).status).toBe(200)
  })

  test('other accounts are not blocked', async () => {
    await createUser(t, { username: 'Bob', password: PASSWORD })
    for (let i = 0; i < MAX_FAILURES; i++) await fail()
    expect((await login({ identifier: 'Alice', password: PASSWORD })).status).toBe(429)
    expect((await login({ identifier: 'Bob', password: PASSWORD })).status).toBe(200)
  })

  test('a success clears the count of failures', async () => {
    for (let i = 0; i < MAX_FAILURES - 1; i++) await fail()
    expect((await login({ identifier: 'Alice', password: PASSWORD })).status).toBe(200)
    for (let i = 0; i < MAX_FAILURES - 1; i++) expect((await fail()).status).toBe(401)
    expect((await login({ identifier: 'Alice', password: PASSWORD })).status).toBe(200)
  })

  test('each further lock lasts twice as long', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await fail()
    t.clock.advance(FIRST_LOCK_MS)
    for (let i = 0; i < MAX_FAILURES; i++) await fail()
    const refused = await fail()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBe((2 * FIRST_LOCK_MS) / 1000)
  })
})

describe('bearer tokens', () => {
  let token: string
  beforeEach(async () => {
    token = (await login({ identifier: 'Alice', password: PASSWORD })).body.token
  })

  test('GET /auth/me returns the account', async () => {
    const { status, body } = await t.json('GET', '/api/plugin/auth/me', { token })
    expect(status).toBe(200)
    expect(body).toEqual({ id: 1, email: 'alice@example.com', username: 'Alice', displayName: 'Alice' })
  })

  test.each([
    ['missing', undefined, /Missing bearer token/],
    ['malformed', 'Token abc', /Malformed Authorization header/],
    ['empty bearer', 'Bearer ', /Malformed Authorization header/],
    ['unknown', 'Bearer qt_doesnotexist', /Invalid or revoked token/],
  ])('%s Authorization answers 401 with a sentence', async (_, header, message) => {
    const headers: Record<string, string> = header === undefined ? {} : { authorization: header }
    const { status, body } = await t.json<{ error: string }>('GET', '/api/plugin/auth/me', { headers })
    expect(status).toBe(401)
    expect(body.error).toMatch(message)
    expect(Object.keys(body)).toEqual(['error'])
  })

  test.each([
    ['a wrong-typed body field', 'POST', '/api/plugin/characters', { givenName: 5 }],
    ['a missing required field', 'POST', '/api/plugin/characters/1/completions', {}],
    ['a non-integer path id', 'GET', '/api/plugin/characters/abc', undefined],
    ['a bad query parameter', 'GET', '/api/plugin/navigation?characterId=x&routeId=y', undefined],
  ])('without a token, a request with %s is still 401, not 400', async (_, method, path, body) => {
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer qt_doesnotexist' }]
    for (const headers of variants) {
      const answer = await t.json<{ error: string }>(method, path, { body, headers })
      expect(answer.status).toBe(401)
      expect(Object.keys(answer.body)).toEqual(['error'])
    }
  })

  test('the scheme is case-insensitive', async () => {
    const { status } = await t.json('GET', '/api/plugin/auth/me', { headers: { authorization: `bearer ${token}` } })
    expect(status).toBe(200)
  })

  test('logout revokes only the presented token', async () => {
    const other = (await login({ identifier: 'Alice', password: PASSWORD, label: 'other' })).body.token
    const { status, body } = await t.json('POST', '/api/plugin/auth/logout', { token })
    expect(status).toBe(200)
    expect(body).toEqual({ ok: true })
    const revoked = await t.json<{ error: string }>('GET', '/api/plugin/auth/me', { token })
    expect(revoked.status).toBe(401)
    expect(revoked.body.error).toMatch(/Invalid or revoked token/)
    expect((await t.json('GET', '/api/plugin/auth/me', { token: other })).status).toBe(200)
    expect((await t.json('POST', '/api/plugin/auth/logout', { token })).status).toBe(401)
  })
})

// Hardening II item 6: every login made a token row forever (189 live tokens for one account
// after a test). Now an account keeps at most MAX_TOKENS_PER_ACCOUNT; a login beyond it deletes
// the least recently used, and each login deletes the account's revoked and expired rows.
describe('tokens per account', () => {
  const tokenRows = () => t.db.select().from(apiTokens).all()
  const me = async (token: string) => (await t.json('GET', '/api/plugin/auth/me', { token })).status

  test(`300 logins keep ${MAX_TOKENS_PER_ACCOUNT} tokens; the least recently used go first, never the login`, async () => {
    // A long day: a login every two minutes from several clients, while one game PC keeps using
    // its token (its last use is recorded at most once an hour).
    const inUse = (await login({ identifier: 'Alice', password: PASSWORD, label: 'game PC' })).body.token
    const tokens: string[] = []
    for (let i = 1; i <= 300; i++) {
      t.clock.advance(2 * 60_000)
      const { status, body } = await login({ identifier: 'Alice', password: PASSWORD, label: `client ${i}` })
      expect(status).toBe(200)
      tokens.push(body.token)
      expect(tokenRows().length).toBeLessThanOrEqual(MAX_TOKENS_PER_ACCOUNT)
      if (i % 10 === 0) expect(await me(inUse)).toBe(200)
    }
    expect(tokenRows()).toHaveLength(MAX_TOKENS_PER_ACCOUNT)
    expect(await me(inUse)).toBe(200)
    // The newest 49 logins and the token in use are kept; login 251 and older are gone.
    for (const token of tokens.slice(-(MAX_TOKENS_PER_ACCOUNT - 1))) expect(await me(token)).toBe(200)
    expect(await me(tokens.at(-MAX_TOKENS_PER_ACCOUNT) as string)).toBe(401)
    expect(await me(tokens[0] as string)).toBe(401)
    // The account page lists the same live tokens.
    const cookie = await t.signIn('Alice', PASSWORD)
    const listed = await t.json<{ tokens: { label: string }[] }>('GET', '/api/account/tokens', { cookie })
    expect(listed.body.tokens).toHaveLength(MAX_TOKENS_PER_ACCOUNT)
    expect(listed.body.tokens.map((token) => token.label)).toContain('game PC')
    expect(listed.body.tokens.map((token) => token.label)).not.toContain('client 251')
  })

  test("a login deletes the account's revoked and expired tokens, not another account's", async () => {
    await createUser(t, { username: 'Bob', password: PASSWORD })
    const bobs = (await login({ identifier: 'Bob', password: PASSWORD })).body.token
    const old = (await login({ identifier: 'Alice', password: PASSWORD })).body.token
    const revoked = (await login({ identifier: 'Alice', password: PASSWORD })).body.token
    expect((await t.json('POST', '/api/plugin/auth/logout', { token: revoked })).status).toBe(200)
    // 180 days unused: `old` has expired (TOKEN_IDLE_DAYS), and so has Bob's.
    t.clock.advance(181 * 24 * 60 * 60_000)
    expect(await me(old)).toBe(401)
    const fresh = (await login({ identifier: 'Alice', password: PASSWORD })).body.token
    const rows = tokenRows()
    expect(rows.map((row) => row.tokenHash).sort()).toEqual([hashToken(bobs), hashToken(fresh)].sort())
  })
})
