// Numbers and dates as people read them, in the browser's locale.
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const weekdayTime = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' })

export const formatNumber = (n: number | null | undefined) => (n === null || n === undefined ? '—' : integer.format(n))

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return 'never'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date)
}

/**
 * A time within the coming week, as a player plans an evening by it: "Tue 9:10 PM" (the
 * browser's locale and time zone). A date further off gets its date.
 */
export function formatSoon(iso: string, now = Date.now()): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.getTime() - now < 6 * 86_400_000 ? weekdayTime.format(date) : dateTime.format(date)
}

/** A patron's name; the catalog's rows with no patron are grouped under ''. */
export const patronLabel = (patron: string) => patron || '(no patron)'

/** A run's length: "14 min", or "1 h 05 min" from an hour; "45 s" under a minute. */
export function minutes(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`
  const total = Math.round(seconds / 60)
  if (total < 60) return `${total} min`
  return `${Math.floor(total / 60)} h ${String(total % 60).padStart(2, '0')} min`
}

/** How long ago, roughly: "just now", "12 min ago", "3 h ago", "2 days ago". */
export function formatAge(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 60_000)
  if (total < 1) return 'just now'
  if (total < 60) return `${total} min ago`
  const hours = Math.floor(total / 60)
  if (hours < 24) return `${hours} h ago`
  const days = Math.floor(hours / 24)
  return days === 1 ? '1 day ago' : `${days} days ago`
}
