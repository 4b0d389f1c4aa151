// A shared route (/routes/{id}): loads the route and the account's characters, then draws the
// route with its navigation (routes/RouteView.tsx).
import { api } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_ROUTES } from '../components/PageData'
import { createNavStore } from '../routes/navigation'
import { RouteView } from '../routes/RouteView'
import { requireUser } from '../session'

export function RoutePage({ id }: { id: number }) {
  const load = async () => {
    const user = await requireUser()
    const [route, list] = await Promise.all([api.route(id), api.characters()])
    return { user, store: createNavStore(route, list.characters) }
  }
  return (
    <PageData title="Route" what="the route" back={TO_ROUTES} wide load={load} follow={({ store }) => store.start()}>
      {({ user, store }) => (
        <Layout title={store.route.name} user={user} wide>
          <RouteView store={store} />
        </Layout>
      )}
    </PageData>
  )
}
