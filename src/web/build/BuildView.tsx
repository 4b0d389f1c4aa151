// The build page's view: the actions on the planned build, what differs between the character
// in game and the plan, the two sheets side by side, and the lives.
import { CharacterHeader } from '../components/CharacterHeader'
import { LiveTop } from '../components/LiveSwitch'
import { Actions } from './Actions'
import { Differences } from './Differences'
import { Lives } from './Lives'
import { Sheet } from './Sheet'
import type { BuildStore } from './store'

function Sheets({ store }: { store: BuildStore }) {
  const live = store.live.value
  const planned = store.planned.value
  const liveBreakdown = store.liveBreakdown.value
  const plannedBreakdown = store.plannedBreakdown.value
  return (
    <div class="sheets">
      {live && liveBreakdown ? (
        <Sheet
          kind="live"
          title="Live: in game"
          document={live.document}
          breakdown={liveBreakdown}
          unread={store.unread.value}
          updatedAt={live.updatedAt}
        />
      ) : (
        <section class="sheet" data-sheet="live" aria-labelledby="live-title">
          <h2 id="live-title">Live: in game</h2>
          <p>No live snapshot yet. The game plugin sends one while you play this character.</p>
        </section>
      )}
      {planned.document && plannedBreakdown ? (
        <Sheet
          kind="planned"
          title="Planned"
          document={planned.document}
          breakdown={plannedBreakdown}
          unread={[]}
          updatedAt={planned.updatedAt}
          validationErrors={planned.validationErrors}
        />
      ) : (
        <section class="sheet" data-sheet="planned" aria-labelledby="planned-title">
          <h2 id="planned-title">Planned</h2>
          <p>No planned build yet. Import a DDO Builder file above, or promote the live snapshot.</p>
        </section>
      )}
    </div>
  )
}

export function BuildView({ store }: { store: BuildStore }) {
  return (
    <div class="build-page">
      <LiveTop live={store.liveOn} mode={store.liveMode} error={store.error} notice={store.notice}>
        <CharacterHeader character={store.character.value} current="build" />
      </LiveTop>
      <Actions store={store} />
      <Differences store={store} />
      <Sheets store={store} />
      <Lives store={store} />
    </div>
  )
}
