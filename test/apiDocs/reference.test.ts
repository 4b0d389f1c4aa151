// The Markdown reference (/api/plugin/docs) defines every type it names, shows nested shapes as
// named types (never "object" or "array of object"), links each type cell to its definition, and
// states the conventions a client needs with the values the code itself uses.
import { beforeAll, describe, expect, test } from 'bun:test'
import { ALL_SETTINGS_WORDS } from '../../src/apiDocs/conventions'
import { renderMarkdown } from '../../src/apiDocs/markdown'
import type { OpenApiDocument } from '../../src/apiDocs/openapi'
import { githubSlugger } from '../../src/apiDocs/referenceNames'
import { kib } from '../../src/http/size'
import type { Json } from '../../src/json'
import { TOKEN_PREFIX } from '../../src/modules/auth/service'
import * as builds from '../../src/modules/builds/limits'
import { MAX_CHARACTERS_PER_ACCOUNT } from '../../src/modules/characters/limits'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../../src/modules/completions/limits'
import { MAX_DURATION_SECONDS, MAX_XP } from '../../src/modules/completions/model'
import { MAX_EXCLUDED_PATRONS, MAX_TRACKER_FIELD_BYTES } from '../../src/modules/progress/limits'
import * as routes from '../../src/modules/routes/limits'
import { CLASSES, RACES } from '../../src/rules/character/gameData'
import { heroicPastLife, racialPastLife } from '../../src/rules/character/pastLives'
import {
  CHALLENGE_SETTINGS,
  deleteScope,
  REAPER_XP_KEYS,
  SETTING_KEYS,
  XP_KEYS,
} from '../../src/rules/quests/completion'
import { ok, testApp } from '../helpers'

interface Heading {
  level: number
  text: string
  anchor: string
  line: number
}

/** The reference's headings with the anchors GitHub gives them (code fences skipped). */
function headingsOf(markdown: string): Heading[] {
  const slug = githubSlugger()
  const headings: Heading[] = []
  let fenced = false
  markdown.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced
    const match = !fenced && /^(#{1,6}) (.*)$/.exec(line)
    if (match) {
      const text = match[2] as string
      headings.push({ level: (match[1] as string).length, text, anchor: slug(text), line: index })
    }
  })
  return headings
}

// Link text may hold balanced brackets: [Progress.completions[]](#progresscompletions).
const LINK = /\[((?:[^[\]]|\[\])+)\]\(#([^)]+)\)/g

/** Every type cell of the reference: field and parameter tables, body, answer, "Type:" and "Other fields:" lines. */
function typeCells(markdown: string): string[] {
  const cells: string[] = []
  let typeColumn = -1
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      const columns = line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim())
      if (columns.includes('type')) typeColumn = columns.indexOf('type')
      else if (!/^-+$/.test(columns[0] ?? '') && typeColumn >= 0) cells.push(columns[typeColumn] ?? '')
      continue
    }
    typeColumn = -1
    const body = /^Request body(?: \(optional\))?: (.*)\.$/.exec(line)
    const answer = /^- \*\*\d{3}\*\* (.*?)(?: — .*)?$/.exec(line)
    const named = /^(?:Type|Other fields): (.*?)\.(?: .*)?$/.exec(line)
    const found = body?.[1] ?? answer?.[1] ?? named?.[1]
    if (found !== undefined) cells.push(found)
  }
  return cells
}

/** What is left of a type cell once links, literals and the renderer's type words are removed. */
const residue = (cell: string) =>
  cell
    .replace(LINK, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/\((?:[\w-]+|any keys)\)/g, ' ')
    .replace(
      /\b(?:array of|map of string to|one of|empty JSON object|JSON object|any JSON value|or|and|null|string|integer|number|boolean|text\/markdown text|no body)\b/g,
      ' ',
    )
    .replace(/[,\s]+/g, ' ')
    .trim()

/** The checks every rendering must pass, whatever the document. */
function checkReference(markdown: string) {
  const headings = headingsOf(markdown)
  const byAnchor = new Map(headings.map((h) => [h.anchor, h]))
  // Every link lands on a heading of the same text: a type link on that type's definition.
  const links = [...markdown.matchAll(LINK)]
  expect(links.length).toBeGreaterThan(0)
  for (const [, text, anchor] of links) {
    expect(byAnchor.get(anchor as string)?.text, `link [${text}](#${anchor})`).toBe(text as string)
  }
  // No cell names a type it does not link, and none says just "object".
  const cells = typeCells(markdown)
  expect(cells.length).toBeGreaterThan(0)
  for (const cell of cells) {
    expect(residue(cell), `type cell "${cell}"`).toBe('')
    expect(cell).not.toMatch(/array of object|^object\b|\bobject$/)
  }
  // Each type is defined once.
  const types = new Set<string>()
  const typesStart = headings.find((h) => h.level === 2 && h.text === 'Types')?.line ?? Number.POSITIVE_INFINITY
  for (const h of headings) {
    if (h.level === 4 || (h.level === 3 && h.line > typesStart)) {
      expect(types.has(h.text), `type ${h.text} defined twice`).toBe(false)
      types.add(h.text)
    }
  }
  return { headings, types, links: links.map((l) => l[1] as string) }
}

