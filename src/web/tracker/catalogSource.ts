// The sentence under the quest list that says where the quests come from, for the player who
// looks for a quest that is not there: "Quest list: 812 quests from DDO Audit, synced today; the
// DDO wiki refused this server." Pure, from the health check's `catalog` and the time now.
import type { CatalogSource } from '../api'

const DAY_MS = 86_400_000
const shortDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** "today", "yesterday", "3 days ago", or the date from a week back. */
export function whenSynced(iso: string, now: number): string {
  const then = new Date(iso)
  const days = Math.floor((startOfDay(now) - startOfDay(then.getTime())) / DAY_MS)
  if (days <= 0) return 'today'
  if (days === 1) return 'yesterday'
  if (days < 7) return `${days} days ago`
  return `on ${shortDate.format(then)}`
}

const startOfDay = (ms: number) => {
  const day = new Date(ms)
  day.setHours(0, 0, 0, 0)
  return day.getTime()
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** What went wrong with the sources tried since the catalog last changed, in a few words each. */
function refusals(source: CatalogSource): string[] {
  const since = source.syncedAt ?? ''
  return source.attempts
    .filter((attempt) => attempt.outcome !== 'ok' && attempt.at >= since)
    .map((attempt) =>
      attempt.outcome === 'challenge'
        ? `${attempt.source} refused this server`
        : `${attempt.source} could not be read (${attempt.detail})`,
    )
}

export function catalogSentence(source: CatalogSource, now: number): string {
  const quests = `${source.rows.toLocaleString()} ${source.rows === 1 ? 'quest' : 'quests'}`
  const head =
    source.origin === 'none'
      ? 'Quest list: empty, until the server fills it'
      : source.origin === 'snapshot'
        ? `Quest list: ${quests} from ${source.source}'s list of ${shortDate.format(new Date(source.asOf ?? 0))}, as shipped with Quest Tracker; not synced yet`
        : `Quest list: ${quests} from ${source.source}, synced ${whenSynced(source.syncedAt ?? '', now)}`
  return `${[head, ...refusals(source)].join('; ')}.`.replace(/^(Quest list: )(.)/, (_, a, b) => a + capitalized(b))
}
