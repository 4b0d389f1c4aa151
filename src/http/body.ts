// Request bodies, read as they arrive. A running count refuses a body (413) as soon as it passes
// its route's limit, a body still arriving after BODY_TIME_LIMIT_MS is refused (408), and a
// route that needs a credential checks it before the first byte is read (401). Before, every
// body was read whole (up to the listener's 8 MiB) before any of these: a stranger held 8 MiB of
// memory per slow connection without logging in.
import { type AnyElysia, type Context, type DocumentDecoration, Elysia } from 'elysia'
import { isPlainObject } from '../json'
import { BadRequest, PayloadTooLarge, RequestTimeout } from './errors'
import { addRouteHook, type RouteHooks, type RouteStep } from './routeRecords'
import { kib } from './size'

/** The body of every route that declares no limit of its own (`maxBodyBytes`). */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * The longest a body may take to arrive, counted from when the server starts reading it (right
 * after its headers): 1 MiB in 30 s is 35 KB/s, far below any home connection; a client that
 * trickles a byte at a time holds its connection (and what it sent) no longer than this.
 */
export const BODY_TIME_LIMIT_MS = 30_000

/** Deeper bodies would overflow the stack later (storing, validating, answering): a 500. */
export const MAX_BODY_DEPTH = 64

/** Where a route's own limit is written: an OpenAPI extension of its operation, so clients read it too. */
export const BODY_LIMIT_KEY = 'x-max-body-bytes'

/** Where a route that takes a file upload names the body field the file's text becomes. */
export const UPLOAD_FIELD_KEY = 'x-upload-field'

/** The multipart form field an upload's file comes in, and the one its other fields come in (as JSON). */
export const UPLOAD_FILE_FIELD = 'file'
export const UPLOAD_OPTIONS_FIELD = 'options'

/**
 * `maxBodyBytes: n` on a route: its body may take up to n bytes instead of MAX_BODY_BYTES, more
 * or less. The listener's own cap follows the largest of these (largestBodyLimit).
 */
export const bodyLimit = new Elysia({ name: 'body-limit' }).macro({
  // OpenAPI allows `x-` keys on an operation; Elysia's type lists only the standard ones.
  maxBodyBytes: (bytes: number) => ({ detail: { [BODY_LIMIT_KEY]: bytes } as DocumentDecoration }),
  /**
   * `upload: 'xml'` on a route: besides its JSON body, it takes a multipart form (what a browser's
   * or curl's file upload sends) whose `file` is the text of body field `xml` and whose optional
   * `options` field is the rest of the body as JSON. The route sees the same body either way.
   */
  upload: (field: string) => ({ detail: { [UPLOAD_FIELD_KEY]: field } as DocumentDecoration }),
})

/** Runs before a route's body is read and throws to refuse it: the route's credential check. */
export type BeforeBody = (context: Pick<Context, 'request' | 'set'>) => void

/** What a route asks of a request's body. */
export interface BodyRule {
  maxBytes: number
  /** The body field a multipart form's file becomes (`upload`); a route without it takes JSON only. */
  upload?: string
}

const detailOf = (hooks: unknown): Record<string, unknown> | undefined =>
  (hooks as { detail?: Record<string, unknown> } | undefined)?.detail

/** The route's own limit (`maxBodyBytes`), else MAX_BODY_BYTES. */
const limitOf = (hooks: unknown): number => {
  const declared = detailOf(hooks)?.[BODY_LIMIT_KEY]
  return typeof declared === 'number' ? declared : MAX_BODY_BYTES
}

/** The field a route's upload becomes (`upload`), if it takes one. */
const uploadOf = (hooks: unknown): string | undefined => {
  const field = detailOf(hooks)?.[UPLOAD_FIELD_KEY]
  return typeof field === 'string' ? field : undefined
}

/** The largest body any route of `app` takes: what the listener may let through (src/http/listen.ts). */
export const largestBodyLimit = (app: AnyElysia): number =>
  Math.max(MAX_BODY_BYTES, ...app.routes.map((route) => limitOf(route.hooks)))

/** Methods whose requests Elysia never reads a body of: their routes get no body reader. */
const NO_BODY = new Set(['GET', 'HEAD'])

/**
 * A step for prepareRoutes (src/http/routeRecords.ts) that gives a route that may take a body
 * its own reader: the check `beforeOf` finds among its hooks (the credential guard's, see
 * src/modules/auth/guard.ts) runs first, then the body is read under the route's limit and
 * `timeLimitMs` (parseBody). GET and HEAD routes get none: Elysia reads no body for them, but a
 * parse hook on a route, even one never run, makes Elysia compile its handler `async`, and
 * every request of it then waits for a promise.
 */
export function bodyReader(
  beforeOf: (hooks: RouteHooks) => BeforeBody | undefined,
  timeLimitMs = BODY_TIME_LIMIT_MS,
): RouteStep {
  return ({ method, hooks }) => {
    if (NO_BODY.has(method)) return
    const rule: BodyRule = { maxBytes: limitOf(hooks), upload: uploadOf(hooks) }
    const before = beforeOf(hooks)
    // The hook names only what it reads (src/http/routeRecords.ts).
    const read = before
      ? ({ request, set }: Pick<Context, 'request' | 'set'>) => {
          // A stranger's body is never read: the route's credential is checked before its first byte.
          before({ request, set })
          return parseBody(request, rule, timeLimitMs)
        }
      : ({ request }: Pick<Context, 'request'>) => parseBody(request, rule, timeLimitMs)
    addRouteHook(hooks, 'parse', read)
  }
}

