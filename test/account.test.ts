// The account page's operations (cookie API only), and the tokens' lifetime: last used, idle
// expiry, and a new password ending every token and session at once.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { DEFAULT_TOKEN_IDLE_DAYS } from '../src/config'
import { apiTokens } from '../src/db/schema'
import { setPassword } from '../src/modules/account/service'
import { DAY_MS, TOKEN_TOUCH_MS } from '../src/modules/auth/service'
import { testApp } from './helpers'

const PASSWORD = 'correct horse battery'
const DAY = DAY_MS
const TOKEN_IDLE_MS = DEFAULT_TOKEN_IDLE_DAYS * DAY

async function account() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const cookie = await t.signIn('alice')
  return { ...t, token, cookie }
}

describe('plugin tokens on the account page', () => {
  test('lists the live tokens with label, created and last used; never the token itself', async () => {
    const t = await account()
    const second = await t.json<{ token: string }>('POST', '/api/plugin/auth/login', {
      body: { identifier: 'alice', password: PASSWORD, label: 'laptop' },
    })
    await t.json('GET', '/api/plugin/auth/me', { token: second.body.token })
    const { status, body } = await t.json<{ tokens: Record<string, unknown>[] }>('GET', '/api/account/tokens', {
      cookie: t.cookie,
    })
    expect(status).toBe(200)
    expect(body.tokens.map((token) => token.label)).toEqual(['laptop', 'plugin'])
    expect(body.tokens[0]).toEqual({
      id: 2,
      label: 'laptop',
      createdAt: '2026-11-21T12:00:00.000Z',
      lastUsedAt: '2026-11-21T12:00:00.000Z',
    })
    expect(body.tokens[1]?.lastUsedAt).toBeNull()
    expect(JSON.stringify(body)).not.toContain(t.token)
  })

  test('revoking one token makes the plugin API answer 401 for it, and only for it', async () => {
    const t = await account()
    const other = await t.userWithToken('bob')
    const bobCookie = await t.signIn('bob')
    // Bob cannot revoke Alice's token: 404, and it still works.
    expect((await t.json('DELETE', '/api/account/tokens/1', { cookie: bobCookie })).status).toBe(404)
    expect((await t.json('GET', '/api/plugin/auth/me', { token: t.token })).status).toBe(200)
    const revoked = await t.json('DELETE', '/api/account/tokens/1', { cookie: t.cookie })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ ok: true })
    expect((await t.json('GET', '/api/plugin/auth/me', { token: t.token })).status).toBe(401)
    expect((await t.json('GET', '/api/plugin/auth/me', { token: other })).status).toBe(200)
    // Twice: it is gone.
    expect((await t.json('DELETE', '/api/account/tokens/1', { cookie: t.cookie })).status).toBe(404)
  })

  test('the account operations are cookie-only: a plugin token cannot reach them', async () => {
    const t = await account()
    expect((await t.json('GET', '/api/account/tokens', { token: t.token })).status).toBe(401)
    expect((await t.json('DELETE', '/api/account/sessions', { token: t.token })).status).toBe(401)
  })
})

