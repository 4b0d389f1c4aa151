// A validating proxy's judge: one HTTP exchange (a request and its answer) against the OpenAPI
// document the server serves. Schemas are checked by Ajv, a real JSON Schema validator, pointed
// into the document itself (so every $ref resolves as the document says); path and operation
// matching, parameter coercion and content types follow OpenAPI 3.0 and are done here.
//
// The rules (test/helpers.ts applies them to every request of the tests' apps):
// - a request to a documented path (isDocumented) must match a documented method and path,
//   exactly, trailing slash included;
// - a request the server accepted (2xx, 3xx) must conform to the documented parameters,
//   security and body; a 4xx answers a request sent bad on purpose (and a 5xx is the server's
//   failure, not a judgement of the request), so the request side is not checked then;
// - every answer, errors included, must be documented for its status and content type and match
//   its schema; an answer to a request that matched no operation must be an error (4xx, `Error`).
import Ajv, { type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { isDocumented } from '../src/apiDocs/openapi'

type Json = Record<string, unknown>

/** One request and its answer, as recorded (header names in lower case). */
export interface Exchange {
  method: string
  /** Path and query string, e.g. `/api/plugin/quests/search?q=Tomb&limit=5`. */
  url: string
  request: { headers: Record<string, string>; body?: string }
  response: { status: number; headers: Record<string, string>; body: string }
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  style?: string
  explode?: boolean
  schema?: unknown
}

interface Operation {
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content?: Record<string, unknown> }
  responses?: Record<string, { content?: Record<string, unknown> }>
  security?: unknown[]
}

