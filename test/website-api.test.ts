// The website's server side: sessions, the cookie API (twins of the plugin operations), the
// same-origin rule, CORS kept to the plugin API, the event stream, sharing and deletion.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { completions, sessions } from '../src/db/schema'
import { HSTS_MAX_AGE_SECONDS } from '../src/http/security'
import { hashToken } from '../src/modules/auth/service'
import { MAX_STREAMS_PER_ACCOUNT } from '../src/modules/events'
import { MAX_SESSIONS_PER_ACCOUNT } from '../src/modules/session/limits'
import { SESSION_IDLE_MS, SESSION_REFRESH_MS } from '../src/modules/session/service'
import { type TestApp, testApp } from './helpers'

const PASSWORD = 'correct horse battery'
const HOUR = 60 * 60_000

let t: TestApp
let aliceToken: string
let alice: string
let bob: string
let aliceChar: number

beforeAll(async () => {
  t = testApp()
  aliceToken = await t.userWithToken('alice')
  await t.userWithToken('bob')
  alice = await t.signIn('alice')
  bob = await t.signIn('bob')
  const created = await t.json<{ id: number }>('POST', '/api/characters', {
    cookie: alice,
    body: { givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 12 }] },
  })
  expect(created.status).toBe(201)
  aliceChar = created.body.id
})

describe('sessions', () => {
  test('sign in sets an HttpOnly, SameSite, Path=/ cookie whose value is stored only as a hash', async () => {
    const response = await t.request('POST', '/api/session', { body: { identifier: 'ALICE', password: PASSWORD } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      user: { id: 1, email: null, username: 'alice', displayName: 'alice' },
    })
    const cookie = response.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^qt_session=qs_[\w-]{43}; /)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain('Path=/')
    expect(cookie).toContain(`Max-Age=${SESSION_IDLE_MS / 1000}`)
    expect(cookie).not.toContain('Secure')
    const value = (/^qt_session=([^;]+)/.exec(cookie) as RegExpExecArray)[1] as string
    const stored = t.db.select().from(sessions).all()
    expect(stored.some((row) => row.tokenHash === hashToken(value))).toBe(true)
    expect(stored.some((row) => row.tokenHash === value)).toBe(false)
  })

  test('the aliases of the plugin login work; a missing identifier is 400', async () => {
    for (const key of ['email', 'username', 'login']) {
      const response = await t.request('POST', '/api/session', { body: { [key]: 'bob', password: PASSWORD } })
      expect({ key, status: response.status }).toEqual({ key, status: 200 })
    }
    const missing = await t.json('POST', '/api/session', { body: { password: PASSWORD } })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toContain('identifier')
  })

  test('over HTTPS the cookie is Secure', async () => {
    const response = await t.app.handle(
      new Request('https://tracker.example/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: 'alice', password: PASSWORD }),
      }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toContain('; Secure')
    expect(response.headers.get('strict-transport-security')).toBe(`max-age=${HSTS_MAX_AGE_SECONDS}`)
  })

  test('over plain HTTP no page or answer carries HSTS', async () => {
    for (const path of ['/', '/api/health', '/api/session']) {
      expect((await t.request('GET', path)).headers.get('strict-transport-security')).toBeNull()
    }
  })

  test('GET answers the account; without a valid cookie 401', async () => {
    expect((await t.json('GET', '/api/session', { cookie: alice })).body).toMatchObject({ user: { username: 'alice' } })
    expect((await t.json('GET', '/api/session')).status).toBe(401)
    expect((await t.json('GET', '/api/session', { cookie: 'qt_session=qs_forged' })).status).toBe(401)
  })

  test('sign out revokes the session server-side and clears the cookie', async () => {
    const cookie = await t.signIn('alice')
    const out = await t.request('DELETE', '/api/session', { cookie })
    expect(out.status).toBe(200)
    expect(await out.json()).toEqual({ ok: true })
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    // The same cookie, replayed, no longer works.
    expect((await t.json('GET', '/api/session', { cookie })).status).toBe(401)
    expect((await t.json('GET', '/api/characters', { cookie })).status).toBe(401)
    const value = cookie.slice('qt_session='.length)
    const row = t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(value)))
      .get()
    expect(row?.revokedAt).not.toBeNull()
  })

  test('the expiry slides with use and an idle session ends', async () => {
    const local = testApp()
    await local.userWithToken('carol')
    const cookie = await local.signIn('carol')
    // Used within the refresh interval: no new cookie, no write.
    local.clock.advance(SESSION_REFRESH_MS / 2)
    const early = await local.request('GET', '/api/session', { cookie })
    expect(early.status).toBe(200)
    expect(early.headers.get('set-cookie')).toBeNull()
    // Used later: the expiry moves forward and the cookie is sent again.
    local.clock.advance(SESSION_IDLE_MS - HOUR)
    const late = await local.request('GET', '/api/session', { cookie })
    expect(late.status).toBe(200)
    expect(late.headers.get('set-cookie')).toContain(`${cookie}; Path=/`)
    // Had it not slid, it would have ended by now; it has not.
    local.clock.advance(2 * HOUR)
    expect((await local.request('GET', '/api/session', { cookie })).status).toBe(200)
    // Left unused for longer than the idle time: it ends.
    local.clock.advance(SESSION_IDLE_MS + 1000)
    expect((await local.json('GET', '/api/session', { cookie })).status).toBe(401)
  })

  test('the plugin login and the website sign-in share one throttle', async () => {
    const local = testApp()
    await local.userWithToken('dave')
    for (let i = 0; i < 5; i++) {
      const wrong = await local.json('POST', '/api/plugin/auth/login', {
        body: { identifier: 'dave', password: 'nope' },
      })
      expect(wrong.status).toBe(401)
    }
    const locked = await local.json('POST', '/api/session', { body: { identifier: 'dave', password: PASSWORD } })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    local.clock.advance(6 * 60_000)
    expect(
      (await local.json('POST', '/api/session', { body: { identifier: 'dave', password: PASSWORD } })).status,
    ).toBe(200)
  })

  test('a wrong password and an unknown account give the same 401 as the plugin login', async () => {
    const wrong = await t.json('POST', '/api/session', { body: { identifier: 'bob', password: 'wrong password' } })
    const unknown = await t.json('POST', '/api/session', { body: { identifier: 'nobody', password: PASSWORD } })
    const plugin = await t.json('POST', '/api/plugin/auth/login', {
      body: { identifier: 'nobody', password: PASSWORD },
    })
    expect([wrong.status, unknown.status]).toEqual([401, 401])
    expect(wrong.body).toEqual(unknown.body)
    expect(unknown.body).toEqual(plugin.body)
  })
})

