// The stats page (/characters/{id}/stats): XP per minute by quest, completions and XP over
// time, favor by patron against the catalog, reaper XP; plots with their numbers as tables.
import { api } from '../api'
import { ErrorMessage, Layout, Loading } from '../components/Layout'
import { useLoad } from '../components/useLoad'
import { requireUser } from '../session'
import { StatsView } from '../stats/StatsView'

export function StatsPage({ id }: { id: number }) {
  const state = useLoad(async () => {
    const user = await requireUser()
    const [character, progress, catalog] = await Promise.all([api.character(id), api.progress(id), api.quests()])
    return { user, character, progress, quests: catalog.quests }
  })
  if (state === null) {
    return (
      <Layout title="Stats" wide>
        <Loading what="the stats" />
      </Layout>
    )
  }
  if ('error' in state) {
    return (
      <Layout title="Stats" wide>
        <h1>Stats</h1>
        <ErrorMessage message={state.error} />
        <p>
          <a href="/">Back to your characters</a>
        </p>
      </Layout>
    )
  }
  const { user, ...data } = state.data
  return (
    <Layout title={`${data.character.name}: stats`} user={user} wide>
      <StatsView {...data} />
    </Layout>
  )
}
