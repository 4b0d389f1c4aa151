// The tracker's filters. Play on, level band, versions, patrons, packs and XP bonuses are the
// character's progress fields (saved, so the game plugin sees the same); the search and "hide
// completed" belong to this page only. Every control has a visible label. On a phone all but the
// search fold into one bar that opens, so the quests are on the first screen. The parts (the
// form that folds, the versions, a checklist) are the quests × characters grid's filters too
// (grid/GridFilters.tsx), over the account's view of its grids instead of a character's progress.
import { useSignal } from '@preact/signals'
import type { ComponentChildren } from 'preact'
import { PLAY_ON, type PlayOn } from '../../rules/character/levels'
import {
  LEVEL_BAND_ANY,
  LEVEL_BAND_FULL_XP,
  VERSION_TIERS,
  type VersionFlag,
  type VersionTier,
} from '../../rules/quests/tracker'
import { XP_BONUSES } from '../../rules/quests/xp'
import { BonusChecklist, bonusOn } from '../components/BonusChecklist'
import { SelectField } from '../components/SelectField'
import type { TrackerStore } from './store'

export const PLAY_ON_LABELS: Readonly<Record<PlayOn, string>> = {
  any: 'Any setting',
  casual: 'Casual',
  normal: 'Normal',
  hard: 'Hard',
  elite: 'Elite',
  reaper: 'Reaper',
}

const FLAG_OPTIONS: readonly [VersionFlag, string][] = [
  ['any', 'Any'],
  ['yes', 'Must exist'],
  ['no', 'Hide'],
]

export const patronLabel = (patron: string) => patron || '(no patron)'
export const packLabel = (pack: string) => pack || '(no pack)'

/** What "hide completed" hides: done at the Play on setting or harder (rules/quests/tracker.ts). */
export const hideLabel = (playOn: PlayOn) =>
  playOn === 'any'
    ? 'Hide completed'
    : playOn === 'elite' || playOn === 'reaper'
      ? 'Hide done on Elite or Reaper'
      : `Hide done on ${PLAY_ON_LABELS[playOn]} or harder`

/** What the folded filters say on a phone: the Play on setting and the level band (and hiding). */
function foldSummary(store: TrackerStore): string {
  const p = store.progress.value
  return [
    PLAY_ON_LABELS[p.targetDifficulty as PlayOn] ?? p.targetDifficulty,
    p.levelBand === LEVEL_BAND_FULL_XP ? 'Full XP' : 'any level',
    store.hideCompleted.value ? hideLabel(p.targetDifficulty as PlayOn).replace('Hide', 'hiding') : null,
  ]
    .filter((part) => part !== null)
    .join(' · ')
}

interface FilterFormProps {
  search: string
  onSearch: (text: string) => void
  /** What the folded filters say on a phone (the setting, the band…). */
  summary: string
  /** The fields beside the search (selects, checks); folded on a phone. */
  fields: ComponentChildren
  /** The panels under them (versions, patrons, packs…); folded on a phone. */
  panels: ComponentChildren
  /** A line under everything (the read-only pages say what the filters change). */
  note?: ComponentChildren
}

/** The filters' form: the search, then the fields and panels that fold into one bar on a phone. */
export function FilterForm({ search, onSearch, summary, fields, panels, note }: FilterFormProps) {
  /** On a phone the filters but the search fold into one bar that opens (styles.css). */
  const folded = useSignal(true)
  return (
    <form
      class="filters"
      aria-label="Filters"
      data-folded={folded.value ? 'true' : 'false'}
      onSubmit={(e) => e.preventDefault()}
    >
      <div class="toolbar">
        <label class="field grow">
          <span>Search quests</span>
          <input
            type="search"
            value={search}
            placeholder="Name, pack or patron"
            autoComplete="off"
            onInput={(e) => onSearch(e.currentTarget.value)}
          />
        </label>
        {/* Phones only (styles.css): the rest of the filters fold behind this. */}
        <button
          type="button"
          class="button filters-toggle"
          aria-expanded={!folded.value}
          aria-controls="filter-fields filter-panels"
          onClick={() => {
            folded.value = !folded.value
          }}
        >
          Filters <span class="count">{summary}</span>
        </button>
        <div id="filter-fields" class="filter-fields">
          {fields}
        </div>
      </div>
      <div id="filter-panels" class="panels">
        {panels}
      </div>
      {note}
    </form>
  )
}

