// The tracker view: who the character is, the filters, the totals and the quest list. Shared
// by the signed-in page and the read-only share page (the store says which).
import type { ComponentChildren } from 'preact'
import { CharacterHeader } from '../components/CharacterHeader'
import { LiveTop } from '../components/LiveSwitch'
import { PhoneFold } from '../components/PhoneFold'
import { here } from '../here'
import { Filters } from './Filters'
import { LifeHistory } from './LifeHistory'
import { NeededIn } from './NeededIn'
import { NextPanel } from './NextPanel'
import { QuestTable } from './QuestTable'
import type { TrackerStore } from './store'
import { Totals } from './Totals'
import { UndoBar } from './UndoBar'

/** `note`: what a read-only view says of itself (the share page's sentence by default). */
function TrackerHeader({ store, note }: { store: TrackerStore; note?: ComponentChildren }) {
  const c = store.character.value
  return (
    <CharacterHeader
      character={c}
      current="quests"
      readOnly={store.readOnly}
      level={store.progress.value.characterLevel}
    >
      {store.readOnly ? (
        <p class="hint">{note ?? "A read-only view of this character's quests, shared from Quest Tracker."}</p>
      ) : (
        <ShareControls store={store} />
      )}
    </CharacterHeader>
  )
}

/** The read-only link: shown while sharing is on; a new link ends the old one; stop and share again. */
function ShareControls({ store }: { store: TrackerStore }) {
  const c = store.character.value
  return (
    <div class="share" data-shared={c.shared ? 'true' : 'false'}>
      {c.shared ? (
        <p class="hint">
          Read-only link to share: <a href={c.shareUrl}>{here().origin + c.shareUrl}</a>
        </p>
      ) : (
        <p class="hint">Not shared: turn on a read-only link that anyone you give it to can open.</p>
      )}
      <div class="share-actions">
        <button
          type="button"
          class="button quiet"
          aria-describedby="share-new-note"
          onClick={() => void store.setSharing('rotate')}
        >
          {c.shared ? 'New link' : 'Share a link'}
        </button>
        {c.shared && (
          <button type="button" class="button quiet" onClick={() => void store.setSharing('stop')}>
            Stop sharing
          </button>
        )}
        <span id="share-new-note" class="sr-only">
          A new link is made; the old one stops working.
        </span>
      </div>
    </div>
  )
}

export function Tracker({ store, note }: { store: TrackerStore; note?: ComponentChildren }) {
  return (
    <div class="tracker" data-read-only={store.readOnly ? 'true' : 'false'}>
      <LiveTop live={store.live} mode={store.liveMode} error={store.error} notice={store.notice}>
        <TrackerHeader store={store} note={note} />
      </LiveTop>
      <Filters store={store} />
      <Totals store={store} />
      {!store.readOnly && (
        <PhoneFold id="next-fold" label="What to run next">
          <NextPanel store={store} />
        </PhoneFold>
      )}
      {!store.readOnly && <LifeHistory store={store} />}
      {!store.readOnly && <NeededIn store={store} />}
      <QuestTable store={store} />
      {!store.readOnly && <UndoBar undo={store.undo} />}
    </div>
  )
}
