// The tracker's model: the catalog as rows, and everything the page shows that is computed from
// the character's progress and the page's own filters by the game rules (src/rules): the rows
// shown, in order, what each has logged, favor, XP and counts. Signals in, computed signals out;
// no network here (the store's write queue is in writes.ts).
import { computed, type ReadonlySignal } from '@preact/signals'
import type { PlayOn } from '../../rules/character/levels'
import type { Setting } from '../../rules/quests/completion'
import { rowFilter, rowsByName, type TrackerFilters, tiersByName } from '../../rules/quests/tracker'
import { rowXp } from '../../rules/quests/xp'
import type { Progress } from '../api'
import type { Row } from './row'
import { nextTally, type RowLog, type Tally } from './tally'

export { type Row, rowKey, toRows } from './row'
export type { RowLog } from './tally'

/** The settings a player ticks (the stored `unknown` is shown, never ticked). */
export const TICK_SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper'] as const satisfies readonly Setting[]
export type TickSetting = (typeof TICK_SETTINGS)[number]

export type SortKey = 'level' | 'name' | 'difficulty' | 'favor' | 'xp' | 'pack' | 'patron'
export interface Sort {
  key: SortKey
  descending: boolean
}

const NO_LOG: RowLog = { own: new Set(), viaUnknown: new Set(), skulls: null }
const TIER_ORDER = ['Heroic', 'Epic', 'Legendary', 'Unknown']

function compareRows(a: Row, b: Row, sort: Sort, playOn: PlayOn): number {
  const by = (): number => {
    switch (sort.key) {
      case 'name':
        return a.name.localeCompare(b.name)
      case 'difficulty':
        return TIER_ORDER.indexOf(a.difficulty) - TIER_ORDER.indexOf(b.difficulty)
      case 'favor':
        return (a.favor ?? -1) - (b.favor ?? -1)
      case 'xp':
        return (rowXp(a, playOn) ?? -1) - (rowXp(b, playOn) ?? -1)
      case 'pack':
        return a.pack.localeCompare(b.pack)
      case 'patron':
        return a.patron.localeCompare(b.patron)
      default:
        return a.level - b.level
    }
  }
  const primary = by()
  if (primary !== 0) return sort.descending ? -primary : primary
  // Ties: by level, then name, then tier, always ascending, so the order is stable and readable.
  return (
    a.level - b.level ||
    a.name.localeCompare(b.name) ||
    TIER_ORDER.indexOf(a.difficulty) - TIER_ORDER.indexOf(b.difficulty)
  )
}

/** What the model is computed from: the rows, the progress, and the page's own choices. */
export interface ModelInputs {
  rows: ReadonlySignal<Row[]>
  progress: ReadonlySignal<Progress>
  search: ReadonlySignal<string>
  hideCompleted: ReadonlySignal<boolean>
  sort: ReadonlySignal<Sort>
}

export type TrackerModel = ReturnType<typeof trackerModel>

export function trackerModel({ rows, progress, search, hideCompleted, sort }: ModelInputs) {
  const byName = computed(() => rowsByName(rows.value))
  const tiers = computed(() => tiersByName(rows.value))
  /**
   * The completions counted (tally.ts): a change is followed from the tally before, so what a
   * tick costs does not grow with the history. The selections below change only when their part did.
   */
  let last: Tally | null = null
  const tally = computed(() => {
    const p = progress.value
    last = nextTally(last, {
      rows: rows.value,
      byName: byName.value,
      completions: p.completions,
      xpBoosts: p.xpBoosts,
      optionalPursuit: p.optionalPursuit,
    })
    return last
  })
  const index = computed(() => tally.value.index)
  const playOn = computed(() => progress.value.targetDifficulty as PlayOn)

  const filters = computed<TrackerFilters>(() => {
    const p = progress.value
    return {
      levelBand: p.levelBand,
      minLevel: p.minLevel,
      versionFilter: p.versionFilter,
      excludedPatrons: p.excludedPatrons,
      packState: p.packState,
      search: search.value,
      hideCompleted: hideCompleted.value,
      playOn: p.targetDifficulty as PlayOn,
    }
  })

  const sorted = computed(() => {
    const s = sort.value
    const on = playOn.value
    return [...rows.value].sort((a, b) => compareRows(a, b, s, on))
  })

  const visible = computed(() => {
    const keep = rowFilter(filters.value, index.value, tiers.value, (row) => (row as Row).text)
    return sorted.value.filter(keep)
  })

  /**
   * Per remake: which settings are ticked (own tier) and which come from an Unknown-tier completion.
   * A remake whose ticks did not change keeps its RowLog object, so its row (which re-renders only
   * when its props change) is left alone: a tick re-renders one row, not every row of a long history.
   */
  const logs = computed(() => tally.value.logs)

  const logOf = (row: Row): RowLog => logs.value.get(row.key) ?? NO_LOG

  const favor = computed(() => tally.value.favor)
  const xp = computed(() => tally.value.xp)
  const counts = computed(() => {
    // A remake with a log is a completed one (isCompleted): a look-up, not a search of its completions.
    const done = logs.value
    const shown = visible.value
    return { shown: shown.length, done: shown.filter((r) => done.has(r.key)).length, total: rows.value.length }
  })
  const patrons = computed(() => [...new Set(rows.value.map((r) => r.patron))].sort((a, b) => a.localeCompare(b)))
  const packs = computed(() => [...new Set(rows.value.map((r) => r.pack))].sort((a, b) => a.localeCompare(b)))

  return { tally, index, playOn, visible, logs, logOf, favor, xp, counts, patrons, packs }
}