function TrackerFields({ store }: { store: TrackerStore }) {
  const p = store.progress.value
  return (
    <>
      <SelectField
        id="filter-play-on"
        label="Play on"
        options={PLAY_ON.map((value) => [value, PLAY_ON_LABELS[value]] as const)}
        value={p.targetDifficulty}
        onChange={(targetDifficulty) => store.saveProgress({ targetDifficulty })}
      />
      <SelectField
        id="filter-levels"
        label="Levels"
        options={[
          [String(LEVEL_BAND_FULL_XP), `Full XP for level ${p.characterLevel} (quests ${p.minLevel}+)`],
          [String(LEVEL_BAND_ANY), 'Any level'],
        ]}
        value={String(p.levelBand === LEVEL_BAND_FULL_XP ? LEVEL_BAND_FULL_XP : LEVEL_BAND_ANY)}
        onChange={(band) => store.saveProgress({ levelBand: Number(band) })}
      />
      <label class="check toolbar-check">
        <input
          type="checkbox"
          checked={store.hideCompleted.value}
          onChange={(e) => {
            store.hideCompleted.value = e.currentTarget.checked
          }}
        />
        <span>{hideLabel(p.targetDifficulty as PlayOn)}</span>
      </label>
    </>
  )
}

/** The versions filter: per tier, any, must exist, or hide. */
export function VersionsPanel({
  filter,
  onChange,
}: {
  filter: Readonly<Record<VersionTier, VersionFlag>>
  onChange: (tier: VersionTier, flag: VersionFlag) => void
}) {
  const changed = (Object.keys(VERSION_TIERS) as VersionTier[]).filter((t) => filter[t] !== 'any').length
  return (
    <details class="panel">
      <summary>Versions{changed > 0 && <span class="count"> ({changed} set)</span>}</summary>
      <fieldset>
        <legend class="sr-only">Versions</legend>
        <p class="hint">“Must exist” keeps only quests that have that tier; “Hide” hides that tier's rows.</p>
        <div class="row-fields">
          {(Object.keys(VERSION_TIERS) as VersionTier[]).map((tier) => (
            <SelectField
              key={tier}
              id={`filter-version-${tier}`}
              label={VERSION_TIERS[tier]}
              options={FLAG_OPTIONS}
              value={filter[tier]}
              onChange={(flag) => onChange(tier, flag)}
            />
          ))}
        </div>
      </fieldset>
    </details>
  )
}

interface ChecklistProps {
  title: string
  items: readonly string[]
  label: (item: string) => string
  shown: (item: string) => boolean
  onChange: (item: string, shown: boolean) => void
  onAll: (shown: boolean) => void
}

/** A disclosure with a checkbox per item (ticked = shown) and show all / hide all. */
export function Checklist({ title, items, label, shown, onChange, onAll }: ChecklistProps) {
  const hidden = items.filter((item) => !shown(item)).length
  return (
    <details class="panel">
      <summary>
        {title}
        {hidden > 0 && <span class="count"> ({hidden} hidden)</span>}
      </summary>
      <fieldset>
        <legend class="sr-only">{title} shown</legend>
        <div class="panel-actions">
          <button type="button" class="button quiet" onClick={() => onAll(true)}>
            Show all
          </button>
          <button type="button" class="button quiet" onClick={() => onAll(false)}>
            Hide all
          </button>
        </div>
        <div class="checklist">
          {items.map((item) => (
            <label class="check" key={item}>
              <input type="checkbox" checked={shown(item)} onChange={(e) => onChange(item, e.currentTarget.checked)} />
              <span>{label(item)}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </details>
  )
}

function Bonuses({ store }: { store: TrackerStore }) {
  const p = store.progress.value
  const on = XP_BONUSES.filter((b) => bonusOn((b.group === 'boost' ? p.xpBoosts : p.optionalPursuit)[b.key])).length
  return (
    <details class="panel">
      <summary>XP bonuses{on > 0 && <span class="count"> ({on} on)</span>}</summary>
      <p class="hint">Used to estimate XP of completions the game did not report XP for.</p>
      <div class="bonus-groups">
        <BonusChecklist
          stored={{ boost: p.xpBoosts, optional: p.optionalPursuit }}
          onChange={(group, key, value) =>
            store.setBonus(group === 'boost' ? 'xpBoosts' : 'optionalPursuit', key, value)
          }
          percents
        />
      </div>
    </details>
  )
}

export function Filters({ store }: { store: TrackerStore }) {
  const p = store.progress.value
  const excluded = new Set(p.excludedPatrons)
  return (
    <FilterForm
      search={store.search.value}
      onSearch={(text) => {
        store.search.value = text
      }}
      summary={foldSummary(store)}
      fields={<TrackerFields store={store} />}
      panels={
        <>
          <VersionsPanel filter={p.versionFilter} onChange={store.setVersionFlag} />
          <Checklist
            title="Patrons"
            items={store.patrons.value}
            label={patronLabel}
            shown={(patron) => !excluded.has(patron)}
            onChange={store.setPatronShown}
            onAll={store.setAllPatrons}
          />
          <Checklist
            title="Packs"
            items={store.packs.value}
            label={packLabel}
            shown={(pack) => p.packState[pack] !== false}
            onChange={store.setPackShown}
            onAll={store.setAllPacks}
          />
          <Bonuses store={store} />
        </>
      }
      note={store.readOnly && <p class="hint">Filters here change only your view of this page.</p>}
    />
  )
}
