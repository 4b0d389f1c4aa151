// The build page (/characters/{id}/build): the live snapshot and the planned build side by
// side, what differs, DDO Builder import and export, promotion, reincarnation and the lives.
// It follows the character's event stream, so a snapshot the plugin sends shows by itself.
import { effect } from '@preact/signals'
import { api } from '../api'
import { BuildView } from '../build/BuildView'
import { BUILD_CHANGES, createBuildStore } from '../build/store'
import { Layout } from '../components/Layout'
import { PageData, TO_CHARACTERS } from '../components/PageData'
import { followCharacter } from '../live'
import { requireUser } from '../session'

export function BuildPage({ id }: { id: number }) {
  const load = async () => {
    const user = await requireUser()
    const [character, live, planned, lives] = await Promise.all([
      api.character(id),
      api.live(id),
      api.build(id),
      api.lives(id),
    ])
    return { user, store: createBuildStore({ character, live, planned, lives: lives.lives }) }
  }
  return (
    <PageData
      title="Build"
      what="the build"
      back={TO_CHARACTERS}
      wide
      load={load}
      follow={({ store }) =>
        effect(() => {
          if (!store.liveOn.value) return
          return followCharacter({
            characterId: store.characterId,
            liveMode: store.liveMode,
            refresh: store.refresh,
            wants: (what) => BUILD_CHANGES.has(what),
          })
        })
      }
    >
      {({ user, store }) => (
        <Layout title={`${store.character.value.name}: build`} user={user} wide>
          <BuildView store={store} />
        </Layout>
      )}
    </PageData>
  )
}
