// A server-sent event stream that ends with the session it was opened with, shared by a
// character's stream and a group's: the keep-alive ping (which first asks `stillValid`), the
// per-account cap, and the clean-up on any way out (client gone, sign-out, `end()`).
import type { Context } from 'elysia'
import type { Clock } from '../../clock'
import type { DB } from '../../db/client'
import { TooManyRequests } from '../../http/errors'
import type { Identity } from '../auth/guard'
import { sessionIsLive } from '../session/service'
import type { SignOuts } from '../session/signOuts'

/**
 * Keep-alive comment interval: under the idle timeouts of common reverse proxies (60 s). Each
 * ping first checks the stream's session, so one revoked by another process (the CLI) ends then.
 */
export const PING_MS = 20_000
/** Open streams per account (a tab each); beyond it 429, so one account cannot hold the server's sockets. */
export const MAX_STREAMS_PER_ACCOUNT = 32

const encoder = new TextEncoder()

/** What a stream's owner gets: send an event, or end the stream. */
export interface StreamControl {
  send(event: string, data: unknown): void
  /** An event already written out (one text for every tab of a character: events/index.ts). */
  write(text: string): void
  end(): void
}

export interface StreamOptions {
  /** Starts listening; returns the function that stops. */
  listen(control: StreamControl): () => void
  /** Asked at each ping besides the session (a member still in the group): false ends the stream. */
  stillValid?: () => boolean
}

/** Streams open per account, across every kind of stream (one cap for all of an account's tabs). */
export class StreamCounter {
  private readonly open = new Map<number, number>()
  take(userId: number): void {
    const n = this.open.get(userId) ?? 0
    if (n >= MAX_STREAMS_PER_ACCOUNT) {
      throw new TooManyRequests(`At most ${MAX_STREAMS_PER_ACCOUNT} live-update streams per account.`, 30)
    }
    this.open.set(userId, n + 1)
  }
  give(userId: number): void {
    const left = (this.open.get(userId) ?? 1) - 1
    if (left > 0) this.open.set(userId, left)
    else this.open.delete(userId)
  }
}

export function eventStream(
  { db, clock, signOuts, counter }: { db: DB; clock: Clock; signOuts: SignOuts; counter: StreamCounter },
  { user, credential, request, server }: Identity & Pick<Context, 'request' | 'server'>,
  options: StreamOptions,
): Response {
  counter.take(user.id)
  // A stream is idle between events: lift Bun's idle timeout (10 s) for this request only.
  server?.timeout(request, 0)
  let stop = () => {}
  const stillSignedIn = () => {
    try {
      return sessionIsLive(db, clock, credential.id) && (options.stillValid?.() ?? true)
    } catch {
      return true // the database is busy: ask again at the next ping
    }
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          stop()
        }
      }
      // `retry`: how soon the browser reconnects after a drop (it polls meanwhile).
      write(': connected\nretry: 2000\n\n')
      const unlisten = options.listen({
        send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
        write,
        end: () => stop(),
      })
      const ping = setInterval(() => {
        if (stillSignedIn()) write(': ping\n\n')
        else stop()
      }, PING_MS)
      const stopListening = signOuts.listen({ sessionId: credential.id, userId: user.id, end: () => stop() })
      let stopped = false
      stop = () => {
        if (stopped) return
        stopped = true
        clearInterval(ping)
        unlisten()
        stopListening()
        counter.give(user.id)
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
}
