// GET /api/characters/{id}/events: a server-sent event each time the character's data changes,
// so an open tracker updates by itself. Fed by one global hook on the write path: every
// successful non-GET request to /characters/{id}/... of either API (plugin or website)
// publishes a change, so no writer can be forgotten. A stream ends with the session it was
// opened with: at once on a sign-out in this process (SignOuts), else at its next ping.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { signedInRoutes } from '../../http/api'
import { TooManyRequests } from '../../http/errors'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { assertOwnsCharacter } from '../characters/access'
import { sessionIsLive } from '../session/service'
import type { SignOuts } from '../session/sign-outs'
import { CHANGE_KINDS, type ChangeFeed, type ChangeKind } from './feed'

/**
 * Keep-alive comment interval: under the idle timeouts of common reverse proxies (60 s). Each
 * ping first checks the stream's session, so one revoked by another process (the CLI) ends then.
 */
export const PING_MS = 20_000
/** Open streams per account (a tab each); beyond it 429, so one account cannot hold the server's sockets. */
export const MAX_STREAMS_PER_ACCOUNT = 32

const CHARACTER_WRITE = /^\/api(?:\/plugin)?\/characters\/(\d+)(?:\/([\w-]+))?/

/** Which part of a character a write changed, from its path (`/characters/5/live/partial` → live). */
export function changeOf(method: string, path: string): { characterId: number; what: ChangeKind } | null {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null
  const match = CHARACTER_WRITE.exec(path)
  if (!match) return null
  const segment = match[2] ?? 'character'
  // Promoting the live snapshot writes the planned build.
  const what = segment === 'live' && path.endsWith('/promote-to-planned') ? 'build' : segment
  return {
    characterId: Number(match[1]),
    what: (CHANGE_KINDS as readonly string[]).includes(what) ? (what as ChangeKind) : 'character',
  }
}

/** The global hook: after a successful write, publish it. Errors never reach afterHandle. */
export function changeReporter(changes: ChangeFeed) {
  return new Elysia({ name: 'change-reporter' }).onAfterHandle({ as: 'global' }, ({ request, path }) => {
    const change = changeOf(request.method, path)
    if (change) changes.publish(change.characterId, change.what)
  })
}

const encoder = new TextEncoder()

export function eventsModule({ db, clock }: AppDeps, guard: Guard, changes: ChangeFeed, signOuts: SignOuts) {
  const streamsPerUser = new Map<number, number>()
  return signedInRoutes(guard, '/characters', ['Website']).get(
    '/:id/events',
    ({ user, credential, params, request, server }) => {
      assertOwnsCharacter(db, user.id, params.id)
      const open = streamsPerUser.get(user.id) ?? 0
      if (open >= MAX_STREAMS_PER_ACCOUNT) {
        throw new TooManyRequests(`At most ${MAX_STREAMS_PER_ACCOUNT} live-update streams per account.`, 30)
      }
      streamsPerUser.set(user.id, open + 1)
      // A stream is idle between events: lift Bun's idle timeout (10 s) for this request only.
      server?.timeout(request, 0)
      let stop = () => {}
      const stillSignedIn = () => {
        try {
          return sessionIsLive(db, clock, credential.id)
        } catch {
          return true // the database is busy: ask again at the next ping
        }
      }
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          const send = (text: string) => {
            try {
              controller.enqueue(encoder.encode(text))
            } catch {
              stop()
            }
          }
          // `retry`: how soon the browser reconnects after a drop (it polls meanwhile).
          send(': connected\nretry: 2000\n\n')
          const unsubscribe = changes.subscribe(params.id, (change) =>
            send(`event: change\ndata: ${JSON.stringify(change)}\n\n`),
          )
          const ping = setInterval(() => {
            if (stillSignedIn()) send(': ping\n\n')
            else stop()
          }, PING_MS)
          const stopListening = signOuts.listen({ sessionId: credential.id, userId: user.id, end: () => stop() })
          let stopped = false
          stop = () => {
            if (stopped) return
            stopped = true
            clearInterval(ping)
            unsubscribe()
            stopListening()
            const left = (streamsPerUser.get(user.id) ?? 1) - 1
            if (left > 0) streamsPerUser.set(user.id, left)
            else streamsPerUser.delete(user.id)
            try {
              controller.close()
            } catch {
              // already closed by the client
            }
          }
          request.signal.addEventListener('abort', () => stop())
        },
        cancel() {
          stop()
        },
      })
      return new Response(stream, {
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          // Reverse proxies (nginx) would otherwise buffer the stream.
          'x-accel-buffering': 'no',
        },
      })
    },
    {
      params: IdParams,
      response: { ...errors(404, 429) },
      detail: { summary: "Server-sent events: the character's data changed" },
    },
  )
}
