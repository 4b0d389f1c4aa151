import { describe, expect, test } from 'bun:test'
import { addressKey, clientAddress, isHttps, type PeerSource, trustedProxyList } from '../../src/http/address'
import { ADDRESS_BURST, ADDRESS_REFILL_MS, AddressLimiter, MAX_ADDRESSES } from '../../src/modules/auth/throttle'
import { FakeClock } from '../helpers'

const peer = (address: string | null): PeerSource => ({
  requestIP: () => (address === null ? null : { address }),
})
const request = (forwardedFor?: string) =>
  new Request('http://localhost/', { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} })

describe('clientAddress', () => {
  const none = trustedProxyList([])
  const proxies = trustedProxyList(['10.0.0.0/8', '::1'])

  test('is the socket peer, and X-Forwarded-For is ignored unless the peer is a trusted proxy', () => {
    expect(clientAddress(request('203.0.113.7'), peer('192.168.1.20'), none)).toBe('192.168.1.20')
    expect(clientAddress(request('203.0.113.7'), peer('192.168.1.20'), proxies)).toBe('192.168.1.20')
    expect(clientAddress(request(), peer('::ffff:192.168.1.20'), none)).toBe('192.168.1.20')
  })

  test('is undefined without a socket (in-process requests)', () => {
    expect(clientAddress(request('203.0.113.7'), null, proxies)).toBeUndefined()
    expect(clientAddress(request('203.0.113.7'), peer(null), proxies)).toBeUndefined()
  })

  test.each([
    ['203.0.113.7', '10.1.2.3', '203.0.113.7'],
    ['192.0.2.1, 203.0.113.7', '10.1.2.3', '203.0.113.7'],
    ['203.0.113.7, 10.9.9.9', '10.1.2.3', '203.0.113.7'],
    ['203.0.113.7', '::1', '203.0.113.7'],
    ['203.0.113.7', '::ffff:10.0.0.5', '203.0.113.7'],
    ['not an address, 10.9.9.9', '10.1.2.3', '10.1.2.3'],
    ['10.9.9.9', '10.1.2.3', '10.1.2.3'],
    [undefined, '10.1.2.3', '10.1.2.3'],
  ])('behind trusted proxies, X-Forwarded-For %p from %s is %s', (header, socket, expected) => {
    expect(clientAddress(request(header), peer(socket), proxies)).toBe(expected)
  })
})

describe('isHttps', () => {
  const proxies = trustedProxyList(['10.0.0.0/8', '::1'])
  const forwarded = (proto?: string, url = 'http://tracker.example/') =>
    new Request(url, { headers: proto === undefined ? {} : { 'x-forwarded-proto': proto } })

  test("is the request's own scheme without a proxy", () => {
    expect(isHttps(forwarded(undefined, 'https://tracker.example/'), null, proxies)).toBe(true)
    expect(isHttps(forwarded(), null, proxies)).toBe(false)
    expect(isHttps(forwarded(), peer('10.1.2.3'), proxies)).toBe(false)
  })

  test.each([
    ['https', '10.1.2.3', true],
    ['HTTPS', '::1', true],
    ['https', '::ffff:10.0.0.5', true],
    ['http, https', '10.1.2.3', true],
    ['https, http', '10.1.2.3', false],
    ['http', '10.1.2.3', false],
    ['', '10.1.2.3', false],
    ['https', '192.168.1.20', false],
    ['https', '::ffff:192.168.1.20', false],
  ])('X-Forwarded-Proto %p from %s: %p', (proto, socket, expected) => {
    expect(isHttps(forwarded(proto), peer(socket), proxies)).toBe(expected)
  })

  test('without a socket (in-process requests) the header is never believed', () => {
    expect(isHttps(forwarded('https'), null, proxies)).toBe(false)
    expect(isHttps(forwarded('https'), peer(null), proxies)).toBe(false)
    expect(isHttps(forwarded('https'), peer('10.1.2.3'), trustedProxyList([]))).toBe(false)
  })
})

describe('addressKey', () => {
  test.each([
    ['192.168.1.20', '192.168.1.20'],
    ['::ffff:192.168.1.20', '192.168.1.20'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'no address'],
  ])('%p counts as %p', (address, key) => {
    expect(addressKey(address)).toBe(key)
  })
})

describe('AddressLimiter', () => {
  test(`${ADDRESS_BURST} failures, then one more every ${ADDRESS_REFILL_MS / 1000} s`, () => {
    const clock = new FakeClock()
    const limiter = new AddressLimiter(clock)
    for (let i = 0; i < ADDRESS_BURST; i++) {
      expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0)
      limiter.take('10.0.0.1')
    }
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(ADDRESS_REFILL_MS / 1000)
    expect(limiter.retryAfterSeconds('10.0.0.2')).toBe(0)
    clock.advance(ADDRESS_REFILL_MS / 2)
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(ADDRESS_REFILL_MS / 2000)
    clock.advance(ADDRESS_REFILL_MS / 2)
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0)
  })

  test('a refund gives back one attempt, and a full allowance is forgotten', () => {
    const limiter = new AddressLimiter(new FakeClock())
    for (let i = 0; i < ADDRESS_BURST; i++) limiter.take('10.0.0.1')
    limiter.refund('10.0.0.1')
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0)
    limiter.take('10.0.0.1')
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBeGreaterThan(0)
    limiter.take('10.0.0.2')
    limiter.refund('10.0.0.2')
    expect(limiter.size).toBe(1)
  })

  test('a full table pushes out addresses that may still try, never a refused one', () => {
    const limiter = new AddressLimiter(new FakeClock())
    for (let i = 0; i < ADDRESS_BURST; i++) limiter.take('10.0.0.1')
    for (let i = 0; i < MAX_ADDRESSES; i++) limiter.take(`flood ${i}`)
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBeGreaterThan(0)
    expect(limiter.size).toBe(MAX_ADDRESSES)
  })
})
