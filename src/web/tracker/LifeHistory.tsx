// Earlier lives on demand: the tracker shows the current life (a reincarnation starts quests,
// favor and first-time bonuses over); each earlier life's completions open here, read-only.
import { useSignal } from '@preact/signals'
import { api, errorMessage, type Progress } from '../api'
import { formatDate } from '../format'
import type { TrackerStore } from './store'

function EarlierLife({ store, index }: { store: TrackerStore; index: number }) {
  const progress = useSignal<Progress | null>(null)
  const problem = useSignal<string | null>(null)
  return (
    <details
      class="panel earlier-life"
      data-life={index}
      onToggle={(e) => {
        if (!(e.currentTarget as HTMLDetailsElement).open || progress.value) return
        api
          .progress(store.characterId, index)
          .then((answer) => {
            progress.value = answer
          })
          .catch((error: unknown) => {
            problem.value = errorMessage(error)
          })
      }}
    >
      <summary>Life {index}</summary>
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

export function LifeHistory({ store }: { store: TrackerStore }) {
  const life = store.progress.value.life
  if (life.count <= 1) return null
  const earlier = Array.from({ length: life.count - 1 }, (_, i) => life.count - 1 - i)
  return (
    <section class="lives-history" aria-labelledby="lives-history-title">
      <h2 id="lives-history-title" class="small">
        Life {life.index} of {life.count}: the tracker shows this life. Earlier lives:
      </h2>
      {earlier.map((index) => (
        <EarlierLife key={index} store={store} index={index} />
      ))}
    </section>
  )
}
