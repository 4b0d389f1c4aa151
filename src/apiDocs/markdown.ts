// The Markdown reference at /api/plugin/ and /api/plugin/docs, rendered from the OpenAPI document
// (itself generated from the route schemas), so neither can drift from the code: the conventions
// a client needs (conventions.ts), every operation, and every type an operation or a type names,
// each defined once with its field table and limits. Nothing here knows a schema's shape.
import { PLUGIN_PREFIX, WEBSITE_PREFIX } from '../http/api'
import { isPlainObject, type Json } from '../json'
import { type ConventionOptions, renderConventions } from './conventions'
import type { OpenApiDocument } from './openapi'
import { githubSlugger, nameOfOperation } from './referenceNames'
import { refName, type TypeDefinition, TypeRegistry } from './referenceTypes'

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete']

interface OperationEntry {
  method: string
  path: string
  operation: Json
}

export function renderMarkdown(doc: OpenApiDocument, options: ConventionOptions = {}): string {
  const byTag = operationsByTag(doc)
  const types = new TypeRegistry(doc)
  // Registration order decides where a shape seen in several places is defined: the component
  // first, else the first operation (in reading order) that uses it.
  const named = new Map<OperationEntry, Map<string, string>>()
  for (const entries of byTag.values()) {
    for (const entry of entries) named.set(entry, registerOperation(types, entry.method, entry.path, entry.operation))
  }
  const out = new Output()
  out.push(`# ${doc.info.title} (version ${doc.info.version})`, '', doc.info.description ?? '', '')
  out.push(
    '- OpenAPI 3.0 document: `/api/openapi.json` (also `/api/plugin/openapi.json` and `/openapi.json`); interactive documentation: `/docs`.',
    '- [Conventions](#conventions): what every operation shares (authentication, errors, ids, timestamps, names, aliases, upserts, past lives, limits).',
    '- [Types](#types): every type this reference names, with its fields and limits.',
    '',
  )
  out.push(...renderConventions(doc, types, options))
  for (const [tag, entries] of byTag) {
    out.push(`## ${tag}`, '')
    const description = tagDescription(doc, tag)
    if (description) out.push(description, '')
    for (const entry of entries) renderOperation(out, entry, types, named.get(entry) ?? new Map(), doc)
  }
  out.push('## Types', '')
  out.push(
    'Every named schema of the OpenAPI document (`components.schemas`), then the shapes nested in them, each named after where it first appears: `X.y` is the object in field `y` of `X`, `X.y[]` an item of its array `y`, `X.y{}` a value of its map `y`, `X.y.option2` the second shape a union `y` allows. A shape that appears in several places is defined once, under its first name. A body or answer an operation declares itself is named after the operation (`PUT /api/plugin/x/{id}` has `PutXByIdBody` and `PutXByIdResponse`) and defined under it. Fields not marked required may be omitted.',
    '',
  )
  for (const definition of types.definitions()) {
    if (definition.home === 'types') renderDefinition(out, definition, types, '###')
  }
  return out.finish()
}

/** Operations grouped by their first tag, tags in document order, methods GET first. */
function operationsByTag(doc: OpenApiDocument): Map<string, OperationEntry[]> {
  const byTag = new Map<string, OperationEntry[]>()
  for (const [path, operations] of Object.entries(doc.paths)) {
    const methods = Object.keys(operations).sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b))
    for (const method of methods) {
      const operation = operations[method] as Json
      const tag = (operation.tags as string[] | undefined)?.[0] ?? 'Other'
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, operation }])
    }
  }
  return byTag
}

function tagDescription(doc: OpenApiDocument, tag: string): string | undefined {
  const tags = (doc as Json).tags
  if (!Array.isArray(tags)) return undefined
  const found = tags.find((t) => isPlainObject(t) && t.name === tag) as Json | undefined
  return typeof found?.description === 'string' ? found.description : undefined
}

