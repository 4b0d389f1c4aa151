// Making and editing a route (/routes/new, /routes/{id}/edit): loads the catalog (and the route),
// then draws the editor (routes/RouteEditor.tsx). Only the owner may edit; the server answers 404 to
// anyone else.
import { api } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_ROUTES } from '../components/PageData'
import { createEditorStore } from '../routes/editor'
import { Editor } from '../routes/RouteEditor'
import { requireUser } from '../session'

function EditorPage({ id }: { id: number | null }) {
  const load = async () => {
    const user = await requireUser()
    const [catalog, route] = await Promise.all([api.quests(), id === null ? null : api.route(id)])
    if (route && !route.owned) throw new Error('Only its owner can edit this route.')
    return { user, store: createEditorStore(catalog.quests, route) }
  }
  const title = id === null ? 'New route' : 'Edit route'
  return (
    <PageData title={title} what="the route editor" back={TO_ROUTES} wide load={load}>
      {({ user, store }) => (
        <Layout title={title} user={user} wide>
          <Editor store={store} />
        </Layout>
      )}
    </PageData>
  )
}

export const RouteNewPage = () => <EditorPage id={null} />
export const RouteEditPage = ({ id }: { id: number }) => <EditorPage id={id} />
