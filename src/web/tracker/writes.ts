// The tracker's write queue: the page changes at once, and each write is sent straight away,
// several in flight together. A read that answers while writes are in flight may predate them,
// so it is dropped, and one fresh read follows the last write: the one place that knows the
// order of the tracker's reads and writes.

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
   * Runs a write. With `apply`, the answer (the whole state) replaces the state when no other
   * write is in flight; without it, one fresh read follows the last write (the server's own
   * spelling and timestamps). A failure shows its sentence and re-reads the server's state.
   */
  async function write<T>(send: () => Promise<T>, apply?: (result: T) => void): Promise<void> {
    pending++
    readSeq++ // a read already in flight predates this write
    try {
      const result = await send()
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
