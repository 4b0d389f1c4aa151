import { describe, expect, test } from 'bun:test'
import { describeSchema, fieldName } from '../../src/http/validationMessages'
import { refused, testApp } from '../helpers'

describe('describeSchema', () => {
  test.each([
    [{ type: 'integer' }, 'an integer'],
    [{ type: 'integer', minimum: 1, maximum: 20 }, 'an integer from 1 to 20'],
    [{ type: 'integer', minimum: 0 }, 'an integer of at least 0'],
    [{ type: 'number', maximum: 5 }, 'a number of at most 5'],
    [{ type: 'string' }, 'a string'],
    [{ type: 'string', minLength: 1 }, 'a non-empty string'],
    [{ type: 'string', maxLength: 100 }, 'a string of at most 100 characters'],
    [{ type: 'string', minLength: 1, maxLength: 200 }, 'a string of 1 to 200 characters'],
    [{ type: 'boolean' }, 'true or false'],
    [{ type: 'array', maxItems: 3 }, 'an array of at most 3 items'],
    [{ type: 'object' }, 'an object'],
    [{ anyOf: [{ const: 'setting' }, { const: 'remake' }] }, 'one of setting, remake'],
    [{ anyOf: [{ type: 'integer' }, { type: 'null' }] }, 'an integer or null'],
    [{ anyOf: [{ type: 'string', format: 'integer' }, { type: 'integer' }] }, 'an integer'],
  ])('%j reads "%s"', (schema, text) => {
    expect(describeSchema(schema)).toBe(text)
  })

  test('fieldName turns a JSON pointer into a dotted path', () => {
    expect(fieldName('/classes/0/levels')).toBe('classes.0.levels')
    expect(fieldName('')).toBe('')
  })
})

describe('id path parameters', () => {
  test('a non-integer id is 400 naming the parameter; 0 or below is an unknown id (404)', async () => {
    const t = testApp()
    const plugin = t.plugin(await t.userWithToken('alice'))
    // The client takes a path parameter as a string or a number, so these go through it too.
    expect(refused(await plugin.routes({ id: 'abc' }).get(), 400)).toEqual({
      error: 'Path parameter "id" must be an integer.',
    })
    refused(await plugin.characters({ id: 1.5 }).live.get(), 400)
    for (const id of ['0', '-2']) {
      expect(refused(await plugin.routes({ id }).get(), 404)).toEqual({ error: `No route ${id}.` })
    }
  })
})
