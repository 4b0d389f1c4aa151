// The quests × characters grid: catalog rows down, characters across, each cell what that
// character has done of that quest: done at the Play on setting (green, ticked) or not, the hardest
// setting done as its letter, and whether the quest is in the character's level band (a quest out
// of it is shaded). The character's name, level and favor head its column. On the account's grid
// a cell is a button that ticks or unticks (store.ts); a group's is read-only. The quest column
// and the heads stay in view while the grid scrolls, across on a phone, down everywhere.
// A raid a character is locked out of (its raid timer, tracker/timers.ts) carries a small mark in
// that character's cell, and when it is ready in the cell's words.
// For browser tests and scripts: each row carries `data-quest` and `data-difficulty`, each cell
// `data-character` (the name), `data-done`, `data-best` and `data-lockout` (when ready), each head
// `data-character`.
import { useSignal } from '@preact/signals'
import { Component } from 'preact'
import { useEffect } from 'preact/hooks'
import type { Setting } from '../../rules/quests/completion'
import type { Cell } from '../../rules/quests/grid'
import { formatDate, formatNumber, formatSoon } from '../format'
import { PLAY_ON_LABELS } from '../tracker/Filters'
import type { Row } from '../tracker/model'
import type { RaidLockout } from '../tracker/timers'
import { UndoBar } from '../tracker/UndoBar'
import { GridFilters } from './GridFilters'
import type { Column, GridStore } from './store'

/**
 * Rows drawn at first, and added each turn after: the whole catalog by 20 characters is 14,000
 * cells, and the first screen shows in the time of its first rows, the rest following.
 */
const FIRST_ROWS = 60
const MORE_ROWS = 150

/** A setting as one letter in a cell (the hardest done); its word in the cell's label. */
const LETTER: Readonly<Record<Setting, string>> = {
  casual: 'C',
  normal: 'N',
  hard: 'H',
  elite: 'E',
  reaper: 'R',
  unknown: '?',
}

interface RowProps {
  row: Row
  columns: readonly Column[]
  cells: readonly Cell[]
  /** Each column's lockout of this row's raid, while it lasts. */
  lockouts: readonly (RaidLockout | undefined)[]
  playOn: string
  readOnly: boolean
  onToggle: (row: Row, column: Column) => void
}

const sameCell = (a: Cell | undefined, b: Cell | undefined) =>
  a !== undefined &&
  b !== undefined &&
  a.done === b.done &&
  a.best === b.best &&
  a.inBand === b.inBand &&
  a.viaUnknown === b.viaUnknown

/** A row re-renders only when one of its cells (or its columns) changed: a tick redraws one row. */
class GridRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    const p = this.props
    return (
      next.row !== p.row ||
      next.playOn !== p.playOn ||
      next.readOnly !== p.readOnly ||
      next.columns.length !== p.columns.length ||
      next.columns.some((c, i) => c.character !== p.columns[i]?.character) ||
      next.cells.some((c, i) => !sameCell(c, p.cells[i])) ||
      next.lockouts.some((l, i) => l?.readyAt !== p.lockouts[i]?.readyAt)
    )
  }

  override render() {
    const { row, columns, cells, lockouts, playOn, readOnly, onToggle } = this.props
    return (
      <tr data-quest={row.name} data-difficulty={row.difficulty}>
        <th scope="row" class="grid-quest">
          <span class="grid-quest-name">{row.name}</span>{' '}
          <span class={`tier tier-${row.difficulty.toLowerCase()}`}>{row.difficulty}</span>{' '}
          <span class="muted small">{row.level}</span>
        </th>
        {columns.map((column, i) => {
          const cell = cells[i] as Cell
          const lockout = lockouts[i]
          const name = column.character.name
          const words = `${name}, ${row.name} (${row.difficulty}): ${cell.done ? 'done' : 'not done'} on ${playOn}${
            cell.best && !(cell.done && playOn.toLowerCase() === cell.best) ? `; best ${cell.best}` : ''
          }${cell.viaUnknown ? ' (logged without a tier)' : ''}${cell.inBand ? '' : '; outside its level band'}${
            lockout ? `; raid timer: ready at ${formatDate(lockout.readyAt)}` : ''
          }`
          const mark = cell.best ? LETTER[cell.best] : ''
          const classes = [
            'grid-cell',
            cell.done ? 'done' : '',
            cell.inBand ? '' : 'out',
            cell.viaUnknown ? 'via-unknown' : '',
          ]
            .filter(Boolean)
            .join(' ')
          return (
            <td
              key={column.character.id}
              class={classes}
              data-character={name}
              data-done={cell.done ? 'true' : 'false'}
              data-best={cell.best ?? ''}
              data-band={cell.inBand ? 'in' : 'out'}
              data-lockout={lockout?.readyAt}
            >
              {readOnly ? (
                <span class="grid-mark" title={words}>
                  <span aria-hidden="true">{mark}</span>
                  <span class="sr-only">{words}</span>
                </span>
              ) : (
                <button
                  type="button"
                  class="grid-mark"
                  aria-pressed={cell.done}
                  aria-label={words}
                  onClick={() => onToggle(row, column)}
                >
                  {mark}
                </button>
              )}
              {lockout && (
                <span
                  class="grid-lock"
                  aria-hidden="true"
                  title={`Raid timer: ready at ${formatDate(lockout.readyAt)}`}
                >
                  {formatSoon(lockout.readyAt)}
                </span>
              )}
            </td>
          )
        })}
      </tr>
    )
  }
}

