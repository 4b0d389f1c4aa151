import { beforeAll, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import packageJson from '../../../package.json'
import { isDocumented, type OpenApiDocument } from '../../../src/apiDocs/openapi'
import { SCHEMA_VERSION } from '../../../src/db/migrate'
import { MAX_BODY_BYTES } from '../../../src/http/body'
import { FEATURES } from '../../../src/modules/system/features'
import { ok, refused, type TestApp, testApp } from '../../helpers'

let t: TestApp
let token: string

beforeAll(async () => {
  t = testApp()
  token = await t.userWithToken('alice')
})

/** Every documented route of the app, as "METHOD /path" with {param} placeholders. */
const appRoutes = () =>
  t.app.routes
    .filter((route) => !(route.hooks as { detail?: { hide?: boolean } })?.detail?.hide && isDocumented(route.path))
    .filter((route) => route.method !== 'OPTIONS' && !route.path.includes('*'))
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)

describe('GET /api/health', () => {
  test('answers {ok: true} and the schema version without a token', async () => {
    expect(ok(await t.api.health.get())).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION })
  })

  test('touches the database: 503 when it cannot be read', async () => {
    const local = testApp()
    local.db.$client.close()
    const answer = await local.api.health.get()
    expect(answer.status).toBe(503)
    // An Error body (extra keys allowed) that also says ok: false, for a health checker that reads `ok`.
    const body: unknown = answer.error?.value
    expect(body).toEqual({ ok: false, error: 'The database cannot be read; see the server log.' })
  })

  test('the README and docs quote the schema version health answers now', async () => {
    const root = join(import.meta.dir, '..', '..', '..')
    const docs = (await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)
    const quoted: string[] = []
    for (const file of ['README.md', ...docs]) {
      const text = await Bun.file(join(root, file)).text()
      for (const m of text.matchAll(/"schemaVersion":\s*(\d+)|quest-tracker \d+\.\d+\.\d+ \(schema (\d+)\)/g)) {
        quoted.push(`${file}: ${m[1] ?? m[2]}`)
      }
    }
    expect(quoted.length).toBeGreaterThan(0)
    expect(quoted.filter((q) => !q.endsWith(`: ${SCHEMA_VERSION}`))).toEqual([])
  })
})

describe('GET /api/plugin/info', () => {
  test('needs a token', async () => {
    refused(await t.api.plugin.info.get(), 401)
  })

  test('reports the user, counts, version, doc paths and features', async () => {
    const body = ok(await t.plugin(token).info.get())
    expect(body).toMatchObject({
      user: { id: 1, email: null, username: 'alice', displayName: 'alice' },
      characterCount: 0,
      routeCount: 0,
      questCatalogCount: 0,
      catalog: { source: 'the DDO wiki', syncedAt: null, rows: 0, origin: 'none', asOf: null, attempts: [] },
      apiVersion: 6,
      serverVersion: packageJson.version,
      docs: '/api/plugin/docs',
      openapi: '/api/openapi.json',
      humanDocs: '/docs',
    })
    // Indexed by name below: every flag FEATURES lists must be there.
    const features: Record<string, unknown> = body.features
    expect(features.challengeSettings).toEqual(['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown'])
    expect(features.remakeTiers).toEqual(['Heroic', 'Epic', 'Legendary', 'Unknown'])
    for (const name of Object.keys(FEATURES)) expect(typeof features[name]).toBe('boolean')
    expect(Object.keys(features).sort()).toEqual([...Object.keys(FEATURES), 'challengeSettings', 'remakeTiers'].sort())
  })

  test("shows only the host of the catalog source's URL, never its credentials, path or query", async () => {
    const local = testApp({ CATALOG_SOURCE_URL: 'https://admin:s3cret@wiki.example.lan:8443/private/quests?token=abc' })
    const body = ok(await local.plugin(await local.userWithToken('bob')).info.get())
    expect(body.catalog).toEqual({
      source: 'wiki.example.lan:8443',
      syncedAt: null,
      rows: 0,
      origin: 'none',
      asOf: null,
      attempts: [],
    })
    expect(JSON.stringify(body)).not.toMatch(/s3cret|admin|private|token=/)
  })

  test('shows only the name of a catalog file, not its folder', async () => {
    const local = testApp({ CATALOG_SOURCE_URL: '/home/admin/secret-folder/quests.json' })
    const body = ok(await local.plugin(await local.userWithToken('bob')).info.get())
    expect(body.catalog).toMatchObject({ source: 'quests.json', syncedAt: null, rows: 0 })
  })

  test('the doc paths it reports answer', async () => {
    const body = ok(await t.plugin(token).info.get())
    // Raw: the paths are the answer's strings, not the client's.
    for (const path of [body.docs, body.openapi, body.humanDocs])
      expect((await t.request('GET', path)).status).toBe(200)
  })
})

