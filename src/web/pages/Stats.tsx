// The stats page (/characters/{id}/stats): XP per minute by quest, completions and XP over
// time, favor by patron against the catalog, reaper XP; plots with their numbers as tables.
import { api } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_CHARACTERS } from '../components/PageData'
import { requireUser } from '../session'
import { StatsView } from '../stats/StatsView'

export function StatsPage({ id }: { id: number }) {
  const load = async () => {
    const user = await requireUser()
    const [character, progress, catalog] = await Promise.all([api.character(id), api.progress(id), api.quests()])
    return { user, character, progress, quests: catalog.quests }
  }
  return (
    <PageData title="Stats" what="the stats" back={TO_CHARACTERS} wide load={load}>
      {({ user, ...data }) => (
        <Layout title={`${data.character.name}: stats`} user={user} wide>
          <StatsView {...data} />
        </Layout>
      )}
    </PageData>
  )
}
