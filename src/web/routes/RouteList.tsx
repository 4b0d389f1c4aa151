// The shared routes as a table (name, steps, owner, boosts and optionals), a page at a time when
// the server pages the list (`total` in its answer), with a link to make a new one.
import type { RouteListItem, RoutePage, User } from '../api'
import { Layout } from '../components/Layout'
import { Table, type TableKind } from '../components/Table'
import { formatDate, formatNumber } from '../format'
import { bonusWords } from './bonuses'

/** Routes per page, when the server pages the list. */
export const ROUTES_PER_PAGE = 50

export function offsetFromUrl(): number {
  const n = Number(new URLSearchParams(location.search).get('offset') ?? 0)
  return Number.isInteger(n) && n > 0 ? n : 0
}

function Pager({ page }: { page: RoutePage }) {
  if (page.total === undefined || page.total === 0) return null
  const offset = page.offset ?? 0
  const limit = page.limit ?? ROUTES_PER_PAGE
  const first = page.routes.length === 0 ? 0 : offset + 1
  const lastShown = offset + page.routes.length
  return (
    <nav class="pager" aria-label="Pages of routes">
      <span data-range={`${first}-${lastShown}/${page.total}`}>
        Routes {formatNumber(first)}–{formatNumber(lastShown)} of {formatNumber(page.total)}
      </span>
      {offset > 0 && (
        <a class="button quiet" href={`/routes?offset=${Math.max(0, offset - limit)}`} rel="prev">
          Previous page
        </a>
      )}
      {lastShown < page.total && (
        <a class="button quiet" href={`/routes?offset=${offset + limit}`} rel="next">
          Next page
        </a>
      )}
    </nav>
  )
}

const words = (bonuses: Readonly<Record<string, unknown>>) => bonusWords(bonuses).join(', ') || '—'

const ROUTE_TABLE: TableKind<RouteListItem> = {
  rowKey: (r) => r.id,
  rowData: (r) => ({ 'data-route': r.id }),
  columns: [
    {
      head: 'Route',
      class: 'name',
      cell: (r) => (
        <>
          <a href={`/routes/${r.id}`}>{r.name}</a>
          {r.owned && <span class="badge">yours</span>}
        </>
      ),
    },
    { head: 'Owner', cell: (r) => r.ownerDisplayName },
    { head: 'Quests', num: true, cell: (r) => formatNumber(r.questCount) },
    { head: 'Boosts', cell: (r) => words(r.boosts) },
    { head: 'Optionals', cell: (r) => words(r.optionals) },
    { head: 'Updated', cell: (r) => formatDate(r.updatedAt) },
  ],
}

export function RoutesView({ user, page }: { user: User; page: RoutePage }) {
  return (
    <Layout title="Routes" user={user} wide>
      <div class="page-head">
        <div>
          <h1>Routes</h1>
          <p class="hint">Quest routes shared by everyone on this server. Open one to follow it with a character.</p>
        </div>
        <a class="button primary" href="/routes/new">
          New route
        </a>
      </div>
      {page.routes.length === 0 ? (
        <p>No routes yet. Make the first one: it is shared with everyone on this server.</p>
      ) : (
        <div class="table-wrap">
          <Table class="routes" cards caption="Shared routes" hiddenCaption rows={page.routes} {...ROUTE_TABLE} />
        </div>
      )}
      <Pager page={page} />
    </Layout>
  )
}