// Raw requests: unknown paths, bodies that are not JSON objects, and bodies too large or too
// deep, which the typed client would not send.
describe('one error path', () => {
  test('an unknown path is 404 with a JSON sentence', async () => {
    const { status, body } = await t.json('GET', '/api/plugin/nope')
    expect(status).toBe(404)
    expect(body).toEqual({ error: expect.any(String) })
  })

  test('a body that is not JSON is 400', async () => {
    const { status, body } = await t.json('POST', '/api/plugin/auth/login', {
      raw: '{"identifier": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'The request body is not valid JSON.' })
  })

  test('JSON is read whatever the Content-Type says', async () => {
    const { status } = await t.json('POST', '/api/plugin/auth/login', {
      raw: JSON.stringify({ identifier: 'alice', password: 'correct horse battery' }),
      headers: { 'content-type': 'text/plain' },
    })
    expect(status).toBe(200)
  })

  test('a body that is JSON but not an object is 400', async () => {
    const { status, body } = await t.json('POST', '/api/plugin/auth/login', { body: [1, 2] })
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'The request body must be a JSON object.' })
  })

  test('a missing body is 400', async () => {
    const { status, body } = await t.json('POST', '/api/plugin/auth/login')
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'The request body must be a JSON object.' })
  })

  test('a body over 1 MiB is 413, by Content-Length or by its real size', async () => {
    const big = JSON.stringify({ givenName: 'x', notes: 'y'.repeat(MAX_BODY_BYTES) })
    const declared = await t.json('POST', '/api/plugin/characters', { token, raw: big })
    expect(declared.status).toBe(413)
    expect(declared.body).toEqual({ error: 'The request body is larger than 1 MiB.' })
    // A streamed body carries no Content-Length; the parser measures it.
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big))
        controller.close()
      },
    })
    const response = await t.app.handle(
      new Request('http://localhost/api/plugin/characters', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: stream,
      }),
    )
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ error: 'The request body is larger than 1 MiB.' })
    // The sign-in routes, open to anyone, take far less (see test/http/body.test.ts).
    const login = await t.json('POST', '/api/plugin/auth/login', { raw: big })
    expect(login.body).toEqual({ error: 'The request body is larger than 64 KiB.' })
  })

  test('a body nested too deeply is 400, not a 500 from a stack overflow, and changes nothing', async () => {
    // Its own app: a character made here must not change the counts other tests read.
    const local = testApp()
    const token = await local.userWithToken('alice')
    const { id } = ok(await local.plugin(token).characters.post({ givenName: 'Deep' }), 201)
    const depth = 100_000
    const raw = `{"xpBoosts":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`
    const { status, body } = await local.json('PUT', `/api/plugin/characters/${id}/progress`, {
      token,
      raw,
    })
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'The request body is nested too deeply (more than 64 levels).' })
    expect(ok(await local.plugin(token).characters({ id }).progress.get()).xpBoosts).toEqual({})
  })

  test('an unexpected failure is 500 with a sentence and no stack trace', async () => {
    const local = testApp()
    local.app.get('/api/plugin/explode', () => {
      throw new Error('secret internals at /work/src/thing.ts:12')
    })
    const response = await local.request('GET', '/api/plugin/explode')
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error.' })
    expect(text).not.toContain('secret')
    expect(text).not.toContain('.ts')
  })
})

