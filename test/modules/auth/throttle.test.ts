import { describe, expect, test } from 'bun:test'
import { ServiceUnavailable, TooManyRequests } from '../../../src/http/errors'
import {
  HashingBound,
  MAX_HASHING,
  MAX_HASHING_QUEUED,
  MAX_IN_FLIGHT_PER_ADDRESS,
  MAX_IN_FLIGHT_PER_NAME,
} from '../../../src/modules/auth/loginGuard'
import { FIRST_LOCK_MS, LoginThrottle, MAX_FAILURES, MAX_LOCK_MS } from '../../../src/modules/auth/throttle'
import { FakeClock } from '../../helpers'

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
  const TRACKED = 10_000 // the number docs/api.md states

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

describe('HashingBound', () => {
  /** Enters each [name, address] in order; `started` lists the names whose check has begun. */
  async function queue(entries: [string, string][]) {
    const bound = new HashingBound()
    const started: string[] = []
    const releases = new Map<string, () => void>()
    for (const [name, address] of entries) {
      void bound.enter(name, address).then((release) => {
        started.push(name)
        releases.set(name, release)
      })
    }
    await Bun.sleep(0)
    const release = async (name: string) => {
      releases.get(name)?.()
      await Bun.sleep(0)
    }
    return { bound, started, release }
  }

  test('a free check goes to the address with the fewest running, then to the one served longest ago', async () => {
    const flood = Array.from({ length: 8 }, (_, i): [string, string] => [`flood${i}`, 'X'])
    const { started, release } = await queue([...flood, ['other0', 'Y0'], ['other1', 'Y1'], ['bob', 'Z']])
    expect(started).toEqual(['flood0', 'flood1'])
    for (const name of ['flood0', 'flood1', 'other0', 'other1', 'bob']) await release(name)
    // First come, first served would have run flood2 to flood7 before anyone else.
    expect(started).toEqual(['flood0', 'flood1', 'other0', 'other1', 'bob', 'flood2', 'flood3'])
  })

  test('one name is checked at a time, in the order its logins came', async () => {
    const { started, release } = await queue([
      ['Alice', 'X'],
      ['alice', 'Y'],
      ['bob', 'Z'],
    ])
    expect(started).toEqual(['Alice', 'bob'])
    await release('Alice')
    expect(started).toEqual(['Alice', 'bob', 'alice'])
  })

  test(`a name or an address holds at most ${MAX_IN_FLIGHT_PER_NAME} places (429); the queue's end is 503`, async () => {
    const { bound } = await queue([
      ...Array.from({ length: MAX_IN_FLIGHT_PER_NAME }, (_, i): [string, string] => ['alice', `A${i}`]),
      ...Array.from({ length: MAX_IN_FLIGHT_PER_ADDRESS }, (_, i): [string, string] => [`name${i}`, 'X']),
    ])
    expect(() => bound.enter('ALICE ', 'B')).toThrow(TooManyRequests)
    expect(() => bound.enter('someone', 'X')).toThrow(TooManyRequests)
    // 2 running and 14 waiting so far: two more places, then the queue is full for everyone.
    expect(MAX_HASHING + MAX_HASHING_QUEUED).toBe(MAX_IN_FLIGHT_PER_NAME + MAX_IN_FLIGHT_PER_ADDRESS + 2)
    void bound.enter('carol', 'C')
    void bound.enter('dave', 'D')
    expect(() => bound.enter('erin', 'E')).toThrow(ServiceUnavailable)
  })
})
