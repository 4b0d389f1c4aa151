// The Markdown reference at /api/plugin/ and /api/plugin/docs, rendered from the OpenAPI
// document, which is itself generated from the route schemas: the three cannot drift apart.
import type { OpenApiDocument } from './openapi'

type Json = Record<string, unknown>

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete']

export function renderMarkdown(doc: OpenApiDocument): string {
  const out: string[] = [
    `# ${doc.info.title} (version ${doc.info.version})`,
    '',
    doc.info.description ?? '',
    '',
    '- OpenAPI 3.0 document: `/api/openapi.json` (also `/api/plugin/openapi.json` and `/openapi.json`).',
    '- Interactive documentation: `/docs`.',
    '- Errors: every error is `{"error": "<sentence>"}` with status 400, 401, 404, 413, 429, 500 or 503.',
    '- Bodies are JSON, at most 1 MiB.',
    '',
  ]
  const byTag = new Map<string, string[]>()
  for (const [path, operations] of Object.entries(doc.paths)) {
    const methods = Object.keys(operations).sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b))
    for (const method of methods) {
      const operation = operations[method] as Json
      const tag = (operation.tags as string[] | undefined)?.[0] ?? 'Other'
      const section = byTag.get(tag) ?? []
      section.push(...renderOperation(method, path, operation, doc))
      byTag.set(tag, section)
    }
  }
  for (const [tag, lines] of byTag) out.push(`## ${tag}`, '', ...lines)
  return out.join('\n')
}

function renderOperation(method: string, path: string, operation: Json, doc: OpenApiDocument): string[] {
  const lines = [`### ${method.toUpperCase()} ${path}`, '']
  if (operation.summary) lines.push(String(operation.summary), '')
  if (operation.description) lines.push(String(operation.description), '')
  const security = operation.security as unknown[] | undefined
  lines.push(Array.isArray(security) && security.length === 0 ? 'No authentication.' : 'Requires a bearer token.', '')
  const parameters = (operation.parameters ?? []) as Json[]
  if (parameters.length) {
    lines.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|')
    for (const p of parameters) {
      const schema = resolve(p.schema, doc)
      lines.push(
        `| \`${p.name}\` | ${p.in} | ${typeName(schema, doc)} | ${p.required ? 'yes' : 'no'} | ${cell(schema.description)} |`,
      )
    }
    lines.push('')
  }
  const body = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined
  const bodySchema = body ? resolve(Object.values(body)[0]?.schema, doc) : undefined
  if (bodySchema) lines.push('Request body:', '', ...fieldTable(bodySchema, doc), '')
  const responses = (operation.responses ?? {}) as Record<string, Json>
  lines.push('Responses:', '')
  for (const [status, response] of Object.entries(responses)) {
    const content = response.content as Record<string, Json> | undefined
    const schema = content ? resolve(Object.values(content)[0]?.schema, doc) : undefined
    const what = schema ? typeName(schema, doc) : ''
    lines.push(`- **${status}** ${what}${response.description ? ` — ${response.description}` : ''}`)
    if (schema && status.startsWith('2') && schema.properties)
      lines.push('', ...fieldTable(schema, doc).map((l) => `  ${l}`), '')
  }
  lines.push('')
  return lines
}

function fieldTable(schema: Json, doc: OpenApiDocument): string[] {
  const properties = schema.properties as Record<string, Json> | undefined
  if (!properties) return [`${typeName(schema, doc)}`]
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const rows = ['| field | type | required | notes |', '|---|---|---|---|']
  for (const [name, raw] of Object.entries(properties)) {
    const field = resolve(raw, doc)
    rows.push(
      `| \`${name}\` | ${typeName(field, doc)} | ${required.has(name) ? 'yes' : 'no'} | ${cell(field.description)} |`,
    )
  }
  return rows
}

function resolve(schema: unknown, doc: OpenApiDocument): Json {
  if (!schema || typeof schema !== 'object') return {}
  const ref = (schema as Json).$ref
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() as string
    return { ...((doc.components.schemas[name] as Json | undefined) ?? {}), title: name }
  }
  return schema as Json
}

function typeName(schema: Json, doc: OpenApiDocument): string {
  if (typeof schema.title === 'string' && /^[A-Z]/.test(schema.title)) return schema.title
  const nullable = schema.nullable ? ' or null' : ''
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (union) return union.map((s) => typeName(resolve(s, doc), doc)).join(' or ') + nullable
  if (schema.enum) return (schema.enum as unknown[]).map((v) => `\`${v}\``).join(', ') + nullable
  if (schema.type === 'array') return `array of ${typeName(resolve(schema.items, doc), doc)}${nullable}`
  if (schema.type === 'object') return `object${nullable}`
  return `${schema.type ?? 'any'}${nullable}`
}

const cell = (text: unknown) => (typeof text === 'string' ? text.replaceAll('|', '\\|').replaceAll('\n', ' ') : '')
