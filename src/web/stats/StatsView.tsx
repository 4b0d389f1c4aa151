// The stats page's view: a few totals, then four plots, each with the numbers behind it as a
// table (in a disclosure, for screen readers and anyone who wants the figures), and the most reaper
// skulls by quest.
import type { ComponentChildren } from 'preact'
import { useMemo } from 'preact/hooks'
import type uPlot from 'uplot'
import {
  activityByDay,
  type DayActivity,
  favorByPatron,
  type QuestRate,
  type QuestSkulls,
  reaperSkullsByQuest,
  xpPerMinute,
} from '../../rules/quests/stats'
import { rowsByName } from '../../rules/quests/tracker'
import type { Character, Progress, QuestRow } from '../api'
import { CharacterHeader } from '../components/CharacterHeader'
import { FavorTable } from '../components/FavorTable'
import { type Column, Table, type TableKind } from '../components/Table'
import { formatNumber, patronLabel } from '../format'
import { Chart, type ChartProps } from './Chart'
import { daySeconds, horizontalBars, localDay, overTime } from './charts'
import { RunTimes } from './RunTimes'

/** The XP-per-minute plot shows the best this many; the table lists every one. */
const TOP_RATES = 15
const ROW_HEIGHT = 26
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const formatDay = (day: string) => dayFormat.format(new Date(daySeconds(day) * 1000))
const minutes = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })

/** One part of the page: its words, its plot (or what shows when there is nothing to plot yet). */
interface PartSpec {
  title: string
  intro: ComponentChildren
  empty?: string | false
  plot: Omit<ChartProps, 'name'>
}

