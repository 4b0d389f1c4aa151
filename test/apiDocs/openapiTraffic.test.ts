// The validating proxy's judge (test/openapiValidator.ts), proven: recorded traffic of a real
// server replays clean against today's document, and planted violations of each kind are caught.
import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { testApp } from '../helpers'
import { type Exchange, type OpenApiValidator, validatorFor } from '../openapiValidator'

// Recorded by scripts/recordOpenapiTraffic.ts: an evening of a game client, tokens redacted.
const TRAFFIC = join(import.meta.dir, '..', 'fixtures', 'openapi-traffic.json')

let traffic: Exchange[]
let validator: OpenApiValidator

beforeAll(async () => {
  traffic = (await Bun.file(TRAFFIC).json()) as Exchange[]
  const served = await testApp().request('GET', '/api/openapi.json')
  validator = validatorFor(await served.text())
})

/** The recorded exchange of `method url`, to plant a violation in. */
const recorded = (method: string, url: string): Exchange => {
  const found = traffic.find((e) => e.method === method && e.url === url)
  if (!found) throw new Error(`no recorded ${method} ${url}`)
  return structuredClone(found)
}

/** An exchange with a JSON request body, answered as a recorded one was. */
const withBody = (base: Exchange, body: unknown, type = 'application/json'): Exchange => ({
  ...base,
  request: { headers: { ...base.request.headers, 'content-type': type }, body: JSON.stringify(body) },
})

const answered = (base: Exchange, status: number, body: unknown): Exchange => ({
  ...base,
  response: { ...base.response, status, body: JSON.stringify(body) },
})

describe('recorded traffic', () => {
  test('replays against the document with no violation', () => {
    const problems = traffic.flatMap((exchange) => validator.check(exchange))
    expect(problems).toEqual([])
  })

  test('covers most operations, errors too, and holds no secret', async () => {
    const statuses = new Set(traffic.map((e) => e.response.status))
    for (const status of [200, 201, 400, 401, 404]) expect(statuses).toContain(status)
    const operations = new Set(
      traffic.map((e) => `${e.method} ${e.url.split('?')[0]?.replace(/\/\d+(?=\/|$)/g, '/{id}')}`),
    )
    expect(operations.size).toBeGreaterThanOrEqual(30)
    const text = await Bun.file(TRAFFIC).text()
    expect(text).not.toMatch(/qt_[A-Za-z0-9_-]{8}/)
    expect(text).not.toContain('an evening of questing')
    expect(text).toContain('"authorization": "Bearer <redacted>"')
  })
})

describe('planted violations are caught', () => {
  test('a wrong type in a 200 body', () => {
    const base = recorded('GET', '/api/plugin/characters/1')
    const character = JSON.parse(base.response.body) as Record<string, unknown>
    const problems = validator.check(answered(base, 200, { ...character, totalLevel: 'nine' }))
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain('GET /api/plugin/characters/{id} → 200')
    expect(problems[0]).toContain('answer at /totalLevel must be integer')
  })

  test('a missing field and a timestamp that is not date-time', () => {
    const base = recorded('GET', '/api/plugin/characters/1')
    const { shareToken: _, ...character } = JSON.parse(base.response.body) as Record<string, unknown>
    expect(validator.check(answered(base, 200, character))[0]).toContain("must have required property 'shareToken'")
    const stamped = { ...character, shareToken: 'x', createdAt: '21/11/2026' }
    expect(validator.check(answered(base, 200, stamped))[0]).toContain('/createdAt must match format "date-time"')
  })

  test('an undocumented status, and an error that is not the Error shape', () => {
    const base = recorded('GET', '/api/plugin/quests/lookup?name=Nowhere')
    const teapot = validator.check(answered(base, 418, { error: 'teapot' }))
    expect(teapot).toHaveLength(1)
    expect(teapot[0]).toStartWith('GET /api/plugin/quests/lookup → 418 (GET /api/plugin/quests/lookup?name=Nowhere)')
    expect(teapot[0]).toContain('status 418 is not documented')
    expect(validator.check(answered(base, 404, { message: 'no' }))[0]).toContain("must have required property 'error'")
  })

  test('an undocumented path or method: a violation when served, an Error when refused', () => {
    const base = recorded('GET', '/api/plugin/characters')
    const slash = { ...base, url: '/api/plugin/characters/' }
    expect(validator.check(slash)).toEqual([
      'GET /api/plugin/characters/ → 200: no documented operation has this method and path',
    ])
    expect(validator.check({ ...base, url: '/api/plugin/charactres' })).toHaveLength(1)
    expect(validator.check({ ...base, method: 'PUT' })).toHaveLength(1)
    const refused = recorded('GET', '/api/plugin/nope')
    expect(validator.check(refused)).toEqual([])
    expect(validator.check(answered(refused, 404, { message: 'no' }))).toHaveLength(1)
  })

  test('a documented answer with the wrong content type', () => {
    const base = recorded('GET', '/api/plugin/info')
    const html = { ...base, response: { ...base.response, headers: { 'content-type': 'text/html' } } }
    expect(validator.check(html)[0]).toContain('answered content type "text/html"')
  })
})

