// The quest list: one row per catalog remake, with `data-quest`, `data-difficulty` and
// `data-completed` (CONTRACT.md), and a checkbox per challenge setting labelled with its word
// (the reaper one with the most skulls logged beside it, `R7`).
// Rows are class components that skip rendering when their own data did not change, so a
// keystroke in the search re-renders the list, not 718 rows. The first draw comes in parts
// (rowsDrawn.ts): the first rows on the screen before the rest are made.
// biome-ignore-all lint/a11y/noRedundantRoles: the rows are styled as grids, which drops a table's implicit roles in browsers
import { useSignal, useSignalEffect } from '@preact/signals'
import { Component } from 'preact'
import { useEffect } from 'preact/hooks'
import type { PlayOn } from '../../rules/character/levels'
import { runSetting, timeKey } from '../../rules/quests/nextQuests'
import { NORMAL_LOOT_LOOTINGS, RAID_TIMER_HOURS, RANSACK_TIMER_HOURS } from '../../rules/quests/timers'
import { rowXp } from '../../rules/quests/xp'
import { count } from '../../rules/words'
import { api, type QuestRow } from '../api'
import { formatDate, formatNumber, formatSoon, minutes } from '../format'
import { catalogSentence } from './catalogSource'
import { type Row, type RowLog, type SortKey, TICK_SETTINGS, type TickSetting } from './model'
import { neededBy } from './NeededIn'
import { useRowsDrawn } from './rowsDrawn'
import type { TrackerStore } from './store'
import { type QuestWeek, type RaidLockout, useTimers } from './timers'

type QuestTime = QuestRow['times'][number]
type OwnTime = Awaited<ReturnType<typeof api.questTimes>>['times'][number]

/**
 * The Time column: the character's own median run at the Play on setting first (a small guild's
 * server shows no median for long), this server's beside it; a dash when neither is known.
 */
function TimeCell({ own, server }: { own: OwnTime | undefined; server: QuestTime | undefined }) {
  const serverSeconds = server?.medianDurationSeconds ?? null
  const title = [
    own && `Your median run: ${count(own.runs, 'run')}`,
    serverSeconds !== null && server && `This server's median: ${count(server.runs, 'run')}`,
  ]
    .filter(Boolean)
    .join('; ')
  return (
    <td role="cell" data-label="Time" class="num time" title={title || undefined}>
      {own && <span data-time="own">{minutes(own.medianDurationSeconds)}</span>}
      {own && serverSeconds !== null && ' · '}
      {serverSeconds !== null && (
        <span data-time="server" class={own ? 'muted' : undefined}>
          {minutes(serverSeconds)}
          <span class="sr-only"> on this server</span>
        </span>
      )}
      {!own && serverSeconds === null && '—'}
    </td>
  )
}

/** The character's own median runs by quest, tier and setting (GET …/quest-times), read after each stored change. */
function useOwnTimes(store: TrackerStore): ReadonlyMap<string, OwnTime> {
  const times = useSignal<ReadonlyMap<string, OwnTime>>(new Map())
  useSignalEffect(() => {
    void store.stored.value
    if (store.readOnly) return
    let current = true
    api
      .questTimes(store.characterId)
      .then((answer) => {
        if (current) times.value = new Map(answer.times.map((t) => [timeKey(t.name, t.difficulty, t.setting), t]))
      })
      .catch(() => {})
    return () => {
      current = false
    }
  })
  return times.value
}

interface RowProps {
  row: Row
  log: RowLog
  xp: number | null
  /** This server's median run at the Play on setting, when enough runs were measured. */
  time: QuestTime | undefined
  /** The character's own median run at the Play on setting (every life), when it has timed one. */
  own: OwnTime | undefined
  readOnly: boolean
  /** The group's other characters that still need it (NeededIn.tsx); none shown when empty. */
  neededBy: readonly string[] | undefined
  /** The raid timer of its name, while the character is locked out of its end reward. */
  lockout: RaidLockout | undefined
  /** Its runs in the chest timer's current window, when one runs. */
  week: QuestWeek | undefined
  onToggle: (row: Row, setting: TickSetting, on: boolean) => void
}

/**
 * A timer that has not ended yet: an answer kept while the server was away (offline/) may hold
 * one that ended since.
 */
function unlessEnded<T>(timer: T | undefined, end: (timer: T) => string): T | undefined {
  return timer !== undefined && Date.parse(end(timer)) > Date.now() ? timer : undefined
}

