// The character's own quest times from every run it logged (any life), beside this server's
// medians for the same quest and setting: how this character compares with the guild.
import { useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import { act, useFeedback } from '../action'
import { api, type QuestRow } from '../api'
import { Table, type TableKind } from '../components/Table'
import { formatNumber, minutes } from '../format'

type OwnTime = Awaited<ReturnType<typeof api.questTimes>>['times'][number]
interface TimeRow extends OwnTime {
  server: QuestRow['times'][number] | undefined
}

const TIMES: TableKind<TimeRow> = {
  rowKey: (r) => `${r.difficulty}:${r.name}:${r.setting}`,
  rowData: (r) => ({ 'data-quest': r.name, 'data-difficulty': r.difficulty, 'data-setting': r.setting }),
  columns: [
    { head: 'Quest', cell: (r) => r.name },
    { head: 'Tier', cell: (r) => r.difficulty },
    { head: 'Setting', cell: (r) => r.setting },
    { head: 'Your runs', num: true, cell: (r) => formatNumber(r.runs) },
    { head: 'Your median', num: true, value: 'own-median', cell: (r) => minutes(r.medianDurationSeconds) },
    { head: 'Your XP/min', num: true, cell: (r) => formatNumber(r.medianXpPerMinute) },
    {
      head: 'Server median',
      num: true,
      value: 'server-median',
      cell: (r) =>
        r.server?.medianDurationSeconds == null
          ? '—'
          : `${minutes(r.server.medianDurationSeconds)} (${formatNumber(r.server.runs)} runs)`,
    },
    { head: 'Server XP/min', num: true, cell: (r) => formatNumber(r.server?.medianXpPerMinute) },
  ],
}

export function RunTimes({ characterId, quests }: { characterId: number; quests: readonly QuestRow[] }) {
  const rows = useSignal<TimeRow[] | null>(null)
  const feedback = useFeedback()
  const problem = feedback.error
  useEffect(() => {
    const byRemake = new Map(quests.map((q) => [`${q.name}\u0000${q.difficulty}`, q.times]))
    void act(feedback, () => api.questTimes(characterId), { quiet: true }).then((read) => {
      if (!read.ok) return
      rows.value = read.value.times.map((time) => ({
        ...time,
        server: byRemake.get(`${time.name}\u0000${time.difficulty}`)?.find((s) => s.setting === time.setting),
      }))
    })
  }, [characterId, quests])
  return (
    <section class="stats-part" aria-labelledby="run-times-title" data-part="run-times">
      <h2 id="run-times-title">Your quest times and this server's</h2>
      <p class="hint">
        The median of every timed run you logged (every life), and the median of every player’s runs on this server
        (shown from 3 runs by 2 characters).
      </p>
      {problem.value && <p class="error">{problem.value}</p>}
      {rows.value?.length === 0 && (
        <p class="empty-plot">No timed runs yet: the game plugin reports each run's duration.</p>
      )}
      {rows.value && rows.value.length > 0 && (
        <div class="table-wrap">
          <Table
            name="run-times"
            caption="Your quest times beside the server's"
            hiddenCaption
            rows={rows.value}
            cards
            {...TIMES}
          />
        </div>
      )}
    </section>
  )
}
