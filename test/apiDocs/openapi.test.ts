// The OpenAPI document: valid 3.0 by a real validator, saying what the server does (paths,
// optional bodies, content types, the one error schema, the rules the services check), the
// same whatever the configuration; and the proxy that holds every test's traffic to it.
import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import { documentViolations, ok, refused, testApp } from '../helpers'
import type { Exchange } from '../openapiValidator'

type Json = Record<string, unknown>
interface Operation {
  parameters?: (Json & { name: string; in: string })[]
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> }
  responses: Record<string, { content?: Record<string, { schema: Json }> }>
}
interface Document {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Json & { properties?: Record<string, Json> }> }
}

let doc: Document
let text: string

beforeAll(async () => {
  const response = await testApp().request('GET', '/api/openapi.json')
  text = await response.text()
  doc = JSON.parse(text) as Document
})

const operation = (path: string, method: string): Operation => {
  const found = doc.paths[path]?.[method]
  if (!found) throw new Error(`${method} ${path} is not in the document`)
  return found
}

test('the document validates and lists this scope’s operations and named schemas', async () => {
  await SwaggerParser.validate(structuredClone(doc) as never)
  expect(Object.keys(doc.paths['/api/plugin/characters/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'put'])
  expect(Object.keys(doc.paths['/api/plugin/characters/{id}/completions'] ?? {}).sort()).toEqual(['delete', 'post'])
  expect(Object.keys(doc.paths['/api/plugin/characters/{id}/progress'] ?? {}).sort()).toEqual(['get', 'put'])
  for (const name of ['Character', 'CharacterMeta', 'Completion', 'Progress'])
    expect(doc.components.schemas[name]).toBeDefined()
})

describe('the document says what the server does', () => {
  test('the character list is /characters, without a trailing slash, as the server answers it', async () => {
    expect(Object.keys(doc.paths['/api/plugin/characters'] ?? {}).sort()).toEqual(['get', 'post'])
    expect(doc.paths['/api/plugin/characters/']).toBeUndefined()
    const t = testApp()
    const token = await t.userWithToken('alice')
    ok(await t.plugin(token).characters.get())
  })

  test('bodies the server does not require are optional: character login, completion delete', () => {
    expect(operation('/api/plugin/characters/{id}/login', 'post').requestBody?.required).toBe(false)
    expect(operation('/api/plugin/characters/{id}/completions', 'delete').requestBody?.required).toBe(false)
    expect(operation('/api/plugin/characters/{id}/lives/reincarnate', 'post').requestBody?.required).toBe(false)
    expect(operation('/api/plugin/auth/login', 'post').requestBody?.required).toBe(true)
    expect(operation('/api/plugin/characters', 'post').requestBody?.required).toBe(true)
  })

  test('every body may be sent as application/json or text/plain (the parser reads JSON either way)', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (op.requestBody)
          expect(Object.keys(op.requestBody.content), `${method} ${path}`).toEqual(['application/json', 'text/plain'])
      }
    }
  })

  test('one Error schema, and every error answer uses it', () => {
    expect(Object.keys(doc.components.schemas).filter((name) => /error/i.test(name))).toEqual(['Error'])
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] })
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue
          expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          })
        }
      }
    }
  })

  test('quest search: one of q, query or name is required; limit 1 to 50, default 20; levels 1 to 34', () => {
    const [parameter, ...others] = operation('/api/plugin/quests/search', 'get').parameters ?? []
    expect(others).toEqual([])
    expect(parameter).toMatchObject({ in: 'query', required: true, style: 'form', explode: true })
    const query = doc.components.schemas.QuestSearchQuery as Json & { properties: Record<string, Json> }
    expect(query.anyOf).toEqual(
      ['q', 'query', 'name'].map((f) => ({ required: [f], properties: { [f]: { pattern: '\\S' } } })),
    )
    expect(query.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 20 })
    for (const field of ['level', 'characterLevel', 'cl']) {
      expect(query.properties[field]).toMatchObject({ type: 'integer', minimum: 1, maximum: 34 })
    }
  })

  test('login needs an identifier; a created character needs a name', () => {
    const login = operation('/api/plugin/auth/login', 'post').requestBody?.content['application/json']?.schema
    expect(login?.anyOf).toEqual(
      ['identifier', 'email', 'username', 'login'].map((f) => ({
        required: [f],
        properties: { [f]: { pattern: '\\S' } },
      })),
    )
    const create = operation('/api/plugin/characters', 'post').requestBody?.content['application/json']?.schema
    expect(((create?.anyOf ?? []) as { required: string[] }[]).map((branch) => branch.required)).toEqual([
      ['givenName'],
      ['firstName'],
      ['name'],
    ])
    const update = operation('/api/plugin/characters/{id}', 'patch').requestBody?.content['application/json']?.schema
    expect(update?.anyOf).toBeUndefined()
  })

  test('the timestamps the server writes are date-time', () => {
    const { Character, Completion, Life, RouteListItem } = doc.components.schemas
    for (const field of ['createdAt', 'updatedAt'])
      expect(Character?.properties?.[field]).toMatchObject({ format: 'date-time' })
    expect(Character?.properties?.lastLoginAt).toMatchObject({ type: 'string', format: 'date-time', nullable: true })
    expect(Completion?.properties?.completedAt).toMatchObject({ format: 'date-time' })
    expect(Life?.properties?.archivedAt).toMatchObject({ format: 'date-time', nullable: true })
    expect(RouteListItem?.properties?.createdAt).toMatchObject({ format: 'date-time' })
  })

  test('the rules stay out of run time: the same requests answer exactly as before', async () => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const search = t.plugin(token).quests.search
    const cases: [NonNullable<Parameters<typeof search.get>[0]>['query'], string][] = [
      [{ q: 'crypt', limit: 500 }, 'Query parameter "limit" must be an integer from 1 to 50.'],
      [{ limit: 5 }, 'Query parameter "q" (or "query", "name") is required.'],
      [{ q: 'crypt', cl: 35 }, 'Query parameter "cl" must be an integer from 1 to 34.'],
    ]
    for (const [query, error] of cases) expect(refused(await search.get({ query }), 400).error).toBe(error)
    expect(refused(await t.api.plugin.auth.login.post({ password: 'x' }), 400).error).toBe(
      'One of "identifier", "email", "username" or "login" is required.',
    )
    expect(refused(await t.plugin(token).characters.post({ race: 'Dwarf' }), 400).error).toBe(
      'Body field "givenName" is required (or "firstName", or a legacy "name").',
    )
  })
})

