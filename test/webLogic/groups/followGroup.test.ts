// A group's pages follow its event stream (src/web/live.ts followGroup). A member removed after
// the page read the group but before its stream opened is never sent `removed`: the server
// refuses the stream (404) and the page polls. The poll's read finds the member out, and the
// page ends its stream and says so, as a `removed` event would have; it reads nothing more.
// Run on the page's own code with a stand-in EventSource and Bun's fake timers.
import { describe, expect, jest, test } from 'bun:test'
import { signal } from '@preact/signals'
import { followGroup, type LiveMode, POLL_MS } from '../../../src/web/live'
import { FakeEventSource, useFakeEventSource } from '../fakeEventSource'

useFakeEventSource()

/** Lets the page's awaited reads settle (they resolve at once here). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

function follow(answers: ('removed' | undefined)[]) {
  let reads = 0
  let removed = 0
  const liveMode = signal<LiveMode>('off')
  const stop = followGroup({
    groupId: 7,
    liveMode,
    refresh: async () => answers[reads++],
    onRemoved: () => {
      removed++
    },
  })
  return { liveMode, stop, reads: () => reads, removed: () => removed }
}

describe("a group's page and its stream", () => {
  test('refused (the member removed before it opened): the next poll finds it out, and the page stops', async () => {
    const page = follow([undefined, 'removed'])
    const stream = FakeEventSource.opened[0] as FakeEventSource
    expect(stream.url).toBe('/api/groups/7/events')
    stream.refused()
    expect(page.liveMode.value).toBe('polling')
    jest.advanceTimersByTime(POLL_MS)
    await settle()
    expect([page.reads(), page.removed()]).toEqual([1, 0])
    jest.advanceTimersByTime(POLL_MS)
    await settle()
    expect([page.reads(), page.removed()]).toEqual([2, 1])
    expect(page.liveMode.value).toBe('off')
    // No more polls, and no stream opened again (the page would try after 15 s).
    jest.advanceTimersByTime(60_000)
    await settle()
    expect([page.reads(), page.removed(), FakeEventSource.opened.length]).toEqual([2, 1, 1])
  })

  test('`removed` on an open stream ends it once; a read that says so after it changes nothing', async () => {
    const page = follow(['removed'])
    const stream = FakeEventSource.opened[0] as FakeEventSource
    stream.emit('open')
    await settle()
    // The read on opening already found the member out.
    expect([page.reads(), page.removed()]).toEqual([1, 1])
    expect(stream.readyState).toBe(FakeEventSource.CLOSED)
    stream.emit('removed', { groupId: 7 })
    expect(page.removed()).toBe(1)
  })

  test('a member still in: the page keeps polling while the stream is down', async () => {
    const page = follow([])
    ;(FakeEventSource.opened[0] as FakeEventSource).refused()
    jest.advanceTimersByTime(3 * POLL_MS)
    await settle()
    expect([page.reads(), page.removed()]).toEqual([3, 0])
    page.stop()
  })
})
