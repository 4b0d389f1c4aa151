// The process's output is written at most every LOG_FLUSH_MS (the lines of many requests in one
// write), in order across stdout and stderr, and at once when flushed (before the process exits).
import { expect, test } from 'bun:test'
import { batchedLines } from '../src/logger'
import { nextTurn } from './helpers'

/** Past the flush (timers fire in the order they are due: a later one after it). */
const afterFlush = (flushAfterMs: number) => Bun.sleep(flushAfterMs + 5)

function recorder(flushAfterMs = 5) {
  const writes: string[] = []
  const output = batchedLines(
    { out: (text) => writes.push(`out:${text}`), err: (text) => writes.push(`err:${text}`) },
    { flushAfterMs },
  )
  return { writes, output }
}

test('lines are written together after the wait, in their order across the two streams', async () => {
  const { writes, output } = recorder()
  output.out('GET /a 200')
  output.out('GET /b 200')
  output.err('refused login')
  output.out('GET /c 401')
  expect(writes).toEqual([])
  await afterFlush(5)
  expect(writes).toEqual(['out:GET /a 200\nGET /b 200', 'err:refused login', 'out:GET /c 401'])
  output.out('later')
  await afterFlush(5)
  expect(writes.at(-1)).toBe('out:later')
  expect(writes).toHaveLength(4)
})

test('the lines of many turns of the event loop within the wait are one write', async () => {
  const { writes, output } = recorder(1000)
  for (let turn = 0; turn < 50; turn++) {
    output.out(`GET /${turn} 304`)
    await nextTurn()
  }
  expect(writes).toEqual([])
  output.flush()
  expect(writes).toHaveLength(1)
  expect(writes[0]?.split('\n')).toHaveLength(50)
})

test('flush writes what is waiting at once, and nothing twice', async () => {
  const { writes, output } = recorder()
  output.err('shutting down')
  output.flush()
  expect(writes).toEqual(['err:shutting down'])
  await nextTurn()
  output.flush()
  expect(writes).toEqual(['err:shutting down'])
})
