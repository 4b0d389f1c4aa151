// The tracker view: who the character is, the filters, the totals and the quest list. Shared
// by the signed-in page and the read-only share page (the store says which).

import { LiveSwitch } from '../components/LiveSwitch'
import { Filters } from './Filters'
import { QuestTable } from './QuestTable'
import type { TrackerStore } from './store'
import { Totals } from './Totals'

function TrackerHeader({ store }: { store: TrackerStore }) {
  const c = store.character.value
  const p = store.progress.value
  const facts = [`Level ${p.characterLevel}`, c.classSummary, c.race, c.server].filter(Boolean)
  return (
    <div class="tracker-head">
      {!store.readOnly && (
        <p class="crumbs">
          <a href="/">← All characters</a>
        </p>
      )}
      <h1>{c.name}</h1>
      <p class="facts">{facts.join(' · ')}</p>
      {store.readOnly ? (
        <p class="hint">A read-only view of this character's quests, shared from Quest Tracker.</p>
      ) : (
        c.shareUrl && (
          <p class="hint">
            Read-only link to share: <a href={c.shareUrl}>{location.origin + c.shareUrl}</a>
          </p>
        )
      )}
    </div>
  )
}

/** Errors are alerts; notices (a completion arrived from the game) are polite announcements. */
function Messages({ store }: { store: TrackerStore }) {
  return (
    <>
      <div role="alert" class="alert-region">
        {store.error.value && <p class="error">{store.error.value}</p>}
      </div>
      <p role="status" class="sr-only">
        {store.notice.value ?? ''}
      </p>
    </>
  )
}

export function Tracker({ store }: { store: TrackerStore }) {
  return (
    <div class="tracker" data-read-only={store.readOnly ? 'true' : 'false'}>
      <div class="tracker-top">
        <TrackerHeader store={store} />
        <LiveSwitch live={store.live} mode={store.liveMode} />
      </div>
      <Messages store={store} />
      <Filters store={store} />
      <Totals store={store} />
      <QuestTable store={store} />
    </div>
  )
}