interface PathEntry {
  template: string
  pattern: RegExp
  names: string[]
  operations: Record<string, Operation>
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A JSON pointer token (RFC 6901). */
const token = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')

/** `application/json; charset=utf-8` → `application/json`. */
const mediaType = (contentType: string | undefined) => (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''

/** A path segment as the server reads it (a malformed escape stays as sent). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const isJsonMedia = (media: string) => media === 'application/json' || media.endsWith('+json')

const DOCUMENT_ID = 'openapi.json'

export class OpenApiValidator {
  private readonly paths: PathEntry[]
  /** Bodies are checked as sent: a "5" where the document says integer is a violation. */
  private readonly strict: Ajv
  /** Path and query values are strings on the wire: coerced to the documented type first. */
  private readonly coercing: Ajv
  private readonly compiled = new Map<string, ValidateFunction>()

  constructor(private readonly document: Json) {
    // inlineRefs off: the components (the build document above all) compile once, not into
    // every operation that uses them.
    const options = { strict: false, allErrors: false, validateSchema: false, inlineRefs: false } as const
    this.strict = addFormats(new Ajv(options))
    this.coercing = addFormats(new Ajv({ ...options, coerceTypes: true }))
    for (const ajv of [this.strict, this.coercing]) ajv.addSchema(document, DOCUMENT_ID)
    const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>
    this.paths = Object.entries(paths).map(([template, operations]) => {
      const names: string[] = []
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1]
          if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          names.push(name)
          return '([^/]+)'
        })
        .join('')
      return { template, pattern: new RegExp(`^${source}$`), names, operations }
    })
    // A concrete path wins over a templated one (`/characters/meta` before `/characters/{id}`).
    this.paths.sort((a, b) => a.names.length - b.names.length)
  }

  /** Every way the exchange departs from the document; empty when it conforms. */
  check(exchange: Exchange): string[] {
    const url = new URL(exchange.url, 'http://localhost')
    const method = exchange.method.toLowerCase()
    const where = `${exchange.method} ${url.pathname}${url.search}`
    const status = exchange.response.status
    // A CORS preflight is the browser's, not an operation of the API.
    if (method === 'options' || !isDocumented(url.pathname)) return []
    const match = this.match(method, url.pathname)
    if (!match) {
      if (status >= 400 && status < 500) return this.checkUnmatched(where, exchange)
      return [`${where} → ${status}: no documented operation has this method and path`]
    }
    const { entry, operation, values } = match
    const label = `${exchange.method} ${entry.template} → ${status}`
    const problems: string[] = []
    if (status < 400) problems.push(...this.checkRequest(entry, operation, values, url, exchange))
    problems.push(...this.checkResponse(entry, method, operation, exchange))
    return problems.map((problem) => `${label} (${where}): ${problem}`)
  }

  private match(method: string, pathname: string) {
    for (const entry of this.paths) {
      const found = entry.pattern.exec(pathname)
      if (!found) continue
      const operation = entry.operations[method]
      if (!operation) continue
      const values = Object.fromEntries(entry.names.map((name, i) => [name, decoded(found[i + 1] ?? '')]))
      return { entry, operation, values }
    }
    return undefined
  }

  /** An unknown path or method is a client's mistake: its answer must still be the one error shape. */
  private checkUnmatched(where: string, exchange: Exchange): string[] {
    const problems = this.checkContent(
      exchange,
      { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      '/components/schemas/Error',
    )
    return problems.map((problem) => `${where} → ${exchange.response.status} (no documented operation): ${problem}`)
  }

  private checkRequest(
    entry: PathEntry,
    operation: Operation,
    values: Record<string, string>,
    url: URL,
    exchange: Exchange,
  ): string[] {
    const problems: string[] = []
    const base = this.operationPointer(entry.template, exchange.method.toLowerCase())
    const parameters = operation.parameters ?? []
    const inPath = this.parametersSchema(parameters, 'path', base)
    if (inPath) problems.push(...this.validate(this.coercing, inPath.key, inPath.schema, { ...values }, 'path'))
    const query: Json = {}
    for (const [name, value] of url.searchParams) query[name] = value
    const inQuery = this.parametersSchema(parameters, 'query', base)
    if (inQuery) problems.push(...this.validate(this.coercing, inQuery.key, inQuery.schema, query, 'query'))

    const security = operation.security ?? (this.document.security as unknown[] | undefined) ?? []
    const authorization = exchange.request.headers.authorization ?? ''
    if (security.length > 0 && !/^Bearer \S+$/i.test(authorization)) {
      problems.push('accepted without the bearer token its security requires')
    }

    const body = exchange.request.body ?? ''
    const declared = operation.requestBody
    if (body.trim() === '') {
      if (declared?.required) problems.push('accepted without the request body the document requires')
      return problems
    }
    if (!declared?.content) return [...problems, 'accepted a request body the operation does not document']
    const media = mediaType(exchange.request.headers['content-type'])
    if (!(media in declared.content)) {
      return [
        ...problems,
        `accepted a body of content type "${media}"; documented: ${Object.keys(declared.content).join(', ')}`,
      ]
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      return [...problems, 'accepted a request body that is not JSON']
    }
    const pointer = `${base}/requestBody/content/${token(media)}/schema`
    problems.push(...this.validate(this.strict, pointer, { $ref: `${DOCUMENT_ID}#${pointer}` }, parsed, 'request body'))
    return problems
  }

  private checkResponse(entry: PathEntry, method: string, operation: Operation, exchange: Exchange): string[] {
    const status = String(exchange.response.status)
    const responses = operation.responses ?? {}
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in responses)
    if (!key) return [`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`]
    const pointer = `${this.operationPointer(entry.template, method)}/responses/${token(key)}`
    return this.checkContent(exchange, responses[key]?.content, pointer)
  }

  /** The answer's content type and body against a documented `content` map at `pointer`. */
  private checkContent(exchange: Exchange, content: Record<string, unknown> | undefined, pointer: string): string[] {
    const { body, headers } = exchange.response
    if (!content || Object.keys(content).length === 0) {
      return body === '' ? [] : ['answered a body where the document shows none']
    }
    const media = mediaType(headers['content-type'])
    if (!(media in content)) {
      return [`answered content type "${media}"; documented: ${Object.keys(content).join(', ')}`]
    }
    let value: unknown = body
    if (isJsonMedia(media)) {
      try {
        value = JSON.parse(body)
      } catch {
        return ['answered a body that is not JSON']
      }
    }
    // Unmatched answers are checked against components directly, matched ones at their place.
    const schemaPointer = pointer.startsWith('/components/') ? pointer : `${pointer}/content/${token(media)}/schema`
    return this.validate(this.strict, schemaPointer, { $ref: `${DOCUMENT_ID}#${schemaPointer}` }, value, 'answer')
  }

  private operationPointer(template: string, method: string): string {
    return `/paths/${token(template)}/${method}`
  }

  /**
   * One object schema for the parameters in `where`: each named parameter a property (required
   * when the document says so); a form-exploded object parameter (several query names whose
   * rules span each other, such as "one of these aliases is required") applies to the whole.
   */
  private parametersSchema(parameters: Parameter[], where: string, base: string) {
    const properties: Json = {}
    const required: string[] = []
    const allOf: Json[] = []
    parameters.forEach((parameter, i) => {
      if (parameter.in !== where) return
      const ref = { $ref: `${DOCUMENT_ID}#${base}/parameters/${i}/schema` }
      const exploded = (parameter.style ?? 'form') === 'form' && (parameter.explode ?? true)
      if (where === 'query' && exploded && this.isObjectSchema(parameter.schema)) {
        allOf.push(ref)
        return
      }
      properties[parameter.name] = ref
      if (parameter.required) required.push(parameter.name)
    })
    if (Object.keys(properties).length === 0 && allOf.length === 0) return undefined
    return {
      key: `${base}#${where}`,
      schema: { type: 'object', properties, required, allOf: allOf.length ? allOf : undefined },
    }
  }

  private isObjectSchema(schema: unknown): boolean {
    const resolved = this.resolve(schema)
    return isObject(resolved) && resolved.type === 'object'
  }

  private resolve(schema: unknown): unknown {
    if (!isObject(schema) || typeof schema.$ref !== 'string') return schema
    let node: unknown = this.document
    for (const part of schema.$ref.replace(/^#\//, '').split('/')) {
      node = isObject(node) ? node[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined
    }
    return node
  }

  private validate(ajv: Ajv, key: string, schema: Json, value: unknown, what: string): string[] {
    const cacheKey = `${ajv === this.coercing ? 'coerce' : 'strict'} ${key}`
    let check = this.compiled.get(cacheKey)
    if (!check) {
      const { allOf, ...rest } = schema
      check = ajv.compile(allOf === undefined ? rest : schema)
      this.compiled.set(cacheKey, check)
    }
    if (check(value)) return []
    const error = check.errors?.[0]
    if (!error) return [`${what} does not match its schema`]
    const at = error.instancePath ? ` at ${error.instancePath}` : ''
    const detail = error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''
    return [`${what}${at} ${error.message ?? 'is not valid'}${detail}`]
  }
}

const validators = new Map<string, OpenApiValidator>()

/** The validator of a document, compiled once per distinct document text. */
export function validatorFor(documentText: string): OpenApiValidator {
  let validator = validators.get(documentText)
  if (!validator) {
    validator = new OpenApiValidator(JSON.parse(documentText) as Json)
    validators.set(documentText, validator)
  }
  return validator
}
