// The build page (/characters/{id}/build): the live snapshot and the planned build side by
// side, what differs, DDO Builder import and export, promotion, reincarnation and the lives.
// It follows the character's event stream, so a snapshot the plugin sends shows by itself.
import { effect } from '@preact/signals'
import { api, type User } from '../api'
import { BuildView } from '../build/BuildView'
import { BUILD_CHANGES, createBuildStore } from '../build/store'
import { ErrorMessage, Layout, Loading } from '../components/Layout'
import { useLoad } from '../components/useLoad'
import { followCharacter } from '../live'
import { requireUser } from '../session'

export function BuildPage({ id }: { id: number }) {
  const state = useLoad(
    async () => {
      const user: User = await requireUser()
      const [character, live, planned, lives] = await Promise.all([
        api.character(id),
        api.live(id),
        api.build(id),
        api.lives(id),
      ])
      return { user, store: createBuildStore({ character, live, planned, lives: lives.lives }) }
    },
    ({ store }) =>
      effect(() => {
        if (!store.liveOn.value) return
        return followCharacter({
          characterId: store.characterId,
          liveMode: store.liveMode,
          refresh: store.refresh,
          wants: (what) => BUILD_CHANGES.has(what),
        })
      }),
  )
  if (state === null) {
    return (
      <Layout title="Build" wide>
        <Loading what="the build" />
      </Layout>
    )
  }
  if ('error' in state) {
    return (
      <Layout title="Build" wide>
        <h1>Build</h1>
        <ErrorMessage message={state.error} />
        <p>
          <a href="/">Back to your characters</a>
        </p>
      </Layout>
    )
  }
  const { user, store } = state.data
  return (
    <Layout title={`${store.character.value.name}: build`} user={user} wide>
      <BuildView store={store} />
    </Layout>
  )
}
