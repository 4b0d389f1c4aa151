// The process's output is written once per turn of the event loop, in order across stdout and
// stderr, and at once when flushed (before the process exits).
import { expect, test } from 'bun:test'
import { batchedLines } from '../src/logger'

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

function recorder() {
  const writes: string[] = []
  const output = batchedLines({ out: (text) => writes.push(`out:${text}`), err: (text) => writes.push(`err:${text}`) })
  return { writes, output }
}

test('lines of one turn are written together after it, in their order across the two streams', async () => {
  const { writes, output } = recorder()
  output.out('GET /a 200')
  output.out('GET /b 200')
  output.err('refused login')
  output.out('GET /c 401')
  expect(writes).toEqual([])
  await nextTurn()
  expect(writes).toEqual(['out:GET /a 200\nGET /b 200', 'err:refused login', 'out:GET /c 401'])
  output.out('later')
  await nextTurn()
  expect(writes.at(-1)).toBe('out:later')
  expect(writes).toHaveLength(4)
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
