// Login hardening: bounded field lengths. The numbers are the README's, written out here so a
// change to them is a visible change to this file.
import { beforeEach, describe, expect, test } from 'bun:test'
import { createUser } from '../src/modules/auth/service'
import { type TestApp, testApp } from './helpers'

const PASSWORD = 'correct horse battery'

let t: TestApp

beforeEach(async () => {
  t = testApp()
  await createUser(t, { username: 'Alice', email: 'alice@example.com', password: PASSWORD })
})

const login = (body: Record<string, unknown>) => t.json('POST', '/api/plugin/auth/login', { body })

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