describe('CORS', () => {
  test.each(['/api/health', '/api/plugin/info', '/api/openapi.json', '/openapi.json', '/api/plugin/openapi.json'])(
    '%s allows any origin without credentials',
    async (path) => {
      const response = await t.request('GET', path, { token, headers: { origin: 'http://game-pc.lan' } })
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-credentials')).toBeNull()
    },
  )

  test('a preflight is answered', async () => {
    const response = await t.request('OPTIONS', '/api/plugin/characters/1/completions', {
      headers: {
        origin: 'http://game-pc.lan',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toContain('POST')
    expect(response.headers.get('access-control-allow-credentials')).toBeNull()
  })

  test('a preflight allows the Authorization header by name (a "*" alone does not cover it)', async () => {
    // Fetch spec: in Access-Control-Allow-Headers, "*" matches every header except
    // Authorization, which must be listed; without it a browser never sends the bearer token.
    const response = await t.request('OPTIONS', '/api/plugin/characters/1/completions', {
      headers: {
        origin: 'http://game-pc.lan',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/)
    expect(allowed).toContain('authorization')
    expect(allowed).toContain('content-type')
  })
})

describe('OpenAPI document', () => {
  let doc: OpenApiDocument
  beforeAll(async () => {
    doc = ok(await t.api['openapi.json'].get())
  })

  test('is OpenAPI 3.0.x, version 6.0.0, and valid', async () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/)
    expect(doc.info.version).toBe('6.0.0')
    await SwaggerParser.validate(structuredClone(doc) as never)
  })

  test('is the same document at its three paths', async () => {
    expect(ok(await t.api.plugin['openapi.json'].get())).toEqual(doc)
    // Raw: /openapi.json is outside /api, where the typed client starts.
    expect((await t.json<unknown>('GET', '/openapi.json')).body).toEqual(doc)
  })

  test('documents every route of the app, and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(documented.sort()).toEqual(appRoutes().sort())
  })

  test('every operation has a real 2xx response schema and documents its errors', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const responses = operation.responses ?? {}
        const success = Object.keys(responses).filter((s) => s.startsWith('2'))
        expect(success.length, `${method} ${path}`).toBeGreaterThan(0)
        for (const status of success) expect(responses[status], `${method} ${path} ${status}`).toHaveProperty('content')
        expect(responses['500'], `${method} ${path}`).toBeDefined()
        const secured = !(Array.isArray(operation.security) && operation.security.length === 0)
        if (secured) expect(responses['401'], `${method} ${path}`).toBeDefined()
        if (operation.requestBody) expect(responses['413'], `${method} ${path}`).toBeDefined()
        if (operation.requestBody) expect(responses['408'], `${method} ${path}`).toBeDefined()
      }
    }
  })

  test('login, health and the docs need no token; the rest need one', () => {
    const open = ['/api/plugin/auth/login', '/api/health', '/api/plugin/', '/api/plugin/docs']
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.security, path).toEqual(open.includes(path) ? [] : undefined)
      }
    }
    expect(doc.security).toEqual([{ bearer: [] }])
  })
})

describe('Markdown reference', () => {
  test.each(['/api/plugin/', '/api/plugin/docs'])(
    '%s is Markdown listing every route, without a token',
    async (path) => {
      const response = await t.request('GET', path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toStartWith('text/markdown')
      const text = await response.text()
      expect(text).toStartWith('# Quest Tracker API')
      for (const route of appRoutes()) expect(text).toContain(`### ${route}`)
    },
  )
})

describe('/docs', () => {
  test('is an HTML page whose scripts and styles come from this server, not a CDN', async () => {
    const response = await t.request('GET', '/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/html')
    const html = await response.text()
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)
    expect(assets.length).toBeGreaterThanOrEqual(2)
    for (const asset of assets) {
      expect(asset).toStartWith('/')
      const served = await t.request('GET', asset)
      expect(served.status).toBe(200)
      expect((await served.text()).length).toBeGreaterThan(50)
      expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    }
    expect(html).not.toMatch(/https?:\/\//)
  })

  test('carries the security headers, no inline script, no CORS, and keeps no pasted token', async () => {
    const response = await t.request('GET', '/docs', { headers: { origin: 'http://evil.example' } })
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const html = await response.text()
    // Every <script> has a src: nothing inline for the policy to forbid.
    expect([...html.matchAll(/<script([^>]*)>/g)].every((m) => (m[1] as string).includes('src='))).toBe(true)
    const init = await (await t.request('GET', '/docs/assets/init.js')).text()
    expect(init).toContain('SwaggerUIBundle')
    expect(init).not.toContain('persistAuthorization')
  })
})