describe('the request side of an accepted request', () => {
  const search = () => recorded('GET', '/api/plugin/quests/search?q=crypt&cl=9&limit=5')

  test('the search text is required, under any of its aliases', () => {
    for (const query of ['q=crypt', 'query=crypt', 'name=crypt', 'q=%20&name=crypt']) {
      expect(validator.check({ ...search(), url: `/api/plugin/quests/search?${query}` })).toEqual([])
    }
    for (const query of ['', 'limit=5', 'q=%20%20']) {
      const problems = validator.check({ ...search(), url: `/api/plugin/quests/search?${query}` })
      expect(problems.length, query).toBeGreaterThan(0)
    }
  })

  test('limit is 1 to 50 and the levels 1 to 34, as numbers', () => {
    for (const query of ['limit=1', 'limit=50', 'cl=34', 'characterLevel=1']) {
      expect(validator.check({ ...search(), url: `/api/plugin/quests/search?q=crypt&${query}` })).toEqual([])
    }
    for (const query of ['limit=0', 'limit=500', 'limit=ten', 'level=35']) {
      const problems = validator.check({ ...search(), url: `/api/plugin/quests/search?q=crypt&${query}` })
      expect(problems.length, query).toBeGreaterThan(0)
    }
  })

  test('a login needs an identifier, under any of its aliases', () => {
    const base = recorded('POST', '/api/plugin/auth/login')
    const ok = traffic.filter((e) => e.url === '/api/plugin/auth/login' && e.response.status === 200)[0] as Exchange
    for (const field of ['identifier', 'email', 'username', 'login']) {
      expect(validator.check(withBody(ok, { [field]: 'evening', password: 'x' }))).toEqual([])
    }
    expect(validator.check(withBody(ok, { password: 'x' }))[0]).toContain('request body')
    expect(validator.check(withBody(base, { password: 'x' }))).toEqual([]) // refused (401): exempt
  })

  test('a character needs a name on create, not on update', () => {
    const create = recorded('POST', '/api/plugin/characters')
    const made = traffic.find((e) => e.url === '/api/plugin/characters' && e.response.status === 201) as Exchange
    for (const name of [{ givenName: 'Lidda' }, { firstName: 'Lidda' }, { name: 'Lidda Quick' }]) {
      expect(validator.check(withBody(made, { ...name, race: 'Halfling' }))).toEqual([])
    }
    expect(validator.check(withBody(made, { race: 'Halfling' }))[0]).toContain('request body')
    expect(validator.check(create)).toEqual([]) // the recorded nameless create was refused (400)
    const patch = recorded('PATCH', '/api/plugin/characters/1')
    expect(validator.check(withBody(patch, { race: 'Halfling' }))).toEqual([])
  })

  test('bodies: text/plain is documented, other types are not; optional bodies may be left out', () => {
    const made = traffic.find((e) => e.url === '/api/plugin/characters' && e.response.status === 201) as Exchange
    expect(validator.check(withBody(made, { givenName: 'Lidda' }, 'text/plain;charset=UTF-8'))).toEqual([])
    expect(validator.check(withBody(made, { givenName: 'Lidda' }, 'application/xml'))[0]).toContain(
      'accepted a body of content type "application/xml"',
    )
    const bodiless = { ...made, request: { headers: { authorization: 'Bearer <redacted>' } } }
    expect(validator.check(bodiless)).toEqual([
      'POST /api/plugin/characters → 201 (POST /api/plugin/characters): accepted without the request body the document requires',
    ])
    const login = recorded('POST', '/api/plugin/characters/1/login')
    expect(login.request.body).toBeUndefined()
    expect(validator.check(login)).toEqual([])
    const removed = recorded('DELETE', '/api/plugin/characters/1/completions?name=Bell%20Tower&setting=hard')
    expect(removed.request.body).toBeUndefined()
    expect(validator.check(removed)).toEqual([])
  })

  test('a wrong type in an accepted body, and a missing bearer token', () => {
    const posted = traffic.find((e) => e.url.endsWith('/completions') && e.response.status === 201) as Exchange
    expect(validator.check(withBody(posted, { name: 'Crypt', xpEarned: '3190' }))[0]).toContain(
      'request body at /xpEarned must be integer',
    )
    const anonymous = { ...posted, request: { ...posted.request, headers: { 'content-type': 'application/json' } } }
    expect(validator.check(anonymous)[0]).toContain('without the bearer token')
  })

  test('a path parameter of the wrong type', () => {
    const base = recorded('GET', '/api/plugin/characters/1')
    expect(validator.check({ ...base, url: '/api/plugin/characters/one' })[0]).toContain('path at /id must be integer')
    expect(validator.check({ ...base, url: '/api/plugin/characters/%E0' })[0]).toContain('path at /id must be integer')
  })
})