/** A raid on lockout: a small mark and when its end reward can be looted again. */
function LockoutMark({ lockout }: { lockout: RaidLockout }) {
  return (
    <span
      class="timer-mark lockout"
      data-lockout={lockout.readyAt}
      title={`Raid timer: its end reward is locked until ${formatDate(lockout.readyAt)}, ${RAID_TIMER_HOURS} hours after your last run (${formatDate(lockout.lastRunAt)}).`}
    >
      <span class="sr-only">Raid timer: </span>ready at {formatSoon(lockout.readyAt)}
    </span>
  )
}

/**
 * Runs this week, in the chest timer's window (7 days from the run that began it): from the
 * eighth, the next run's chests are likely ransacked. A run is a completion, not a looting.
 */
function WeekMark({ week }: { week: QuestWeek }) {
  return (
    <span
      class={week.ransackLikely ? 'timer-mark week ransack' : 'timer-mark week'}
      data-runs-this-week={week.runsThisWeek}
      data-ransack={week.ransackLikely ? 'true' : 'false'}
      title={`Runs since ${formatDate(week.windowStartedAt)}; the count starts over at ${formatDate(week.resetsAt)}. Chests drop normal loot the first ${NORMAL_LOOT_LOOTINGS} times in ${RANSACK_TIMER_HOURS / 24} days, and are ransacked from the ${NORMAL_LOOT_LOOTINGS + 1}th (a run is counted, not each chest looted).`}
    >
      runs this week: {week.runsThisWeek}
      {week.ransackLikely && ' · ransack likely'}
    </span>
  )
}

const UNKNOWN_TIER_NOTE = 'Logged without a tier: counts for every tier of this quest.'

/** `open`: on a phone the row shows its details (favor, XP, length, pack, patron, time). */
class QuestRowView extends Component<RowProps, { open: boolean }> {
  override state = { open: false }

  override shouldComponentUpdate(next: RowProps, nextState: { open: boolean }): boolean {
    const p = this.props
    return (
      next.row !== p.row ||
      next.log !== p.log ||
      next.xp !== p.xp ||
      next.time !== p.time ||
      next.own !== p.own ||
      next.readOnly !== p.readOnly ||
      next.neededBy !== p.neededBy ||
      next.lockout !== p.lockout ||
      next.week !== p.week ||
      nextState.open !== this.state.open
    )
  }

  override render() {
    const { row, log, xp, time, own, readOnly, neededBy, lockout, week, onToggle } = this.props
    const { open } = this.state
    const completed = log.own.size + log.viaUnknown.size > 0
    return (
      <tr
        role="row"
        data-quest={row.name}
        data-difficulty={row.difficulty}
        data-completed={completed ? 'true' : 'false'}
        data-open={open ? 'true' : undefined}
        class={completed ? 'done' : undefined}
      >
        <th role="rowheader" scope="row" class="name">
          {row.name}
          {completed && <span class="sr-only"> (completed)</span>}
          {neededBy && (
            <span class="needed-by" title={`Still needed by ${neededBy.join(', ')}`}>
              needed by {neededBy.length}
              <span class="sr-only">: {neededBy.join(', ')}</span>
            </span>
          )}
          {lockout && <LockoutMark lockout={lockout} />}
          {week && <WeekMark week={week} />}
          {/* Phones only (styles.css): the name is the tap that shows the row's details. */}
          <button
            type="button"
            class="details-toggle"
            aria-expanded={open}
            aria-label={`Details of ${row.name} (${row.difficulty})`}
            onClick={() => this.setState({ open: !open })}
          />
        </th>
        <td role="cell" data-label="Tier" class={`tier tier-${row.difficulty.toLowerCase()}`}>
          {row.difficulty}
        </td>
        <td role="cell" data-label="Level" class="num level">
          {row.level}
        </td>
        <td role="cell" data-label="Pack" class="pack">
          {row.pack || '—'}
        </td>
        <td role="cell" data-label="Patron" class="patron">
          {row.patron || '—'}
        </td>
        <td role="cell" data-label="Favor" class="num favor">
          {formatNumber(row.favor)}
        </td>
        <td role="cell" data-label="XP" class="num xp">
          {formatNumber(xp)}
        </td>
        <td role="cell" data-label="Length" class="duration">
          {row.duration || '—'}
        </td>
        <TimeCell own={own} server={time} />
        {TICK_SETTINGS.map((setting) => {
          const own = log.own.has(setting)
          const viaUnknown = log.viaUnknown.has(setting)
          // aria-label, not a <label> element: two fewer nodes in each of 3,590 cells.
          return (
            <td role="cell" key={setting} class="tick" data-label={setting}>
              <input
                type="checkbox"
                aria-label={setting}
                class={viaUnknown && !own ? 'via-unknown' : undefined}
                title={viaUnknown ? UNKNOWN_TIER_NOTE : undefined}
                checked={own || viaUnknown}
                disabled={readOnly}
                onChange={(e) => onToggle(row, setting, e.currentTarget.checked)}
              />
              {setting === 'reaper' && log.skulls !== null && (own || viaUnknown) && (
                <span class="skulls" title={`Reaper ${log.skulls}: the most skulls logged`}>
                  R{log.skulls}
                  <span class="sr-only"> (the most skulls logged)</span>
                </span>
              )}
            </td>
          )
        })}
      </tr>
    )
  }
}

