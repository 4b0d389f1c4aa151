// Login hardening: parallel guesses, the per-account count, the per-address limit (and
// TRUSTED_PROXY), the bound on argon2 work in flight, and bounded field lengths. The numbers
// are those of docs/api.md "Login throttling", written out here so a change to them is a visible change to this file.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import type { Static } from 'elysia'
import type { App } from '../../../src/app'
import { apiTokens } from '../../../src/db/schema'
import { createUser } from '../../../src/modules/account/service'
import type { LoginBody } from '../../../src/modules/auth/model'
import type { PasswordHasher } from '../../../src/modules/auth/password'
import { FIRST_LOCK_MS, MAX_FAILURES } from '../../../src/modules/auth/throttle'
import { cheapHasher, ok, refused, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'
const ADDRESS_BURST = 20
const ADDRESS_REFILL_SECONDS = 30
const HASHING_RUNNING = 2
const HASHING_QUEUED = 16
const PER_NAME_IN_FLIGHT = 8
const PER_ADDRESS_IN_FLIGHT = 8
const BOB_PASSWORD = 'bob has his own password'
const WRONG = { error: 'Wrong username, e-mail or password.' }

let t: TestApp
const servers: TestApp[] = []

beforeEach(async () => {
  t = testApp()
  await createUser(t, { username: 'Alice', email: 'alice@example.com', password: PASSWORD })
})

afterEach(async () => {
  for (const server of servers.splice(0)) await server.app.stop()
})

type Login = Static<typeof LoginBody>

const login = (body: Login) => t.api.plugin.auth.login.post(body)

/**
 * Serves `app` on a real socket: the per-address limit needs a peer address (here 127.0.0.1).
 * Logins go to it through the typed client over HTTP, with an X-Forwarded-For header when given.
 */
function listen(app: TestApp) {
  app.app.listen({ port: 0, hostname: '127.0.0.1' })
  servers.push(app)
  const client = treaty<App>(`http://127.0.0.1:${app.app.server?.port}`, { parseDate: false }).api.plugin.auth
  return (body: Login, forwardedFor?: string) =>
    client.login.post(body, forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : undefined)
}

/** An answer as the fair-queue test records it: the status, and the sentence of a refusal. */
const outcome = (answer: Parameters<typeof refused>[0]) => ({
  status: answer.status,
  ...(answer.status === 200 ? {} : refused(answer, answer.status)),
})

describe('parallel logins for one account', () => {
  test(`100 wrong passwords at once: ${MAX_FAILURES} are checked, the other 95 are 429`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => login({ identifier: 'Alice', password: 'wrong password' })),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 401)).toHaveLength(MAX_FAILURES)
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - MAX_FAILURES)
    expect(answers.find((answer) => answer.status === 429)?.response.headers.get('retry-after')).toBe(
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
  test('failures by username and by e-mail add up: the right password is then not checked', async () => {
    for (let i = 0; i < MAX_FAILURES - 2; i++) await login({ identifier: 'Alice', password: 'wrong password' })
    for (let i = 0; i < 2; i++) await login({ email: 'ALICE@example.com', password: 'wrong password' })
    // Answered like a wrong password: a 429 here would tell that the two names are one account.
    expect(refused(await login({ username: 'alice', password: PASSWORD }), 401)).toEqual(WRONG)
    expect(t.db.select().from(apiTokens).all()).toHaveLength(0)
    t.clock.advance(FIRST_LOCK_MS)
    ok(await login({ username: 'alice', password: PASSWORD }))
  })

  test("a locked username does not tell whether an e-mail is its account's", async () => {
    await createUser(t, { username: 'Bob', email: 'bob@example.com', password: PASSWORD })
    for (let i = 0; i < MAX_FAILURES; i++) await login({ identifier: 'Alice', password: 'wrong password' })
    refused(await login({ identifier: 'Alice', password: 'wrong password' }), 429)
    // Alice's own e-mail, an e-mail of no account, another account's e-mail: the same answers,
    // first as wrong passwords, then locked after as many failures each.
    const guesses = ['alice@example.com', 'carol@example.com', 'bob@example.com']
    for (let i = 0; i < MAX_FAILURES; i++) {
      const answers = await Promise.all(guesses.map((identifier) => login({ identifier, password: 'wrong password' })))
      for (const answer of answers) {
        const retryAfter = answer.response.headers.get('retry-after')
        expect({ status: answer.status, body: answer.error?.value, retryAfter }).toEqual({
          status: 401,
          body: WRONG,
          retryAfter: null,
        })
      }
    }
    for (const identifier of guesses) {
      const answer = await login({ identifier, password: 'wrong password' })
      const retryAfter = answer.response.headers.get('retry-after')
      expect({ status: answer.status, body: answer.error?.value, retryAfter }).toEqual({
        status: 429,
        body: { error: `Too many failed logins for this account; try again in ${FIRST_LOCK_MS / 1000} seconds.` },
        retryAfter: String(FIRST_LOCK_MS / 1000),
      })
    }
  })

  test('while the account is locked, its other name does not get in, even with the right password', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await login({ identifier: 'Alice', password: 'wrong password' })
    refused(await login({ identifier: 'alice@example.com', password: PASSWORD }), 401)
    expect(t.db.select().from(apiTokens).all()).toHaveLength(0)
    t.clock.advance(FIRST_LOCK_MS)
    ok(await login({ identifier: 'alice@example.com', password: PASSWORD }))
  })

  test('a name that matches no account is locked the same way', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      refused(await login({ identifier: 'Mallory', password: 'wrong password' }), 401)
    }
    const locked = await login({ identifier: 'mallory', password: 'wrong password' })
    refused(locked, 429)
    expect(Number(locked.response.headers.get('retry-after'))).toBe(FIRST_LOCK_MS / 1000)
  })
})

