// A shared route (/routes/{id}): loads the route, the account's characters and the catalog (each
// step's XP), then draws the route with its navigation (routes/RouteView.tsx).
import { api } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_ROUTES } from '../components/PageData'
import { createNavStore } from '../routes/navigation'
import { RouteView } from '../routes/RouteView'
import { requireUser } from '../session'

export function RoutePage({ id }: { id: number }) {
  const load = async () => {
    const user = await requireUser()
    const [route, list, catalog] = await Promise.all([api.route(id), api.characters(), api.quests()])
    return { user, store: createNavStore(route, list.characters, catalog.quests) }
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