const COLUMNS: readonly { key: SortKey | null; label: string; className?: string }[] = [
  { key: 'name', label: 'Quest' },
  { key: 'difficulty', label: 'Tier' },
  { key: 'level', label: 'Level', className: 'num' },
  { key: 'pack', label: 'Pack' },
  { key: 'patron', label: 'Patron' },
  { key: 'favor', label: 'Favor', className: 'num' },
  { key: 'xp', label: 'XP', className: 'num' },
  { key: null, label: 'Length' },
  { key: null, label: 'Time', className: 'num' },
]

function SortHeader({ store, column }: { store: TrackerStore; column: (typeof COLUMNS)[number] }) {
  const sort = store.sort.value
  const { key } = column
  if (key === null) {
    return (
      <th role="columnheader" scope="col" class={column.className}>
        {column.label}
      </th>
    )
  }
  const active = sort.key === key
  return (
    <th
      role="columnheader"
      scope="col"
      class={column.className}
      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
    >
      <button
        type="button"
        class="sort"
        onClick={() => {
          store.sort.value = { key, descending: active ? !sort.descending : false }
        }}
      >
        {column.label}
        <span aria-hidden="true" class="sort-mark">
          {active ? (sort.descending ? '▼' : '▲') : ''}
        </span>
      </button>
    </th>
  )
}

export function QuestTable({ store }: { store: TrackerStore }) {
  const rows = store.visible.value
  const playOn = store.playOn.value as PlayOn
  // The setting a Play on value runs at (any: elite), whose measured time the column shows.
  const setting = runSetting(playOn)
  const readOnly = store.readOnly
  const needs = neededBy.value
  const ownTimes = useOwnTimes(store)
  const timers = useTimers(store)
  // The first draw in parts (rowsDrawn.ts): the first rows painted before the rest are made.
  const drawn = useRowsDrawn(rows.length)
  return (
    <div class="quest-list">
      {/* Explicit roles: the rows are laid out as grids (so the browser can skip laying out
          the rows off screen), and a table restyled that way loses its table semantics. */}
      <table role="table" class="quests" aria-describedby="quests-caption">
        <caption id="quests-caption" class="sr-only">
          Quests: {rows.length} shown.{' '}
          {readOnly
            ? 'A ticked challenge setting is one the character has logged.'
            : 'Tick a challenge setting to log it.'}
        </caption>
        <thead role="rowgroup">
          <tr role="row">
            {COLUMNS.map((column) => (
              <SortHeader key={column.label} store={store} column={column} />
            ))}
            {TICK_SETTINGS.map((setting) => (
              <th role="columnheader" key={setting} scope="col" class="tick">
                {setting[0]?.toUpperCase() + setting.slice(1)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {(drawn < rows.length ? rows.slice(0, drawn) : rows).map((row) => (
            <QuestRowView
              key={row.key}
              row={row}
              log={store.logOf(row)}
              xp={rowXp(row, playOn)}
              time={row.times.find((t) => t.setting === setting && t.medianDurationSeconds !== null)}
              own={ownTimes.get(timeKey(row.name, row.difficulty, setting))}
              readOnly={readOnly}
              neededBy={needs.get(row.key)}
              lockout={unlessEnded(timers.raids.get(row.name), (r) => r.readyAt)}
              week={unlessEnded(timers.weeks.get(row.key), (w) => w.resetsAt)}
              onToggle={store.toggleSetting}
            />
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p class="empty">No quest matches these filters.</p>}
      <CatalogSourceLine />
    </div>
  )
}

/**
 * Where the quests come from, under the list: where a player looks when a quest is missing.
 * Read once per page from the health check; nothing is shown when it cannot be read.
 */
function CatalogSourceLine() {
  const sentence = useSignal<string | null>(null)
  useEffect(() => {
    api
      .catalogSource()
      .then((source) => {
        sentence.value = catalogSentence(source, Date.now())
      })
      .catch(() => {})
  }, [])
  if (sentence.value === null) return null
  return <p class="hint catalog-source">{sentence.value}</p>
}
