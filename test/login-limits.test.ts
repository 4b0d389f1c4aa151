// Login hardening: parallel guesses and bounded field lengths. The numbers are the README's,
// written out here so a change to them is a visible change to this file.
import { beforeEach, describe, expect, test } from 'bun:test'
import { apiTokens } from '../src/db/schema'
import { createUser } from '../src/modules/auth/service'
import { FIRST_LOCK_MS, MAX_FAILURES } from '../src/modules/auth/throttle'
import { type TestApp, testApp } from './helpers'

const PASSWORD = 'correct horse battery'

let t: TestApp

beforeEach(async () => {
  t = testApp()
  await createUser(t, { username: 'Alice', email: 'alice@example.com', password: PASSWORD })
})

const login = (body: Record<string, unknown>) => t.json('POST', '/api/plugin/auth/login', { body })

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
