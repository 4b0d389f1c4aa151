// "What to run next": the quests worth running now for this character, ranked by XP per minute
// or by the next favor reward (GET …/next), each with the line saying why. Read with the page's
// first reads, then again whenever the progress the server holds changes (a tick here once
// stored, a post from the game client).
import { useSignal, useSignalEffect } from '@preact/signals'
import { act, useFeedback } from '../action'
import { api, type NextAnswer } from '../api'
import { formatNumber, minutes } from '../format'
import type { TrackerStore } from './store'

type By = NextAnswer['by']

const FROM_LABEL = { own: 'your runs', server: 'this server', estimate: 'estimate' } as const

export function NextPanel({ store }: { store: TrackerStore }) {
  const by = useSignal<By>('xp')
  const answer = useSignal<NextAnswer | null>(store.firstNextNow)
  const feedback = useFeedback()
  const problem = feedback.error
  useSignalEffect(() => {
    // Read on every stored change of the progress (the signal's value is the dependency) or the
    // ranking; not on the page's own change before it is stored, whose read would race the write.
    void store.stored.value
    const ranking = by.value
    let current = true
    // The first read was started with the page's others (pages/Tracker.tsx).
    const read = () => store.takeFirstNext(ranking) ?? api.next(store.characterId, ranking)
    void act(feedback, read, { quiet: true, stale: () => !current }).then((next) => {
      if (next.ok) answer.value = next.value
    })
    return () => {
      current = false
    }
  })
  const next = answer.value
  // What is shown is the answer's ranking (the other one may still be on its way).
  return (
    <section class="next panel" aria-labelledby="next-title" data-next-by={next?.by}>
      <div class="next-head">
        <h2 id="next-title">What to run next</h2>
        <fieldset class="segmented">
          <legend class="sr-only">Rank by</legend>
          {(['xp', 'favor'] as const).map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="next-by"
                value={value}
                checked={by.value === value}
                onChange={() => {
                  by.value = value
                }}
              />
              {value === 'xp' ? 'XP per minute' : 'Next favor reward'}
            </label>
          ))}
        </fieldset>
      </div>
      {problem.value && <p class="error">{problem.value}</p>}
      {next && next.by === 'favor' && next.nextRewards[0] && (
        <p class="hint" data-next-reward>
          Nearest reward: {next.nextRewards[0].kind === 'total' ? 'total favor' : next.nextRewards[0].patron}{' '}
          {next.nextRewards[0].at} ({next.nextRewards[0].reward}), {next.nextRewards[0].missing} favor to go.
        </p>
      )}
      {next && next.quests.length === 0 && (
        <p class="empty">
          {next.by === 'xp'
            ? `Nothing left in the Full XP band at ${next.setting} with these filters.`
            : 'No quest within reach adds favor at this setting.'}
        </p>
      )}
      {next && next.quests.length > 0 && <NextList next={next} quests={next.quests} />}
      {next && next.raids.length > 0 && (
        <>
          <h3 class="next-raids">Raids, for a group's evening</h3>
          <NextList next={next} quests={next.raids} />
        </>
      )}
    </section>
  )
}

function NextList({ next, quests }: { next: NextAnswer; quests: NextAnswer['quests'] }) {
  return (
    <ol class="next-list">
      {quests.map((q) => (
        <li
          key={`${q.name}\u0000${q.difficulty}`}
          data-next-quest={q.name}
          data-difficulty={q.difficulty}
          data-raid={q.raid ? 'true' : undefined}
        >
          <div class="next-line">
            <strong>{q.name}</strong>{' '}
            <span class="muted">
              {q.difficulty} {q.level} · {q.setting}
              {q.raid && ' · raid'}
            </span>
            <span class="next-figures">
              {next.by === 'xp' ? `${formatNumber(q.xpPerMinute)} XP/min` : `+${q.favorGain} favor`} ·{' '}
              {minutes(q.expectedMinutes * 60)} ({FROM_LABEL[q.minutesFrom]})
            </span>
          </div>
          <p class="why small muted">{q.why}</p>
        </li>
      ))}
    </ol>
  )
}