// Hardening II item 6: every sign-in added a session row forever. Now an account keeps at most
// MAX_SESSIONS_PER_ACCOUNT live sessions (a sign-in beyond it ends the least recently used), and
// each sign-in deletes the account's ended and expired rows.
describe('sessions per account', () => {
  test(`300 sign-ins keep ${MAX_SESSIONS_PER_ACCOUNT} sessions; the least recently used end first, never the sign-in`, async () => {
    const local = testApp()
    await local.userWithToken('carol')
    const rows = () => local.db.select().from(sessions).all()
    const status = async (cookie: string) => (await local.json('GET', '/api/session', { cookie })).status
    // A sign-in every two minutes, while one browser keeps using its session (its expiry slides
    // at most once an hour).
    const inUse = await local.signIn('carol')
    const cookies: string[] = []
    for (let i = 1; i <= 300; i++) {
      local.clock.advance(2 * 60_000)
      cookies.push(await local.signIn('carol'))
      expect(rows().length).toBeLessThanOrEqual(MAX_SESSIONS_PER_ACCOUNT)
      if (i % 10 === 0) expect(await status(inUse)).toBe(200)
    }
    expect(rows()).toHaveLength(MAX_SESSIONS_PER_ACCOUNT)
    expect(await status(inUse)).toBe(200)
    for (const cookie of cookies.slice(-(MAX_SESSIONS_PER_ACCOUNT - 1))) expect(await status(cookie)).toBe(200)
    expect(await status(cookies.at(-MAX_SESSIONS_PER_ACCOUNT) as string)).toBe(401)
    expect(await status(cookies[0] as string)).toBe(401)
  })

  test("a sign-in deletes the account's ended and expired sessions, not another account's", async () => {
    const local = testApp()
    await local.userWithToken('carol')
    await local.userWithToken('dave')
    const daves = await local.signIn('dave')
    const old = await local.signIn('carol')
    const ended = await local.signIn('carol')
    expect((await local.request('DELETE', '/api/session', { cookie: ended })).status).toBe(200)
    local.clock.advance(SESSION_IDLE_MS + 1000)
    expect((await local.json('GET', '/api/session', { cookie: old })).status).toBe(401)
    const fresh = await local.signIn('carol')
    const hashes = local.db
      .select()
      .from(sessions)
      .all()
      .map((row) => row.tokenHash)
    const hashOf = (cookie: string) => hashToken(cookie.slice('qt_session='.length))
    expect(hashes.sort()).toEqual([hashOf(daves), hashOf(fresh)].sort())
  })
})

