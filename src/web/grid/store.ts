// The quests × characters grid's state, in one place: the catalog's rows, each character's
// completions (read back from the server's letters as the tracker's own index: rules/quests/grid.ts),
// the account's view of its grids, and the page's search, as signals; the rows and cells shown
// computed from them by the tracker's rules. Two grids use it: the account's (`account`: a cell
// ticks and unticks the character's completion, the tracker's own POST and DELETE through the
// same write queue, with the same undo; the columns are ordered and hidden) and a group's (`group`:
// read-only, following the group's stream). Changes to the view are applied at once and saved on
// the account, so they follow the player to another device.
import { computed, signal } from '@preact/signals'
import { MAX_RESTORED_COMPLETIONS } from '../../modules/completions/limits'
import type { PlayOn } from '../../rules/character/levels'
import { favorTotals } from '../../rules/quests/favor'
import {
  cellsIndex,
  doneAt,
  type GridColumn,
  type GridView,
  gridCell,
  gridRowFilter,
  orderColumns,
} from '../../rules/quests/grid'
import { runSetting } from '../../rules/quests/nextQuests'
import {
  type CompletionIndex,
  completionsFor,
  type LoggedCompletion,
  SETTING_RANK,
  tiersByName,
} from '../../rules/quests/tracker'
import { api, errorMessage, type GridViewChange, type QuestRow, type RemovedCompletion } from '../api'
import { QUEUED, sendOrQueue } from '../offline/outbox'
import { compareRows, type Row, toRows } from '../tracker/model'
import type { RaidLockout } from '../tracker/timers'
import { boxKey, createUndo } from '../tracker/undo'

/** A character as the grid shows it, whichever grid: what the server says of it beside its letters. */
export interface GridCharacter {
  id: number
  name: string
  level: number
  classes: string
  /** A group's grid: whose character it is. */
  owner?: { id: number; name: string }
}

/** A grid's answer: the catalog version its letters follow, and the characters with their letters. */
export interface GridAnswer {
  catalog: { version: string; rows: number }
  characters: (GridCharacter & { done: string; unknownTier: Record<string, string> })[]
}

/** A column: the character, and its completions as the tracker's rules read them. */
export interface Column extends GridColumn {
  character: GridCharacter
  index: CompletionIndex
}

export type GridMode = 'account' | 'group'

export interface GridStoreOptions {
  mode: GridMode
  quests: readonly QuestRow[]
  /** The version of `quests` (the catalog's ETag's): the letters of `grid` must follow the same. */
  version: string | null
  grid: GridAnswer
  view: GridView
  /** Reads the grid again (the account's, or the group's). */
  read: () => Promise<GridAnswer>
}

const LEVEL_ORDER = { key: 'level', descending: false } as const

export type GridStore = ReturnType<typeof createGridStore>

/**
 * What a grid's page loads: the catalog and the grid, each read again once when the catalog
 * changed between the two reads (a sync), so the letters follow the rows held.
 */
export async function loadGrid(read: () => Promise<GridAnswer>) {
  let [catalog, grid] = await Promise.all([api.questsVersioned(), read()])
  if (catalog.version !== grid.catalog.version) [catalog, grid] = await Promise.all([api.questsVersioned(), read()])
  return { quests: catalog.quests, version: catalog.version, grid }
}