test('every app serves the same document, whatever its configuration and whatever ran before (the proxy shares it)', async () => {
  // Every route answers first (Elysia rewrites input schemas in place when it compiles a route):
  // the recorded evening, replayed on a live app, through the proxy like any test's requests.
  const busy = testApp()
  const token = await busy.userWithToken('evening')
  const traffic = (await Bun.file(join(import.meta.dir, '..', 'fixtures', 'openapi-traffic.json')).json()) as Exchange[]
  for (const { method, url, request } of traffic) {
    const type = request.headers['content-type']
    await busy.request(method, url, { token, raw: request.body, headers: type ? { 'content-type': type } : {} })
  }
  const other = testApp({
    TOKEN_IDLE_DAYS: '3',
    LOG_LEVEL: 'debug',
    CATALOG_SOURCE_URL: '/nowhere/quests.json',
    TRUSTED_PROXY: '127.0.0.1',
  })
  expect(await (await other.request('GET', '/api/openapi.json')).text()).toBe(text)
})

test('the proxy reports what departs from the document, which fails the test (test/setup.ts)', async () => {
  const t = testApp()
  const token = await t.userWithToken('alice')
  // The server answers the slash too (Elysia's paths are loose); the document does not list it.
  const response = await t.request('GET', '/api/plugin/characters/', { token })
  expect(response.status).toBe(200)
  expect(documentViolations.splice(0)).toEqual([
    'GET /api/plugin/characters/ → 200: no documented operation has this method and path',
  ])
})