interface GridProps {
  store: GridStore
  /** Where a character's name leads: its tracker (the account's), or its read-only view (a group's). */
  linkOf: (column: Column) => string
  caption: string
}

function Head({ column, favor, link }: { column: Column; favor: number; link: string }) {
  const c = column.character
  return (
    <th scope="col" class="grid-head" data-character={c.name}>
      <a href={link}>{c.name}</a>
      <span class="grid-facts">
        Level {c.level}
        {c.owner && <span class="grid-owner">{c.owner.name}</span>}
      </span>
      <span class="grid-favor" title={`Favor earned in its current life: ${formatNumber(favor)}`}>
        {formatNumber(favor)} favor
      </span>
    </th>
  )
}

/** How many of `total` rows to draw: FIRST_ROWS at once, then MORE_ROWS a turn until all are. */
function useDrawn(total: number): number {
  const drawn = useSignal(FIRST_ROWS)
  useEffect(() => {
    if (drawn.value >= total) return
    const timer = setTimeout(() => {
      drawn.value += MORE_ROWS
    }, 0)
    return () => clearTimeout(timer)
  }, [drawn.value, total])
  return drawn.value
}

export function Grid({ store, linkOf, caption }: GridProps) {
  const columns = store.shown.value
  const rows = store.visible.value
  const drawn = useDrawn(rows.length)
  const playOn = store.view.value.playOn
  const word = PLAY_ON_LABELS[playOn].toLowerCase()
  const readOnly = store.mode !== 'account'
  return (
    <div class="quest-grid" data-mode={store.mode}>
      <GridFilters store={store} />
      <div role="alert" class="alert-region">
        {store.error.value && <p class="error">{store.error.value}</p>}
      </div>
      <p
        class="hint grid-count"
        data-rows={rows.length}
        data-columns={columns.length}
        data-drawn={drawn >= rows.length ? 'true' : 'false'}
      >
        {rows.length} of {store.rows.value.length} quests × {columns.length}{' '}
        {columns.length === 1 ? 'character' : 'characters'}. A letter is the hardest setting done (C, N, H, E, R); green
        is done on {word}
        {playOn === 'any' ? '' : ' or harder'}
        {readOnly ? '.' : ': tap a cell to tick or untick it.'}
      </p>
      {columns.length === 0 ? (
        <p class="empty">No character shown.</p>
      ) : (
        <div class="grid-wrap">
          <table class="grid">
            <caption class="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th scope="col" class="grid-quest">
                  Quest
                </th>
                {columns.map((column) => (
                  <Head key={column.character.id} column={column} favor={store.favorOf(column)} link={linkOf(column)} />
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, drawn).map((row) => (
                <GridRow
                  key={row.key}
                  row={row}
                  columns={columns}
                  cells={columns.map((column) => store.cellOf(row, column))}
                  lockouts={columns.map((column) => store.lockoutOf(row, column))}
                  playOn={word}
                  readOnly={readOnly}
                  onToggle={store.toggle}
                />
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p class="empty">No quest matches the filters.</p>}
        </div>
      )}
      {!readOnly && <UndoBar undo={store.undo} />}
    </div>
  )
}
