// Client timestamps: the word `now` or an ISO 8601 date-time, stored as UTC ISO text so that
// stored timestamps sort correctly whatever offset the client sent.

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/** Whether the YYYY-MM-DD at the start of `text` is a day of the calendar (no 30 February). */
function realDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number]
  const probe = new Date(0)
  probe.setUTCFullYear(year, month - 1, day)
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day
}

/** The timestamp as UTC ISO text, or null when it is not ISO 8601 (or not a real date). */
export function parseTimestamp(value: string): string | null {
  const text = value.trim()
  // Date.parse rolls an impossible day over (30 February is 2 March): refuse it instead.
  if (!ISO_8601.test(text) || !realDay(text)) return null
  const ms = Date.parse(text.replace(',', '.').replace(' ', 'T'))
  if (!Number.isFinite(ms)) return null
  return new Date(ms).toISOString()
}

/** `now` (any case) gives `nowIso`; otherwise as parseTimestamp. */
export function parseTimestampOrNow(value: string, nowIso: string): string | null {
  return value.trim().toLowerCase() === 'now' ? nowIso : parseTimestamp(value)
}
