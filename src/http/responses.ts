// Response schemas are documentation and a test oracle, not a run-time step. Every route still
// declares `response: {...}` (TypeScript then checks each handler's return type against it, and
// the OpenAPI document is generated from it), but the app takes those schemas off the routes
// before Elysia compiles them: under `normalize: 'typebox'` Elysia encoded, cleaned and checked
// every answer with TypeBox's interpreter, about half the CPU time of a read that returns a few
// hundred rows (bench/README.md). Tests turn the check back on (createApp's
// `onInvalidResponse`), stricter than the run-time one was: an undocumented key is an error
// too, since nothing strips it any more.
import { type TSchema, TypeGuard } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import { Elysia, ElysiaCustomStatusResponse, ValidationError } from 'elysia'
import { type RouteStep, routeKey } from './routeRecords'

/** Schema per status code, as a route's `response` hook declares it. */
export type ResponseSchemas = Record<number, TSchema>

/** Every route's response schemas, by `METHOD path` (the path as registered, with `:params`). */
export type ResponseSchemaMap = ReadonlyMap<string, ResponseSchemas>

/**
 * A step for prepareRoutes (src/http/routeRecords.ts) that moves each route's `response` schemas
 * into `schemas`, so that mounting the routes compiles no response validator (the parent builds
 * each route's validators from the hooks its record lists).
 */
export function responseDetacher(): { step: RouteStep; schemas: ResponseSchemaMap } {
  const schemas = new Map<string, ResponseSchemas>()
  const step: RouteStep = (route) => {
    const { response, ...hooks } = route.hooks
    if (response === undefined) return
    schemas.set(routeKey(route.method, route.path), TypeGuard.IsSchema(response) ? { 200: response } : response)
    route.hooks = hooks
  }
  return { step, schemas }
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>()

function checkerOf(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema)
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)))
  return check
}

/** What is wrong with `value` as an answer of `schema`, or null when nothing is. */
export function responseProblem(schema: TSchema, value: unknown): string | null {
  const check = checkerOf(schema)
  const error = check.Errors(value).First()
  if (error) return `${error.path || '(root)'}: ${error.message}`
  // Clean drops what the schema does not declare: equal after it means nothing undeclared.
  if (!Value.Equal(Value.Clean(schema, Value.Clone(value)), value)) return 'a key the schema does not declare'
  return null
}

/**
 * Tests only: after each handler, checks its answer against the schema its route documents for
 * the status; a mismatch (or a status the route does not document) is reported and answered as
 * the 500 that run-time validation gave. Answers built by hand (`Response`: files, streams)
 * are not JSON values and pass.
 */
export function responseCheck(schemas: ResponseSchemaMap, report: (problem: string) => void) {
  return new Elysia({ name: 'response-check' }).onAfterHandle(
    { as: 'global' },
    ({ request, route, set, responseValue }) => {
      if (responseValue instanceof Response) return
      // A route that declares no answer (the OpenAPI document itself) has nothing to check.
      const declared = schemas.get(routeKey(request.method, route))
      if (!declared) return
      // `status(304)` (src/http/etag.ts) carries its own status and answer.
      const custom = responseValue instanceof ElysiaCustomStatusResponse
      const status = custom ? responseValue.code : typeof set.status === 'number' ? set.status : 200
      const value: unknown = custom ? responseValue.response : responseValue
      const schema = declared[status]
      if (!schema) {
        report(`${request.method} ${route}: no response schema for status ${status}`)
        return
      }
      const problem = responseProblem(schema, value)
      if (problem === null) return
      report(`${request.method} ${route} ${status}: ${problem}`)
      throw new ValidationError('response', checkerOf(schema), value)
    },
  )
}
