// A page's messages: errors as alerts (read out at once), notices (what an action did, a change
// arriving from the game) as a polite status that screen readers read when idle.
import type { Signal } from '@preact/signals'

export function Messages({ error, notice }: { error: Signal<string | null>; notice: Signal<string | null> }) {
  return (
    <>
      <div role="alert" class="alert-region">
        {error.value && <p class="error">{error.value}</p>}
      </div>
      <p role="status" class="sr-only">
        {notice.value ?? ''}
      </p>
    </>
  )
}