const jsonSchemaOf = (content: unknown): unknown => {
  if (!isPlainObject(content)) return undefined
  const json = content['application/json'] ?? Object.values(content)[0]
  return isPlainObject(json) ? json.schema : undefined
}

const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`

/** Names the shapes of an operation; returns the names of its body and answers, by part. */
function registerOperation(types: TypeRegistry, method: string, path: string, operation: Json): Map<string, string> {
  const key = operationKey(method, path)
  const base = nameOfOperation(method, path, [PLUGIN_PREFIX, WEBSITE_PREFIX])
  const names = new Map<string, string>()
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    types.visit(parameter.schema, `${base}.${String(parameter.name)}`, `${key} parameters`)
  }
  const body = jsonSchemaOf((operation.requestBody as Json | undefined)?.content)
  const bodyName = types.visit(body, `${base}Body`, `${key} body`, { own: true })
  if (bodyName) names.set('body', bodyName)
  const seen = new Map<string, string>()
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
    const schema = jsonSchemaOf(response.content)
    if (!isPlainObject(schema)) continue
    // Answers of one shape share one name (POST completions: 200 and 201); another shape carries its status.
    const shape = JSON.stringify(schema)
    const name =
      seen.get(shape) ??
      types.visit(schema, seen.size === 0 ? `${base}Response` : `${base}Response${status}`, `${key} responses`, {
        own: !status.startsWith('4') && !status.startsWith('5'),
      })
    if (name) {
      seen.set(shape, name)
      names.set(status, name)
    }
  }
  return names
}

function renderOperation(
  out: Output,
  { method, path, operation }: OperationEntry,
  types: TypeRegistry,
  names: Map<string, string>,
  doc: OpenApiDocument,
): void {
  const typeOf = (part: string, schema: unknown) => {
    const name = names.get(part)
    return name === undefined ? types.cell(schema) : TypeRegistry.link(name)
  }
  const key = operationKey(method, path)
  out.push(`### ${key}`, '')
  if (operation.summary) out.push(String(operation.summary), '')
  if (operation.description) out.push(String(operation.description), '')
  const security = operation.security as unknown[] | undefined
  out.push(
    Array.isArray(security) && security.length === 0
      ? 'No authentication.'
      : 'Requires a bearer token ([Authentication and tokens](#authentication-and-tokens)).',
    '',
  )
  const parameters = ((operation.parameters ?? []) as Json[]).flatMap((p) => urlParameters(p, doc))
  if (parameters.length > 0) {
    out.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|')
    for (const p of parameters) {
      const schema = isPlainObject(p.schema) ? p.schema : {}
      const notes = [typeof p.description === 'string' ? p.description : '', types.notes(schema)]
      out.push(
        `| \`${p.name}\` | ${p.in} | ${types.cell(schema)} | ${p.required ? 'yes' : 'no'} | ${cell(joinNotes(notes))} |`,
      )
    }
    out.push('')
    for (const p of (operation.parameters ?? []) as Json[]) {
      if (parameters.includes(p) || typeof p.description !== 'string') continue
      out.push(
        `${p.description} (The query fields are ${TypeRegistry.link(String((isPlainObject(p.schema) && refName(p.schema)) || p.name))}.)`,
        '',
      )
    }
    renderHomeDefinitions(out, `${key} parameters`, types)
  }
  const requestBody = operation.requestBody as Json | undefined
  const body = jsonSchemaOf(requestBody?.content)
  if (body !== undefined) {
    const required = requestBody?.required === true ? '' : ' (optional)'
    out.push(`Request body${required}: ${typeOf('body', body)}.`, '')
    renderHomeDefinitions(out, `${key} body`, types)
  }
  out.push('Responses:', '')
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
    const content = isPlainObject(response.content) ? response.content : undefined
    const schema = jsonSchemaOf(content)
    const mediaType = content ? Object.keys(content)[0] : undefined
    const what =
      schema === undefined ? 'no body' : mediaType === 'application/json' ? typeOf(status, schema) : `${mediaType} text`
    const description = response.description ? `— ${String(response.description)}` : ''
    out.push([`- **${status}**`, what, description].filter(Boolean).join(' '))
  }
  out.push('')
  renderHomeDefinitions(out, `${key} responses`, types)
}

