// The tracker's write queue (src/web/tracker/writes.ts): writes leave one after another, in the
// order they were made, so the server stores a filter set and set back, or a tick then an untick,
// as the player made them. Two in flight together could be stored the other way round (found in
// the browser tests: a version filter set to "no" and back to "any" stayed "no" in Firefox).
import { describe, expect, test } from 'bun:test'
import { writeQueue } from '../../src/web/tracker/writes'

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A queue over a server whose state is a string, recording what the page took and what failed. */
function queueOver(read: () => Promise<string>) {
  const taken: string[] = []
  const failures: unknown[] = []
  const queue = writeQueue({
    read,
    take: (state) => taken.push(state),
    failed: (error) => failures.push(error),
    succeeded() {},
  })
  return { queue, taken, failures }
}

describe('the tracker write queue', () => {
  test('a write is sent only when the one before it has its answer, in the order made', async () => {
    const { queue } = queueOver(async () => 'read')
    const answers = [Promise.withResolvers<string>(), Promise.withResolvers<string>(), Promise.withResolvers<string>()]
    const started: number[] = []
    const writes = answers.map((answer, i) =>
      queue.write(() => {
        started.push(i)
        return answer.promise
      }),
    )
    await settle()
    expect(started).toEqual([0])
    answers[0]?.resolve('a')
    await settle()
    expect(started).toEqual([0, 1])
    answers[1]?.resolve('b')
    await settle()
    expect(started).toEqual([0, 1, 2])
    answers[2]?.resolve('c')
    await Promise.all(writes)
    expect(started).toEqual([0, 1, 2])
  })

  test('a refused write is reported and the next is still sent; one read follows the last', async () => {
    let reads = 0
    const { queue, taken, failures } = queueOver(async () => `read ${++reads}`)
    const first = Promise.withResolvers<string>()
    const started: string[] = []
    const refused = queue.write(() => {
      started.push('first')
      return first.promise
    })
    const next = queue.write(async () => {
      started.push('next')
      return 'ok'
    })
    await settle()
    expect(started).toEqual(['first'])
    first.reject(new Error('The server refused it.'))
    await Promise.all([refused, next])
    await settle()
    expect(started).toEqual(['first', 'next'])
    expect(failures).toEqual([new Error('The server refused it.')])
    expect(reads).toBe(1)
    expect(taken).toEqual(['read 1'])
  })

  test("only the last write's answer is applied: an earlier one is older than what waits behind it", async () => {
    const { queue } = queueOver(async () => 'read')
    const applied: string[] = []
    const first = Promise.withResolvers<string>()
    const writes = [
      queue.write(
        () => first.promise,
        (state) => applied.push(state),
      ),
      queue.write(
        async () => 'heroic any',
        (state) => applied.push(state),
      ),
    ]
    first.resolve('heroic no')
    await Promise.all(writes)
    expect(applied).toEqual(['heroic any'])
  })

  test('a read that answers while a write waits is dropped, and a fresh read follows the write', async () => {
    const reads = [Promise.withResolvers<string>(), Promise.withResolvers<string>()]
    let count = 0
    const { queue, taken } = queueOver(() => {
      const read = reads[count++]
      if (!read) throw new Error('one read too many')
      return read.promise
    })
    const early = queue.refresh()
    const write = Promise.withResolvers<string>()
    const written = queue.write(() => write.promise)
    reads[0]?.resolve('before the write')
    await early
    expect(taken).toEqual([])
    write.resolve('stored')
    await written
    reads[1]?.resolve('after the write')
    await settle()
    expect(taken).toEqual(['after the write'])
    expect(count).toBe(2)
  })
})
