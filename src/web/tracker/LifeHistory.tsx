// Earlier quest lives on demand: the tracker shows the current quest life (a true reincarnation
// starts quests, favor and first-time bonuses over; an epic or lesser one keeps them); each earlier
// quest life's completions open here, read-only.
import { useSignal } from '@preact/signals'
import { act, useFeedback } from '../action'
import { api, type Progress } from '../api'
import { formatDate } from '../format'
import type { TrackerStore } from './store'

function EarlierLife({ store, index, label }: { store: TrackerStore; index: number; label: string }) {
  const progress = useSignal<Progress | null>(null)
  const feedback = useFeedback()
  const problem = feedback.error
  return (
    <details
      class="panel earlier-life"
      data-life={index}
      onToggle={(e) => {
        if (!(e.currentTarget as HTMLDetailsElement).open || progress.value) return
        void act(feedback, () => api.progress(store.characterId, index), { quiet: true }).then((answer) => {
          if (answer.ok) progress.value = answer.value
        })
      }}
    >
      <summary>{label}</summary>
      {problem.value && <p class="error">{problem.value}</p>}
      {progress.value &&
        (progress.value.completions.length === 0 ? (
          <p class="empty">No quest logged in this life.</p>
        ) : (
          <ul class="life-quests">
            {progress.value.completions.map((c) => (
              <li key={`${c.name}\u0000${c.difficulty}\u0000${c.setting}`}>
                {c.name}{' '}
                <span class="muted">
                  ({c.difficulty}, {c.setting}) {formatDate(c.completedAt)}
                </span>
              </li>
            ))}
          </ul>
        ))}
    </details>
  )
}

/** "Life 2", or "Lives 2–4" for a quest life several lives shared (epic or lesser reincarnations). */
const livesWords = (from: number, to: number) => (to > from ? `Lives ${from}–${to}` : `Life ${from}`)

export function LifeHistory({ store }: { store: TrackerStore }) {
  const life = store.progress.value.life
  if (life.count <= 1) return null
  const starts = life.questLives
  /** The last life of the quest life that began at `start`. */
  const end = (start: number) => (starts.find((s) => s > start) ?? life.count + 1) - 1
  const earlier = starts.filter((start) => start < life.questLife).reverse()
  const shown =
    life.questLife === life.index
      ? 'the tracker shows this life'
      : `the tracker shows ${livesWords(life.questLife, end(life.questLife)).toLowerCase()} (epic and lesser reincarnations keep the quests)`
  return (
    <section class="lives-history" aria-labelledby="lives-history-title">
      <h2 id="lives-history-title" class="small">
        Life {life.index} of {life.count}: {shown}
        {earlier.length > 0 ? '. Earlier lives:' : '.'}
      </h2>
      {earlier.map((start) => (
        <EarlierLife key={start} store={store} index={start} label={livesWords(start, end(start))} />
      ))}
    </section>
  )
}