describe('behind an HTTPS reverse proxy (X-Forwarded-Proto)', () => {
  const servers: TestApp[] = []
  afterAll(async () => {
    for (const server of servers) await server.app.stop()
  })

  /** A server on a real socket (the proxy is trusted by its address: here 127.0.0.1), with an account. */
  async function behindProxy(env: Record<string, string>) {
    const local = testApp(env)
    await local.userWithToken('alice')
    local.app.listen({ port: 0, hostname: '127.0.0.1' })
    servers.push(local)
    const base = `http://127.0.0.1:${local.app.server?.port}`
    const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    return { send, clock: local.clock }
  }
  const signIn = { identifier: 'alice', password: PASSWORD }
  const hsts = `max-age=${HSTS_MAX_AGE_SECONDS}`

  test('from a trusted proxy, "https" makes the cookie Secure and every answer carry HSTS', async () => {
    const { send, clock } = await behindProxy({ TRUSTED_PROXY: '127.0.0.1' })
    const https = { 'x-forwarded-proto': 'https' }
    const signedIn = await send('POST', '/api/session', https, signIn)
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('set-cookie')).toContain('; Secure')
    expect(signedIn.headers.get('strict-transport-security')).toBe(hsts)
    const cookie = (/^(qt_session=[^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '') as RegExpExecArray)[1]
    for (const path of ['/', '/characters/1', '/api/health', '/api/plugin/docs', '/api/session', '/api/nothing']) {
      const response = await send('GET', path, { ...https, cookie: cookie as string })
      expect({ path, hsts: response.headers.get('strict-transport-security') }).toEqual({ path, hsts })
    }
    // A renewed session, and the new session of a changed password, are Secure too.
    clock.advance(SESSION_REFRESH_MS)
    const renewed = await send('GET', '/api/session', { ...https, cookie: cookie as string })
    expect(renewed.headers.get('set-cookie')).toContain('; Secure')
    const changed = await send(
      'PUT',
      '/api/account/password',
      { ...https, cookie: cookie as string },
      {
        currentPassword: PASSWORD,
        newPassword: PASSWORD,
      },
    )
    expect(changed.status).toBe(200)
    expect(changed.headers.get('set-cookie')).toContain('; Secure')
    const newCookie = /^(qt_session=[^;]+)/.exec(changed.headers.get('set-cookie') ?? '')?.[1] as string
    const out = await send('DELETE', '/api/session', { ...https, cookie: newCookie })
    expect(out.status).toBe(200)
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0; Secure')
    // The same proxy forwarding a plain-HTTP request: no Secure, no HSTS.
    const plain = await send('POST', '/api/session', { 'x-forwarded-proto': 'http' }, signIn)
    expect(plain.headers.get('set-cookie')).not.toContain('Secure')
    expect(plain.headers.get('strict-transport-security')).toBeNull()
  })

  test('from anyone else the header is ignored: no Secure, no HSTS', async () => {
    for (const env of [{}, { TRUSTED_PROXY: '10.0.0.0/8' }] as Record<string, string>[]) {
      const { send } = await behindProxy(env)
      const response = await send('POST', '/api/session', { 'x-forwarded-proto': 'https' }, signIn)
      expect(response.status).toBe(200)
      expect(response.headers.get('set-cookie')).not.toContain('Secure')
      expect(response.headers.get('strict-transport-security')).toBeNull()
      expect(
        (await send('GET', '/', { 'x-forwarded-proto': 'https' })).headers.get('strict-transport-security'),
      ).toBeNull()
    }
  })
})

