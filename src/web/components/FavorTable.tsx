// Favor earned against favor possible, a row per patron: the tracker's totals and the stats page
// both show it (each with its own word for the favor the catalog offers).
import type { PatronFavor } from '../../rules/quests/stats'
import { formatNumber, patronLabel } from '../format'
import { type Column, Table, type TableProps } from './Table'

const columns = (possible: string): Column<PatronFavor>[] => [
  { head: 'Patron', cell: (p) => patronLabel(p.patron) },
  { head: 'Earned', num: true, value: 'earned', cell: (p) => formatNumber(p.earned) },
  { head: possible, num: true, value: 'possible', cell: (p) => formatNumber(p.possible) },
]

interface FavorTableProps extends Pick<TableProps<PatronFavor>, 'class' | 'name' | 'caption'> {
  favor: readonly PatronFavor[]
  /** The heading of the favor the catalog offers. */
  possible: 'Available' | 'Possible'
}

export function FavorTable({ favor, possible, ...table }: FavorTableProps) {
  return (
    <Table
      {...table}
      columns={columns(possible)}
      rows={favor}
      rowKey={(p) => p.patron}
      rowData={(p) => ({ 'data-patron': p.patron })}
    />
  )
}
