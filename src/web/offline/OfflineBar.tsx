// Under the site header of every signed-in page: whether the server can be reached, how old the
// kept answers the page shows are, the changes waiting to be sent, and those the server refused
// (with its reason, until dismissed). Nothing when all is well.
import { useEffect, useState } from 'preact/hooks'
import { formatAge, formatDate } from '../format'
import { dismiss, queuedWrites } from './outbox'
import { describeChange, isWaiting, type QueuedWrite } from './queue'
import { oldestKept, reachable } from './status'

/** How often the ages shown move on while the bar is up. */
const AGE_TICK_MS = 30_000

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), AGE_TICK_MS)
    return () => clearInterval(timer)
  }, [active])
  return now
}

export function OfflineBar() {
  const writes = queuedWrites.value
  const waiting = writes.filter(isWaiting)
  const refused = writes.filter((w) => !isWaiting(w))
  const kept = oldestKept.value
  const online = reachable.value
  const state = !online ? 'offline' : kept !== null ? 'back' : 'online'
  const shown = state !== 'online' || writes.length > 0
  const now = useNow(shown)
  if (!shown) return null
  const age = kept === null ? '' : `${formatAge(now - Date.parse(kept))} (${formatDate(kept)})`
  return (
    <section
      class="offline-bar"
      aria-label="Connection to the server"
      data-state={state}
      data-waiting={waiting.length}
      data-refused={refused.length}
    >
      <p role="status" class="offline-state">
        {state === 'offline' && (
          <>
            <strong>Offline.</strong> The server cannot be reached.{' '}
            {kept !== null ? <>Showing what it sent {age}.</> : null}{' '}
            {waiting.length > 0 || kept === null ? 'Changes wait here until it is back.' : null}
          </>
        )}
        {state === 'back' && (
          <>
            <strong>Connected again.</strong> Parts of this page are what the server sent {age}.{' '}
            <button type="button" class="button quiet" onClick={() => location.reload()}>
              Reload
            </button>
          </>
        )}
        {state === 'online' && waiting.length > 0 && 'Sending your changes…'}
      </p>
      {waiting.length > 0 && (
        // Folded: a phone's first screen stays the tracker's; the count says enough at a glance.
        <details class="offline-writes">
          <summary class="offline-title offline-toggle">
            {waiting.length === 1 ? '1 change waiting to be sent' : `${waiting.length} changes waiting to be sent`}
          </summary>
          <ul>
            {waiting.map((w) => (
              <QueuedItem key={w.id} write={w} />
            ))}
          </ul>
        </details>
      )}
      {refused.length > 0 && (
        <div class="offline-writes refused">
          <p class="offline-title">
            {refused.length === 1 ? 'Not saved: the server refused it' : 'Not saved: the server refused these'}
          </p>
          <ul>
            {refused.map((w) => (
              <QueuedItem key={w.id} write={w} />
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}

function QueuedItem({ write }: { write: QueuedWrite }) {
  return (
    <li data-write={write.id} data-refused={write.refused === undefined ? 'false' : 'true'}>
      <span>
        <strong>{write.characterName}</strong>: {describeChange(write.change)}{' '}
        <span class="hint">({formatDate(write.queuedAt)})</span>
      </span>
      {write.refused !== undefined && (
        <>
          {' '}
          <span class="offline-reason">{write.refused}</span>{' '}
          <button type="button" class="button quiet" onClick={() => void dismiss(write.id)}>
            Dismiss
          </button>
        </>
      )}
    </li>
  )
}
