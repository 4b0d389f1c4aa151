// Live updates of any page that shows a character's data (domain rule 4: a completion posted by
// the game shows within a few seconds): the tracker, a route's navigation, the build page. The
// server pushes `change` events (server-sent events) and the page either applies the change an
// event carries (the tracker: tracker/changes.ts) or re-reads what it shows, by ETag, so an
// unchanged answer costs a 304; when the stream drops it polls every few seconds until it is back.
import type { Signal } from '@preact/signals'
import type { ChangeDelta } from '../modules/events/feed'
import { api } from './api'

/** An event as the server sends it (src/modules/events/index.ts). */
export interface ChangeEvent {
  characterId: number
  what: string
  /** The character's ETag after the write. */
  tag: string
  /** What changed, when the writer said; null: re-read. */
  delta: ChangeDelta | null
}

export type LiveMode = 'off' | 'connecting' | 'push' | 'polling'

/** Under the 5 seconds the contract allows, with room for the request itself. */
export const POLL_MS = 4000
/** How long to wait before opening a stream again after the server refused it. */
const RECONNECT_MS = 15_000
/**
 * Events often come in bursts (a completion and a progress change): one read for a burst, this
 * long after its first event (a page may ask for a longer window: coalesceMs).
 */
const COALESCE_MS = 100

/** What a page hands the stream: whose events, where to show the state, and how to re-read. */
export interface LiveTarget {
  characterId: number
  liveMode: Signal<LiveMode>
  /** Re-reads what the page shows: after a burst of changes, on each poll, after a reconnection. */
  refresh(): Promise<void> | void
  /**
   * Each change as it arrives, with what changed (`completions`, `progress`, `live`, `build`, …)
   * and the event itself (null when unreadable). True: the page applied it, nothing to re-read.
   */
  onChange?(what: string, event: ChangeEvent | null): boolean | undefined
  /**
   * Whether the page holds the character at the version a stream starts from (its `ready` event's
   * tag): then it missed nothing before the stream opened, and does not read again. Without it,
   * the page reads once each time the stream opens.
   */
  holds?(tag: string): boolean
  /** Which changes call for a re-read (default: every one); a page about builds skips completions. */
  wants?(what: string): boolean
  /**
   * How long after the first event of a burst the page reads again (default COALESCE_MS): every
   * event within that window joins the one read, and the window is not moved on by later events,
   * so a steady stream of them still gets a read per window.
   */
  coalesceMs?: number
}

/** Follows the character's event stream, polling while it is down; returns a function that stops everything. */
export function followCharacter(target: LiveTarget): () => void {
  return followStream(api.eventsUrl(target.characterId), target)
}

/** What a group's page hands its stream: as a character's, and what to do when the caller is out. */
export interface GroupLiveTarget extends Omit<LiveTarget, 'characterId' | 'wants' | 'onChange' | 'holds' | 'refresh'> {
  groupId: number
  /**
   * Re-reads what the page shows; `removed` when its read found the caller no longer a member (a
   * page that says so itself answers nothing).
   */
  refresh(): Promise<'removed' | undefined> | Promise<void> | void
  /** The caller is no longer a member (removed, or the group deleted): the stream has ended. */
  onRemoved(): void
}

/**
 * Follows a group's event stream: a shared character's change or the group's own (`group`: its
 * members or shares) re-reads; `removed` ends it and tells the page. A member removed before the
 * stream opened gets no `removed` (the stream is refused, 404): the page's next read, a poll
 * while the stream is down, finds it out and ends it the same way.
 */
export function followGroup(target: GroupLiveTarget): () => void {
  let out = false
  const removed = () => {
    if (out) return
    out = true
    stop()
    target.onRemoved()
  }
  const stop = followStream(api.groupEventsUrl(target.groupId), {
    ...target,
    refresh: async () => {
      if ((await target.refresh()) === 'removed') removed()
    },
    onRemoved: removed,
  })
  return stop
}

function followStream(url: string, target: Omit<LiveTarget, 'characterId'> & { onRemoved?: () => void }): () => void {
  let source: EventSource | null = null
  let poll: ReturnType<typeof setInterval> | undefined
  let reconnect: ReturnType<typeof setTimeout> | undefined
  let coalesce: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const refresh = () => void target.refresh()
  const refreshSoon = () => {
    coalesce ??= setTimeout(() => {
      coalesce = undefined
      refresh()
    }, target.coalesceMs ?? COALESCE_MS)
  }

  const startPolling = () => {
    target.liveMode.value = 'polling'
    poll ??= setInterval(refresh, POLL_MS)
  }
  const stopPolling = () => {
    clearInterval(poll)
    poll = undefined
  }

  const open = () => {
    if (stopped) return
    target.liveMode.value = 'connecting'
    const es = new EventSource(url)
    source = es
    es.addEventListener('open', () => {
      target.liveMode.value = 'push'
      stopPolling()
      // Whatever changed before the stream was open (since the page's read, or while it was
      // down) was never pushed: one read, by ETag, so a page that missed nothing gets a 304; or,
      // for a page that can tell, none when the stream's `ready` names the version it holds.
      if (!target.holds) refresh()
    })
    es.addEventListener('ready', (event) => {
      if (!target.holds) return
      let tag: unknown = null
      try {
        const data: unknown = JSON.parse((event as MessageEvent<string>).data)
        if (typeof data === 'object' && data !== null && 'tag' in data) tag = data.tag
      } catch {
        // Unreadable: read again, as without it.
      }
      if (typeof tag !== 'string' || !target.holds(tag)) refresh()
    })
    es.addEventListener('change', (event) => {
      let what = ''
      let change: ChangeEvent | null = null
      try {
        const data: unknown = JSON.parse((event as MessageEvent<string>).data)
        if (typeof data === 'object' && data !== null && 'what' in data && typeof data.what === 'string') {
          what = data.what
          change = data as ChangeEvent
        }
      } catch {
        // An unreadable event still means something changed.
      }
      if (target.onChange?.(what, change) === true) return
      if (target.wants && what !== '' && !target.wants(what)) return
      refreshSoon()
    })
    es.addEventListener('group', refreshSoon)
    es.addEventListener('removed', () => {
      stopped = true
      es.close()
      source = null
      stopPolling()
      target.liveMode.value = 'off'
      target.onRemoved?.()
    })
    es.addEventListener('error', () => {
      if (stopped) return
      startPolling()
      // CLOSED: the browser gives up (the server answered with an error); CONNECTING: it retries itself.
      if (es.readyState === EventSource.CLOSED) {
        es.close()
        source = null
        reconnect = setTimeout(open, RECONNECT_MS)
      }
    })
  }

  open()
  return () => {
    stopped = true
    source?.close()
    stopPolling()
    clearTimeout(reconnect)
    clearTimeout(coalesce)
    coalesce = undefined
    target.liveMode.value = 'off'
  }
}
