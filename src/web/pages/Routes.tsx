// The shared routes (/routes): loads a page of the list, then draws it (routes/RouteList.tsx).
import { api } from '../api'
import { PageData } from '../components/PageData'
import { offsetFromUrl, ROUTES_PER_PAGE, RoutesView } from '../routes/RouteList'
import { requireUser } from '../session'

export function RoutesPage() {
  const load = async () => {
    const user = await requireUser()
    return { user, page: await api.routes({ limit: ROUTES_PER_PAGE, offset: offsetFromUrl() }) }
  }
  return (
    <PageData title="Routes" what="the routes" load={load}>
      {(data) => <RoutesView {...data} />}
    </PageData>
  )
}
