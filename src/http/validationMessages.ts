// Turns an Elysia/TypeBox validation failure into one sentence that names the field, e.g.
// `Body field "classes.0.levels" must be an integer from 1 to 20.`
import type { ValidationError } from 'elysia'

export interface SchemaLike {
  type?: string | string[]
  anyOf?: SchemaLike[]
  const?: unknown
  enum?: unknown[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  maxItems?: number
  maxProperties?: number
  format?: string
  nullable?: boolean
}

interface ValueErrorLike {
  path: string
  value: unknown
  schema: SchemaLike
}

const WHERE: Record<string, string> = {
  body: 'Body field',
  query: 'Query parameter',
  params: 'Path parameter',
  headers: 'Header',
}

const WHOLE: Record<string, string> = {
  body: 'The request body must be a JSON object.',
  query: 'The query string is not valid.',
  params: 'The path is not valid.',
  headers: 'The request headers are not valid.',
}

function range(schema: SchemaLike, value?: unknown): string {
  // +-2^53 only keeps integers exact (and their sums finite): named only to a number beyond it.
  const beyond = typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER
  const bound = (limit: number | undefined) =>
    !beyond && Math.abs(limit ?? 0) === Number.MAX_SAFE_INTEGER ? undefined : limit
  const [lo, hi] = [bound(schema.minimum), bound(schema.maximum)]
  if (lo !== undefined && hi !== undefined) return ` from ${lo} to ${hi}`
  if (lo !== undefined) return ` of at least ${lo}`
  if (hi !== undefined) return ` of at most ${hi}`
  return ''
}

/** A noun phrase for what the schema accepts ("an integer from 1 to 20", "one of a, b"). */
export function describeSchema(schema: SchemaLike, value?: unknown): string {
  if (schema.anyOf) {
    // Elysia accepts numeric strings for numbers (a `format: integer|numeric` string branch);
    // the client should be told the number, not "a string".
    const numeric = schema.anyOf.some((s) => s.type === 'integer' || s.type === 'number')
    const branches = schema.anyOf.filter(
      (s) => !(numeric && s.type === 'string' && (s.format === 'integer' || s.format === 'numeric')),
    )
    if (branches.length === 1) return describeSchema(branches[0] as SchemaLike, value)
    if (schema.anyOf.every((s) => s.const !== undefined)) {
      return `one of ${schema.anyOf.map((s) => String(s.const)).join(', ')}`
    }
    const parts = [...new Set(branches.map(describeSchema))]
    return parts.join(' or ')
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (schema.enum) return `one of ${schema.enum.map(String).join(', ')}`
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'integer':
      return `an integer${range(schema, value)}`
    case 'number':
      return `a number${range(schema, value)}`
    case 'boolean':
      return 'true or false'
    case 'null':
      return 'null'
    case 'array':
      return schema.maxItems !== undefined ? `an array of at most ${schema.maxItems} items` : 'an array'
    case 'object':
      return schema.maxProperties !== undefined ? `an object of at most ${schema.maxProperties} entries` : 'an object'
    case 'string': {
      if (schema.minLength && schema.maxLength)
        return `a string of ${schema.minLength} to ${schema.maxLength} characters`
      if (schema.maxLength !== undefined) return `a string of at most ${schema.maxLength} characters`
      if (schema.minLength) return 'a non-empty string'
      return 'a string'
    }
    default:
      return 'a valid value'
  }
}

export function fieldName(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.')
}

export function describeValidationError(error: ValidationError): string {
  const all = (error.all ?? []) as unknown as ValueErrorLike[]
  // The deepest path is the most precise complaint (a union reports its parent first).
  const first = [...all].sort((a, b) => b.path.length - a.path.length)[0]
  if (!first) return WHOLE[error.type] ?? 'The request is not valid.'
  if (first.path === '') {
    // Elysia checks coerced query and path values one by one and drops their name ("property").
    const scalar = ['string', 'number', 'boolean'].includes(typeof first.value)
    if (scalar) return `The value ${JSON.stringify(first.value)} must be ${describeSchema(first.schema)}.`
    return WHOLE[error.type] ?? 'The request is not valid.'
  }
  const field = fieldName(first.path)
  const where = WHERE[error.type] ?? 'Field'
  if (first.value === undefined) return `${where} "${field}" is required.`
  return `${where} "${field}" must be ${describeSchema(first.schema, first.value)}.`
}
