// Every alt at a glance (/alts, issue 41): the account's characters across, the catalog down, what
// each has done of each quest, and a tick in a cell is the tracker's own completion. Read again when
// the page comes back into view (a completion the game logged meanwhile: the answer's ETag makes
// an unchanged grid a 304) and after changes kept offline were sent.
import { api, type User } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_CHARACTERS } from '../components/PageData'
import { Grid } from '../grid/Grid'
import { createGridStore, type GridStore, loadGrid } from '../grid/store'
import { afterFlush } from '../offline/outbox'
import { requireUser } from '../session'

export function AltsPage() {
  const load = async () => {
    const user = await requireUser()
    const [loaded, view] = await Promise.all([loadGrid(api.accountGrid), api.gridView()])
    return { user, store: createGridStore({ mode: 'account', ...loaded, view, read: api.accountGrid }) }
  }
  return (
    <PageData
      title="Every alt at a glance"
      what="your characters' quests"
      back={TO_CHARACTERS}
      wide
      load={load}
      follow={({ store }) => follow(store)}
    >
      {(data) => <AltsView {...data} />}
    </PageData>
  )
}

function follow(store: GridStore): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') void store.refresh()
  }
  document.addEventListener('visibilitychange', onVisible)
  const stopFlushed = afterFlush(() => void store.refresh())
  return () => {
    document.removeEventListener('visibilitychange', onVisible)
    stopFlushed()
  }
}

function AltsView({ user, store }: { user: User; store: GridStore }) {
  return (
    <Layout title="Every alt at a glance" user={user} wide>
      <div class="page-head">
        <h1>Every alt at a glance</h1>
        <p class="crumbs">
          <a href="/">← All characters</a>
        </p>
      </div>
      <Grid
        store={store}
        caption="Every quest against every character shown: what each has done"
        linkOf={(column) => `/characters/${column.character.id}`}
      />
    </Layout>
  )
}
