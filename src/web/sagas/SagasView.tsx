// The sagas page's view (issue 41 section 4): the sagas by tier, each with how many of its quests
// the character has done (of how many), its NPC and levels, the reward XP where a source gives it,
// and its quests: done or not, on what (the best setting, `R7` on reaper with its skulls), and
// those the quest catalog lacks marked so. What it counts and what it does not is said at the top;
// where the table comes from at the foot.
import type { Setting } from '../../rules/quests/completion'
import type { Character, CharacterSagas } from '../api'
import { CharacterHeader } from '../components/CharacterHeader'
import { formatNumber } from '../format'

type Saga = CharacterSagas['sagas'][number]
type Quest = Saga['quests'][number]

const TIERS = ['Heroic', 'Epic', 'Legendary'] as const

const SETTING_WORDS: Readonly<Record<Setting, string>> = {
  casual: 'Casual',
  normal: 'Normal',
  hard: 'Hard',
  elite: 'Elite',
  reaper: 'Reaper',
  unknown: 'Setting unknown',
}

/** On what a quest was done: its best setting, reaper with its skulls (`R7`). */
function bestWord(q: Quest): string {
  if (q.best === 'reaper' && q.reaperSkulls !== null) return `R${q.reaperSkulls}`
  return q.best ? SETTING_WORDS[q.best] : ''
}

function QuestLine({ quest }: { quest: Quest }) {
  const also =
    quest.settings.length > 1 ? `Logged on ${quest.settings.map((s) => SETTING_WORDS[s]).join(', ')}` : undefined
  return (
    <li data-quest={quest.name} data-done={quest.done ? 'true' : 'false'} class={quest.done ? 'done' : undefined}>
      <span class="saga-mark" aria-hidden="true">
        {quest.done ? '✓' : '·'}
      </span>
      <span class="saga-quest">
        {quest.name}
        {quest.catalog === null && <span class="saga-missing"> not in the quest catalog</span>}
      </span>
      <span class="saga-best" data-best={quest.best ?? undefined} title={also}>
        {quest.done ? bestWord(quest) : <span class="sr-only">not done</span>}
      </span>
    </li>
  )
}

function SagaCard({ saga }: { saga: Saga }) {
  const finished = saga.done === saga.total
  const xp = saga.rewardXp
  return (
    <details
      class={`saga${finished ? ' finished' : ''}`}
      data-saga={saga.id}
      data-done={saga.done}
      open={saga.done > 0 && !finished}
    >
      <summary class="saga-head">
        <span class="saga-name">{saga.name}</span>
        <span class="saga-count">
          {saga.done} of {saga.total}
        </span>
        <progress
          max={saga.total}
          value={saga.done}
          aria-label={`${saga.name}: ${saga.done} of ${saga.total} quests done`}
        />
      </summary>
      <p class="saga-facts small">
        Levels {saga.levels} · reward from {saga.npc}
      </p>
      {xp && (
        <p class="saga-xp small" data-reward-xp>
          Reward XP: Normal {formatNumber(xp.normal)} · Hard {formatNumber(xp.hard)} · Elite {formatNumber(xp.elite)} ·
          True Elite {formatNumber(xp.trueElite)}
        </p>
      )}
      <ul class="saga-quests">
        {saga.quests.map((q) => (
          <QuestLine key={q.name} quest={q} />
        ))}
      </ul>
    </details>
  )
}

export function SagasView({ character, sagas }: { character: Character; sagas: CharacterSagas }) {
  const started = sagas.sagas.filter((s) => s.done > 0).length
  const finished = sagas.sagas.filter((s) => s.done === s.total).length
  return (
    <div class="sagas-page">
      <CharacterHeader character={character} current="sagas" />
      <p class="hint">
        Which quests of each saga {character.name} has done in this life (the completions the tracker counts), and the
        best setting each was done on. A saga quest logged without a tier counts for the saga's tier. How a saga counts
        a setting, and what it takes to reach each of its rewards, no source this server can cite says: neither is
        shown.
      </p>
      <p class="sagas-summary" data-started={started} data-finished={finished}>
        {started} of {sagas.sagas.length} sagas started, {finished} with every quest done.
      </p>
      {TIERS.map((tier) => {
        const list = sagas.sagas.filter((s) => s.tier === tier)
        if (list.length === 0) return null
        return (
          <section key={tier} class="saga-tier" aria-labelledby={`sagas-${tier}`} data-tier={tier}>
            <h2 id={`sagas-${tier}`}>{tier} sagas</h2>
            <div class="saga-grid">
              {list.map((saga) => (
                <SagaCard key={saga.id} saga={saga} />
              ))}
            </div>
          </section>
        )
      })}
      <footer class="sagas-sources small">
        <p>Where the saga list comes from:</p>
        <ul>
          {sagas.sources.map((source) => (
            <li key={source.url}>
              <a href={source.url}>{source.name}</a> ({source.licence}; as of {source.asOf}): {source.gives}.
            </li>
          ))}
        </ul>
        <p>
          A quest "not in the quest catalog" is one this server's quest list does not have yet; it still counts when the
          game plugin logs it.
        </p>
      </footer>
    </div>
  )
}
