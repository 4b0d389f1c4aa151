// Request bodies are read as they arrive, within their route's limit and time, and only from a
// caller the route accepts: a stranger's slow chunked body used to be held whole (up to 8 MiB a
// connection) before the size check and before authentication. In process, the bodies below
// count how much of them the server pulled; on a real socket, the server answers (and closes)
// while the client is still sending.
import { afterAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { Elysia } from 'elysia'
import { systemClock } from '../../src/clock'
import { openDatabase } from '../../src/db/client'
import { watchSpace } from '../../src/db/space'
import { TrustedProxies } from '../../src/http/address'
import { BODY_TIME_LIMIT_MS, bodyLimit, bodyReader, MAX_BODY_BYTES, parseJsonBody } from '../../src/http/body'
import { LISTENER_BODY_HEADROOM_BYTES, listenerLimits } from '../../src/http/listen'
import { plumbing } from '../../src/http/plumbing'
import { hooksOf, prepareRoutes, type RouteHooks } from '../../src/http/routeRecords'
import { silentLogger } from '../../src/logger'
import { MAX_SIGN_IN_BODY_BYTES } from '../../src/modules/auth/model'
import { MAX_IMPORT_BODY_BYTES } from '../../src/modules/builds/limits'
import { MAX_IMPORT_BODY_BYTES as MAX_CSV_IMPORT_BODY_BYTES } from '../../src/modules/playerData/limits'
import { ok, type TestApp, testApp } from '../helpers'

const CHUNK = 64 * 1024
const MIB = 1024 * 1024

/**
 * A body of `total` bytes (JSON whitespace) in 64 KiB chunks, handed out only when the server
 * asks; `pulled` counts what it asked for. Unless `ends`, it then stalls forever, like a client
 * that stopped sending without closing.
 */
function countedBody(total: number, { ends = true } = {}) {
  const counter = { pulled: 0 }
  const chunk = new Uint8Array(CHUNK).fill(0x20)
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= total) {
          if (ends) controller.close()
          return ends ? undefined : new Promise<void>(() => {})
        }
        counter.pulled += CHUNK
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, counter }
}

/** Straight to the app, past the test proxy that checks traffic against the OpenAPI document (it reads whole bodies). */
const send = (t: TestApp, method: string, path: string, body: ReadableStream, headers: Record<string, string> = {}) =>
  t.app.fetch(new Request(`http://localhost${path}`, { method, body, headers }))

const servers: TestApp[] = []
afterAll(async () => {
  for (const server of servers) await server.app.stop()
})

describe('a stranger sends no body: 401 before its first byte is read', () => {
  test.each([
    ['no token', '/api/plugin/characters', {}],
    ['a malformed header', '/api/plugin/characters', { authorization: 'Basic abc' }],
    ['an unknown token', '/api/plugin/characters', { authorization: 'Bearer qt_forged' }],
    ['no cookie', '/api/characters', {}],
    ['an unknown cookie', '/api/characters', { cookie: 'qt_session=qs_forged' }],
  ])('%s on POST %s', async (_what, path, headers: Record<string, string>) => {
    const t = testApp()
    const { stream, counter } = countedBody(8 * MIB)
    const response = await send(t, 'POST', path, stream, headers)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: expect.any(String) })
    expect(response.headers.get('connection')).toBe('close')
    expect(counter.pulled).toBe(0)
  })
})

test('every route that takes a body, but the two sign-ins and the sign-up, refuses a stranger before reading it', async () => {
  const t = testApp()
  const signIns = ['POST /api/plugin/auth/login', 'POST /api/session/', 'POST /api/signup']
  const withBody = t.app.routes.filter((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method))
  expect(withBody.length).toBeGreaterThan(40)
  const read: string[] = []
  for (const route of withBody) {
    const key = `${route.method} ${route.path}`
    const { stream, counter } = countedBody(MIB)
    const response = await send(t, route.method, route.path.replace(/:\w+/g, '1'), stream)
    if (signIns.includes(key)) expect({ key, status: response.status }).toEqual({ key, status: 413 })
    else expect({ key, status: response.status }).toEqual({ key, status: 401 })
    if (!signIns.includes(key) && counter.pulled > 0) read.push(key)
  }
  expect(read).toEqual([])
})

