// Integers in paths and query strings, read without TypeBox's interpreter. Elysia's `t.Integer`
// is a transform (a string that reads as an integer, or an integer, decoded by `+value`), and
// Elysia decodes every transform with TypeBox's interpreter, which walks the whole schema of the
// path or the query on every request: about a tenth of an unchanged read (a 304), the most
// frequent request of an open tracker (bench/README.md "The floor"). Before the app compiles its
// routes, each such property loses its transform and the route gains a transform hook that makes
// the number first; the check that follows is the same schema's, so what is accepted, and the
// sentence a refusal says, stay as they were (an out-of-range one now names its parameter too).
import { TransformKind, type TSchema } from '@sinclair/typebox'
import { addRouteHook, type RouteStep } from './routeRecords'

type Inputs = Record<string, unknown>

/** `+value` for a string Elysia's `integer` format accepts (`!!value && Number.isInteger(+value)`). */
function toIntegers(inputs: Inputs, keys: readonly string[]): void {
  for (const key of keys) {
    const value = inputs[key]
    if (typeof value === 'string' && value !== '' && Number.isInteger(+value)) inputs[key] = +value
  }
}

/**
 * The keys of an object schema whose properties are transforms, and a copy of the schema
 * without them (a copy: one schema object, IdParams, serves many routes).
 */
function withoutTransforms(schema: TSchema | undefined): { keys: string[]; schema?: TSchema } {
  const properties = (schema as { properties?: Record<string, TSchema> } | undefined)?.properties
  if (!schema || !properties) return { keys: [] }
  const keys: string[] = []
  const plain: Record<string, TSchema> = {}
  for (const [key, property] of Object.entries(properties)) {
    if (!(TransformKind in property)) {
      plain[key] = property
      continue
    }
    const { [TransformKind]: _decode, ...rest } = property as TSchema & { [TransformKind]?: unknown }
    plain[key] = rest as TSchema
    keys.push(key)
  }
  return { keys, schema: keys.length ? { ...schema, properties: plain } : schema }
}

/**
 * A step for prepareRoutes (src/http/routeRecords.ts): a route's integer path and query
 * parameters made numbers by a hook of its own, after its credential check (the first transform:
 * a stranger is 401 whatever the path says), and checked by the schema without the transform.
 */
export const coerceIntegers: RouteStep = ({ hooks }) => {
  const params = withoutTransforms(hooks.params)
  const query = withoutTransforms(hooks.query)
  if (params.keys.length === 0 && query.keys.length === 0) return
  hooks.params = params.schema
  hooks.query = query.schema
  // Each hook names only what it reads (src/http/routeRecords.ts).
  const [p, q] = [params.keys, query.keys]
  const fn =
    q.length === 0
      ? ({ params }: { params: Inputs }) => {
          toIntegers(params, p)
        }
      : p.length === 0
        ? ({ query }: { query: Inputs }) => {
            toIntegers(query, q)
          }
        : ({ params, query }: { params: Inputs; query: Inputs }) => {
            toIntegers(params, p)
            toIntegers(query, q)
          }
  addRouteHook(hooks, 'transform', fn)
}
