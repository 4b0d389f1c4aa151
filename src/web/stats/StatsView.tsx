// The stats page's view: a few totals, then four plots, each with the numbers behind it as a
// table (in a disclosure, for screen readers and anyone who wants the figures).
import type { ComponentChildren } from 'preact'
import { useMemo } from 'preact/hooks'
import type uPlot from 'uplot'
import { activityByDay, favorByPatron, xpPerMinute } from '../../rules/stats'
import { rowsByName } from '../../rules/tracker'
import type { Character, Progress, QuestRow } from '../api'
import { CharacterHeader } from '../components/CharacterHeader'
import { formatNumber } from '../format'
import { Chart } from './Chart'
import { daySeconds, horizontalBars, localDay, overTime } from './charts'

/** The XP-per-minute plot shows the best this many; the table lists every one. */
const TOP_RATES = 15
const ROW_HEIGHT = 26
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const formatDay = (day: string) => dayFormat.format(new Date(daySeconds(day) * 1000))
const minutes = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })

function Part({
  id,
  title,
  intro,
  children,
}: {
  id: string
  title: string
  intro: ComponentChildren
  children: ComponentChildren
}) {
  return (
    <section class="stats-part" aria-labelledby={`${id}-title`} data-part={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p class="hint">{intro}</p>
      {children}
    </section>
  )
}

/** The numbers behind a plot: a real table with a caption, in a disclosure. */
function Numbers({ name, caption, children }: { name: string; caption: string; children: ComponentChildren }) {
  return (
    <details class="panel numbers">
      <summary>The numbers</summary>
      <div class="table-wrap">
        <table data-table={name}>
          <caption>{caption}</caption>
          {children}
        </table>
      </div>
    </details>
  )
}

const Empty = ({ children }: { children: ComponentChildren }) => <p class="empty-plot">{children}</p>

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
    }
  }, [progress, quests])
  const { rates, days, favor } = stats
  const last = days[days.length - 1]
  const favorEarned = favor.reduce((sum, p) => sum + p.earned, 0)
  const favorPossible = favor.reduce((sum, p) => sum + p.possible, 0)
  const reaperDays = days.filter((d) => d.reaperRuns > 0 || d.reaperXp > 0)

  const plots = useMemo(() => {
    const top = rates.rates.slice(0, TOP_RATES)
    const rateLabels = top.map((r) => (r.difficulty === 'Heroic' ? r.name : `${r.name} (${r.difficulty})`))
    const favorRows = favor.filter((p) => p.possible > 0)
    return {
      rates: {
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
      },
      activity: {
        options: overTime([
          { label: 'XP, running total', color: 0, scale: 'xp', kind: 'line' },
          { label: 'Completions, running total', color: 1, scale: 'n', kind: 'step', whole: true },
        ]),
        data: [
          days.map((d) => daySeconds(d.day)),
          days.map((d) => d.totalXp),
          days.map((d) => d.totalCompletions),
        ] as uPlot.AlignedData,
      },
      favor: {
        options: horizontalBars(
          favorRows.map((p) => p.patron || '(no patron)'),
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
      },
      reaper: {
        options: overTime([{ label: 'Reaper XP that day', color: 1, scale: 'rxp', kind: 'bars' }]),
        data: [reaperDays.map((d) => daySeconds(d.day)), reaperDays.map((d) => d.reaperXp)] as uPlot.AlignedData,
      },
    }
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

      <Part
        id="xp-per-minute"
        title="XP per minute of play, by quest"
        intro={
          <>
            XP of the timed runs over their minutes. XP is what the game reported; where it did not, the catalog
            estimate with your XP bonuses, marked “estimated”.
            {rates.untimed > 0 && ` ${formatNumber(rates.untimed)} runs without a duration are left out.`}
            {rates.unknownXp > 0 && ` ${formatNumber(rates.unknownXp)} runs of unknown XP are left out.`}
          </>
        }
      >
        {rates.rates.length === 0 ? (
          <Empty>No timed runs yet: the game plugin reports each run's duration.</Empty>
        ) : (
          <Chart
            name="xp-per-minute"
            label={`Bar chart of XP per minute for the ${Math.min(TOP_RATES, rates.rates.length)} best quests; the table below has every one.`}
            {...plots.rates}
          />
        )}
        <Numbers name="xp-per-minute" caption="XP per minute of play, by quest, best first">
          <thead>
            <tr>
              <th scope="col">Quest</th>
              <th scope="col">Tier</th>
              <th scope="col" class="num">
                Runs
              </th>
              <th scope="col" class="num">
                Minutes
              </th>
              <th scope="col" class="num">
                XP
              </th>
              <th scope="col" class="num">
                XP per minute
              </th>
            </tr>
          </thead>
          <tbody>
            {rates.rates.map((r) => (
              <tr key={`${r.difficulty}:${r.name}`} data-quest={r.name} data-difficulty={r.difficulty}>
                <th scope="row">{r.name}</th>
                <td>{r.difficulty}</td>
                <td class="num">{formatNumber(r.runs)}</td>
                <td class="num">{minutes.format(r.minutes)}</td>
                <td class="num">
                  {formatNumber(r.xp)}
                  {r.estimated && <span class="muted small"> estimated</span>}
                </td>
                <td class="num" data-value="xp-per-minute">
                  {formatNumber(r.xpPerMinute)}
                </td>
              </tr>
            ))}
          </tbody>
        </Numbers>
      </Part>

      <Part
        id="activity"
        title="Completions and XP over time"
        intro="Running totals by the day of each completion (your time zone)."
      >
        {days.length === 0 ? (
          <Empty>No completions yet.</Empty>
        ) : (
          <Chart
            name="activity"
            label={`Line chart of XP and completions over ${days.length} days, ending at ${formatNumber(last?.totalXp ?? 0)} XP from ${formatNumber(last?.totalCompletions ?? 0)} completions.`}
            height={260}
            {...plots.activity}
          />
        )}
        <Numbers name="activity" caption="Completions and XP by day">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" class="num">
                Completions
              </th>
              <th scope="col" class="num">
                XP
              </th>
              <th scope="col" class="num">
                Completions so far
              </th>
              <th scope="col" class="num">
                XP so far
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day} data-day={d.day}>
                <th scope="row">{formatDay(d.day)}</th>
                <td class="num" data-value="completions">
                  {formatNumber(d.completions)}
                </td>
                <td class="num" data-value="xp">
                  {formatNumber(d.xp)}
                  {d.estimatedXp > 0 && <span class="muted small"> ({formatNumber(d.estimatedXp)} estimated)</span>}
                </td>
                <td class="num">{formatNumber(d.totalCompletions)}</td>
                <td class="num">{formatNumber(d.totalXp)}</td>
              </tr>
            ))}
          </tbody>
        </Numbers>
      </Part>

      <Part
        id="favor"
        title="Favor by patron"
        intro="Favor earned against all the favor the catalog offers each patron (every quest on its best setting, once per quest name)."
      >
        <Chart
          name="favor"
          label={`Bar chart of favor earned against favor available for ${favor.length} patrons: ${formatNumber(favorEarned)} of ${formatNumber(favorPossible)} in all.`}
          {...plots.favor}
        />
        <Numbers name="favor" caption="Favor earned and available by patron">
          <thead>
            <tr>
              <th scope="col">Patron</th>
              <th scope="col" class="num">
                Earned
              </th>
              <th scope="col" class="num">
                Available
              </th>
            </tr>
          </thead>
          <tbody>
            {favor.map((p) => (
              <tr key={p.patron} data-patron={p.patron}>
                <th scope="row">{p.patron || '(no patron)'}</th>
                <td class="num" data-value="earned">
                  {formatNumber(p.earned)}
                </td>
                <td class="num" data-value="possible">
                  {formatNumber(p.possible)}
                </td>
              </tr>
            ))}
          </tbody>
        </Numbers>
      </Part>

      <Part
        id="reaper"
        title="Reaper XP"
        intro="Reaper experience the game reported, by day (the catalog has no reaper XP to estimate from)."
      >
        {reaperDays.length === 0 ? (
          <Empty>No reaper runs yet.</Empty>
        ) : (
          <Chart
            name="reaper"
            label={`Bar chart of reaper XP on ${reaperDays.length} days, ${formatNumber(last?.totalReaperXp ?? 0)} in all.`}
            height={220}
            {...plots.reaper}
          />
        )}
        <Numbers name="reaper" caption="Reaper runs and reaper XP by day">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" class="num">
                Reaper runs
              </th>
              <th scope="col" class="num">
                Reaper XP
              </th>
              <th scope="col" class="num">
                Reaper XP so far
              </th>
            </tr>
          </thead>
          <tbody>
            {reaperDays.map((d) => (
              <tr key={d.day} data-day={d.day}>
                <th scope="row">{formatDay(d.day)}</th>
                <td class="num">{formatNumber(d.reaperRuns)}</td>
                <td class="num" data-value="reaper-xp">
                  {formatNumber(d.reaperXp)}
                </td>
                <td class="num">{formatNumber(d.totalReaperXp)}</td>
              </tr>
            ))}
          </tbody>
        </Numbers>
      </Part>
    </div>
  )
}