describe("a body is read only up to its route's limit", () => {
  test(`a signed-in caller's body over ${MAX_BODY_BYTES / MIB} MiB is 413 as it passes the limit`, async () => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const { stream, counter } = countedBody(8 * MIB)
    const response = await send(t, 'POST', '/api/plugin/characters', stream, { authorization: `Bearer ${token}` })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ error: 'The request body is larger than 1 MiB.' })
    expect(response.headers.get('connection')).toBe('close')
    expect(counter.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + CHUNK)
  })

  test(`the sign-in and sign-up routes, open to anyone, read at most ${MAX_SIGN_IN_BODY_BYTES / 1024} KiB`, async () => {
    const t = testApp({ SIGNUP_INVITES: 'on' })
    for (const path of ['/api/plugin/auth/login', '/api/session', '/api/signup']) {
      const { stream, counter } = countedBody(MIB)
      const response = await send(t, 'POST', path, stream)
      expect(response.status).toBe(413)
      expect(await response.json()).toEqual({ error: 'The request body is larger than 64 KiB.' })
      expect(counter.pulled).toBeLessThanOrEqual(MAX_SIGN_IN_BODY_BYTES + CHUNK)
    }
  })

  test('the longest login a client may send, every character escaped, is not refused for its size', async () => {
    const t = testApp()
    await t.userWithToken('alice')
    // \ud83d\ude00 (one emoji, two UTF-16 units) written as escapes: 6 bytes per unit.
    const escaped = (units: number) => '\\ud83d\\ude00'.repeat(units / 2)
    const raw = `{"identifier":"${escaped(254)}","email":"${escaped(254)}","username":"${escaped(254)}","login":"${escaped(254)}","password":"${escaped(1024)}","label":"${escaped(100)}"}`
    expect(raw.length).toBeLessThan(MAX_SIGN_IN_BODY_BYTES)
    // Raw: the escapes are the point, and the typed client would write the characters themselves.
    for (const path of ['/api/plugin/auth/login', '/api/session']) {
      const { status } = await t.json<unknown>('POST', path, { raw })
      expect({ path, status }).toEqual({ path, status: 401 })
    }
  })

  test('only routes that may take a body have a body reader', () => {
    // A parse hook on a GET route is never run, but Elysia then compiles the route's handler
    // `async`: every request of it (a 304, /auth/me) would wait for a promise.
    const { app } = testApp()
    const readers = (method: string) =>
      app.routes
        .filter((route) => route.method === method)
        .map((route) => [route.path, hooksOf(route.hooks as RouteHooks, 'parse').length])
    for (const method of ['GET', 'HEAD']) expect(readers(method).filter(([, n]) => n !== 0)).toEqual([])
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(readers(method).length).toBeGreaterThan(0)
      expect(readers(method).filter(([, n]) => n !== 1)).toEqual([])
    }
  })

  test('a route may declare a larger (or smaller) limit of its own', async () => {
    const routes = new Elysia()
      .use(bodyLimit)
      .post('/small', ({ body }) => body, { maxBodyBytes: 1024 })
      .post('/default', ({ body }) => body)
    prepareRoutes(routes, [bodyReader(() => undefined)])
    const space = watchSpace(openDatabase(':memory:'), silentLogger, systemClock)
    const app = new Elysia().use(plumbing(silentLogger, { proxies: new TrustedProxies([]), space })).use(routes)
    const post = (path: string, bytes: number) =>
      app.handle(new Request(`http://localhost${path}`, { method: 'POST', body: `{"a":"${'x'.repeat(bytes - 8)}"}` }))
    expect((await post('/small', 1024)).status).toBe(200)
    const refused = await post('/small', 1025)
    expect(refused.status).toBe(413)
    expect(await refused.json()).toEqual({ error: 'The request body is larger than 1 KiB.' })
    expect((await post('/default', 64 * 1024)).status).toBe(200)
    const t = testApp()
    const token = await t.userWithToken('alice')
    // The import routes declare their own limits; the listener's cap follows the largest limit.
    expect(listenerLimits(t.app).maxRequestBodySize).toBe(
      Math.max(MAX_BODY_BYTES, MAX_IMPORT_BODY_BYTES, MAX_CSV_IMPORT_BODY_BYTES, MAX_SIGN_IN_BODY_BYTES) +
        LISTENER_BODY_HEADROOM_BYTES,
    )
    const { id } = ok(await t.plugin(token).characters.post({ givenName: 'A' }), 201)
    const cookie = await t.signIn('alice')
    const { stream, counter } = countedBody(MAX_IMPORT_BODY_BYTES + 4 * CHUNK)
    const response = await send(t, 'POST', `/api/characters/${id}/build/import`, stream, { cookie })
    expect(response.status).toBe(413)
    expect(counter.pulled).toBeGreaterThan(MAX_IMPORT_BODY_BYTES)
    expect(counter.pulled).toBeLessThanOrEqual(MAX_IMPORT_BODY_BYTES + CHUNK)
  })
})

