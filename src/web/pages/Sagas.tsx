// The sagas page (/characters/{id}/sagas): each saga's quests, done or not and on what.
import { api } from '../api'
import { Layout } from '../components/Layout'
import { PageData, TO_CHARACTERS } from '../components/PageData'
import { SagasView } from '../sagas/SagasView'
import { requireUser } from '../session'

export function SagasPage({ id }: { id: number }) {
  const load = async () => {
    const user = await requireUser()
    const [character, sagas] = await Promise.all([api.character(id), api.sagas(id)])
    return { user, character, sagas }
  }
  return (
    <PageData title="Sagas" what="the sagas" back={TO_CHARACTERS} load={load}>
      {({ user, character, sagas }) => (
        <Layout title={`${character.name}: sagas`} user={user}>
          <SagasView character={character} sagas={sagas} />
        </Layout>
      )}
    </PageData>
  )
}
