// The tracker's write queue: the page changes at once, and the writes are sent one after another,
// each when the one before it has its answer, so the server stores them in the order they were
// made (two in flight together may arrive, or be stored, the other way round: a filter set back
// would then stay as it was first set, and a tick then untick leave the tick). A read that answers
// while writes wait may predate them, so it is dropped, and one fresh read follows the last write:
// the one place that knows the order of the tracker's reads and writes.

export interface WriteQueueOptions<State> {
  /** Reads the server's state. */
  read(): Promise<State>
  /** Takes a state read from the server (not dropped as stale). */
  take(state: State): void
  /** A write or read failed: show its sentence. */
  failed(error: unknown): void
  /** A write went through. */
  succeeded(): void
}

export function writeQueue<State>({ read, take, failed, succeeded }: WriteQueueOptions<State>) {
  let pending = 0
  let staleRead = false
  let readSeq = 0
  /** The last write sent or waiting to be: the next one is sent when it has settled. */
  let last: Promise<unknown> = Promise.resolve()

  /** Reads the server's state now, or after the writes in flight (their answers come first). */
  async function refresh(): Promise<void> {
    if (pending > 0) {
      staleRead = true
      return
    }
    const seq = ++readSeq
    try {
      const next = await read()
      if (seq !== readSeq || pending > 0) return
      take(next)
    } catch (e) {
      failed(e)
    }
  }

  /**
   * Runs a write after the ones before it (whether they went through or not). With `apply`, the
   * answer (the whole state) replaces the state when no other write waits; without it, one fresh
   * read follows the last write (the server's own spelling and timestamps). A failure shows its
   * sentence and re-reads the server's state.
   */
  async function write<T>(send: () => Promise<T>, apply?: (result: T) => void): Promise<void> {
    pending++
    readSeq++ // a read already in flight predates this write
    const sent = last.then(send)
    last = sent.catch(() => undefined)
    try {
      const result = await sent
      if (!apply) staleRead = true
      else if (pending === 1) apply(result)
      succeeded()
    } catch (e) {
      failed(e)
      staleRead = true
    } finally {
      pending--
      if (pending === 0 && staleRead) {
        staleRead = false
        void refresh()
      }
    }
  }

  return { refresh, write }
}