/** A part with the numbers behind its plot: a real table with a caption, in a disclosure. */
function Part({ id, title, intro, empty, plot, children }: PartSpec & { id: string; children: ComponentChildren }) {
  return (
    <section class="stats-part" aria-labelledby={`${id}-title`} data-part={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p class="hint">{intro}</p>
      {empty ? <p class="empty-plot">{empty}</p> : <Chart name={id} {...plot} />}
      <details class="panel numbers">
        <summary>The numbers</summary>
        <div class="table-wrap">{children}</div>
      </details>
    </section>
  )
}

const RATES: TableKind<QuestRate> = {
  rowKey: (r) => `${r.difficulty}:${r.name}`,
  rowData: (r) => ({ 'data-quest': r.name, 'data-difficulty': r.difficulty }),
  columns: [
    { head: 'Quest', cell: (r) => r.name },
    { head: 'Tier', cell: (r) => r.difficulty },
    { head: 'Runs', num: true, cell: (r) => formatNumber(r.runs) },
    { head: 'Minutes', num: true, cell: (r) => minutes.format(r.minutes) },
    {
      head: 'XP',
      num: true,
      cell: (r) => (
        <>
          {formatNumber(r.xp)}
          {r.estimated && <span class="muted small"> estimated</span>}
        </>
      ),
    },
    { head: 'XP per minute', num: true, value: 'xp-per-minute', cell: (r) => formatNumber(r.xpPerMinute) },
  ],
}

/** The day tables: a row a day, headed by the day. */
const BY_DAY = { rowKey: (d: DayActivity) => d.day, rowData: (d: DayActivity) => ({ 'data-day': d.day }) }
const DAY: Column<DayActivity> = { head: 'Day', cell: (d) => formatDay(d.day) }

const ACTIVITY: TableKind<DayActivity> = {
  ...BY_DAY,
  columns: [
    DAY,
    { head: 'Completions', num: true, value: 'completions', cell: (d) => formatNumber(d.completions) },
    {
      head: 'XP',
      num: true,
      value: 'xp',
      cell: (d) => (
        <>
          {formatNumber(d.xp)}
          {d.estimatedXp > 0 && <span class="muted small"> ({formatNumber(d.estimatedXp)} estimated)</span>}
        </>
      ),
    },
    { head: 'Completions so far', num: true, cell: (d) => formatNumber(d.totalCompletions) },
    { head: 'XP so far', num: true, cell: (d) => formatNumber(d.totalXp) },
  ],
}

const REAPER: TableKind<DayActivity> = {
  ...BY_DAY,
  columns: [
    DAY,
    { head: 'Reaper runs', num: true, cell: (d) => formatNumber(d.reaperRuns) },
    { head: 'Reaper XP', num: true, value: 'reaper-xp', cell: (d) => formatNumber(d.reaperXp) },
    { head: 'Reaper XP so far', num: true, cell: (d) => formatNumber(d.totalReaperXp) },
  ],
}

const SKULLS: TableKind<QuestSkulls> = {
  rowKey: (q) => `${q.difficulty}:${q.name}`,
  rowData: (q) => ({ 'data-quest': q.name, 'data-difficulty': q.difficulty }),
  columns: [
    { head: 'Quest', cell: (q) => q.name },
    { head: 'Tier', cell: (q) => q.difficulty },
    {
      head: 'Most skulls',
      num: true,
      value: 'skulls',
      cell: (q) => (q.skulls === null ? <span class="muted">not given</span> : `R${q.skulls}`),
    },
  ],
}

interface StatsProps {
  character: Character
  progress: Progress
  quests: readonly QuestRow[]
}

export function StatsView({ character, progress, quests }: StatsProps) {
  const stats = useMemo(() => {
    const byName = rowsByName(quests)
    const settings = { xpBoosts: progress.xpBoosts, optionalPursuit: progress.optionalPursuit }
    return {
      rates: xpPerMinute(progress.completions, byName, settings),
      days: activityByDay(progress.completions, byName, settings, localDay),
      favor: favorByPatron(quests, progress.completions),
      skulls: reaperSkullsByQuest(progress.completions),
    }
  }, [progress, quests])
  const { rates, days, favor, skulls } = stats
  const last = days[days.length - 1]
  const favorEarned = favor.reduce((sum, p) => sum + p.earned, 0)
  const favorPossible = favor.reduce((sum, p) => sum + p.possible, 0)
  const reaperDays = days.filter((d) => d.reaperRuns > 0 || d.reaperXp > 0)

  const parts = useMemo(() => {
    const top = rates.rates.slice(0, TOP_RATES)
    const rateLabels = top.map((r) => (r.difficulty === 'Heroic' ? r.name : `${r.name} (${r.difficulty})`))
    const favorRows = favor.filter((p) => p.possible > 0)
    return {
      rates: {
        title: 'XP per minute of play, by quest',
        intro: (
          <>
            XP of the timed runs over their minutes. XP is what the game reported; where it did not, the catalog
            estimate with your XP bonuses, marked “estimated”.
            {rates.untimed > 0 && ` ${formatNumber(rates.untimed)} runs without a duration are left out.`}
            {rates.unknownXp > 0 && ` ${formatNumber(rates.unknownXp)} runs of unknown XP are left out.`}
          </>
        ),
        empty: rates.rates.length === 0 && "No timed runs yet: the game plugin reports each run's duration.",
        plot: {
          options: horizontalBars(rateLabels, [
            { label: 'XP the game reported', color: 0, size: 0.6 },
            { label: 'Some XP estimated', color: 1, size: 0.6 },
          ]),
          data: [
            top.map((_, i) => i),
            top.map((r) => (r.estimated ? null : r.xpPerMinute)),
            top.map((r) => (r.estimated ? r.xpPerMinute : null)),
          ] as uPlot.AlignedData,
          height: top.length * ROW_HEIGHT + 80,
          label: `Bar chart of XP per minute for the ${top.length} best quests; the table below has every one.`,
        },
      },
      activity: {
        title: 'Completions and XP over time',
        intro: 'Running totals by the day of each completion (your time zone).',
        empty: days.length === 0 && 'No completions yet.',
        plot: {
          options: overTime([
            { label: 'XP, running total', color: 0, scale: 'xp', kind: 'line' },
            { label: 'Completions, running total', color: 1, scale: 'n', kind: 'step', whole: true },
          ]),
          data: [
            days.map((d) => daySeconds(d.day)),
            days.map((d) => d.totalXp),
            days.map((d) => d.totalCompletions),
          ] as uPlot.AlignedData,
          height: 260,
          label: `Line chart of XP and completions over ${days.length} days, ending at ${formatNumber(last?.totalXp ?? 0)} XP from ${formatNumber(last?.totalCompletions ?? 0)} completions.`,
        },
      },
      favor: {
        title: 'Favor by patron',
        intro:
          'Favor earned against all the favor the catalog offers each patron (every quest on its best setting, once per quest name).',
        plot: {
          options: horizontalBars(
            favorRows.map((p) => patronLabel(p.patron)),
            [
              { label: 'Available', color: 2, size: 0.7, outline: true },
              { label: 'Earned', color: 0, size: 0.4 },
            ],
          ),
          data: [
            favorRows.map((_, i) => i),
            favorRows.map((p) => p.possible),
            favorRows.map((p) => p.earned),
          ] as uPlot.AlignedData,
          height: favorRows.length * ROW_HEIGHT + 80,
          label: `Bar chart of favor earned against favor available for ${favor.length} patrons: ${formatNumber(favorEarned)} of ${formatNumber(favorPossible)} in all.`,
        },
      },
      reaper: {
        title: 'Reaper XP',
        intro: 'Reaper experience the game reported, by day (the catalog has no reaper XP to estimate from).',
        empty: reaperDays.length === 0 && 'No reaper runs yet.',
        plot: {
          options: overTime([{ label: 'Reaper XP that day', color: 1, scale: 'rxp', kind: 'bars' }]),
          data: [reaperDays.map((d) => daySeconds(d.day)), reaperDays.map((d) => d.reaperXp)] as uPlot.AlignedData,
          height: 220,
          label: `Bar chart of reaper XP on ${reaperDays.length} days, ${formatNumber(last?.totalReaperXp ?? 0)} in all.`,
        },
      },
    } satisfies Record<string, PartSpec>
  }, [stats])

  return (
    <div class="stats-page">
      <CharacterHeader character={character} current="stats" />
      <dl class="stats">
        <div>
          <dt>Completions</dt>
          <dd data-total="completions">{formatNumber(progress.completions.length)}</dd>
        </div>
        <div>
          <dt>XP earned</dt>
          <dd data-total="xp">{formatNumber(last?.totalXp ?? 0)}</dd>
        </div>
        <div>
          <dt>Favor</dt>
          <dd data-total="favor">
            {formatNumber(favorEarned)} <span class="muted">of {formatNumber(favorPossible)}</span>
          </dd>
        </div>
        <div>
          <dt>Reaper XP</dt>
          <dd data-total="reaper-xp">{formatNumber(last?.totalReaperXp ?? 0)}</dd>
        </div>
      </dl>

      <Part id="xp-per-minute" {...parts.rates}>
        <Table
          name="xp-per-minute"
          caption="XP per minute of play, by quest, best first"
          rows={rates.rates}
          {...RATES}
        />
      </Part>
      <RunTimes characterId={character.id} quests={quests} />
      <Part id="activity" {...parts.activity}>
        <Table name="activity" caption="Completions and XP by day" rows={days} {...ACTIVITY} />
      </Part>
      <Part id="favor" {...parts.favor}>
        <FavorTable name="favor" caption="Favor earned and available by patron" favor={favor} possible="Available" />
      </Part>
      <Part id="reaper" {...parts.reaper}>
        <Table name="reaper" caption="Reaper runs and reaper XP by day" rows={reaperDays} {...REAPER} />
      </Part>
      <section class="stats-part" aria-labelledby="reaper-skulls-title" data-part="reaper-skulls">
        <h2 id="reaper-skulls-title">Reaper skulls, by quest</h2>
        <p class="hint">
          The most skulls each quest was run on reaper with, as the game plugin (or an import) reported them. Runs
          logged as reaper without a count say “not given”.
        </p>
        {skulls.length === 0 ? (
          <p class="empty-plot">No reaper runs yet.</p>
        ) : (
          <div class="table-wrap">
            <Table
              name="reaper-skulls"
              caption="The most reaper skulls by quest, most first"
              rows={skulls}
              {...SKULLS}
            />
          </div>
        )}
      </section>
    </div>
  )
}
