// The account page's operations (cookie API only), and the tokens' lifetime: last used, idle
// expiry, and a new password ending every token and session at once.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { DEFAULT_TOKEN_IDLE_DAYS } from '../../../src/config'
import { apiTokens } from '../../../src/db/schema'
import { setPassword } from '../../../src/modules/account/service'
import { DAY_MS, TOKEN_TOUCH_MS } from '../../../src/modules/auth/service'
import { ok, refused, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'
const DAY = DAY_MS
const TOKEN_IDLE_MS = DEFAULT_TOKEN_IDLE_DAYS * DAY

async function account() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const cookie = await t.signIn('alice')
  return { ...t, token, cookie, me: t.plugin(token).auth.me, site: t.web(cookie) }
}

/** The new session cookie an answer sets. */
const sessionCookieOf = (response: Response) =>
  /^(qt_session=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] as string

describe('plugin tokens on the account page', () => {
  test('lists the live tokens with label, created and last used; never the token itself', async () => {
    const t = await account()
    const second = ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: PASSWORD, label: 'laptop' }))
    ok(await t.plugin(second.token).auth.me.get())
    const body = ok(await t.site.account.tokens.get())
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
    refused(await t.web(bobCookie).account.tokens({ id: 1 }).delete(), 404)
    ok(await t.me.get())
    expect(ok(await t.site.account.tokens({ id: 1 }).delete())).toEqual({ ok: true })
    refused(await t.me.get(), 401)
    ok(await t.plugin(other).auth.me.get())
    // Twice: it is gone.
    refused(await t.site.account.tokens({ id: 1 }).delete(), 404)
  })

  test('the account operations are cookie-only: a plugin token cannot reach them', async () => {
    const t = await account()
    const bearer = { headers: { authorization: `Bearer ${t.token}` } }
    refused(await t.api.account.tokens.get(bearer), 401)
    refused(await t.api.account.sessions.delete(undefined, bearer), 401)
  })
})

describe('changing the password', () => {
  test('asks for the current password; a wrong one is 401 and changes nothing', async () => {
    const t = await account()
    refused(
      await t.site.account.password.put({ currentPassword: 'not it at all', newPassword: 'a brand new password' }),
      401,
    )
    ok(await t.me.get())
    ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: PASSWORD }))
  })

  test('a too-short new password is 400 and changes nothing', async () => {
    const t = await account()
    refused(await t.site.account.password.put({ currentPassword: PASSWORD, newPassword: 'short' }), 400)
    ok(await t.me.get())
  })

  test('ends every token and every other session; this browser gets a new session', async () => {
    const t = await account()
    const otherBrowser = await t.signIn('alice')
    const changed = await t.site.account.password.put({
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    })
    ok(changed)
    const fresh = sessionCookieOf(changed.response)
    expect(fresh).toBeString()
    refused(await t.me.get(), 401)
    refused(await t.web(otherBrowser).session.get(), 401)
    refused(await t.site.session.get(), 401)
    ok(await t.web(fresh).session.get())
    ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: 'a brand new password' }))
  })

  test('the admin command (user passwd) ends every token and session too', async () => {
    const t = await account()
    await setPassword({ db: t.db, clock: t.clock, passwordHasher: t.passwordHasher }, 'alice', 'set by the admin')
    refused(await t.me.get(), 401)
    refused(await t.site.session.get(), 401)
    const rows = t.db.select().from(apiTokens).where(eq(apiTokens.userId, 1)).all()
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true)
  })
})

test('sign out everywhere ends every session and token of the account', async () => {
  const t = await account()
  const otherBrowser = await t.signIn('alice')
  const out = await t.site.account.sessions.delete()
  ok(out)
  expect(out.response.headers.get('set-cookie')).toContain('Max-Age=0')
  for (const cookie of [t.cookie, otherBrowser]) {
    refused(await t.web(cookie).session.get(), 401)
  }
  refused(await t.me.get(), 401)
})

describe('token lifetime', () => {
  test('last used moves at most once an hour', async () => {
    const t = await account()
    const lastUsed = () => t.db.select().from(apiTokens).where(eq(apiTokens.id, 1)).get()?.lastUsedAt
    expect(lastUsed()).toBeNull()
    ok(await t.me.get())
    expect(lastUsed()).toBe('2026-11-21T12:00:00.000Z')
    t.clock.advance(TOKEN_TOUCH_MS / 2)
    ok(await t.me.get())
    expect(lastUsed()).toBe('2026-11-21T12:00:00.000Z')
    t.clock.advance(TOKEN_TOUCH_MS)
    ok(await t.me.get())
    expect(lastUsed()).toBe(t.clock.now().toISOString())
  })

  test('a token unused for the idle time expires; one in use does not', async () => {
    const t = await account()
    const busy = ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: PASSWORD }))
    for (let elapsed = 0; elapsed < TOKEN_IDLE_MS + 10 * DAY; elapsed += 30 * DAY) {
      t.clock.advance(30 * DAY)
      ok(await t.plugin(busy.token).auth.me.get())
    }
    expect(refused(await t.me.get(), 401).error).toContain('expired')
  })

  test('TOKEN_IDLE_DAYS sets the idle time', async () => {
    const t = testApp({ TOKEN_IDLE_DAYS: '2' })
    const me = t.plugin(await t.userWithToken('zoe')).auth.me
    t.clock.advance(DAY)
    ok(await me.get())
    t.clock.advance(2 * DAY + 1000)
    expect(refused(await me.get(), 401).error).toContain('2 days')
  })
})
