// Table tests of client timestamp parsing ("now" or ISO 8601, stored as UTC).
import { expect, test } from 'bun:test'
import { parseTimestamp, parseTimestampOrNow } from '../../src/rules/timestamp'

const NOW = '2026-11-21T12:00:00.000Z'

test.each([
  ['2026-11-20T10:00:00Z', '2026-11-20T10:00:00.000Z'],
  ['2026-11-20T10:00:00.123Z', '2026-11-20T10:00:00.123Z'],
  ['2026-11-20T10:00:00+02:00', '2026-11-20T08:00:00.000Z'],
  ['2026-11-20T10:00-0500', '2026-11-20T15:00:00.000Z'],
  ['2026-11-20 10:00:00Z', '2026-11-20T10:00:00.000Z'],
  ['2026-11-20', '2026-11-20T00:00:00.000Z'],
  ['yesterday', null],
  ['', null],
  ['2026-13-45T10:00:00Z', null],
  ['2026-02-30T10:00:00Z', null],
  ['2026-04-31', null],
  ['2028-02-29', '2028-02-29T00:00:00.000Z'],
  ['1700000000', null],
])('parseTimestamp(%p) -> %p', (input, expected) => {
  expect(parseTimestamp(input)).toBe(expected)
})

test.each([
  ['now', NOW],
  ['NOW', NOW],
  [' now ', NOW],
  ['2026-11-20T10:00:00Z', '2026-11-20T10:00:00.000Z'],
  ['later', null],
])('parseTimestampOrNow(%p) -> %p', (input, expected) => {
  expect(parseTimestampOrNow(input, NOW)).toBe(expected)
})