describe('per client address', () => {
  test(`${ADDRESS_BURST} failed logins, then 429 for any name; one more every ${ADDRESS_REFILL_SECONDS} s`, async () => {
    const post = listen(t)
    // X-Forwarded-For is ignored without TRUSTED_PROXY: forging it does not help.
    for (let i = 0; i < ADDRESS_BURST; i++) {
      refused(await post({ identifier: `nobody${i}`, password: 'wrong password' }, `198.51.100.${i}`), 401)
    }
    const limited = await post({ identifier: 'Alice', password: PASSWORD }, '198.51.100.99')
    expect(refused(limited, 429)).toEqual({ error: expect.stringContaining('from your address') })
    expect(limited.response.headers.get('retry-after')).toBe(String(ADDRESS_REFILL_SECONDS))

    t.clock.advance(ADDRESS_REFILL_SECONDS * 1000)
    // A success gives its attempt back; a failure does not.
    ok(await post({ identifier: 'Alice', password: PASSWORD }))
    refused(await post({ identifier: 'Bob', password: 'wrong password' }), 401)
    refused(await post({ identifier: 'Carol', password: 'wrong password' }), 429)
  })

  test('behind a TRUSTED_PROXY, the address it forwards is the one counted', async () => {
    const proxied = testApp({ TRUSTED_PROXY: '127.0.0.1, ::1' })
    await createUser(proxied, { username: 'Alice', password: PASSWORD })
    const post = listen(proxied)
    for (let i = 0; i < ADDRESS_BURST; i++) {
      refused(await post({ identifier: `nobody${i}`, password: 'wrong password' }, '203.0.113.7'), 401)
    }
    refused(await post({ identifier: 'nobody', password: 'wrong password' }, '203.0.113.7'), 429)
    // The proxy appends the peer it saw; whatever the client wrote to its left is not believed.
    refused(await post({ identifier: 'nobody', password: 'x' }, '192.0.2.1, 203.0.113.7'), 429)
    ok(await post({ identifier: 'Alice', password: PASSWORD }, '203.0.113.8'))
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
      const answered: Awaited<ReturnType<typeof post>>[] = []
      const pending = Array.from({ length: 30 }, (_, i) =>
        post({ identifier: `nobody${i}`, password: 'wrong password' }, `203.0.113.${i}`).then((answer) => {
          answered.push(answer)
          return answer
        }),
      )
      const turnedAway = 30 - HASHING_RUNNING - HASHING_QUEUED
      // The turned-away answers can come before the admitted logins reach the hasher (a loaded
      // machine): wait for both.
      for (let i = 0; i < 300 && (answered.length < turnedAway || verifying < HASHING_RUNNING); i++) {
        await Bun.sleep(10)
      }
      expect(answered).toHaveLength(turnedAway)
      expect(verifying).toBe(HASHING_RUNNING)
      for (const answer of answered) {
        expect(refused(answer, 503)).toEqual({ error: expect.stringContaining('busy') })
        expect(answer.response.headers.get('retry-after')).toBe('1')
      }
      open()
      const statuses = (await Promise.all(pending)).map((answer) => answer.status)
      expect(statuses.filter((status) => status === 401)).toHaveLength(HASHING_RUNNING + HASHING_QUEUED)
    } finally {
      open()
    }
  })
})

/**
 * A hasher whose checks wait until the test lets them end, one (`step`) or all (`free`): the
 * test decides the order of events, not a timer. `started` lists the passwords checked.
 */
function steppedHasher() {
  const pending: (() => void)[] = []
  const started: string[] = []
  let open = false
  const hasher: PasswordHasher = {
    hash: (password) => cheapHasher.hash(password),
    verify: async (password, hash) => {
      started.push(password)
      if (!open) await new Promise<void>((resolve) => pending.push(resolve))
      return cheapHasher.verify(password, hash)
    },
  }
  return {
    hasher,
    started,
    pending,
    step: () => pending.shift()?.(),
    free: () => {
      open = true
      for (const resolve of pending.splice(0)) resolve()
    },
  }
}