/** "1 MiB" for whole mebibytes, else "64 KiB". */
const size = (bytes: number): string => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : kib(bytes))

const tooLarge = (maxBytes: number) => new PayloadTooLarge(`The request body is larger than ${size(maxBytes)}.`)

/** Requests whose body was read to its end; any other body is unread or cut off (`bodyLeftUnread`). */
const readToEnd = new WeakSet<Request>()

/**
 * Whether the request came with a body that was not read to its end (refused before or while it
 * arrived): the connection cannot carry another request then, and is closed after the answer.
 */
export const bodyLeftUnread = (request: Request): boolean => request.body !== null && !readToEnd.has(request)

/**
 * The body's bytes, read chunk by chunk: 413 as soon as it passes `maxBytes` (or at once when its
 * Content-Length says it will), 408 when it is not all there `timeLimitMs` after reading began.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  timeLimitMs: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge(maxBytes)
  if (request.body === null) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeUp = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RequestTimeout(`The request body took longer than ${timeLimitMs / 1000} seconds to arrive.`)),
      timeLimitMs,
    )
  })
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await Promise.race([reader.read(), timeUp])
      } catch (error) {
        if (error instanceof RequestTimeout) throw error
        throw new BadRequest('The request body ended before it was complete.')
      }
      if (chunk.done) break
      size += chunk.value.byteLength
      if (size > maxBytes) throw tooLarge(maxBytes)
      chunks.push(chunk.value)
    }
  } catch (error) {
    // Nothing more is read: the listener drops the rest with the connection (`bodyLeftUnread`).
    reader.cancel().catch(() => {})
    throw error
  } finally {
    clearTimeout(timer)
  }
  readToEnd.add(request)
  return Buffer.concat(chunks, size)
}

/** The body as text (UTF-8): readBodyBytes. */
export async function readBodyText(request: Request, maxBytes: number, timeLimitMs: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes, timeLimitMs))
}

/** How deeply arrays and objects nest in a parsed JSON value, without recursion. */
function tooDeep(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number]
    if (typeof node !== 'object' || node === null) continue
    if (depth > limit) return true
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

/** Reads the body as JSON whatever its Content-Type (game clients are not always careful). */
export async function parseJsonBody(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
  timeLimitMs = BODY_TIME_LIMIT_MS,
): Promise<unknown> {
  return jsonObject(await readBodyText(request, maxBytes, timeLimitMs), 'The request body')
}

/** `text` as a JSON object (`what` names it in the sentence of a 400), or undefined when blank. */
function jsonObject(text: string, what: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new BadRequest(`${what} is not valid JSON.`)
  }
  // Every body of this API is an object; Elysia would coerce an array to {} before validating.
  if (!isPlainObject(body)) {
    throw new BadRequest(`${what} must be a JSON object.`)
  }
  if (tooDeep(body, MAX_BODY_DEPTH)) {
    throw new BadRequest(`${what} is nested too deeply (more than ${MAX_BODY_DEPTH} levels).`)
  }
  return body
}

const isMultipart = (request: Request): boolean =>
  /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')

/**
 * A route's body as its rule says: JSON, or for a route taking an upload, a multipart form too:
 * the form's `file` as the text of the rule's field, and its `options` (JSON) as the other fields.
 */
export async function parseBody(request: Request, rule: BodyRule, timeLimitMs = BODY_TIME_LIMIT_MS) {
  const { maxBytes } = rule
  if (!rule.upload || !isMultipart(request)) return parseJsonBody(request, maxBytes, timeLimitMs)
  const bytes = await readBodyBytes(request, maxBytes, timeLimitMs)
  let form: FormData
  try {
    form = await new Response(bytes, {
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
    }).formData()
  } catch {
    throw new BadRequest('The request body is not a readable multipart form.')
  }
  const file = form.get(UPLOAD_FILE_FIELD)
  if (file === null) throw new BadRequest(`The form has no \`${UPLOAD_FILE_FIELD}\` field: the file to import.`)
  const options = form.get(UPLOAD_OPTIONS_FIELD)
  if (options !== null && typeof options !== 'string') {
    throw new BadRequest(`The form's \`${UPLOAD_OPTIONS_FIELD}\` field must be text (JSON), not a file.`)
  }
  const fields = jsonObject(options ?? '', `The form's \`${UPLOAD_OPTIONS_FIELD}\` field`) ?? {}
  if (rule.upload in fields) {
    throw new BadRequest(`The form's \`${UPLOAD_OPTIONS_FIELD}\` must not hold \`${rule.upload}\`: the file is that.`)
  }
  // The TextDecoder drops a byte-order mark, which Windows editors put before UTF-8 text.
  const text = typeof file === 'string' ? file : new TextDecoder().decode(await file.arrayBuffer())
  return { ...fields, [rule.upload]: text }
}
