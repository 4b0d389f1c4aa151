// How much a value takes once stored (as JSON text, in bytes), and the 413 sentence for a value
// over its limit. Size caps are checked on what would be stored, not on the request body alone:
// merges and free-form fields would otherwise grow a row without bound, 1 MiB at a time.
import { PayloadTooLarge } from './errors'

/** UTF-8 bytes of the value's JSON text (what SQLite stores and clients download). */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')

/** "64 KiB", rounded up so a value just over a limit never reads as equal to it. */
export const kib = (bytes: number): string => `${Math.ceil(bytes / 1024)} KiB`

/**
 * 413 when `value` takes more than `maxBytes` as JSON. `subject` starts the sentence and names
 * what is measured, e.g. `Body field "xpBoosts"`.
 */
export function assertJsonSize(subject: string, value: unknown, maxBytes: number): void {
  const size = jsonBytes(value)
  if (size > maxBytes) {
    throw new PayloadTooLarge(`${subject} may take at most ${kib(maxBytes)} as JSON; it takes ${kib(size)}.`)
  }
}
