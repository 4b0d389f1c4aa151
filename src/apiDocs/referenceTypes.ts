// The types of the Markdown reference, read from the OpenAPI document: every named schema, and
// every object shape nested in a schema or declared inline by an operation, gets a name (its
// component's, or one derived from where it first appears: `Progress.completions[]`), so a type
// cell always links to a definition instead of saying "object". Generic: it knows JSON Schema's
// keywords, never a particular schema.
import { isPlainObject, type Json } from '../json'
import type { OpenApiDocument } from './openapi'

export interface TypeDefinition {
  name: string
  schema: Json
  /** Where it is defined: `types` (the Types section) or the part of an operation that declares it. */
  home: string
}

const COMPONENT_REF = '#/components/schemas/'

/** Keywords that describe one use of a shape rather than the shape: the same shape may differ in them. */
const USAGE_KEYWORDS = new Set([
  'description',
  'nullable',
  'title',
  'default',
  'example',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
])

export const refName = (schema: Json): string | undefined =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT_REF)
    ? schema.$ref.slice(COMPONENT_REF.length)
    : undefined

/** An object with declared fields: what gets a name and a field table. */
const hasFields = (schema: Json): boolean =>
  isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0

const stable = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`
  if (!isPlainObject(value)) return JSON.stringify(value) ?? 'null'
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stable(value[key])}`).join(',')}}`
}

const shapeKey = (schema: Json): string =>
  stable(Object.fromEntries(Object.entries(schema).filter(([key]) => !USAGE_KEYWORDS.has(key))))

export class TypeRegistry {
  /** The placeholder a link to a type is written as, until the anchors are known (⟦ ⟧ appear in no schema text). */
  static readonly LINK = /⟦([^⟦⟧]+)⟧/g
  static link = (name: string): string => `⟦${name}⟧`

  private readonly byName = new Map<string, TypeDefinition>()
  private readonly byShape = new Map<string, string>()

  constructor(doc: OpenApiDocument) {
    const components = Object.entries(doc.components.schemas).map(([name, schema]) => ({
      name,
      schema: isPlainObject(schema) ? schema : {},
      home: 'types',
    }))
    // Every component owns its name before any nested shape is named: a nested copy of a
    // component's shape links to the component.
    for (const definition of components) {
      this.byName.set(definition.name, definition)
      const key = shapeKey(definition.schema)
      if (hasFields(definition.schema) && !this.byShape.has(key)) this.byShape.set(key, definition.name)
    }
    for (const { name, schema } of components) this.walk(schema, name, 'types')
  }

  definitions(): TypeDefinition[] {
    return [...this.byName.values()]
  }

  has(name: string): boolean {
    return this.byName.has(name)
  }

  /**
   * Names `schema` (when it is an object with fields) and everything nested in it that is, on
   * first sight; `hint` is the name to give a shape not seen before. Returns the name of
   * `schema` itself, if it has one.
   */
  visit(schema: unknown, hint: string, home: string, { own = false } = {}): string | undefined {
    if (!isPlainObject(schema)) return undefined
    const ref = refName(schema)
    if (ref !== undefined) return ref
    if (!hasFields(schema)) {
      this.walk(schema, hint, home)
      return undefined
    }
    const key = shapeKey(schema)
    const known = this.byShape.get(key)
    // An operation's own body or answer keeps its operation's name even when another operation
    // has the same shape (`{"ok": true}` of health is not "the logout answer"), unless it is a
    // component's shape.
    if (known !== undefined && (!own || this.byName.get(known)?.home === 'types')) return known
    let name = hint
    for (let n = 2; this.byName.has(name); n++) name = `${hint} (${n})`
    if (known === undefined) this.byShape.set(key, name)
    this.byName.set(name, { name, schema, home })
    this.walk(schema, name, home)
    return name
  }

  private walk(schema: Json, name: string, home: string): void {
    if (isPlainObject(schema.properties)) {
      for (const [field, child] of Object.entries(schema.properties)) this.visit(child, `${name}.${field}`, home)
    }
    if (isPlainObject(schema.additionalProperties)) this.visit(schema.additionalProperties, `${name}{}`, home)
    if (schema.items !== undefined) this.visit(schema.items, `${name}[]`, home)
    for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
      const members = schema[keyword]
      if (!Array.isArray(members)) continue
      members.forEach((member, i) => {
        this.visit(member, `${name}.option${i + 1}`, home)
      })
    }
  }

  /** The type cell of a schema: a link to a defined type, or a type that needs no definition. */
  cell(schema: unknown): string {
    if (!isPlainObject(schema)) return 'any JSON value'
    const ref = refName(schema)
    if (ref !== undefined) {
      const target = this.byName.get(ref)?.schema
      return TypeRegistry.link(ref) + (schema.nullable === true || target?.nullable === true ? ' or null' : '')
    }
    const orNull = schema.nullable === true ? ' or null' : ''
    if (hasFields(schema)) {
      const name = this.byShape.get(shapeKey(schema))
      if (name === undefined) throw new Error('A shape the reference never visited: visit() every schema first.')
      return TypeRegistry.link(name) + orNull
    }
    const union = schema.anyOf ?? schema.oneOf
    if (Array.isArray(union)) return union.map((member) => this.cell(member)).join(' or ') + orNull
    if (Array.isArray(schema.allOf)) return schema.allOf.map((member) => this.cell(member)).join(' and ') + orNull
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.map((value) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``)
      return (values.length === 1 ? (values[0] as string) : `one of ${values.join(', ')}`) + orNull
    }
    if (schema.type === 'array') return `array of ${this.cell(schema.items)}${orNull}`
    if (schema.type === 'object' || schema.properties !== undefined || schema.additionalProperties !== undefined) {
      const values = schema.additionalProperties
      if (isPlainObject(values) && Object.keys(values).length > 0)
        return `map of string to ${this.cell(values)}${orNull}`
      return (values === false ? 'empty JSON object' : 'JSON object (any keys)') + orNull
    }
    if (typeof schema.type === 'string') {
      const format = typeof schema.format === 'string' ? ` (${schema.format})` : ''
      return schema.type + format + orNull
    }
    return 'any JSON value'
  }

  /** The limits of a schema (and of its items or map values) as sentences for a notes cell. */
  notes(schema: unknown): string {
    if (!isPlainObject(schema)) return ''
    const phrases = limitPhrases(schema)
    const each = (inner: unknown, what: string) => {
      if (!isPlainObject(inner) || refName(inner) !== undefined || hasFields(inner)) return
      const limits = limitPhrases(inner)
      if (limits.length > 0) phrases.push(`${what}: ${limits.join(', ')}`)
    }
    if (schema.type === 'array') each(schema.items, 'each item')
    if (!hasFields(schema)) each(schema.additionalProperties, 'each value')
    return phrases.map((phrase) => `${phrase[0]?.toUpperCase()}${phrase.slice(1)}.`).join(' ')
  }

  /** What a type with fields says of the fields it does not list. */
  otherKeys(schema: Json): string {
    const values = schema.additionalProperties
    if (values === undefined) return ''
    if (values === false) return 'No other fields.'
    const notes = this.notes(isPlainObject(values) ? { type: 'object', additionalProperties: values } : {})
    return `Other fields: ${this.cell(values === true ? {} : values)}.${notes ? ` ${notes}` : ''}`
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

const number = (value: unknown): string => {
  if (typeof value !== 'number') return String(value)
  if (value === MAX_SAFE) return '2^53 − 1'
  if (value === -MAX_SAFE) return '−(2^53 − 1)'
  return value.toLocaleString('en-US')
}

const PLURAL: Record<string, string> = { character: 'characters', item: 'items', entry: 'entries' }
const counted = (n: unknown, unit: string) => `${number(n)} ${n === 1 ? unit : (PLURAL[unit] ?? `${unit}s`)}`

/** A range in words: "from 1 to 20", "at most 3 items", "at least 1 character". */
function range(min: unknown, max: unknown, unit?: string): string | undefined {
  const show = (n: unknown) => (unit ? counted(n, unit) : number(n))
  if (min !== undefined && max !== undefined) {
    if (min === max) return `exactly ${show(min)}`
    return unit ? `${number(min)} to ${counted(max, unit)}` : `from ${number(min)} to ${number(max)}`
  }
  if (max !== undefined) return `at most ${show(max)}`
  if (min !== undefined) return `at least ${show(min)}`
  return undefined
}

function limitPhrases(schema: Json): string[] {
  const phrases: (string | undefined)[] = [
    range(schema.minLength, schema.maxLength, 'character'),
    typeof schema.pattern === 'string' ? `matches \`${schema.pattern}\`` : undefined,
    numericRange(schema),
    schema.multipleOf !== undefined ? `a multiple of ${number(schema.multipleOf)}` : undefined,
    range(schema.minItems, schema.maxItems, 'item'),
    schema.uniqueItems === true ? 'no repeated items' : undefined,
    range(schema.minProperties, schema.maxProperties, 'entry'),
    schema.default !== undefined ? `default \`${JSON.stringify(schema.default)}\`` : undefined,
    schema.deprecated === true ? 'deprecated' : undefined,
  ]
  return phrases.filter((phrase): phrase is string => phrase !== undefined)
}

/** One end of a range: 3.1's numeric exclusive bound, or 3.0's bound with its boolean flag. */
function bound(inclusive: unknown, exclusive: unknown, beyond: string, upTo: string): string | undefined {
  if (typeof exclusive === 'number') return `${beyond} ${number(exclusive)}`
  if (inclusive === undefined) return undefined
  return `${exclusive === true ? beyond : upTo} ${number(inclusive)}`
}

/** minimum/maximum, with OpenAPI 3.0's boolean exclusive flags or 3.1's numeric ones. */
function numericRange(schema: Json): string | undefined {
  const low = bound(schema.minimum, schema.exclusiveMinimum, 'above', 'at least')
  const high = bound(schema.maximum, schema.exclusiveMaximum, 'below', 'at most')
  if (low?.startsWith('at least') && high?.startsWith('at most')) {
    return range(schema.minimum, schema.maximum)
  }
  return [low, high].filter(Boolean).join(' and ') || undefined
}