/** Waits (a bounded number of turns, not a timed assertion) until `done` holds. */
async function until(done: () => boolean) {
  for (let i = 0; i < 300 && !done(); i++) await Bun.sleep(10)
}

describe('a fair queue for password checks', () => {
  test('several game clients of one account logging in at once all get in', async () => {
    const answers = await Promise.all(
      Array.from({ length: PER_NAME_IN_FLIGHT }, () => login({ identifier: 'Alice', password: PASSWORD })),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(PER_NAME_IN_FLIGHT).fill(200))
  })

  test('24 loops of right logins by one account from one address: another user from another address gets in', async () => {
    const checks = steppedHasher()
    const app = testApp({ TRUSTED_PROXY: '127.0.0.1' }, { passwordHasher: checks.hasher })
    await createUser(app, { username: 'Alice', password: PASSWORD })
    await createUser(app, { username: 'Bob', password: BOB_PASSWORD })
    const post = listen(app)
    const alice: { status: number; error?: string }[] = []
    let stop = false
    const loop = async () => {
      while (!stop) {
        const answer = await post({ identifier: 'Alice', password: PASSWORD }, '203.0.113.1')
        alice.push(outcome(answer))
        if (answer.status !== 200) await Bun.sleep(5)
      }
    }
    const loops = Array.from({ length: 24 }, loop)
    try {
      // Alice's checks end one at a time, until the queue turned her away or 30 of them are done.
      for (let done = 0; done < 30 && !alice.some((answer) => answer.status === 503); done++) {
        await until(() => checks.pending.length > 0)
        checks.step()
        await until(() => alice.filter((answer) => answer.status === 200).length > done)
      }
      const bob = post({ identifier: 'Bob', password: BOB_PASSWORD }, '203.0.113.2')
      let bobAnswered = false
      void bob.then(() => {
        bobAnswered = true
      })
      await until(() => bobAnswered || checks.started.includes(BOB_PASSWORD))
      stop = true
      checks.free()
      ok(await bob)
      await Promise.all(loops)
      expect(alice.filter((answer) => answer.status >= 500)).toEqual([])
      // Her right logins were never counted as failures: every refusal was for logins at once.
      const refusals = alice.filter((answer) => answer.status !== 200)
      expect(refusals.length).toBeGreaterThan(0)
      for (const refusal of refusals) {
        expect(refusal).toEqual({ status: 429, error: expect.stringContaining('at once') })
      }
    } finally {
      stop = true
      checks.free()
      await Promise.all(loops)
    }
  })

  test('one address holds at most its share of the queue; other addresses still get places', async () => {
    const checks = steppedHasher()
    const app = testApp({ TRUSTED_PROXY: '127.0.0.1' }, { passwordHasher: checks.hasher })
    await createUser(app, { username: 'Bob', password: PASSWORD })
    const post = listen(app)
    try {
      // Made-up names, each its own: only the per-address share stops them.
      const flood = Array.from({ length: 24 }, (_, i) =>
        post({ identifier: `nobody${i}`, password: 'wrong password' }, '203.0.113.1'),
      )
      const others = Array.from({ length: 3 }, (_, i) =>
        post({ identifier: `stranger${i}`, password: 'wrong password' }, `198.51.100.${i}`),
      )
      await until(() => checks.started.length >= HASHING_RUNNING)
      const bob = post({ identifier: 'Bob', password: PASSWORD }, '203.0.113.2')
      checks.free()
      ok(await bob)
      const statuses = (await Promise.all([...flood, ...others])).map((answer) => answer.status)
      expect(statuses.filter((status) => status >= 500)).toEqual([])
      expect(statuses.slice(0, 24).filter((status) => status === 401)).toHaveLength(PER_ADDRESS_IN_FLIGHT)
      expect(statuses.slice(24)).toEqual([401, 401, 401])
    } finally {
      checks.free()
    }
  })
})

describe('bounded fields', () => {
  test.each(['identifier', 'email', 'username', 'login'] as const)('%s is at most 254 characters', async (field) => {
    refused(await login({ [field]: 'a'.repeat(254), password: PASSWORD }), 401)
    const tooLong = refused(await login({ [field]: 'a'.repeat(255), password: PASSWORD }), 400)
    expect(tooLong).toEqual({ error: `Body field "${field}" must be a string of at most 254 characters.` })
  })

  test('a password is at most 1024 characters, at login and when it is set', async () => {
    refused(await login({ identifier: 'Alice', password: 'p'.repeat(1024) }), 401)
    const tooLong = refused(await login({ identifier: 'Alice', password: 'p'.repeat(1025) }), 400)
    expect(tooLong).toEqual({ error: 'Body field "password" must be a string of at most 1024 characters.' })
    await expect(createUser(t, { username: 'Bob', password: 'p'.repeat(1025) })).rejects.toThrow('at most 1024')
  })
})
