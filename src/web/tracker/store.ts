// The tracker's state, in one place: the catalog, the character's progress, the local filters
// (search, hide completed, sort) and everything derived from them, as signals. Changes to the
// saved filters are applied at once and then PUT (partial), so the page never waits on the
// network; completions are logged or deleted the same way. The read-only share view uses the
// same store with `save` off: its filters change only the view.
import { batch, computed, signal } from '@preact/signals'
import type { Setting } from '../../rules/completion'
import { favorTotals } from '../../rules/favor'
import { minLevel, type PlayOn } from '../../rules/levels'
import {
  completionsFor,
  indexCompletions,
  isCompleted,
  rowFilter,
  rowsByName,
  type TrackerFilters,
  type TrackerRow,
  tiersByName,
  type VersionFlag,
  type VersionTier,
} from '../../rules/tracker'
import { rowXp, xpTotal } from '../../rules/xp'
import {
  api,
  type Character,
  type Completion,
  errorMessage,
  type Progress,
  type ProgressPatch,
  type QuestRow,
} from '../api'
import type { LiveMode } from '../live'
import { rememberedFlag } from '../remembered'

/** The settings a player ticks (the stored `unknown` is shown, never ticked). */
export const TICK_SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper'] as const satisfies readonly Setting[]
export type TickSetting = (typeof TICK_SETTINGS)[number]

export interface Row extends TrackerRow {
  /** Unique per remake: name and tier. */
  key: string
  /** Lowercased name, pack and patron for the search. */
  text: string
}

export type SortKey = 'level' | 'name' | 'difficulty' | 'favor' | 'xp' | 'pack' | 'patron'
export interface Sort {
  key: SortKey
  descending: boolean
}

/** What each row shows of the logged settings: its own tier's, and those logged with tier Unknown. */
export interface RowLog {
  own: ReadonlySet<Setting>
  viaUnknown: ReadonlySet<Setting>
}

const NO_LOG: RowLog = { own: new Set(), viaUnknown: new Set() }
const TIER_ORDER = ['Heroic', 'Epic', 'Legendary', 'Unknown']

export const rowKey = (row: Pick<TrackerRow, 'name' | 'difficulty'>) => `${row.difficulty}\u0000${row.name}`

export function toRows(quests: readonly QuestRow[]): Row[] {
  return quests.map((q) => ({ ...q, key: rowKey(q), text: `${q.name}\n${q.pack}\n${q.patron}`.toLowerCase() }))
}

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

export interface StoreOptions {
  character: Character
  progress: Progress
  quests: readonly QuestRow[]
  /** false for the share page: nothing is sent to the server. */
  save: boolean
}

export type TrackerStore = ReturnType<typeof createTrackerStore>

