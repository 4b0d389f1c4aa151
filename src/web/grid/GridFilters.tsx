// The grid's filters: the tracker's own parts (the form that folds on a phone, the versions, the
// patrons' and packs' checklists: tracker/Filters.tsx) over the account's view of its grids. The
// level band is each character's: a quest shows when it is in the band of one of them at least.
// On the account's grid, a panel of the characters: which are shown, and their order.
import { PLAY_ON, type PlayOn } from '../../rules/character/levels'
import { LEVEL_BAND_ANY, LEVEL_BAND_FULL_XP } from '../../rules/quests/tracker'
import { SelectField } from '../components/SelectField'
import { Checklist, FilterForm, PLAY_ON_LABELS, packLabel, patronLabel, VersionsPanel } from '../tracker/Filters'
import type { GridStore } from './store'

/** What "hide done by all" hides: done at the Play on setting or harder by every character shown that can run it. */
export const doneByAllLabel = (playOn: PlayOn) =>
  playOn === 'any'
    ? 'Hide done by all'
    : `Hide done on ${PLAY_ON_LABELS[playOn]}${playOn === 'reaper' ? '' : ' or harder'} by all`

function summary(store: GridStore): string {
  const v = store.view.value
  return [
    PLAY_ON_LABELS[v.playOn],
    v.levelBand === LEVEL_BAND_FULL_XP ? 'Full XP' : 'any level',
    v.hideDoneByAll ? 'hiding done by all' : null,
  ]
    .filter((part) => part !== null)
    .join(' · ')
}

function Fields({ store }: { store: GridStore }) {
  const v = store.view.value
  return (
    <>
      <SelectField
        id="grid-play-on"
        label="Play on"
        options={PLAY_ON.map((value) => [value, PLAY_ON_LABELS[value]] as const)}
        value={v.playOn}
        onChange={(playOn) => store.setView({ playOn })}
      />
      <SelectField
        id="grid-levels"
        label="Levels"
        options={[
          [String(LEVEL_BAND_FULL_XP), "Full XP for each character's level"],
          [String(LEVEL_BAND_ANY), 'Any level'],
        ]}
        value={String(v.levelBand)}
        onChange={(band) =>
          store.setView({ levelBand: band === String(LEVEL_BAND_ANY) ? LEVEL_BAND_ANY : LEVEL_BAND_FULL_XP })
        }
      />
      <label class="check toolbar-check">
        <input
          type="checkbox"
          checked={v.hideDoneByAll}
          onChange={(e) => store.setView({ hideDoneByAll: e.currentTarget.checked })}
        />
        <span>{doneByAllLabel(v.playOn)}</span>
      </label>
    </>
  )
}

/** The account's characters: a checkbox each (shown or hidden) and buttons to move its column. */
function Characters({ store }: { store: GridStore }) {
  const ordered = store.ordered.value
  const hidden = ordered.filter((c) => c.hidden).length
  return (
    <details class="panel grid-characters">
      <summary>Characters{hidden > 0 && <span class="count"> ({hidden} hidden)</span>}</summary>
      <fieldset>
        <legend class="sr-only">Characters shown, in order</legend>
        <p class="hint">Untick a character to hide its column; Left and Right move it. Kept on your account.</p>
        <ol class="column-list">
          {ordered.map(({ character: c, hidden: off }, i) => (
            <li key={c.character.id} data-column={c.character.name}>
              <label class="check">
                <input
                  type="checkbox"
                  checked={!off}
                  onChange={(e) => store.setShown(c.character.id, e.currentTarget.checked)}
                />
                <span>{c.character.name}</span>
              </label>
              <span class="column-moves">
                <button
                  type="button"
                  class="button quiet"
                  disabled={i === 0}
                  aria-label={`Move ${c.character.name} left`}
                  onClick={() => store.move(c.character.id, -1)}
                >
                  Left
                </button>
                <button
                  type="button"
                  class="button quiet"
                  disabled={i === ordered.length - 1}
                  aria-label={`Move ${c.character.name} right`}
                  onClick={() => store.move(c.character.id, 1)}
                >
                  Right
                </button>
              </span>
            </li>
          ))}
        </ol>
      </fieldset>
    </details>
  )
}

export function GridFilters({ store }: { store: GridStore }) {
  const v = store.view.value
  const excluded = new Set(v.excludedPatrons)
  const hiddenPacks = new Set(v.hiddenPacks)
  const without = (list: readonly string[], item: string, shown: boolean) =>
    shown ? list.filter((x) => x !== item) : [...list.filter((x) => x !== item), item]
  return (
    <FilterForm
      search={store.search.value}
      onSearch={(text) => {
        store.search.value = text
      }}
      summary={summary(store)}
      fields={<Fields store={store} />}
      panels={
        <>
          {store.mode === 'account' && <Characters store={store} />}
          <VersionsPanel
            filter={v.versionFilter}
            onChange={(tier, flag) => store.setView({ versionFilter: { ...v.versionFilter, [tier]: flag } })}
          />
          <Checklist
            title="Patrons"
            items={store.patrons.value}
            label={patronLabel}
            shown={(patron) => !excluded.has(patron)}
            onChange={(patron, shown) => store.setView({ excludedPatrons: without(v.excludedPatrons, patron, shown) })}
            onAll={(shown) => store.setView({ excludedPatrons: shown ? [] : [...store.patrons.value] })}
          />
          <Checklist
            title="Packs"
            items={store.packs.value}
            label={packLabel}
            shown={(pack) => !hiddenPacks.has(pack)}
            onChange={(pack, shown) => store.setView({ hiddenPacks: without(v.hiddenPacks, pack, shown) })}
            onAll={(shown) => store.setView({ hiddenPacks: shown ? [] : [...store.packs.value] })}
          />
        </>
      }
      note={
        <p class="hint">
          These filters are your account's: the same on your grid and your groups' grids, on every device.
        </p>
      }
    />
  )
}
