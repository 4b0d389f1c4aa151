// A catalog row as the tracker holds it: the row the rules read, its times, a key per remake and
// the text the search looks in. Apart from model.ts, which the tallies (tally.ts) it uses read too.
import { searchText, type TrackerRow } from '../../rules/quests/tracker'
import type { QuestRow } from '../api'

export interface Row extends TrackerRow {
  /** This server's measured runs per setting (catalog `times`). */
  times: QuestRow['times']
  /** Unique per remake: name and tier. */
  key: string
  /** Folded name, pack and patron for the search (rules/quests/tracker.ts searchText). */
  text: string
}

export const rowKey = (row: Pick<TrackerRow, 'name' | 'difficulty'>) => `${row.difficulty}\u0000${row.name}`

/** The rows of the catalog; each row's search text is folded when a search first reads it, not on the first load. */
export function toRows(quests: readonly QuestRow[]): Row[] {
  return quests.map((q) => {
    let text: string | undefined
    return {
      ...q,
      key: rowKey(q),
      get text() {
        text ??= searchText(q)
        return text
      },
    }
  })
}