export function createTrackerStore(options: StoreOptions) {
  const rows = signal<Row[]>(toRows(options.quests))
  const character = signal<Character>(options.character)
  const progress = signal<Progress>(options.progress)
  const search = signal('')
  /** Kept in this browser per character, like the progress filters are kept per character. */
  const hideCompleted = rememberedFlag(`qt.hideCompleted.${options.character.id}`)
  const sort = signal<Sort>({ key: 'level', descending: false })
  /** The last error sentence of a save, shown in the page's alert region. */
  const error = signal<string | null>(null)
  /** A short polite announcement (saved, live update received). */
  const notice = signal<string | null>(null)
  const live = signal(true)
  const liveMode = signal<LiveMode>('off')
  const characterId = options.character.id

  const byName = computed(() => rowsByName(rows.value))
  const tiers = computed(() => tiersByName(rows.value))
  const index = computed(() => indexCompletions(progress.value.completions))
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

  /** Per remake: which settings are ticked (own tier) and which come from an Unknown-tier completion. */
  const logs = computed(() => {
    const result = new Map<string, RowLog>()
    const idx = index.value
    for (const name of idx.keys()) {
      for (const remake of byName.value.get(name) ?? []) {
        const own = new Set<Setting>()
        const viaUnknown = new Set<Setting>()
        for (const c of completionsFor(remake, idx)) (c.difficulty === 'Unknown' ? viaUnknown : own).add(c.setting)
        if (own.size + viaUnknown.size > 0) result.set(remake.key, { own, viaUnknown })
      }
    }
    return result
  })

  const logOf = (row: Row): RowLog => logs.value.get(row.key) ?? NO_LOG

  const favor = computed(() => favorTotals(rows.value, index.value))
  const xp = computed(() =>
    xpTotal(progress.value.completions, byName.value, progress.value.xpBoosts, progress.value.optionalPursuit),
  )
  const counts = computed(() => {
    const idx = index.value
    const shown = visible.value
    return { shown: shown.length, done: shown.filter((r) => isCompleted(r, idx)).length, total: rows.value.length }
  })
  const patrons = computed(() => [...new Set(rows.value.map((r) => r.patron))].sort((a, b) => a.localeCompare(b)))
  const packs = computed(() => [...new Set(rows.value.map((r) => r.pack))].sort((a, b) => a.localeCompare(b)))

  // Writes in flight. A progress answer that arrives meanwhile may predate them: it is not
  // applied, and one fresh read follows when the last write settles.
  let pending = 0
  let staleRead = false
  let readSeq = 0

  /** Shows what went wrong (a session that ended has already sent the page to sign in: api.ts). */
  function report(e: unknown): void {
    error.value = errorMessage(e)
  }

  async function refresh(): Promise<void> {
    if (!options.save) return
    if (pending > 0) {
      staleRead = true
      return
    }
    const seq = ++readSeq
    try {
      const next = await api.progress(characterId)
      if (seq !== readSeq || pending > 0) return
      const before = progress.value.completions.length
      progress.value = next
      if (next.completions.length > before && next.completions[0]) {
        notice.value = `Logged: ${next.completions[0].name} (${next.completions[0].setting})`
      }
    } catch (e) {
      report(e)
    }
  }

  async function refreshCharacter(): Promise<void> {
    if (!options.save) return
    try {
      character.value = { ...character.value, ...(await api.character(characterId)) }
    } catch {
      // The progress read reports errors; the header keeps what it showed.
    }
  }

  /**
   * Runs a write. With `apply`, the answer (the whole progress) replaces the state when no other
   * write is in flight; without it, one fresh read follows the last write (the server's own
   * spelling and timestamps). A failure shows its sentence and re-reads the server's state.
   */
  async function write<T>(send: () => Promise<T>, apply?: (result: T) => void): Promise<void> {
    pending++
    readSeq++ // a read already in flight predates this write
    try {
      const result = await send()
      if (!apply) staleRead = true
      else if (pending === 1) apply(result)
      error.value = null
    } catch (e) {
      report(e)
      staleRead = true
    } finally {
      pending--
      if (pending === 0 && staleRead) {
        staleRead = false
        void refresh()
      }
    }
  }

  /** Changes saved progress fields: at once on the page, then one partial PUT. */
  function saveProgress(patch: ProgressPatch): void {
    const current = progress.value
    const next: Progress = { ...current, ...(patch as Partial<Progress>) }
    if (patch.targetDifficulty !== undefined) {
      next.minLevel = minLevel(current.characterLevel, patch.targetDifficulty as PlayOn)
      next.character = { ...current.character, targetDifficulty: patch.targetDifficulty }
    }
    progress.value = next
    if (!options.save) return
    void write(
      () => api.putProgress(characterId, patch),
      (answer) => {
        progress.value = answer
      },
    )
  }

  function setVersionFlag(tier: VersionTier, flag: VersionFlag): void {
    saveProgress({ versionFilter: { ...progress.value.versionFilter, [tier]: flag } })
  }

  function setPatronShown(patron: string, shown: boolean): void {
    const rest = progress.value.excludedPatrons.filter((p) => p !== patron)
    saveProgress({ excludedPatrons: shown ? rest : [...rest, patron] })
  }

  function setAllPatrons(shown: boolean): void {
    saveProgress({ excludedPatrons: shown ? [] : [...patrons.value] })
  }

  function setPackShown(pack: string, shown: boolean): void {
    const next = { ...progress.value.packState }
    if (shown) delete next[pack]
    else next[pack] = false
    saveProgress({ packState: next })
  }

  function setAllPacks(shown: boolean): void {
    const next: Record<string, unknown> = {}
    for (const [pack, value] of Object.entries(progress.value.packState)) if (value !== false) next[pack] = value
    if (!shown) for (const pack of packs.value) next[pack] = false
    saveProgress({ packState: next })
  }

  function setBonus(group: 'xpBoosts' | 'optionalPursuit', key: string, value: true | number | null): void {
    const next = { ...progress.value[group] }
    if (value === null || value === 0) delete next[key]
    else next[key] = value
    saveProgress({ [group]: next })
  }

  /**
   * Ticks or unticks a setting of a remake. Ticking logs (name, tier, setting). Unticking
   * removes what made the box ticked: the remake's own completion and one logged with tier
   * Unknown (which also covers the name's other tiers, as domain rule 2 reads it).
   */
  function toggleSetting(row: Row, setting: TickSetting, on: boolean): void {
    if (!options.save) return
    const current = progress.value
    if (on) {
      const added: Completion = {
        name: row.name,
        difficulty: row.difficulty,
        setting,
        completedAt: new Date().toISOString(),
        durationSeconds: null,
        xpEarned: null,
        reaperXpEarned: null,
      }
      progress.value = { ...current, completions: [added, ...current.completions] }
      void write(() => api.logCompletion(characterId, { name: row.name, difficulty: row.difficulty, setting }))
      return
    }
    const removed = current.completions.filter(
      (c) =>
        c.name === row.name && c.setting === setting && (c.difficulty === row.difficulty || c.difficulty === 'Unknown'),
    )
    progress.value = { ...current, completions: current.completions.filter((c) => !removed.includes(c)) }
    for (const difficulty of new Set(removed.map((c) => c.difficulty))) {
      void write(() => api.deleteCompletion(characterId, { name: row.name, difficulty, setting }))
    }
  }

  /** Sharing: `rotate` makes a new link (the old one dies) and turns sharing on; `stop` turns it off. */
  async function setSharing(action: 'rotate' | 'stop'): Promise<void> {
    if (!options.save) return
    try {
      const answer = action === 'rotate' ? await api.share(characterId) : await api.unshare(characterId)
      character.value = { ...character.value, ...answer }
      error.value = null
      notice.value =
        action === 'rotate' ? 'A new read-only link is ready; the old one no longer works.' : 'Sharing is off.'
    } catch (e) {
      report(e)
    }
  }

  /** Replaces the whole view (the share page's poll). */
  function replace(view: { character: Character; progress: Progress }): void {
    batch(() => {
      character.value = view.character
      // Keep the viewer's own filter choices on a read-only page; take the new completions and level.
      progress.value = options.save
        ? view.progress
        : {
            ...progress.value,
            completions: view.progress.completions,
            completedQuests: view.progress.completedQuests,
            characterLevel: view.progress.characterLevel,
            minLevel: minLevel(view.progress.characterLevel, progress.value.targetDifficulty as PlayOn),
          }
    })
  }

  return {
    readOnly: !options.save,
    characterId,
    rows,
    character,
    progress,
    search,
    hideCompleted,
    sort,
    error,
    notice,
    live,
    liveMode,
    index,
    playOn,
    visible,
    logOf,
    logs,
    favor,
    xp,
    counts,
    patrons,
    packs,
    refresh,
    refreshCharacter,
    saveProgress,
    setVersionFlag,
    setPatronShown,
    setAllPatrons,
    setPackShown,
    setAllPacks,
    setBonus,
    toggleSetting,
    setSharing,
    replace,
  }
}
