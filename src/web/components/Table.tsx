// A table of rows of one kind, described by its columns: the first column's cells are the row
// headers, figures are right-aligned ("num"), and a cell may carry what the tests read
// (data-value). A table of `cards` is a card per row on a phone, each cell labelled with its
// column's heading (data-label).
import type { ComponentChildren } from 'preact'

export interface Column<R> {
  head: ComponentChildren
  /** A figure: the heading and the cells right-aligned. */
  num?: boolean
  /** Another class of the column's cells (not of its heading). */
  class?: string
  /** data-value of each cell. */
  value?: string
  cell: (row: R) => ComponentChildren
}

type DataAttributes = Record<`data-${string}`, string | number | undefined>

export interface TableProps<R> {
  columns: readonly Column<R>[]
  rows: readonly R[]
  rowKey: (row: R) => string | number
  /** The row's data attributes. */
  rowData?: (row: R) => DataAttributes
  class?: string
  /** A card per row on a phone. */
  cards?: boolean
  /** data-table of the table. */
  name?: string
  caption?: ComponentChildren
  /** The caption for screen readers only. */
  hiddenCaption?: boolean
}

/** What every table of one kind of row shares: its columns, and each row's key and data. */
export type TableKind<R> = Pick<TableProps<R>, 'columns' | 'rowKey' | 'rowData'>

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined

export function Table<R>(props: TableProps<R>) {
  const { columns, rows, rowKey, rowData, cards, name, caption, hiddenCaption } = props
  const [header, ...rest] = columns
  // Only a heading in words labels a card's cell (not a heading for screen readers only).
  const label = (c: Column<R>) => (cards && typeof c.head === 'string' ? c.head : undefined)
  return (
    <table class={classes(props.class, cards && 'cards')} data-table={name}>
      {caption !== undefined && <caption class={hiddenCaption ? 'sr-only' : undefined}>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col" class={c.num ? 'num' : undefined}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowData?.(row)}>
            {header && (
              <th scope="row" class={classes(header.num && 'num', header.class)}>
                {header.cell(row)}
              </th>
            )}
            {rest.map((c, i) => (
              <td key={i} class={classes(c.num && 'num', c.class)} data-value={c.value} data-label={label(c)}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