describe('the served reference', () => {
  let markdown: string
  let doc: OpenApiDocument

  beforeAll(async () => {
    const t = testApp()
    // Raw: the reference is text/markdown, and its headers are checked (the client types it as a Response).
    const response = await t.request('GET', '/api/plugin/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    markdown = await response.text()
    const root = await t.request('GET', '/api/plugin/')
    expect(root.status).toBe(200)
    expect(await root.text()).toBe(markdown)
    doc = ok(await t.api['openapi.json'].get())
  })

  test('is rendered from the OpenAPI document the server serves', () => {
    expect(markdown).toBe(renderMarkdown(doc))
    expect(markdown).toStartWith(`# ${doc.info.title} (version ${doc.info.version})`)
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations))
        expect(markdown).toContain(`\n### ${method.toUpperCase()} ${path}\n`)
    }
  })

  test('every type it names is defined, and linked where it is named', () => {
    const { types, links } = checkReference(markdown)
    for (const name of links) {
      if (!['Conventions', 'Types', 'Authentication and tokens'].includes(name))
        expect(types.has(name), name).toBe(true)
    }
  })

  test('defines every component schema under Types, with its fields', () => {
    const types = markdown.slice(markdown.indexOf('\n## Types\n'))
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const start = types.indexOf(`\n### ${name}\n`)
      expect(start, name).toBeGreaterThan(-1)
      const section = types.slice(start + 1).split('\n### ')[0] as string
      for (const field of Object.keys((schema as { properties?: object }).properties ?? {})) {
        expect(section, `${name}.${field}`).toContain(`| \`${field}\` |`)
      }
    }
  })

  test('an object nested in a component is a named type whose definition lists its fields', () => {
    const lines = markdown.split('\n')
    /** The fields of the type defined under the heading `name` (a `###` or `####` heading). */
    const fieldsOf = (name: string) => {
      const start = lines.findIndex((line) => line === `### ${name}` || line === `#### ${name}`)
      expect(start, name).toBeGreaterThan(-1)
      const fields: string[] = []
      for (const line of lines.slice(start + 1)) {
        if (line.startsWith('#')) break
        const field = /^\| `([^`]+)` \|/.exec(line)
        if (field) fields.push(field[1] as string)
      }
      return fields
    }
    let nested = 0
    for (const [component, schema] of Object.entries(doc.components.schemas)) {
      const section = lines.slice(lines.indexOf(`### ${component}`) + 1)
      const table = section.slice(
        0,
        section.findIndex((line) => line.startsWith('#')),
      )
      for (const [field, raw] of Object.entries((schema as Json).properties ?? {})) {
        const property = raw as Json
        const inner = property.type === 'array' ? (property.items as Json) : property
        const fields = (inner?.properties ?? {}) as Json
        if (inner?.$ref !== undefined || Object.keys(fields).length === 0) continue
        nested++
        const row = table.find((line) => line.startsWith(`| \`${field}\` |`)) ?? ''
        const link = /\[((?:[^[\]]|\[\])+)\]\(#[^)]+\)/.exec(row)
        expect(link, `${component}.${field}: ${row}`).not.toBeNull()
        expect(row).toContain(property.type === 'array' ? '| array of [' : `| [${link?.[1]}]`)
        expect(fieldsOf(link?.[1] as string)).toEqual(Object.keys(fields))
      }
    }
    expect(nested).toBeGreaterThan(5)
  })

  test('a query parameter that is an object (quest search) is shown as the URL parameters it stands for', () => {
    const section = markdown.slice(markdown.indexOf('### GET /api/plugin/quests/search'))
    const table = section.slice(0, section.indexOf('Responses:'))
    for (const name of ['q', 'query', 'name', 'difficulty', 'level', 'characterLevel', 'cl', 'limit'])
      expect(table).toContain(`| \`${name}\` | query |`)
    expect(table).toContain('From 1 to 50. Default `20`.')
    expect(table).toContain('The search text is required')
    expect(table).not.toContain('| `QuestSearchQuery` | query |')
  })

  test('field notes carry the limits of the schemas', () => {
    const n = (value: number) => value.toLocaleString('en-US')
    const rows = (field: string, type: string) =>
      markdown.split('\n').filter((line) => line.startsWith(`| \`${field}\` | ${type}`))
    expect(
      rows('durationSeconds', 'integer or null').some((row) =>
        row.endsWith(` From 0 to ${n(MAX_DURATION_SECONDS)}. |`),
      ),
    ).toBe(true)
    expect(rows('quests', 'array of').some((row) => row.endsWith(` 1 to ${n(routes.MAX_ROUTE_STEPS)} items. |`))).toBe(
      true,
    )
    expect(
      rows('skills', 'map of string to integer').some((row) =>
        row.includes(` At most ${builds.MAX_MAP_ENTRIES} entries.`),
      ),
    ).toBe(true)
  })

  test('past-life naming is the one the code grants', () => {
    expect(heroicPastLife('Fighter').name).toBe('Past Life: Fighter')
    expect(markdown).toContain('`Past Life: Fighter`')
    for (const c of CLASSES) expect(markdown).toContain(`| ${c.name} | \`${heroicPastLife(c.name).name}\` |`)
    for (const r of RACES) {
      const feat = racialPastLife(r.name)
      expect(markdown).toContain(`| ${r.name} | \`${feat.name}\` | \`${feat.type}\` |`)
    }
    const iconic = racialPastLife('Dhampir Dark Bargainer')
    expect(iconic.type).toBe('IconicPastLife')
    expect(markdown).toContain(`- iconic (\`IconicPastLife\`): \`${iconic.name}\``)
    expect(markdown).toContain(`an archetype names its class first: \`${heroicPastLife('Sacred Fist').name}\``)
    expect(markdown).toContain(`\`${racialPastLife('Wood Elf').name}\``)
    expect(markdown).toContain(`\`${heroicPastLife('<name>').name}\``)
  })

  test('conventions: tokens, timestamps, names, aliases and delete words as the code has them', () => {
    expect(markdown).toContain(`Tokens start with \`${TOKEN_PREFIX}\``)
    expect(markdown).toContain('goes unused for 180 days on this server')
    expect(markdown).toContain('`2026-11-20T10:00+02:00` is stored as `2026-11-20T08:00:00.000Z`')
    expect(markdown).toContain(
      `Challenge setting (\`setting\`): ${CHALLENGE_SETTINGS.map((s) => `\`${s}\``).join(', ')}.`,
    )
    for (const [field, ...aliases] of [XP_KEYS, REAPER_XP_KEYS, SETTING_KEYS]) {
      expect(markdown).toContain(
        `| \`${field}\` | ${aliases.map((a) => `\`${a}\``).join(', ')} | \`POST /api/plugin/characters/{id}/completions\` |`,
      )
    }
    expect(markdown).toContain('| `identifier` | `email`, `username`, `login` |')
    expect(markdown).toContain('| `givenName` | `firstName` |')
    for (const word of ALL_SETTINGS_WORDS) expect(deleteScope({ name: 'x', setting: word }).setting).toBeNull()
    expect(deleteScope({ name: 'x', setting: 'elite' }).setting).toBe('elite')
    expect(markdown).toContain('`Devil Assault` → `Devil Assault (quest)`')
  })

  test('conventions: the limits are the code constants', () => {
    const n = (value: number) => value.toLocaleString('en-US')
    for (const row of [
      '| request body | 1 MiB | 413 |',
      `| characters per account | ${n(MAX_CHARACTERS_PER_ACCOUNT)} | 409 |`,
      `| \`completions\` in one \`PUT progress\` | ${n(MAX_COMPLETIONS_PER_CHARACTER)} items | 400 |`,
      `| \`xpEarned\`, \`reaperXpEarned\` (and aliases) | integers from 0 to ${n(MAX_XP)} | 400 |`,
      `(PUT progress) | ${kib(MAX_TRACKER_FIELD_BYTES)} each, as JSON | 413 |`,
      `| \`excludedPatrons\` | ${n(MAX_EXCLUDED_PATRONS)} entries | 400 |`,
      `after the merge or replace | ${kib(builds.MAX_BUILD_DOCUMENT_BYTES)} as JSON | 413 |`,
      `| lives per character | ${n(builds.MAX_LIVES_PER_CHARACTER)} | 409 |`,
      `| route steps | ${n(routes.MAX_ROUTE_STEPS)} | 400 |`,
      `| \`GET /routes\` page | \`limit\` 1–${n(routes.MAX_ROUTE_PAGE)}, default ${n(routes.DEFAULT_ROUTE_PAGE)};`,
    ])
      expect(markdown).toContain(row)
  })

  test("the token lifetime is this server's TOKEN_IDLE_DAYS", async () => {
    const t = testApp({ TOKEN_IDLE_DAYS: '30' })
    const text = await (await t.request('GET', '/api/plugin/docs')).text()
    expect(text).toContain('goes unused for 30 days on this server (`TOKEN_IDLE_DAYS`, default 180)')
  })
})

