// The tracker's filters. Play on, level band, versions, patrons, packs and XP bonuses are the
// character's progress fields (saved, so the game plugin sees the same); the search and "hide
// completed" belong to this page only. Every control has a visible label. On a phone all but the
// search fold into one bar that opens, so the quests are on the first screen. The parts (the
// form that folds, the versions, a checklist) are the quests × characters grid's filters too
// (grid/GridFilters.tsx), over the account's view of its grids instead of a character's progress.
import { useSignal } from '@preact/signals'
import type { ComponentChildren } from 'preact'
import { MAX_TOTAL_LEVEL, PLAY_ON, type PlayOn } from '../../rules/character/levels'
import { DEFAULT_LEVELS_ABOVE, levelRange } from '../../rules/quests/levelBand'
import {
  LEVEL_BAND_ANY,
  LEVEL_BAND_FULL_XP,
  VERSION_TIERS,
  type VersionFlag,
  type VersionTier,
} from '../../rules/quests/tracker'
import { XP_BONUSES } from '../../rules/quests/xp'
import type { Progress } from '../api'
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

/**
 * The Levels choice: the Full XP band (levelBand 0, no range), the player's range (levelBand 0
 * with `levelsBelow` or `levelsAbove` set) or any level (255). Only the first and the last are
 * values of the contract's `levelBand`; the range is the additive fields beside it.
 */
type LevelsMode = '0' | 'range' | '255'

const RANGE: LevelsMode = 'range'

function levelsMode(p: Progress): LevelsMode {
  if (p.levelBand !== LEVEL_BAND_FULL_XP) return String(LEVEL_BAND_ANY) as LevelsMode
  return p.levelsBelow !== null || p.levelsAbove !== null ? RANGE : (String(LEVEL_BAND_FULL_XP) as LevelsMode)
}

/** What the range is kept as: it moves with the character's level. */
function rangeHint(p: Progress): string {
  const below = p.characterLevel - p.levelFrom
  const above = p.levelTo - p.characterLevel
  const bottom = p.levelsBelow === null ? 'from Full XP' : below === 0 ? 'from your level' : `from ${below} below`
  const top = above === 0 ? 'to your level' : `to ${above} above`
  return `Moves with your level: ${bottom} ${top}.`
}

/** "quests 4–9" */
const questsFromTo = (from: number, to: number) => (from === to ? `quests ${from}` : `quests ${from}–${to}`)

/** What the folded filters say on a phone: the Play on setting and the level band (and hiding). */
function foldSummary(store: TrackerStore): string {
  const p = store.progress.value
  const mode = levelsMode(p)
  return [
    PLAY_ON_LABELS[p.targetDifficulty as PlayOn] ?? p.targetDifficulty,
    mode === RANGE ? `levels ${p.levelFrom}–${p.levelTo}` : mode === '255' ? 'any level' : 'Full XP',
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

/**
 * The level band: Full XP (from the Full XP minimum to DEFAULT_LEVELS_ABOVE above the level),
 * the player's range, or any level. The range is chosen as quest levels and kept relative to the
 * character's level (levelsBelow, levelsAbove), so it moves up as the character levels.
 */
function Levels({ store }: { store: TrackerStore }) {
  const p = store.progress.value
  const level = p.characterLevel
  const playOn = p.targetDifficulty as PlayOn
  const full = levelRange(level, playOn)
  const mode = levelsMode(p)
  const fromOptions: [string, string][] = [['full', `${full.from} (Full XP)`]]
  for (let n = Math.max(1, level); n >= 1; n--) fromOptions.push([String(n), String(n)])
  const toOptions: [string, string][] = []
  for (let n = Math.max(1, level); n <= Math.max(MAX_TOTAL_LEVEL, p.levelTo); n++) {
    toOptions.push([String(n), n - level === DEFAULT_LEVELS_ABOVE ? `${n} (default)` : String(n)])
  }
  return (
    <>
      <SelectField<LevelsMode>
        id="filter-levels"
        label="Levels"
        options={[
          [
            String(LEVEL_BAND_FULL_XP) as LevelsMode,
            level >= 1
              ? `Full XP for level ${level} (${questsFromTo(full.from, full.to)})`
              : `Full XP (no level yet: ${questsFromTo(full.from, full.to)})`,
          ],
          [RANGE, mode === RANGE ? `Levels ${p.levelFrom} to ${p.levelTo}` : 'Levels from… to…'],
          [String(LEVEL_BAND_ANY) as LevelsMode, 'Any level'],
        ]}
        value={mode}
        onChange={(choice) =>
          store.saveProgress(
            choice === RANGE
              ? // The Full XP band as a start, made the player's: its top set, so it is a range.
                { levelBand: LEVEL_BAND_FULL_XP, levelsBelow: null, levelsAbove: DEFAULT_LEVELS_ABOVE }
              : // levelBand alone drops the range (the contract's 0 is the Full XP band itself).
                { levelBand: Number(choice) },
          )
        }
      />
      {mode === RANGE && (
        <>
          <SelectField
            id="filter-level-from"
            label="From level"
            options={fromOptions}
            value={p.levelsBelow === null ? 'full' : String(p.levelFrom)}
            onChange={(from) => store.saveProgress({ levelsBelow: from === 'full' ? null : level - Number(from) })}
          />
          <SelectField
            id="filter-level-to"
            label="To level"
            options={toOptions}
            value={String(p.levelTo)}
            onChange={(to) => store.saveProgress({ levelsAbove: Number(to) - level })}
          />
          <p class="hint levels-hint" id="filter-levels-hint">
            {rangeHint(p)}
          </p>
        </>
      )}
    </>
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
      <Levels store={store} />
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