describe('changing the password', () => {
  test('asks for the current password; a wrong one is 401 and changes nothing', async () => {
    const t = await account()
    const wrong = await t.json('PUT', '/api/account/password', {
      cookie: t.cookie,
      body: { currentPassword: 'not it at all', newPassword: 'a brand new password' },
    })
    expect(wrong.status).toBe(401)
    expect((await t.json('GET', '/api/plugin/auth/me', { token: t.token })).status).toBe(200)
    const login = await t.json('POST', '/api/plugin/auth/login', { body: { identifier: 'alice', password: PASSWORD } })
    expect(login.status).toBe(200)
  })

  test('a too-short new password is 400 and changes nothing', async () => {
    const t = await account()
    const short = await t.json('PUT', '/api/account/password', {
      cookie: t.cookie,
      body: { currentPassword: PASSWORD, newPassword: 'short' },
    })
    expect(short.status).toBe(400)
    expect((await t.json('GET', '/api/plugin/auth/me', { token: t.token })).status).toBe(200)
  })

  test('ends every token and every other session; this browser gets a new session', async () => {
    const t = await account()
    const otherBrowser = await t.signIn('alice')
    const changed = await t.request('PUT', '/api/account/password', {
      cookie: t.cookie,
      body: { currentPassword: PASSWORD, newPassword: 'a brand new password' },
    })
    expect(changed.status).toBe(200)
    const fresh = /^(qt_session=[^;]+)/.exec(changed.headers.get('set-cookie') ?? '')?.[1] as string
    expect(fresh).toBeString()
    expect((await t.json('GET', '/api/plugin/auth/me', { token: t.token })).status).toBe(401)
    expect((await t.json('GET', '/api/session', { cookie: otherBrowser })).status).toBe(401)
    expect((await t.json('GET', '/api/session', { cookie: t.cookie })).status).toBe(401)
    expect((await t.json('GET', '/api/session', { cookie: fresh })).status).toBe(200)
    const login = await t.json('POST', '/api/plugin/auth/login', {
      body: { identifier: 'alice', password: 'a brand new password' },
    })
    expect(login.status).toBe(200)
  })

  test('the admin command (user passwd) ends every token and session too', async () => {
    const t = await account()
    await setPassword({ db: t.db, clock: t.clock, passwordHasher: t.passwordHasher }, 'alice', 'set by the admin')
    expect((await t.json('GET', '/api/plugin/auth/me', { token: t.token })).status).toBe(401)
    expect((await t.json('GET', '/api/session', { cookie: t.cookie })).status).toBe(401)
    const rows = t.db.select().from(apiTokens).where(eq(apiTokens.userId, 1)).all()
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true)
  })
})

test('sign out everywhere ends every session and token of the account', async () => {
  const t = await account()
  const otherBrowser = await t.signIn('alice')
  const out = await t.request('DELETE', '/api/account/sessions', { cookie: t.cookie })
  expect(out.status).toBe(200)
  expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
  for (const cookie of [t.cookie, otherBrowser]) {
    expect((await t.json('GET', '/api/session', { cookie })).status).toBe(401)
  }
  expect((await t.json('GET', '/api/plugin/auth/me', { token: t.token })).status).toBe(401)
})

describe('token lifetime', () => {
  test('last used moves at most once an hour', async () => {
    const t = await account()
    const lastUsed = () => t.db.select().from(apiTokens).where(eq(apiTokens.id, 1)).get()?.lastUsedAt
    expect(lastUsed()).toBeNull()
    await t.json('GET', '/api/plugin/auth/me', { token: t.token })
    expect(lastUsed()).toBe('2026-11-21T12:00:00.000Z')
    t.clock.advance(TOKEN_TOUCH_MS / 2)
    await t.json('GET', '/api/plugin/auth/me', { token: t.token })
    expect(lastUsed()).toBe('2026-11-21T12:00:00.000Z')
    t.clock.advance(TOKEN_TOUCH_MS)
    await t.json('GET', '/api/plugin/auth/me', { token: t.token })
    expect(lastUsed()).toBe(t.clock.now().toISOString())
  })

  test('a token unused for the idle time expires; one in use does not', async () => {
    const t = await account()
    const busy = await t.json<{ token: string }>('POST', '/api/plugin/auth/login', {
      body: { identifier: 'alice', password: PASSWORD },
    })
    for (let elapsed = 0; elapsed < TOKEN_IDLE_MS + 10 * DAY; elapsed += 30 * DAY) {
      t.clock.advance(30 * DAY)
      expect((await t.json('GET', '/api/plugin/auth/me', { token: busy.body.token })).status).toBe(200)
    }
    const idle = await t.json<{ error: string }>('GET', '/api/plugin/auth/me', { token: t.token })
    expect(idle.status).toBe(401)
    expect(idle.body.error).toContain('expired')
  })

  test('TOKEN_IDLE_DAYS sets the idle time', async () => {
    const t = testApp({ TOKEN_IDLE_DAYS: '2' })
    const token = await t.userWithToken('zoe')
    t.clock.advance(DAY)
    expect((await t.json('GET', '/api/plugin/auth/me', { token })).status).toBe(200)
    t.clock.advance(2 * DAY + 1000)
    const idle = await t.json<{ error: string }>('GET', '/api/plugin/auth/me', { token })
    expect(idle.status).toBe(401)
    expect(idle.body.error).toContain('2 days')
  })
})
