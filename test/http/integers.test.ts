// Integer path and query parameters, read without TypeBox's interpreter (src/http/integers.ts):
// the handler gets numbers, what was refused is refused with the same sentence, and the
// credential check still comes first.
import { describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { coerceIntegers } from '../../src/http/integers'
import { prepareRoutes } from '../../src/http/routeRecords'
import { ok, refused, testApp } from '../helpers'

/** A route of each kind, its inputs echoed with their types, mounted as createApp mounts routes. */
function echoApp() {
  const routes = new Elysia()
    .get('/a/:id', ({ params }) => ({ id: params.id, type: typeof params.id }), {
      params: t.Object({ id: t.Integer() }),
    })
    .get('/b', ({ query }) => ({ n: query.n ?? null, type: typeof query.n }), {
      query: t.Object({ n: t.Optional(t.Integer({ minimum: 1, maximum: 9 })), s: t.Optional(t.String()) }),
    })
  prepareRoutes(routes, [coerceIntegers])
  return new Elysia().use(routes)
}

const get = async (app: ReturnType<typeof echoApp>, path: string) => {
  const response = await app.handle(new Request(`http://localhost${path}`))
  return { status: response.status, body: await response.json() }
}

describe('integer inputs', () => {
  test('arrive as numbers, whatever Elysia read as an integer before (digits, spaces, 0x)', async () => {
    const app = echoApp()
    expect(await get(app, '/a/42')).toEqual({ status: 200, body: { id: 42, type: 'number' } })
    expect(await get(app, '/a/%2042')).toEqual({ status: 200, body: { id: 42, type: 'number' } })
    expect(await get(app, '/a/0x10')).toEqual({ status: 200, body: { id: 16, type: 'number' } })
    expect(await get(app, '/b?n=3&s=x')).toEqual({ status: 200, body: { n: 3, type: 'number' } })
    expect(await get(app, '/b')).toEqual({ status: 200, body: { n: null, type: 'undefined' } })
  })

  test('what is not an integer, or out of range, is still refused', async () => {
    const app = echoApp()
    for (const path of ['/a/abc', '/a/1.5', '/b?n=abc', '/b?n=0', '/b?n=10', '/b?n=2.5']) {
      expect({ path, status: (await get(app, path)).status }).toEqual({ path, status: 422 })
    }
  })

  test('in the app: the same sentences, a stranger is 401 before any 400, and an out-of-range one names its parameter', async () => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const character = ok(await t.plugin(token).characters.post({ givenName: 'Tordek' }), 201)
    const progress = `/api/plugin/characters/${character.id}/progress`
    expect((await t.json('GET', '/api/plugin/characters/abc/progress', { token })).body).toEqual({
      error: 'Path parameter "id" must be an integer.',
    })
    expect((await t.json('GET', '/api/plugin/characters/abc/progress')).status).toBe(401)
    expect((await t.json('GET', `${progress}?life=abc`, { token })).body).toEqual({
      error: 'Query parameter "life" must be an integer of at least 1.',
    })
    // It said "The value 0 must be an integer of at least 1." (which parameter, it did not say).
    expect((await t.json('GET', `${progress}?life=0`, { token })).body).toEqual({
      error: 'Query parameter "life" must be an integer of at least 1.',
    })
    refused(
      await t
        .plugin(token)
        .characters({ id: character.id })
        .progress.get({ query: { life: 2 } }),
      404,
    )
  })
})
