// Routes as files, so groups can pass them around: `quest-tracker route export ID` prints one,
// `quest-tracker route import FILE --owner NAME` stores it as a new route. The format is in
// docs/routes.md; an imported file goes through the same checks as POST /routes.
import { readFileSync } from 'node:fs'
import { Value } from '@sinclair/typebox/value'
import type { Clock } from '../../clock'
import type { DB } from '../../db/client'
import { BadRequest, NotFound } from '../../http/errors'
import { describeSchema, fieldName } from '../../http/validationMessages'
import { findUser } from '../auth/service'
import { routeInputSchema } from './model'
import { findRoute, getRoute, normalizeRouteInput, type RouteDetail, storeRoute } from './service'

export const ROUTE_FILE_FORMAT = 'quest-tracker-route'
export const ROUTE_FILE_VERSION = 1

// Never handed to Elysia, so extra fields of a file (format, author...) stay allowed.
const FileSchema = routeInputSchema()

export interface RouteFile {
  format: typeof ROUTE_FILE_FORMAT
  formatVersion: typeof ROUTE_FILE_VERSION
  name: string
  /** Informational: who made it on the exporting server. Ignored on import. */
  author: string
  boosts: Record<string, unknown>
  optionals: Record<string, unknown>
  quests: { name: string; difficulty: string; setting: string }[]
}

/** The route as a file (a JSON object); 404 when there is no route `id`. */
export function exportRoute(db: DB, id: number): RouteFile {
  // Routes are shared with everyone, so whose eyes read it does not matter (viewer 0 = nobody).
  const route = findRoute(db, 0, id)
  if (!route) throw new NotFound(`No route ${id}.`)
  return {
    format: ROUTE_FILE_FORMAT,
    formatVersion: ROUTE_FILE_VERSION,
    name: route.name,
    author: route.ownerDisplayName,
    boosts: route.boosts,
    optionals: route.optionals,
    quests: route.quests.map(({ name, difficulty, setting }) => ({ name, difficulty, setting })),
  }
}

/**
 * Stores a route file as a NEW route owned by `ownerIdentifier` (a username or e-mail) and returns
 * it. `file` is the file's text, or its already parsed JSON. Every problem is a BadRequest whose
 * message says what is wrong with the file; nothing is stored unless everything is right.
 */
export function importRoute(db: DB, clock: Clock, file: unknown, ownerIdentifier: string): RouteDetail {
  const owner = findUser(db, ownerIdentifier)
  if (!owner) throw new BadRequest(`No account "${ownerIdentifier}" to own the imported route.`)
  const data = typeof file === 'string' ? parseJson(file) : file
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new BadRequest('A route file must hold one JSON object.')
  }
  const record = data as Record<string, unknown>
  if (record.format !== ROUTE_FILE_FORMAT) {
    throw new BadRequest(`This is not a Quest Tracker route file ("format" must be "${ROUTE_FILE_FORMAT}").`)
  }
  if (record.formatVersion !== ROUTE_FILE_VERSION) {
    throw new BadRequest(
      `Route file format version ${JSON.stringify(record.formatVersion)} is not supported; this server reads version ${ROUTE_FILE_VERSION}.`,
    )
  }
  if (!Value.Check(FileSchema, record)) {
    const problems = [...Value.Errors(FileSchema, record)]
    // The deepest path is the most precise complaint (a union reports its parent first).
    const first = problems.sort((a, b) => b.path.length - a.path.length)[0]
    const field = fieldName(first?.path ?? '')
    if (!first || field === '') throw new BadRequest('The route file is not valid.')
    if (first.value === undefined) throw new BadRequest(`Route file field "${field}" is required.`)
    throw new BadRequest(
      `Route file field "${field}" must be ${describeSchema(first.schema as Parameters<typeof describeSchema>[0])}.`,
    )
  }
  const id = storeRoute(db, clock, owner.id, normalizeRouteInput(db, record))
  return getRoute(db, owner.id, id)
}

/** Reads a route file for `importRoute`, with a sentence instead of a stack when it cannot. */
export function readRouteFile(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: string }).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? String(error))
    throw new BadRequest(`Cannot read the route file "${path}": ${why}.`)
  }
}

function parseJson(text: string): unknown {
  try {
    // Windows editors may save a byte-order mark; it is not part of the JSON.
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    throw new BadRequest('The route file is not valid JSON.')
  }
}