export function createGridStore(options: GridStoreOptions) {
  const { mode } = options
  const rows = signal<Row[]>(toRows(options.quests))
  let version = options.version
  const view = signal<GridView>(options.view)
  const search = signal('')
  const error = signal<string | null>(null)
  const notice = signal<string | null>(null)

  const columnsOf = (answer: GridAnswer, quests: readonly Row[]): Column[] =>
    answer.characters.map(({ done, unknownTier, ...character }) => ({
      character,
      level: character.level,
      index: cellsIndex(quests, { done, unknownTier }),
    }))
  const columns = signal<Column[]>(columnsOf(options.grid, rows.value))

  /** The columns in the view's order (the account's; a group's in the order its characters were shared). */
  const ordered = computed(() =>
    orderColumns(
      columns.value.map((column) => ({ ...column, id: column.character.id })),
      mode === 'account' ? view.value : { order: [], hidden: [] },
    ),
  )
  const shown = computed(() => ordered.value.filter((c) => !c.hidden).map((c) => c.character))
  const tiers = computed(() => tiersByName(rows.value))
  const sorted = computed(() => [...rows.value].sort((a, b) => compareRows(a, b, LEVEL_ORDER, 'any')))
  const visible = computed(() => {
    const keep = gridRowFilter(view.value, search.value, shown.value, tiers.value, (row) => (row as Row).text)
    return sorted.value.filter(keep)
  })
  const patrons = computed(() => [...new Set(rows.value.map((r) => r.patron))].sort((a, b) => a.localeCompare(b)))
  const packs = computed(() => [...new Set(rows.value.map((r) => r.pack))].sort((a, b) => a.localeCompare(b)))

  /** Favor earned per character (the tracker's count), kept per index: a tick counts one column again. */
  const favorKept = new WeakMap<CompletionIndex, number>()
  const favorOf = (column: Column): number => {
    let favor = favorKept.get(column.index)
    if (favor === undefined) favorKept.set(column.index, (favor = favorTotals(rows.value, column.index).earned))
    return favor
  }

  const cellOf = (row: Row, column: Column) => gridCell(row, column, view.value.playOn as PlayOn)

  // The view: changed on the page at once, saved on the account one change after another.
  let savedView: Promise<unknown> = Promise.resolve()
  function setView(change: GridViewChange): void {
    view.value = { ...view.value, ...change }
    savedView = savedView.then(() =>
      api.putGridView(change).then(
        () => {
          error.value = null
        },
        (e: unknown) => {
          error.value = errorMessage(e)
        },
      ),
    )
  }

  /** Every column's id in the order shown (hidden ones too). */
  const orderIds = () => ordered.value.map((c) => c.character.id)

  /** Moves a column one place left (-1) or right (+1). */
  function move(id: number, by: -1 | 1): void {
    const order = orderIds()
    const at = order.indexOf(id)
    const to = at + by
    if (at < 0 || to < 0 || to >= order.length) return
    ;[order[at], order[to]] = [order[to] as number, order[at] as number]
    setView({ order })
  }

  function setShown(id: number, on: boolean): void {
    const hidden = view.value.hidden.filter((h) => h !== id)
    setView({ hidden: on ? hidden : [...hidden, id] })
  }

  /**
   * The account's raids on lockout (GET /characters/timers), by character and raid name: a mark
   * on the grid's cell and when the raid is ready. Read with the grid and after each write; the
   * marks are extra, so a failed read leaves the grid as it is.
   */
  const lockouts = signal<ReadonlyMap<number, ReadonlyMap<string, RaidLockout>>>(new Map())
  async function readLockouts(): Promise<void> {
    if (mode !== 'account') return
    try {
      const answer = await api.accountTimers()
      lockouts.value = new Map(answer.characters.map((c) => [c.id, new Map(c.raids.map((raid) => [raid.name, raid]))]))
    } catch {}
  }
  void readLockouts()
  /** A character's lockout of a raid, while it lasts (a kept answer may hold one that ended). */
  const lockoutOf = (row: Row, column: Column): RaidLockout | undefined => {
    const lockout = lockouts.value.get(column.character.id)?.get(row.name)
    return lockout && Date.parse(lockout.readyAt) > Date.now() ? lockout : undefined
  }

  // Writes (ticks, unticks, undos) go one after another, as the tracker's do; a read meanwhile
  // waits for them, so what the page shows is never an answer from before its own change.
  let pending = 0
  let staleRead = false
  let last: Promise<unknown> = Promise.resolve()
  function write(send: () => Promise<unknown>): void {
    pending++
    last = last
      .then(send)
      .catch((e: unknown) => {
        error.value = errorMessage(e)
        staleRead = true
      })
      .finally(() => {
        pending--
        if (pending > 0) return
        // A refresh reads the lockouts too; without one, they are read for the writes just made.
        if (staleRead) {
          staleRead = false
          void refresh()
        } else void readLockouts()
      })
  }

  /** Replaces one character's completions on the page. */
  function changeIndex(id: number, change: (index: Map<string, LoggedCompletion[]>) => void): void {
    columns.value = columns.value.map((column) => {
      if (column.character.id !== id) return column
      const index = new Map(column.index as Map<string, LoggedCompletion[]>)
      change(index)
      return { ...column, index }
    })
  }
  const withAdded = (index: Map<string, LoggedCompletion[]>, added: readonly LoggedCompletion[]) => {
    for (const c of added) {
      const list = (index.get(c.name) ?? []).filter((o) => o.difficulty !== c.difficulty || o.setting !== c.setting)
      index.set(c.name, [...list, { name: c.name, difficulty: c.difficulty, setting: c.setting }])
    }
  }

  /** Which character each completion an untick removed was removed from, for its undo. */
  const removedFrom = new WeakMap<RemovedCompletion, number>()
  const undo = createUndo((removed) => {
    const byCharacter = new Map<number, RemovedCompletion[]>()
    for (const c of removed) {
      const id = removedFrom.get(c)
      if (id !== undefined) byCharacter.set(id, [...(byCharacter.get(id) ?? []), c])
    }
    for (const [id, back] of byCharacter) {
      changeIndex(id, (index) => withAdded(index, back))
      // One restore puts back what one DELETE can remove: a cell's untick may have sent several.
      for (let i = 0; i < back.length; i += MAX_RESTORED_COMPLETIONS) {
        const part = back.slice(i, i + MAX_RESTORED_COMPLETIONS)
        write(() => api.restoreCompletions(id, part))
      }
    }
  })

  /**
   * A cell ticked: the character logs the quest at the Play on setting (`any`: elite), as the
   * tracker's box of that setting does. Unticked: the completions that make it done at the Play on
   * setting go (its own tier's and a tierless one's, at that setting or harder; with `any`, every
   * one), one DELETE each, as the tracker's unticks, and the bar offers to undo them.
   */
  function toggle(row: Row, column: Column): void {
    if (mode !== 'account') return
    const { character } = column
    const playOn = view.value.playOn as PlayOn
    const target = { characterId: character.id, characterName: character.name }
    // The cell's box, as the tracker's: ticking it again while its untick's undo stands is that undo.
    const box = boxKey(`${character.id}\u0000${row.name}\u0000${row.difficulty}`, playOn)
    if (!doneAt(row, column.index, playOn)) {
      if (undo.retick(box)) return
      const setting = runSetting(playOn)
      const completedAt = new Date().toISOString()
      changeIndex(character.id, (index) => withAdded(index, [{ name: row.name, difficulty: row.difficulty, setting }]))
      write(() =>
        sendOrQueue(target, { kind: 'tick', name: row.name, difficulty: row.difficulty, setting, completedAt }),
      )
      return
    }
    const removed = completionsFor(row, column.index).filter(
      (c) => playOn === 'any' || SETTING_RANK[c.setting] >= SETTING_RANK[playOn],
    )
    changeIndex(character.id, (index) => {
      const left = (index.get(row.name) ?? []).filter((c) => !removed.includes(c))
      if (left.length > 0) index.set(row.name, left)
      else index.delete(row.name)
    })
    const offer = undo.open(`${row.name} for ${character.name}`, removed.map((c) => c.setting).join(', '), box)
    for (const c of removed) {
      write(async () => {
        const answer = await sendOrQueue(target, {
          kind: 'untick',
          name: c.name,
          difficulty: c.difficulty,
          setting: c.setting,
        })
        if (answer !== QUEUED && Array.isArray(answer)) {
          for (const gone of answer) removedFrom.set(gone, character.id)
          offer.add(answer)
        }
      })
    }
  }

  /** Reads the grid again (after the writes in flight): a live change, a write refused, the game's completions. */
  async function refresh(): Promise<void> {
    if (pending > 0) {
      staleRead = true
      return
    }
    try {
      const answer = await options.read()
      if (pending > 0) {
        staleRead = true
        return
      }
      // The catalog changed under the page (a sync): its rows first, then the letters over them.
      if (answer.catalog.version !== version) {
        const catalog = await api.questsVersioned()
        rows.value = toRows(catalog.quests)
        version = catalog.version
      }
      columns.value = columnsOf(answer, rows.value)
      error.value = null
      void readLockouts()
    } catch (e) {
      error.value = errorMessage(e)
    }
  }

  return {
    mode,
    rows,
    view,
    search,
    error,
    notice,
    columns,
    ordered,
    shown,
    visible,
    patrons,
    packs,
    undo,
    favorOf,
    cellOf,
    lockoutOf,
    setView,
    move,
    setShown,
    toggle,
    refresh,
  }
}