/** The types first met in one part of an operation, defined right below it. */
function renderHomeDefinitions(out: Output, home: string, types: TypeRegistry): void {
  for (const definition of types.definitions()) {
    if (definition.home === home) renderDefinition(out, definition, types, '####')
  }
}

function renderDefinition(out: Output, definition: TypeDefinition, types: TypeRegistry, level: string): void {
  const { name, schema } = definition
  out.heading(`${level} ${name}`, name)
  out.push('')
  if (typeof schema.description === 'string') out.push(schema.description, '')
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined
  if (!properties || Object.keys(properties).length === 0) {
    // A named schema that is not an object with fields: a union, an enum, an array, a map.
    const notes = types.notes(schema)
    out.push(`Type: ${types.cell(schema)}.${notes ? ` ${notes}` : ''}`, '')
    return
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  out.push('| field | type | required | notes |', '|---|---|---|---|')
  for (const [field, raw] of Object.entries(properties)) {
    const property = isPlainObject(raw) ? raw : {}
    const notes = joinNotes([
      typeof property.description === 'string' ? property.description : '',
      types.notes(property),
    ])
    out.push(`| \`${field}\` | ${types.cell(property)} | ${required.has(field) ? 'yes' : 'no'} | ${cell(notes)} |`)
  }
  out.push('')
  const others = types.otherKeys(schema)
  if (others) out.push(others, '')
}

const joinNotes = (parts: string[]) =>
  parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ')

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

/**
 * The lines of the reference. Type links are written as placeholders and resolved at the end,
 * once every heading is known: a heading's anchor depends on the headings before it (GitHub
 * numbers repeated ones: the tag "Progress" is `#progress`, the type after it `#progress-1`).
 */
class Output {
  private readonly lines: string[] = []
  private readonly typeHeadings = new Map<number, string>()

  push(...lines: string[]): void {
    this.lines.push(...lines)
  }

  /** A heading that defines the type `name`: links to that type point here. */
  heading(line: string, name: string): void {
    this.typeHeadings.set(this.lines.length, name)
    this.lines.push(line)
  }

  finish(): string {
    const slug = githubSlugger()
    const anchors = new Map<string, string>()
    let fenced = false
    this.lines.forEach((line, index) => {
      if (line.startsWith('```')) fenced = !fenced
      const heading = !fenced && /^#{1,6} (.*)$/.exec(line)
      if (!heading) return
      const anchor = slug(heading[1] as string)
      const name = this.typeHeadings.get(index)
      if (name !== undefined) anchors.set(name, anchor)
    })
    return this.lines
      .join('\n')
      .replace(TypeRegistry.LINK, (_, name: string) => `[${name}](#${anchors.get(name) ?? 'types'})`)
  }
}

/**
 * The parameters a URL carries. A query parameter whose schema is an object (`style: form`,
 * `explode: true`: how OpenAPI 3.0 states a rule over several fields, such as "one of `q`,
 * `query` or `name`") stands for one URL parameter per field of the object.
 */
function urlParameters(parameter: Json, doc: OpenApiDocument): Json[] {
  const ref = isPlainObject(parameter.schema) ? refName(parameter.schema) : undefined
  const schema = ref === undefined ? parameter.schema : doc.components.schemas[ref]
  if (parameter.in !== 'query' || parameter.explode !== true || !isPlainObject(schema)) return [parameter]
  const fields = schema.properties
  if (!isPlainObject(fields)) return [parameter]
  const required = Array.isArray(schema.required) ? schema.required : []
  return Object.entries(fields).map(([name, field]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema: field,
    description: isPlainObject(field) ? field.description : undefined,
  }))
}