describe('rendering is generic', () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
  const doc: OpenApiDocument = {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: {
      '/api/plugin/things': {
        get: {
          tags: ['Things'],
          responses: {
            '200': {
              description: 'Listed.',
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { things: { type: 'array', items: ref('Thing') } } },
                },
              },
            },
            '404': { description: 'Nothing.', content: { 'application/json': { schema: ref('Error') } } },
          },
        },
        post: {
          tags: ['Things'],
          parameters: [{ name: 'mode', in: 'query', schema: ref('Mode') }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    thing: { type: 'object', properties: { id: { type: 'integer' } } },
                    note: { description: 'Alias of `text`.', type: 'string' },
                  },
                },
              },
            },
          },
          responses: {
            '201': {
              description: 'Made.',
              content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } },
            },
          },
        },
      },
      '/api/health': {
        get: {
          responses: {
            '200': {
              content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'integer', minimum: 1 },
            when: { type: 'string', format: 'date-time' },
            tags: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 10 } },
            parts: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } },
            grid: {
              type: 'array',
              items: { type: 'array', items: { type: 'object', properties: { y: { type: 'boolean' } } } },
            },
            byName: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: { z: { type: 'string', enum: ['a', 'b'], default: 'a' } },
              },
            },
            either: { anyOf: [{ type: 'string' }, { type: 'object', properties: { w: { type: 'integer' } } }] },
            owner: ref('Owner'),
            anything: {},
            free: { type: 'object', properties: {}, additionalProperties: true },
          },
          additionalProperties: false,
        },
        Owner: {
          type: 'object',
          nullable: true,
          properties: { name: { type: 'string', minLength: 1, maxLength: 50 } },
        },
        Mode: { type: 'string', enum: ['on', 'off'] },
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      },
      securitySchemes: {},
    },
  }
  const markdown = renderMarkdown(doc)

  test('passes the same checks as the real document', () => {
    checkReference(markdown)
  })

  test('names nested shapes after where they are, and links them', () => {
    for (const heading of [
      '### Thing',
      '### Thing.parts[]',
      '### Thing.grid[][]',
      '### Thing.byName{}',
      '### Thing.either.option2',
      '### Owner',
      '### Mode',
      '#### GetThingsResponse',
      '#### PostThingsBody',
      '#### PostThingsBody.thing',
      '#### PostThingsResponse',
      '#### GetHealthResponse',
    ])
      expect(markdown).toContain(`\n${heading}\n`)
    for (const row of [
      '| `id` | integer | yes | At least 1. |',
      '| `when` | string (date-time) | no |  |',
      '| `tags` | array of string | no | At most 5 items. Each item: at most 10 characters. |',
      '| `parts` | array of [Thing.parts[]](#thingparts) | no |  |',
      '| `grid` | array of array of [Thing.grid[][]](#thinggrid) | no |  |',
      '| `byName` | map of string to [Thing.byName{}](#thingbyname) | no |  |',
      '| `either` | string or [Thing.either.option2](#thingeitheroption2) | no |  |',
      '| `owner` | [Owner](#owner) or null | no |  |',
      '| `anything` | any JSON value | no |  |',
      '| `free` | JSON object (any keys) | no |  |',
      '| `z` | one of `a`, `b` | no | Default `"a"`. |',
      '| `name` | string | no | 1 to 50 characters. |',
      '| `mode` | query | [Mode](#mode) | no |  |',
    ])
      expect(markdown).toContain(row)
    expect(markdown).toContain('No other fields.')
    expect(markdown).toContain('Type: one of `on`, `off`.')
    expect(markdown).toContain('Request body: [PostThingsBody](#postthingsbody).')
    expect(markdown).toContain('- **404** [Error](#error) — Nothing.')
    expect(markdown).toContain('| `text` | `note` | `POST /api/plugin/things` |')
    // Same shape, different operations: each keeps its own name.
    expect(markdown).toContain('- **200** [GetHealthResponse](#gethealthresponse)')
  })
})

test('anchors are the ones GitHub gives', () => {
  const slug = githubSlugger()
  expect(slug('Progress')).toBe('progress')
  expect(slug('Progress')).toBe('progress-1')
  expect(slug('Progress.completions[]')).toBe('progresscompletions')
  expect(slug('GET /api/plugin/characters/{id}/live')).toBe('get-apiplugincharactersidlive')
  expect(slug('Writes: upserts, partial updates and merges')).toBe('writes-upserts-partial-updates-and-merges')
  expect(slug('Past-life feats')).toBe('past-life-feats')
})
