// GET /api/characters/{id}/events: a server-sent event each time the character's data changes,
// so an open tracker updates by itself. Fed by the change feed, which every service that writes
// a character's data tells what it changed (deps.ts `Writer`), from either API. A stream ends with the session it was
// opened with: at once on a sign-out in this process (SignOuts), else at its next ping.
import type { ModuleDeps } from '../../deps'
import { TooManyRequests } from '../../http/errors'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { assertOwnsCharacter } from '../characters/access'
import { sessionIsLive } from '../session/service'
import type { SignOuts } from '../session/signOuts'
import type { Change } from './feed'

/**
 * Keep-alive comment interval: under the idle timeouts of common reverse proxies (60 s). Each
 * ping first checks the stream's session, so one revoked by another process (the CLI) ends then.
 */
export const PING_MS = 20_000
/** Open streams per account (a tab each); beyond it 429, so one account cannot hold the server's sockets. */
export const MAX_STREAMS_PER_ACCOUNT = 32

const encoder = new TextEncoder()

// One write reaches every tab open on its character: its event is written out once, for all.
const eventTexts = new WeakMap<Change, string>()

/**
 * `event: change` with `{characterId, what, tag, delta}`: the character's new ETag, and what
 * changed when the writer said so (feed.ts ChangeDelta; null: re-read).
 */
function eventText(change: Change): string {
  let text = eventTexts.get(change)
  if (text === undefined) {
    const { characterId, what, tag } = change
    text = `event: change\ndata: ${JSON.stringify({ characterId, what, tag, delta: change.delta() })}\n\n`
    eventTexts.set(change, text)
  }
  return text
}

export function eventsModule({ db, clock, changes }: ModuleDeps, guard: Guard, signOuts: SignOuts) {
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
          const unsubscribe = changes.subscribe(params.id, (change) => send(eventText(change)))
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
