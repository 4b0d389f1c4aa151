// The tracker's "Needed by others" marks read the group's needs again at most once per
// NEEDED_IN_REFRESH_MS (issue 39, item 7): every event of the group's stream (any member's
// completion, any share) made every open tracker of the group read them 100 ms later. Run on the
// page's own code (src/web/live.ts, src/web/tracker/NeededIn.tsx) with a stand-in EventSource and
// Bun's fake timers.
import { describe, expect, jest, test } from 'bun:test'
import { signal } from '@preact/signals'
import type { LiveMode } from '../../../src/web/live'
import { followNeeds, NEEDED_IN_REFRESH_MS } from '../../../src/web/tracker/NeededIn'
import { FakeEventSource, useFakeEventSource } from '../fakeEventSource'

useFakeEventSource()

function follow() {
  let reads = 0
  const stop = followNeeds({
    groupId: 7,
    liveMode: signal<LiveMode>('off'),
    refresh: () => {
      reads++
    },
    onRemoved: () => {},
  })
  const stream = FakeEventSource.opened[0] as FakeEventSource
  return { stream, reads: () => reads, stop }
}

describe("the tracker's needs marks follow the group's stream", () => {
  test('a change every half second is one read per window, not one read each', () => {
    expect(NEEDED_IN_REFRESH_MS).toBeGreaterThanOrEqual(1000)
    const { stream, reads, stop } = follow()
    expect(stream.url).toBe('/api/groups/7/events')
    // The stream opens: one read at once (whatever changed before it was open).
    stream.emit('open')
    expect(reads()).toBe(1)
    // Members' completions and a share, every 500 ms for 4 s.
    for (let t = 0; t < 4000; t += 500) {
      stream.emit(t === 1500 ? 'group' : 'change', { characterId: t, what: 'completions' })
      jest.advanceTimersByTime(500)
    }
    // One read per window since the first change: at 2 s and at 4 s (100 ms each, before: 8).
    expect(reads()).toBe(1 + Math.ceil(4000 / NEEDED_IN_REFRESH_MS))
    // Quiet: nothing more; one change is read once, a window after it.
    jest.advanceTimersByTime(10_000)
    const before = reads()
    stream.emit('change', { characterId: 1, what: 'completions' })
    jest.advanceTimersByTime(NEEDED_IN_REFRESH_MS - 1)
    expect(reads()).toBe(before)
    jest.advanceTimersByTime(1)
    expect(reads()).toBe(before + 1)
    // Stopped: a pending read never comes.
    stream.emit('change', { characterId: 1, what: 'completions' })
    stop()
    jest.advanceTimersByTime(NEEDED_IN_REFRESH_MS)
    expect(reads()).toBe(before + 1)
  })
})
