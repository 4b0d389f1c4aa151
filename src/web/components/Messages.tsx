// A page's messages: errors as alerts (read out at once), notices (what an action did: a build
// imported, a life begun, a completion arriving from the game) shown under the header as a polite
// status, which screen readers read when idle. A notice goes after NOTICE_MS, or when the next
// one replaces it; the status element stays, empty, so that screen readers keep listening to it.
import type { Signal } from '@preact/signals'
import { useEffect } from 'preact/hooks'

/** How long a notice stays on the page: long enough to read twice. */
export const NOTICE_MS = 12_000

export function Messages({ error, notice }: { error: Signal<string | null>; notice: Signal<string | null> }) {
  const shown = notice.value
  useEffect(() => {
    if (shown === null) return
    const timer = setTimeout(() => {
      if (notice.peek() === shown) notice.value = null
    }, NOTICE_MS)
    return () => clearTimeout(timer)
  }, [shown])
  return (
    <>
      <div role="alert" class="alert-region">
        {error.value && <p class="error">{error.value}</p>}
      </div>
      <p role="status" class="notice">
        {shown ?? ''}
      </p>
    </>
  )
}