describe('a body that does not arrive in time', () => {
  test(`is cut off with 408 (${BODY_TIME_LIMIT_MS / 1000} s on the server; shorter here)`, async () => {
    const t = testApp({}, { bodyTimeLimitMs: 50 })
    const token = await t.userWithToken('alice')
    const { stream } = countedBody(CHUNK, { ends: false })
    const response = await send(t, 'POST', '/api/plugin/characters', stream, { authorization: `Bearer ${token}` })
    expect(response.status).toBe(408)
    expect(await response.json()).toEqual({ error: 'The request body took longer than 0.05 seconds to arrive.' })
    expect(response.headers.get('connection')).toBe('close')
  })

  test('the reader gives up on a stalled stream by itself', async () => {
    const { stream } = countedBody(CHUNK, { ends: false })
    const request = new Request('http://localhost/', { method: 'POST', body: stream })
    await expect(parseJsonBody(request, MAX_BODY_BYTES, 20)).rejects.toMatchObject({ status: 408 })
  })
})

/** A server on a real socket, with the listener's limits as `serve` sets them. */
async function listening(options: { bodyTimeLimitMs?: number } = {}) {
  const t = testApp({}, options)
  const token = await t.userWithToken('alice')
  t.app.listen({ port: 0, hostname: '127.0.0.1', ...listenerLimits(t.app) })
  servers.push(t)
  return { port: t.app.server?.port as number, token }
}

/** A client that got no answer hangs up after this, so a test of the unfixed server fails instead of hanging. */
const GIVE_UP_MS = 10_000

/**
 * Sends the head of a chunked POST, then chunks from `chunks` (every `everyMs`) until it answers
 * null, without ever ending the body; resolves with what the server answered once it closes the
 * connection.
 */
function chunkedPost(port: number, path: string, headers: string[], chunks: () => Uint8Array | null, everyMs = 0) {
  return new Promise<{ answer: string; sent: number }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    let sent = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const giveUp = setTimeout(() => socket.destroy(), GIVE_UP_MS)
    const next = () => {
      if (socket.destroyed || socket.writableEnded) return
      const chunk = chunks()
      if (chunk === null) return
      sent += chunk.byteLength
      const written = socket.write(
        Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
      )
      if (everyMs > 0) timer = setTimeout(next, everyMs)
      else if (written) setImmediate(next)
      else socket.once('drain', next)
    }
    socket.on('connect', () => {
      socket.write(
        [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Transfer-Encoding: chunked', ...headers, '', ''].join('\r\n'),
      )
      next()
    })
    socket.on('data', (data) => {
      answer += data.toString()
    })
    socket.on('error', () => {}) // a reset after the answer is the server dropping the rest
    socket.on('close', () => {
      clearTimeout(timer)
      clearTimeout(giveUp)
      if (answer === '') reject(new Error('closed without an answer'))
      else resolve({ answer, sent })
    })
  })
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))

describe('on a real socket', () => {
  test('a stranger gets 401 while still sending, and the connection is closed', async () => {
    const { port } = await listening()
    let chunks = 0
    const { answer, sent } = await chunkedPost(port, '/api/plugin/characters', [], () =>
      chunks++ < 4 ? new Uint8Array(1000).fill(0x20) : null,
    )
    expect(statusOf(answer)).toBe(401)
    expect(bodyOf(answer)).toEqual({ error: 'Missing bearer token: send "Authorization: Bearer <token>".' })
    expect(sent).toBeLessThan(MAX_BODY_BYTES)
  })

  test('a signed-in body past its limit gets 413 while it is still arriving', async () => {
    const { port, token } = await listening()
    let sending = 0
    const { answer, sent } = await chunkedPost(
      port,
      '/api/plugin/characters',
      [`Authorization: Bearer ${token}`],
      () => ((sending += CHUNK) <= 2 * MIB ? new Uint8Array(CHUNK).fill(0x20) : null),
    )
    expect(statusOf(answer)).toBe(413)
    expect(bodyOf(answer)).toEqual({ error: 'The request body is larger than 1 MiB.' })
    expect(sent).toBeGreaterThan(MAX_BODY_BYTES)
  })

  test('a body trickling in a byte at a time is cut off with 408', async () => {
    const { port, token } = await listening({ bodyTimeLimitMs: 300 })
    const { answer } = await chunkedPost(
      port,
      '/api/plugin/characters',
      [`Authorization: Bearer ${token}`],
      () => new Uint8Array([0x20]),
      50,
    )
    expect(statusOf(answer)).toBe(408)
    expect(bodyOf(answer)).toEqual({ error: 'The request body took longer than 0.3 seconds to arrive.' })
  })

  test("a declared length over the listener's cap is refused before any of it is sent", async () => {
    const { port, token } = await listening()
    const response = await new Promise<string>((resolve) => {
      setTimeout(() => socket.destroy(), GIVE_UP_MS)
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          `POST /api/plugin/characters HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${8 * MIB}\r\n\r\n`,
        ),
      )
      let answer = ''
      socket.on('data', (data) => {
        answer += data.toString()
      })
      socket.on('error', () => {})
      socket.on('close', () => resolve(answer))
    })
    expect(statusOf(response)).toBe(413)
  })
})
