// The OpenAPI document stays valid 3.0 with the character, completion and progress routes in it.
import { expect, test } from 'bun:test'
import SwaggerParser from '@apidevtools/swagger-parser'
import { testApp } from './helpers'

test('the document validates and lists this scope’s operations and named schemas', async () => {
  const t = testApp()
  const { status, body } = await t.json<{
    paths: Record<string, Record<string, unknown>>
    components: { schemas: Record<string, unknown> }
  }>('GET', '/api/openapi.json')
  expect(status).toBe(200)
  await SwaggerParser.validate(structuredClone(body) as never)
  expect(Object.keys(body.paths['/api/plugin/characters/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'put'])
  expect(Object.keys(body.paths['/api/plugin/characters/{id}/completions'] ?? {}).sort()).toEqual(['delete', 'post'])
  expect(Object.keys(body.paths['/api/plugin/characters/{id}/progress'] ?? {}).sort()).toEqual(['get', 'put'])
  for (const name of ['Character', 'CharacterMeta', 'Completion', 'Progress'])
    expect(body.components.schemas[name]).toBeDefined()
})
