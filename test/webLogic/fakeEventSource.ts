// A stand-in for the browser's EventSource, for the website's live code (src/web/live.ts) run
// outside a browser: a test sends the events, and the stream can fail as the browser's does.
// `useFakeEventSource()` puts it in place of the global one, with Bun's fake timers, around each
// test of the file that calls it.
import { afterEach, beforeEach, jest } from 'bun:test'

/** The stream a page opens: the test sends its events. */
export class FakeEventSource {
  static readonly CLOSED = 2
  static opened: FakeEventSource[] = []
  readyState = 1
  private readonly listeners = new Map<string, ((event: { data?: string }) => void)[]>()
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this)
  }
  addEventListener(type: string, listener: (event: { data?: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {
    this.readyState = FakeEventSource.CLOSED
  }
  emit(type: string, data?: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data ?? {}) })
  }
  /** The server refused the stream (an error answer, as a 404): the browser gives it up. */
  refused() {
    this.readyState = FakeEventSource.CLOSED
    this.emit('error')
  }
}

export function useFakeEventSource(): void {
  const realEventSource = globalThis.EventSource
  beforeEach(() => {
    FakeEventSource.opened = []
    globalThis.EventSource = FakeEventSource as unknown as typeof EventSource
    jest.useFakeTimers()
  })
  afterEach(() => {
    jest.useRealTimers()
    globalThis.EventSource = realEventSource
  })
}
