import { describe, expect, test } from 'bun:test'
import { FIRST_LOCK_MS, LoginThrottle, MAX_FAILURES, MAX_LOCK_MS } from '../src/modules/auth/throttle'
import { FakeClock } from './helpers'

describe('LoginThrottle', () => {
  test('locks after MAX_FAILURES, doubling up to the cap', () => {
    const clock = new FakeClock()
    const throttle = new LoginThrottle(clock)
    const expected = [FIRST_LOCK_MS, 2 * FIRST_LOCK_MS, 4 * FIRST_LOCK_MS, 8 * FIRST_LOCK_MS, MAX_LOCK_MS, MAX_LOCK_MS]
    for (const lock of expected) {
      for (let i = 0; i < MAX_FAILURES - 1; i++) throttle.fail('x')
      expect(throttle.retryAfterSeconds('x')).toBe(0)
      throttle.fail('x')
      expect(throttle.retryAfterSeconds('x')).toBe(lock / 1000)
      clock.advance(lock)
      expect(throttle.retryAfterSeconds('x')).toBe(0)
    }
  })

  test('forgets an identifier that has been quiet for longer than the longest lock', () => {
    const clock = new FakeClock()
    const throttle = new LoginThrottle(clock)
    for (let i = 0; i < MAX_FAILURES - 1; i++) throttle.fail('x')
    clock.advance(MAX_LOCK_MS + 1)
    throttle.fail('x')
    expect(throttle.retryAfterSeconds('x')).toBe(0)
  })

  test('identifiers are compared without case or surrounding space', () => {
    const throttle = new LoginThrottle(new FakeClock())
    for (let i = 0; i < MAX_FAILURES; i++) throttle.fail(i % 2 ? ' Alice ' : 'alice')
    expect(throttle.retryAfterSeconds('ALICE')).toBeGreaterThan(0)
    throttle.succeed('Alice')
    expect(throttle.retryAfterSeconds('alice')).toBe(0)
  })
})

describe('LoginThrottle memory', () => {
  const TRACKED = 10_000 // the README's number

  test('a full table pushes out unlocked records, never a locked one', () => {
    const throttle = new LoginThrottle(new FakeClock())
    for (let i = 0; i < MAX_FAILURES; i++) throttle.fail('victim')
    for (let i = 0; i < TRACKED; i++) throttle.fail(`flood ${i}`)
    expect(throttle.retryAfterSeconds('victim')).toBe(FIRST_LOCK_MS / 1000)
    expect(throttle.size).toBe(TRACKED)
  })

  test('keeps a fixed-size key per identifier, not the identifier', () => {
    const throttle = new LoginThrottle(new FakeClock())
    Bun.gc(true)
    const before = process.memoryUsage().heapUsed
    // 300 names of 100 kB: kept whole, that would be 30 MB.
    for (let i = 0; i < 300; i++) throttle.fail(`${i}`.padEnd(100_000, 'x'))
    Bun.gc(true)
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3_000_000)
    expect(throttle.retryAfterSeconds(`${7}`.padEnd(100_000, 'X'))).toBe(0) // counted, not locked
  })
})
