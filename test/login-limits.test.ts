// Login hardening: parallel guesses, the per-account count, the per-address limit (and
// TRUSTED_PROXY), the bound on argon2 work in flight, and bounded field lengths. The numbers
// are the README's, written out here so a change to them is a visible change to this file.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { apiTokens } from '../src/db/schema'
import type { PasswordHasher } from '../src/modules/auth/password'
import { createUser } from '../src/modules/auth/service'
import { FIRST_LOCK_MS, MAX_FAILURES } from '../src/modules/auth/throttle'
import { cheapHasher, type TestApp, testApp } from './helpers'

const PASSWORD = 'correct horse battery'
const ADDRESS_BURST = 20
const ADDRESS_REFILL_SECONDS = 30
const HASHING_RUNNING = 2
const HASHING_QUEUED = 16

let t: TestApp
const servers: TestApp[] = []

beforeEach(async () => {
  t = testApp()
  await createUser(t, { username: 'Alice', email: 'alice@example.com', password: PASSWORD })
})

afterEach(async () => {
  for (const server of servers.splice(0)) await server.app.stop()
})

const login = (body: Record<string, unknown>) => t.json('POST', '/api/plugin/auth/login', { body })

/** Serves `app` on a real socket: the per-address limit needs a peer address (here 127.0.0.1). */
function listen(app: TestApp) {
  app.app.listen({ port: 0, hostname: '127.0.0.1' })
  servers.push(app)
  const base = `http://127.0.0.1:${app.app.server?.port}`
  return (body: Record<string, unknown>, forwardedFor?: string) =>
    fetch(`${base}/api/plugin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify(body),
    })
}

describe('parallel logins for one account', () => {
  test(`100 wrong passwords at once: ${MAX_FAILURES} are checked, the other 95 are 429`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => login({ identifier: 'Alice', password: 'wrong password' })),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 401)).toHaveLength(MAX_FAILURES)
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - MAX_FAILURES)
    expect(answers.find((answer) => answer.status === 429)?.headers.get('retry-after')).toBe(
      String(FIRST_LOCK_MS / 1000),
    )
  })

  test('29 wrong and then the right one at once: the right one is refused too, no token', async () => {
    const wrong = Array.from({ length: 29 }, () => login({ identifier: 'Alice', password: 'wrong password' }))
    const right = login({ identifier: 'Alice', password: PASSWORD })
    const [answer] = await Promise.all([right, ...wrong])
    expect(answer?.status).toBe(429)
    expect(t.db.select().from(apiTokens).all()).toHaveLength(0)
  })
})

describe('one count per account', () => {
  test('failures by username and by e-mail add up', async () => {
    for (let i = 0; i < MAX_FAILURES - 2; i++) await login({ identifier: 'Alice', password: 'wrong password' })
    for (let i = 0; i < 2; i++) await login({ email: 'ALICE@example.com', password: 'wrong password' })
    const refused = await login({ username: 'alice', password: PASSWORD })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: expect.stringContaining('Too many failed logins') })
  })

  test('a name that matches no account is locked the same way', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await login({ identifier: 'Mallory', password: 'wrong password' })).status).toBe(401)
    }
    const refused = await login({ identifier: 'mallory', password: 'wrong password' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBe(FIRST_LOCK_MS / 1000)
  })
})

describe('per client address', () => {
  test(`${ADDRESS_BURST} failed logins, then 429 for any name; one more every ${ADDRESS_REFILL_SECONDS} s`, async () => {
    const post = listen(t)
    // X-Forwarded-For is ignored without TRUSTED_PROXY: forging it does not help.
    for (let i = 0; i < ADDRESS_BURST; i++) {
      const answer = await post({ identifier: `nobody${i}`, password: 'wrong password' }, `198.51.100.${i}`)
      expect(answer.status).toBe(401)
    }
    const refused = await post({ identifier: 'Alice', password: PASSWORD }, '198.51.100.99')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe(String(ADDRESS_REFILL_SECONDS))
    expect(await refused.json()).toEqual({ error: expect.stringContaining('from your address') })

    t.clock.advance(ADDRESS_REFILL_SECONDS * 1000)
    // A success gives its attempt back; a failure does not.
    expect((await post({ identifier: 'Alice', password: PASSWORD })).status).toBe(200)
    expect((await post({ identifier: 'Bob', password: 'wrong password' })).status).toBe(401)
    expect((await post({ identifier: 'Carol', password: 'wrong password' })).status).toBe(429)
  })

  test('behind a TRUSTED_PROXY, the address it forwards is the one counted', async () => {
    const proxied = testApp({ TRUSTED_PROXY: '127.0.0.1, ::1' })
    await createUser(proxied, { username: 'Alice', password: PASSWORD })
    const post = listen(proxied)
    for (let i = 0; i < ADDRESS_BURST; i++) {
      expect((await post({ identifier: `nobody${i}`, password: 'wrong password' }, '203.0.113.7')).status).toBe(401)
    }
    expect((await post({ identifier: 'nobody', password: 'wrong password' }, '203.0.113.7')).status).toBe(429)
    // The proxy appends the peer it saw; whatever the client wrote to its left is not believed.
    expect((await post({ identifier: 'nobody', password: 'x' }, '192.0.2.1, 203.0.113.7')).status).toBe(429)
    expect((await post({ identifier: 'Alice', password: PASSWORD }, '203.0.113.8')).status).toBe(200)
  })
})

describe('argon2 work in flight', () => {
  test(`${HASHING_RUNNING} verifications run and ${HASHING_QUEUED} wait; further logins are 503 with Retry-After`, async () => {
    let open: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    let verifying = 0
    const gated: PasswordHasher = {
      hash: (password) => cheapHasher.hash(password),
      verify: async (password, hash) => {
        verifying += 1
        await gate
        return cheapHasher.verify(password, hash)
      },
    }
    const app = testApp({ TRUSTED_PROXY: '127.0.0.1' }, { passwordHasher: gated })
    const post = listen(app)
    try {
      // Distinct names from distinct addresses: no other limit applies.
      const answered: Response[] = []
      const pending = Array.from({ length: 30 }, (_, i) =>
        post({ identifier: `nobody${i}`, password: 'wrong password' }, `203.0.113.${i}`).then((answer) => {
          answered.push(answer)
          return answer
        }),
      )
      const turnedAway = 30 - HASHING_RUNNING - HASHING_QUEUED
      for (let i = 0; i < 300 && answered.length < turnedAway; i++) await Bun.sleep(10)
      expect(answered).toHaveLength(turnedAway)
      expect(verifying).toBe(HASHING_RUNNING)
      for (const answer of answered) {
        expect(answer.status).toBe(503)
        expect(answer.headers.get('retry-after')).toBe('1')
        expect(await answer.json()).toEqual({ error: expect.stringContaining('busy') })
      }
      open()
      const statuses = (await Promise.all(pending)).map((answer) => answer.status)
      expect(statuses.filter((status) => status === 401)).toHaveLength(HASHING_RUNNING + HASHING_QUEUED)
    } finally {
      open()
    }
  })
})

describe('bounded fields', () => {
  test.each(['identifier', 'email', 'username', 'login'])('%s is at most 254 characters', async (field) => {
    expect((await login({ [field]: 'a'.repeat(254), password: PASSWORD })).status).toBe(401)
    const tooLong = await login({ [field]: 'a'.repeat(255), password: PASSWORD })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body).toEqual({ error: `Body field "${field}" must be a string of at most 254 characters.` })
  })

  test('a password is at most 1024 characters, at login and when it is set', async () => {
    expect((await login({ identifier: 'Alice', password: 'p'.repeat(1024) })).status).toBe(401)
    const tooLong = await login({ identifier: 'Alice', password: 'p'.repeat(1025) })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body).toEqual({ error: 'Body field "password" must be a string of at most 1024 characters.' })
    await expect(createUser(t, { username: 'Bob', password: 'p'.repeat(1025) })).rejects.toThrow('at most 1024')
  })
})
