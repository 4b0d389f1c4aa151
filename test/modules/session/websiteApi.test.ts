// The website's server side: sessions, the cookie API (twins of the plugin operations), the
// same-origin rule, CORS kept to the plugin API, the event stream, sharing and deletion.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import { eq } from 'drizzle-orm'
import type { App } from '../../../src/app'
import { completions, sessions } from '../../../src/db/schema'
import { HSTS_MAX_AGE_SECONDS } from '../../../src/http/security'
import { hashToken } from '../../../src/modules/auth/service'
import { MAX_STREAMS_PER_ACCOUNT } from '../../../src/modules/events'
import { MAX_SESSIONS_PER_ACCOUNT } from '../../../src/modules/session/limits'
import { SESSION_IDLE_MS, SESSION_REFRESH_MS } from '../../../src/modules/session/service'
import { ok, readEvents, refused, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'
const HOUR = 60 * 60_000

let t: TestApp
let aliceToken: string
let alice: string
let bob: string
let aliceChar: number

beforeEach(async () => {
  t = testApp()
  aliceToken = await t.userWithToken('alice')
  await t.userWithToken('bob')
  alice = await t.signIn('alice')
  bob = await t.signIn('bob')
  const created = ok(
    await t.web(alice).characters.post({ givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 12 }] }),
    201,
  )
  aliceChar = created.id
})

/** The new session cookie an answer sets. */
const sessionCookieOf = (response: Response) =>
  /^(qt_session=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] as string