describe('the cookie API and the plugin API are separate doors', () => {
  test('a bearer token is not accepted on the cookie API', async () => {
    expect((await t.json('GET', '/api/characters', { token: aliceToken })).status).toBe(401)
  })

  test('a session cookie is not accepted on the plugin API', async () => {
    expect((await t.json('GET', '/api/plugin/characters', { cookie: alice })).status).toBe(401)
  })

  test('no CORS headers under the cookie API or on the session; * under the plugin API', async () => {
    const origin = { origin: 'http://game-pc.lan' }
    for (const path of ['/api/characters', '/api/session', `/api/characters/${aliceChar}/progress`]) {
      const response = await t.request('GET', path, { cookie: alice, headers: origin })
      expect({ path, acao: response.headers.get('access-control-allow-origin') }).toEqual({ path, acao: null })
    }
    const preflight = await t.request('OPTIONS', '/api/characters', {
      headers: { ...origin, 'access-control-request-method': 'POST' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const plugin = await t.request('GET', '/api/plugin/characters', { token: aliceToken, headers: origin })
    expect(plugin.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('same-origin rule for unsafe methods', () => {
  const countCompletions = () =>
    t.db.select().from(completions).where(eq(completions.characterId, aliceChar)).all().length

  test.each([
    ['Origin of another site', { origin: 'http://evil.example' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (a sibling host)', { 'sec-fetch-site': 'same-site', origin: 'http://localhost' }],
  ])('%s: 403 and nothing written', async (_, headers) => {
    const before = countCompletions()
    const response = await t.json('POST', `/api/characters/${aliceChar}/completions`, {
      cookie: alice,
      headers,
      body: { name: 'The Pit', setting: 'elite' },
    })
    expect(response.status).toBe(403)
    expect(response.body.error).toBeString()
    expect(countCompletions()).toBe(before)
  })

  test('sign-in from another site is refused too (login CSRF)', async () => {
    const response = await t.json('POST', '/api/session', {
      headers: { origin: 'http://evil.example' },
      body: { identifier: 'alice', password: PASSWORD },
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  test('the same origin, or no browser headers at all, is allowed; GET is never refused', async () => {
    const same = await t.json('POST', `/api/characters/${aliceChar}/completions`, {
      cookie: alice,
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      body: { name: 'The Pit', setting: 'hard' },
    })
    expect(same.status).toBe(201)
    const read = await t.json('GET', `/api/characters/${aliceChar}/progress`, {
      cookie: alice,
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(read.status).toBe(200)
  })

  test('the plugin API stays open to any origin (bearer tokens are not sent by browsers on their own)', async () => {
    const response = await t.json('POST', `/api/plugin/characters/${aliceChar}/completions`, {
      token: aliceToken,
      headers: { origin: 'http://game-pc.lan', 'sec-fetch-site': 'cross-site' },
      body: { name: 'The Pit', setting: 'normal' },
    })
    expect(response.status).toBe(201)
  })
})

describe('twins: one service behind both APIs', () => {
  test('what the website writes the plugin reads, and back', async () => {
    const put = await t.json('PUT', `/api/characters/${aliceChar}/progress`, {
      cookie: alice,
      body: {
        targetDifficulty: 'elite',
        levelBand: 255,
        versionFilter: { epic: 'no' },
        excludedPatrons: ['The Coin Lords'],
      },
    })
    expect(put.status).toBe(200)
    const plugin = await t.json('GET', `/api/plugin/characters/${aliceChar}/progress`, { token: aliceToken })
    expect(plugin.body).toMatchObject({
      targetDifficulty: 'elite',
      levelBand: 255,
      versionFilter: { heroic: 'any', epic: 'no', legendary: 'any' },
      excludedPatrons: ['The Coin Lords'],
    })
    await t.json('POST', `/api/plugin/characters/${aliceChar}/completions`, {
      token: aliceToken,
      body: { name: 'Waterworks', difficulty: 'Heroic', setting: 'casual', xpEarned: 1234 },
    })
    const web = await t.json<{ completions: { name: string; xpEarned: number | null }[] }>(
      'GET',
      `/api/characters/${aliceChar}/progress`,
      { cookie: alice },
    )
    expect(web.body.completions).toContainEqual(expect.objectContaining({ name: 'Waterworks', xpEarned: 1234 }))
    const removed = await t.json('DELETE', `/api/characters/${aliceChar}/completions`, {
      cookie: alice,
      body: { name: 'Waterworks', difficulty: 'Heroic', setting: 'casual' },
    })
    expect(removed.body).toEqual({ ok: true, deleted: 1 })
  })

  test('the character list carries the distinct quests done', async () => {
    const local = testApp()
    const token = await local.userWithToken('erin')
    const cookie = await local.signIn('erin')
    const { body } = await local.json<{ id: number }>('POST', '/api/characters', { cookie, body: { givenName: 'A' } })
    await local.json('POST', '/api/characters', { cookie, body: { givenName: 'B' } })
    for (const [name, setting] of [
      ['The Pit', 'elite'],
      ['The Pit', 'hard'],
      ['Waterworks', 'normal'],
    ]) {
      await local.json('POST', `/api/plugin/characters/${body.id}/completions`, { token, body: { name, setting } })
    }
    const list = await local.json<{ characters: { name: string; questsDone: number }[] }>('GET', '/api/characters', {
      cookie,
    })
    expect(list.body.characters.map((c) => [c.name, c.questsDone])).toEqual([
      ['A', 2],
      ['B', 0],
    ])
  })
})

describe("another account's character is 404 on every cookie route", () => {
  const id = () => aliceChar
  test.each([
    ['GET', ''],
    ['PATCH', ''],
    ['PUT', ''],
    ['DELETE', ''],
    ['POST', '/login'],
    ['POST', '/share'],
    ['DELETE', '/share'],
    ['GET', '/progress'],
    ['PUT', '/progress'],
    ['POST', '/completions'],
    ['DELETE', '/completions'],
    ['GET', '/live'],
    ['PUT', '/live'],
    ['GET', '/build'],
    ['PUT', '/build'],
    ['GET', '/lives'],
    ['POST', '/lives/reincarnate'],
    ['GET', '/events'],
  ])('%s /api/characters/{id}%s', async (method, suffix) => {
    const body = ['GET', 'DELETE'].includes(method) ? undefined : { name: 'The Pit', givenName: 'Mallory' }
    const before = await t.json('GET', `/api/characters/${id()}/progress`, { cookie: alice })
    const response = await t.json(method, `/api/characters/${id()}${suffix}`, {
      cookie: bob,
      body: method === 'DELETE' && suffix === '/completions' ? { name: 'The Pit' } : body,
    })
    expect(response.status).toBe(404)
    const after = await t.json('GET', `/api/characters/${id()}/progress`, { cookie: alice })
    expect(after.body).toEqual(before.body)
  })
})

/** Reads server-sent events from a streaming response until `until` matches or time runs out. */
async function readEvents(response: Response, until: (text: string) => boolean, ms = 2000): Promise<string> {
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

describe('GET /api/characters/{id}/events', () => {
  test('a completion posted through the plugin API arrives as an event', async () => {
    const controller = new AbortController()
    const stream = await t.app.handle(
      new Request(`http://localhost/api/characters/${aliceChar}/events`, {
        headers: { cookie: alice },
        signal: controller.signal,
      }),
    )
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    const received = readEvents(stream, (text) => text.includes('event: change'))
    await t.json('POST', `/api/plugin/characters/${aliceChar}/completions`, {
      token: aliceToken,
      body: { name: 'Tangleroot', setting: 'elite' },
    })
    const text = await received
    controller.abort()
    expect(text).toContain('event: change')
    expect(text).toContain(JSON.stringify({ characterId: aliceChar, what: 'completions' }))
  })

  test.each([
    ['PUT', '/progress', { levelBand: 0 }, 'progress'],
    ['PATCH', '', { guild: 'Stone' }, 'character'],
    ['PUT', '/live', { life: { name: 'Tordek' } }, 'live'],
    ['POST', '/lives/reincarnate', {}, 'lives'],
  ])('%s %s publishes "%s"', async (method, suffix, body, what) => {
    const stream = await t.request('GET', `/api/characters/${aliceChar}/events`, { cookie: alice })
    const received = readEvents(stream, (text) => text.includes(`"what":"${what}"`))
    const write = await t.json(method, `/api/plugin/characters/${aliceChar}${suffix}`, { token: aliceToken, body })
    expect(write.status).toBe(200)
    expect(await received).toContain(JSON.stringify({ characterId: aliceChar, what }))
  })

  test('a refused write publishes nothing; other characters do not leak in', async () => {
    const other = await t.json<{ id: number }>('POST', '/api/plugin/characters', {
      token: aliceToken,
      body: { givenName: 'Other' },
    })
    const stream = await t.request('GET', `/api/characters/${aliceChar}/events`, { cookie: alice })
    const received = readEvents(stream, (text) => text.includes('event: change'), 400)
    await t.json('POST', `/api/plugin/characters/${aliceChar}/completions`, { token: aliceToken, body: { name: 5 } })
    await t.json('POST', `/api/plugin/characters/${other.body.id}/completions`, {
      token: aliceToken,
      body: { name: 'The Pit' },
    })
    expect(await received).not.toContain('event: change')
  })

  test('needs a session; 401 without one', async () => {
    expect((await t.json('GET', `/api/characters/${aliceChar}/events`)).status).toBe(401)
  })

  test(`at most ${MAX_STREAMS_PER_ACCOUNT} streams per account; a closed one frees its place`, async () => {
    const local = testApp()
    await local.userWithToken('frank')
    const cookie = await local.signIn('frank')
    const { body } = await local.json<{ id: number }>('POST', '/api/characters', { cookie, body: { givenName: 'F' } })
    const open: Response[] = []
    for (let i = 0; i < MAX_STREAMS_PER_ACCOUNT; i++) {
      open.push(await local.request('GET', `/api/characters/${body.id}/events`, { cookie }))
    }
    expect(open.every((response) => response.status === 200)).toBe(true)
    const refused = await local.json('GET', `/api/characters/${body.id}/events`, { cookie })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).not.toBeNull()
    await (open.pop() as Response).body?.cancel()
    const again = await local.request('GET', `/api/characters/${body.id}/events`, { cookie })
    expect(again.status).toBe(200)
    for (const response of [...open, again]) await response.body?.cancel()
  })
})

describe('sharing', () => {
  for (const [label, prefix, auth] of [
    ['plugin API', '/api/plugin', () => ({ token: aliceToken })],
    ['cookie API', '/api', () => ({ cookie: alice })],
  ] as const) {
    test(`${label}: the share view answers; rotate kills the old link; disable answers 404 until shared again`, async () => {
      const character = await t.json<{ shareToken: string; shared: boolean }>(
        'GET',
        `${prefix}/characters/${aliceChar}`,
        auth(),
      )
      expect(character.body.shared).toBe(true)
      const view = await t.json<{ character: { id: number }; progress: { completions: unknown[] } }>(
        'GET',
        `/api/share/${character.body.shareToken}`,
      )
      expect(view.status).toBe(200)
      expect(view.body.character.id).toBe(aliceChar)
      expect(view.body.progress.completions.length).toBeGreaterThan(0)

      const rotated = await t.json<{ shareToken: string; shareUrl: string; shared: boolean }>(
        'POST',
        `${prefix}/characters/${aliceChar}/share`,
        auth(),
      )
      expect(rotated.status).toBe(200)
      expect(rotated.body.shareToken).not.toBe(character.body.shareToken)
      expect(rotated.body.shareUrl).toBe(`/s/${rotated.body.shareToken}`)
      expect((await t.json('GET', `/api/share/${character.body.shareToken}`)).status).toBe(404)
      expect((await t.json('GET', `/api/share/${rotated.body.shareToken}`)).status).toBe(200)
      // The page follows the data: the old link's page is the 404 a wrong link gets.
      expect(await sharePage(character.body.shareToken)).toEqual(await sharePage('not-a-token'))
      expect((await sharePage(character.body.shareToken)).status).toBe(404)
      expect((await sharePage(rotated.body.shareToken)).status).toBe(200)

      const off = await t.json<{ shared: boolean }>('DELETE', `${prefix}/characters/${aliceChar}/share`, auth())
      expect(off.body.shared).toBe(false)
      expect((await t.json('GET', `/api/share/${rotated.body.shareToken}`)).status).toBe(404)
      expect(await sharePage(rotated.body.shareToken)).toEqual(await sharePage('not-a-token'))
      const on = await t.json<{ shareToken: string; shared: boolean }>(
        'POST',
        `${prefix}/characters/${aliceChar}/share`,
        auth(),
      )
      expect(on.body.shared).toBe(true)
      expect((await t.json('GET', `/api/share/${on.body.shareToken}`)).status).toBe(200)
      expect((await sharePage(on.body.shareToken)).status).toBe(200)
    })
  }

  /** The share page as a browser gets it: status, type and the page itself. */
  const sharePage = async (token: string) => {
    const response = await t.request('GET', `/s/${token}`, { headers: { accept: 'text/html' } })
    return { status: response.status, type: response.headers.get('content-type'), html: await response.text() }
  }

  test('a wrong link is the site page with 404; the page says "not found" itself', async () => {
    const page = await sharePage('not-a-token')
    expect(page.status).toBe(404)
    expect(page.type).toBe('text/html; charset=utf-8')
    expect(page.html).toContain('<div id="app">')
  })

  test('an unknown link is 404 with a sentence', async () => {
    const response = await t.json('GET', '/api/share/not-a-token')
    expect(response.status).toBe(404)
    expect(response.body.error).toBeString()
  })
})

describe('deleting a character', () => {
  test('takes its completions with it; a second delete, or another account, is 404', async () => {
    const { body } = await t.json<{ id: number }>('POST', '/api/plugin/characters', {
      token: aliceToken,
      body: { givenName: 'Doomed' },
    })
    await t.json('POST', `/api/plugin/characters/${body.id}/completions`, {
      token: aliceToken,
      body: { name: 'The Pit' },
    })
    expect((await t.json('DELETE', `/api/characters/${body.id}`, { cookie: bob })).status).toBe(404)
    expect((await t.json('GET', `/api/plugin/characters/${body.id}`, { token: aliceToken })).status).toBe(200)
    const removed = await t.json('DELETE', `/api/plugin/characters/${body.id}`, { token: aliceToken })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ ok: true })
    expect(t.db.select().from(completions).where(eq(completions.characterId, body.id)).all()).toEqual([])
    expect((await t.json('GET', `/api/plugin/characters/${body.id}`, { token: aliceToken })).status).toBe(404)
    expect((await t.json('DELETE', `/api/characters/${body.id}`, { cookie: alice })).status).toBe(404)
  })
})

describe('GET /api/quests', () => {
  test('public, with an ETag that answers 304 while the catalog is unchanged', async () => {
    const first = await t.request('GET', '/api/quests')
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ count: 0, quests: [] })
    const etag = first.headers.get('etag') as string
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await t.request('GET', '/api/quests', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })
})