describe('sessions', () => {
  test('sign in sets an HttpOnly, SameSite, Path=/ cookie whose value is stored only as a hash', async () => {
    const answer = await t.api.session.post({ identifier: 'ALICE', password: PASSWORD })
    expect(ok(answer)).toEqual({
      user: { id: 1, email: null, username: 'alice', displayName: 'alice' },
    })
    const cookie = answer.response.headers.get('set-cookie') ?? ''
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
    for (const key of ['email', 'username', 'login'] as const) {
      const answer = await t.api.session.post({ [key]: 'bob', password: PASSWORD })
      expect({ key, status: answer.status }).toEqual({ key, status: 200 })
    }
    expect(refused(await t.api.session.post({ password: PASSWORD }), 400).error).toContain('identifier')
  })

  test('over HTTPS the cookie is Secure', async () => {
    // Raw: an https URL, which the typed client (http://e.ly) does not use.
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
    expect((await t.request('GET', '/')).headers.get('strict-transport-security')).toBeNull()
    for (const answer of [await t.api.health.get(), await t.api.session.get()]) {
      expect(answer.response.headers.get('strict-transport-security')).toBeNull()
    }
  })

  test('GET answers the account; without a valid cookie 401', async () => {
    expect(ok(await t.web(alice).session.get())).toMatchObject({ user: { username: 'alice' } })
    refused(await t.api.session.get(), 401)
    refused(await t.web('qt_session=qs_forged').session.get(), 401)
  })

  test('sign out revokes the session server-side and clears the cookie', async () => {
    const cookie = await t.signIn('alice')
    const out = await t.web(cookie).session.delete()
    expect(ok(out)).toEqual({ ok: true })
    expect(out.response.headers.get('set-cookie')).toContain('Max-Age=0')
    // The same cookie, replayed, no longer works.
    refused(await t.web(cookie).session.get(), 401)
    refused(await t.web(cookie).characters.get(), 401)
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
    const session = local.web(cookie).session
    // Used within the refresh interval: no new cookie, no write.
    local.clock.advance(SESSION_REFRESH_MS / 2)
    const early = await session.get()
    ok(early)
    expect(early.response.headers.get('set-cookie')).toBeNull()
    // Used later: the expiry moves forward and the cookie is sent again.
    local.clock.advance(SESSION_IDLE_MS - HOUR)
    const late = await session.get()
    ok(late)
    expect(late.response.headers.get('set-cookie')).toContain(`${cookie}; Path=/`)
    // Had it not slid, it would have ended by now; it has not.
    local.clock.advance(2 * HOUR)
    ok(await session.get())
    // Left unused for longer than the idle time: it ends.
    local.clock.advance(SESSION_IDLE_MS + 1000)
    refused(await session.get(), 401)
  })

  test('the plugin login and the website sign-in share one throttle', async () => {
    const local = testApp()
    await local.userWithToken('dave')
    for (let i = 0; i < 5; i++) {
      refused(await local.api.plugin.auth.login.post({ identifier: 'dave', password: 'nope' }), 401)
    }
    const locked = await local.api.session.post({ identifier: 'dave', password: PASSWORD })
    refused(locked, 429)
    expect(Number(locked.response.headers.get('retry-after'))).toBeGreaterThan(0)
    local.clock.advance(6 * 60_000)
    ok(await local.api.session.post({ identifier: 'dave', password: PASSWORD }))
  })

  test('a wrong password and an unknown account give the same 401 as the plugin login', async () => {
    const wrong = await t.api.session.post({ identifier: 'bob', password: 'wrong password' })
    const unknown = await t.api.session.post({ identifier: 'nobody', password: PASSWORD })
    const plugin = await t.api.plugin.auth.login.post({ identifier: 'nobody', password: PASSWORD })
    expect([wrong.status, unknown.status]).toEqual([401, 401])
    expect(refused(wrong, 401)).toEqual(refused(unknown, 401))
    expect(unknown.error?.value).toEqual(plugin.error?.value)
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
    const status = async (cookie: string) => (await local.web(cookie).session.get()).status
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
    ok(await local.web(ended).session.delete())
    local.clock.advance(SESSION_IDLE_MS + 1000)
    refused(await local.web(old).session.get(), 401)
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

  /**
   * A server on a real socket (the proxy is trusted by its address: here 127.0.0.1), with an
   * account: `api(headers)` is the typed client over HTTP sending `headers` (what the proxy
   * adds), `get` a raw GET for the pages and paths outside the client.
   */
  async function behindProxy(env: Record<string, string>) {
    const local = testApp(env)
    await local.userWithToken('alice')
    local.app.listen({ port: 0, hostname: '127.0.0.1' })
    servers.push(local)
    const base = `http://127.0.0.1:${local.app.server?.port}`
    const api = (headers: Record<string, string>) => treaty<App>(base, { headers, parseDate: false }).api
    const get = (path: string, headers: Record<string, string>) => fetch(`${base}${path}`, { headers })
    return { api, get, clock: local.clock }
  }
  const signIn = { identifier: 'alice', password: PASSWORD }
  const hsts = `max-age=${HSTS_MAX_AGE_SECONDS}`

  test('from a trusted proxy, "https" makes the cookie Secure and every answer carry HSTS', async () => {
    const { api, get, clock } = await behindProxy({ TRUSTED_PROXY: '127.0.0.1' })
    const https = { 'x-forwarded-proto': 'https' }
    const signedIn = await api(https).session.post(signIn)
    ok(signedIn)
    expect(signedIn.response.headers.get('set-cookie')).toContain('; Secure')
    expect(signedIn.response.headers.get('strict-transport-security')).toBe(hsts)
    const cookie = sessionCookieOf(signedIn.response)
    // Raw: pages, the Markdown reference and an unknown path are outside the typed client.
    for (const path of ['/', '/characters/1', '/api/health', '/api/plugin/docs', '/api/session', '/api/nothing']) {
      const response = await get(path, { ...https, cookie })
      expect({ path, hsts: response.headers.get('strict-transport-security') }).toEqual({ path, hsts })
    }
    // A renewed session, and the new session of a changed password, are Secure too.
    clock.advance(SESSION_REFRESH_MS)
    const renewed = await api({ ...https, cookie }).session.get()
    expect(renewed.response.headers.get('set-cookie')).toContain('; Secure')
    const changed = await api({ ...https, cookie }).account.password.put({
      currentPassword: PASSWORD,
      newPassword: PASSWORD,
    })
    ok(changed)
    expect(changed.response.headers.get('set-cookie')).toContain('; Secure')
    const newCookie = sessionCookieOf(changed.response)
    const out = await api({ ...https, cookie: newCookie }).session.delete()
    ok(out)
    expect(out.response.headers.get('set-cookie')).toContain('Max-Age=0; Secure')
    // The same proxy forwarding a plain-HTTP request: no Secure, no HSTS.
    const plain = await api({ 'x-forwarded-proto': 'http' }).session.post(signIn)
    expect(plain.response.headers.get('set-cookie')).not.toContain('Secure')
    expect(plain.response.headers.get('strict-transport-security')).toBeNull()
  })

  test('from anyone else the header is ignored: no Secure, no HSTS', async () => {
    for (const env of [{}, { TRUSTED_PROXY: '10.0.0.0/8' }] as Record<string, string>[]) {
      const { api, get } = await behindProxy(env)
      const answer = await api({ 'x-forwarded-proto': 'https' }).session.post(signIn)
      ok(answer)
      expect(answer.response.headers.get('set-cookie')).not.toContain('Secure')
      expect(answer.response.headers.get('strict-transport-security')).toBeNull()
      expect((await get('/', { 'x-forwarded-proto': 'https' })).headers.get('strict-transport-security')).toBeNull()
    }
  })
})

describe('the cookie API and the plugin API are separate doors', () => {
  test('a bearer token is not accepted on the cookie API', async () => {
    refused(await t.api.characters.get({ headers: { authorization: `Bearer ${aliceToken}` } }), 401)
  })

  test('a session cookie is not accepted on the plugin API', async () => {
    refused(await t.web(alice).plugin.characters.get(), 401)
  })

  // Raw: CORS headers and a preflight.
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

// Raw: forged browser headers, checked against the request's own host (localhost), which the
// typed client does not use.
describe('same-origin rule for unsafe methods', () => {
  const countCompletions = () =>
    t.db.select().from(completions).where(eq(completions.characterId, aliceChar)).all().length

  test.each([
    ['Origin of another site', { origin: 'http://evil.example' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (a sibling host)', { 'sec-fetch-site': 'same-site', origin: 'http://localhost' }],
  ])('%s: 403 and nothing written', async (_, headers) => {
    const before = countCompletions()
    const response = await t.json<{ error: string }>('POST', `/api/characters/${aliceChar}/completions`, {
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
    const website = t.web(alice).characters({ id: aliceChar })
    const plugin = t.plugin(aliceToken).characters({ id: aliceChar })
    ok(
      await website.progress.put({
        targetDifficulty: 'elite',
        levelBand: 255,
        versionFilter: { epic: 'no' },
        excludedPatrons: ['The Coin Lords'],
      }),
    )
    expect(ok(await plugin.progress.get())).toMatchObject({
      targetDifficulty: 'elite',
      levelBand: 255,
      versionFilter: { heroic: 'any', epic: 'no', legendary: 'any' },
      excludedPatrons: ['The Coin Lords'],
    })
    ok(
      await plugin.completions.post({ name: 'Waterworks', difficulty: 'Heroic', setting: 'casual', xpEarned: 1234 }),
      201,
    )
    const web = ok(await website.progress.get())
    expect(web.completions).toContainEqual(expect.objectContaining({ name: 'Waterworks', xpEarned: 1234 }))
    const removed = ok(
      await website.completions.delete({ name: 'Waterworks', difficulty: 'Heroic', setting: 'casual' }),
    )
    expect(removed).toMatchObject({ ok: true, deleted: 1, removed: [{ name: 'Waterworks', xpEarned: 1234, runs: 1 }] })
  })

  test('the character list carries the distinct quests done', async () => {
    const local = testApp()
    const plugin = local.plugin(await local.userWithToken('erin'))
    const website = local.web(await local.signIn('erin'))
    const { id } = ok(await website.characters.post({ givenName: 'A' }), 201)
    ok(await website.characters.post({ givenName: 'B' }), 201)
    for (const [name, setting] of [
      ['The Pit', 'elite'],
      ['The Pit', 'hard'],
      ['Waterworks', 'normal'],
    ]) {
      ok(await plugin.characters({ id }).completions.post({ name, setting }), 201)
    }
    const list = ok(await website.characters.get())
    expect(list.characters.map((c) => [c.name, c.questsDone])).toEqual([
      ['A', 2],
      ['B', 0],
    ])
  })
})

describe("another account's character is 404 on every cookie route", () => {
  // Bob's calls on Alice's character, each with a body its route accepts.
  const theirs = () => t.web(bob).characters({ id: aliceChar })
  const attempts: [string, string, () => Promise<Parameters<typeof refused>[0]>][] = [
    ['GET', '', () => theirs().get()],
    ['PATCH', '', () => theirs().patch({ name: 'The Pit', givenName: 'Mallory' })],
    ['PUT', '', () => theirs().put({ name: 'The Pit', givenName: 'Mallory' })],
    ['DELETE', '', () => theirs().delete()],
    ['POST', '/login', () => theirs().login.post()],
    ['POST', '/share', () => theirs().share.post()],
    ['DELETE', '/share', () => theirs().share.delete()],
    ['GET', '/progress', () => theirs().progress.get()],
    ['PUT', '/progress', () => theirs().progress.put({ levelBand: 0 })],
    ['POST', '/completions', () => theirs().completions.post({ name: 'The Pit' })],
    ['DELETE', '/completions', () => theirs().completions.delete({ name: 'The Pit' })],
    ['GET', '/live', () => theirs().live.get()],
    ['PUT', '/live', () => theirs().live.put({ life: { name: 'Mallory' } })],
    ['GET', '/build', () => theirs().build.get()],
    ['PUT', '/build', () => theirs().build.put({ build: { notes: 'Mallory' } })],
    ['GET', '/lives', () => theirs().lives.get()],
    ['POST', '/lives/reincarnate', () => theirs().lives.reincarnate.post({ name: 'Mallory' })],
    ['GET', '/events', () => theirs().events.get()],
  ]
  test.each(attempts)('%s /api/characters/{id}%s', async (_method, _suffix, attempt) => {
    const progress = () => t.web(alice).characters({ id: aliceChar }).progress.get()
    const before = ok(await progress())
    refused(await attempt(), 404)
    expect(ok(await progress())).toEqual(before)
  })
})

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
    ok(
      await t
        .plugin(aliceToken)
        .characters({ id: aliceChar })
        .completions.post({ name: 'Tangleroot', setting: 'elite' }),
      201,
    )
    const text = await received
    controller.abort()
    expect(text).toContain('event: change')
    expect(text).toContain(`{"characterId":${aliceChar},"what":"completions","tag":`)
  })

  test('a stream starts with `ready` and the version it continues from: the progress ETag', async () => {
    const web = t.web(alice).characters({ id: aliceChar })
    const readyOf = async () => {
      const stream = await t.request('GET', `/api/characters/${aliceChar}/events`, { cookie: alice })
      const text = await readEvents(stream, (received) => received.includes('event: ready'))
      return /^event: ready\ndata: (.*)\n\n/m.exec(text)?.[1] ?? ''
    }
    const etag = (await web.progress.get()).response.headers.get('etag')
    // A page that read progress at this ETag has missed nothing: it need not read again.
    expect(JSON.parse(await readyOf())).toEqual({ characterId: aliceChar, tag: etag })
    // A write after the read: a new stream starts from the version after it.
    ok(await web.progress.put({ levelBand: 255 }))
    const moved = JSON.parse(await readyOf()).tag
    expect(moved).not.toBe(etag)
    expect(moved).toBe((await web.progress.get()).response.headers.get('etag'))
  })

  const mine = () => t.plugin(aliceToken).characters({ id: aliceChar })
  const writes: [string, string, string, () => Promise<Parameters<typeof ok>[0]>][] = [
    ['PUT', '/progress', 'progress', () => mine().progress.put({ levelBand: 0 })],
    ['PATCH', '', 'character', () => mine().patch({ guild: 'Stone' })],
    ['PUT', '/live', 'live', () => mine().live.put({ life: { name: 'Tordek' } })],
    ['POST', '/lives/reincarnate', 'lives', () => mine().lives.reincarnate.post({})],
  ]
  test.each(writes)('%s %s publishes "%s"', async (_method, _suffix, what, write) => {
    // Raw: the event stream is read as it arrives.
    const stream = await t.request('GET', `/api/characters/${aliceChar}/events`, { cookie: alice })
    const received = readEvents(stream, (text) => text.includes(`"what":"${what}"`))
    ok(await write())
    expect(await received).toContain(`{"characterId":${aliceChar},"what":"${what}","tag":`)
  })

  test('a refused write publishes nothing; other characters do not leak in', async () => {
    const plugin = t.plugin(aliceToken)
    const other = ok(await plugin.characters.post({ givenName: 'Other' }), 201)
    const stream = await t.request('GET', `/api/characters/${aliceChar}/events`, { cookie: alice })
    const received = readEvents(stream, (text) => text.includes('event: change'), 400)
    // Raw: a number for the name, which the typed client would not send.
    await t.json('POST', `/api/plugin/characters/${aliceChar}/completions`, { token: aliceToken, body: { name: 5 } })
    ok(await plugin.characters({ id: other.id }).completions.post({ name: 'The Pit' }), 201)
    expect(await received).not.toContain('event: change')
  })

  test('needs a session; 401 without one', async () => {
    refused(await t.api.characters({ id: aliceChar }).events.get(), 401)
  })

  test(`at most ${MAX_STREAMS_PER_ACCOUNT} streams per account; a closed one frees its place`, async () => {
    const local = testApp()
    await local.userWithToken('frank')
    const cookie = await local.signIn('frank')
    const { id } = ok(await local.web(cookie).characters.post({ givenName: 'F' }), 201)
    // Raw: the streams that open are held open, and closed, by the test.
    const open: Response[] = []
    for (let i = 0; i < MAX_STREAMS_PER_ACCOUNT; i++) {
      open.push(await local.request('GET', `/api/characters/${id}/events`, { cookie }))
    }
    expect(open.every((response) => response.status === 200)).toBe(true)
    const turnedAway = await local.web(cookie).characters({ id }).events.get()
    refused(turnedAway, 429)
    expect(turnedAway.response.headers.get('retry-after')).not.toBeNull()
    await (open.pop() as Response).body?.cancel()
    const again = await local.request('GET', `/api/characters/${id}/events`, { cookie })
    expect(again.status).toBe(200)
    for (const response of [...open, again]) await response.body?.cancel()
  })
})

describe('sharing', () => {
  for (const [label, mine] of [
    ['plugin API', () => t.plugin(aliceToken).characters({ id: aliceChar })],
    ['cookie API', () => t.web(alice).characters({ id: aliceChar })],
  ] as const) {
    test(`${label}: the share view answers; rotate kills the old link; disable answers 404 until shared again`, async () => {
      const share = (token: string) => t.api.share({ token }).get()
      let character = ok(await mine().get())
      if (!character.shared) {
        // A new character starts unshared: its link answers 404 until its player shares it.
        refused(await share(character.shareToken), 404)
        character = ok(await mine().share.post())
      }
      expect(character.shared).toBe(true)
      // Logged now: an earlier test reincarnated the character, and the share view shows this life.
      await mine().completions.post({ name: `Shared ${label}` })
      const view = ok(await share(character.shareToken))
      expect(view.character.id).toBe(aliceChar)
      expect(view.progress.completions.map((c) => c.name)).toContain(`Shared ${label}`)

      const rotated = ok(await mine().share.post())
      expect(rotated.shareToken).not.toBe(character.shareToken)
      expect(rotated.shareUrl).toBe(`/s/${rotated.shareToken}`)
      refused(await share(character.shareToken), 404)
      ok(await share(rotated.shareToken))
      // The page follows the data: the old link's page is the 404 a wrong link gets.
      expect(await sharePage(character.shareToken)).toEqual(await sharePage('not-a-token'))
      expect((await sharePage(character.shareToken)).status).toBe(404)
      expect((await sharePage(rotated.shareToken)).status).toBe(200)

      const off = ok(await mine().share.delete())
      expect(off.shared).toBe(false)
      refused(await share(rotated.shareToken), 404)
      expect(await sharePage(rotated.shareToken)).toEqual(await sharePage('not-a-token'))
      const on = ok(await mine().share.post())
      expect(on.shared).toBe(true)
      ok(await share(on.shareToken))
      expect((await sharePage(on.shareToken)).status).toBe(200)
    })
  }

  /** The share page as a browser gets it (raw: a page, not the API): status, type and the page itself. */
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
    expect(refused(await t.api.share({ token: 'not-a-token' }).get(), 404).error).toBeString()
  })
})

describe('deleting a character', () => {
  test('takes its completions with it; a second delete, or another account, is 404', async () => {
    const plugin = t.plugin(aliceToken)
    const { id } = ok(await plugin.characters.post({ givenName: 'Doomed' }), 201)
    ok(await plugin.characters({ id }).completions.post({ name: 'The Pit' }), 201)
    refused(await t.web(bob).characters({ id }).delete(), 404)
    ok(await plugin.characters({ id }).get())
    expect(ok(await plugin.characters({ id }).delete())).toEqual({ ok: true })
    expect(t.db.select().from(completions).where(eq(completions.characterId, id)).all()).toEqual([])
    refused(await plugin.characters({ id }).get(), 404)
    refused(await t.web(alice).characters({ id }).delete(), 404)
  })
})

describe('GET /api/quests', () => {
  test('public, with an ETag that answers 304 while the catalog is unchanged', async () => {
    const first = await t.api.quests.get()
    expect(ok(first)).toMatchObject({ count: 0, quests: [] })
    const etag = first.response.headers.get('etag') as string
    expect(etag).toMatch(/^"[\w.-]+"$/)
    const again = await t.api.quests.get({ headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })
})
