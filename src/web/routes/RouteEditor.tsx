// The route editor: a name, quests added from a catalog search (filtered in the page), each
// step's tier and setting, moved up and down with buttons (keyboard first: focus follows the step
// moved), removed, and the boosts and optionals the route assumes. Its state is editor.ts.
import { useRef } from 'preact/hooks'
import { STEP_SETTINGS } from '../../rules/routes/routeStep'
import { BonusChecklist } from '../components/BonusChecklist'
import { Messages } from '../components/Messages'
import { SelectField } from '../components/SelectField'
import type { EditorStore } from './editor'

function QuestSearch({ store }: { store: EditorStore }) {
  const results = store.results.value
  const words = store.search.value.trim()
  return (
    <section class="quest-search" aria-labelledby="search-title">
      <h2 id="search-title">Add quests</h2>
      <label class="field">
        <span>Find a quest</span>
        <input
          type="search"
          value={store.search.value}
          placeholder="Name or pack"
          autoComplete="off"
          aria-describedby="search-count"
          // Enter here must not submit the route form around it.
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault()
          }}
          onInput={(e) => {
            store.search.value = e.currentTarget.value
          }}
        />
      </label>
      <p id="search-count" class="hint small" aria-live="polite">
        {words === '' ? 'Type part of a quest name.' : `${results.length} matching quests shown.`}
      </p>
      {results.length > 0 && (
        <ul class="search-results">
          {results.map((q) => (
            <li key={`${q.difficulty}:${q.name}`} data-result={q.name} data-difficulty={q.difficulty}>
              <span>
                <strong>{q.name}</strong>{' '}
                <span class="muted small">
                  {q.difficulty}, level {q.level}
                  {q.pack ? `, ${q.pack}` : ''}
                </span>
              </span>
              <button
                type="button"
                class="button quiet"
                aria-label={`Add ${q.name} (${q.difficulty}, level ${q.level})`}
                onClick={() => store.add(q)}
              >
                Add
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** "Tier", and to a screen reader "Tier of step 3". */
const StepLabel = ({ what, n }: { what: string; n: number }) => (
  <>
    {what}
    <span class="sr-only"> of step {n}</span>
  </>
)

function StepList({ store }: { store: EditorStore }) {
  const listRef = useRef<HTMLOListElement>(null)
  const steps = store.steps.value

  /** After a move the step's row is elsewhere: put focus back on the same button there (or its twin at an end). */
  const moveAndFocus = (index: number, by: -1 | 1) => {
    const to = store.move(index, by)
    requestAnimationFrame(() => {
      const row = listRef.current?.children[to]
      const want = row?.querySelector<HTMLButtonElement>(`button[data-move="${by}"]:not(:disabled)`)
      const other = row?.querySelector<HTMLButtonElement>(`button[data-move="${-by}"]`)
      ;(want ?? other)?.focus()
    })
  }

  if (steps.length === 0) {
    return <p class="empty">No quests yet: find them in the search and add them.</p>
  }
  return (
    <ol class="steps-edit" ref={listRef}>
      {steps.map((step, i) => {
        const n = i + 1
        const tiers = store.tiersOf(step.name)
        return (
          <li key={step.key} data-step-name={step.name} data-position={n}>
            <span class="step-no" aria-hidden="true">
              {n}
            </span>
            <span class="step-name">{step.name}</span>
            <div class="step-fields">
              <SelectField
                id={`step-tier-${step.key}`}
                label={<StepLabel what="Tier" n={n} />}
                options={[...new Set([...tiers, step.difficulty])]}
                value={step.difficulty}
                onChange={(difficulty) => store.update(i, { difficulty })}
              />
              <SelectField
                id={`step-setting-${step.key}`}
                label={<StepLabel what="Setting" n={n} />}
                options={STEP_SETTINGS}
                value={step.setting}
                onChange={(setting) => store.update(i, { setting })}
              />
            </div>
            <div class="step-buttons">
              <button
                type="button"
                class="button quiet"
                data-move="-1"
                disabled={i === 0}
                aria-label={`Move step ${n}, ${step.name}, up`}
                onClick={() => moveAndFocus(i, -1)}
              >
                <span aria-hidden="true">↑</span> Up
              </button>
              <button
                type="button"
                class="button quiet"
                data-move="1"
                disabled={i === steps.length - 1}
                aria-label={`Move step ${n}, ${step.name}, down`}
                onClick={() => moveAndFocus(i, 1)}
              >
                <span aria-hidden="true">↓</span> Down
              </button>
              <button
                type="button"
                class="button quiet"
                aria-label={`Remove step ${n}, ${step.name}`}
                onClick={() => {
                  store.remove(i)
                  // Focus stays in the list: the step that took this place, else the one before.
                  requestAnimationFrame(() => {
                    const rows = listRef.current?.children
                    const row = rows?.[Math.min(i, (rows?.length ?? 1) - 1)]
                    row?.querySelector<HTMLButtonElement>('button[aria-label^="Remove"]')?.focus()
                  })
                }}
              >
                Remove
              </button>
            </div>
          </li>
        )
      })}
    </ol>
  )
}

export function Editor({ store }: { store: EditorStore }) {
  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault()
    const saved = await store.save()
    if (saved) location.assign(`/routes/${saved.id}`)
  }
  const editing = store.route !== null
  return (
    <div class="route-editor">
      <p class="crumbs">
        <a href={editing ? `/routes/${store.route?.id}` : '/routes'}>
          ← {editing ? 'Back to the route' : 'All routes'}
        </a>
      </p>
      <h1>{editing ? `Edit ${store.route?.name}` : 'New route'}</h1>
      <Messages error={store.error} notice={store.notice} />
      <form class="editor-grid" onSubmit={onSubmit} aria-label={editing ? 'Edit the route' : 'New route'}>
        <div class="editor-main">
          <label class="field">
            <span>Route name</span>
            <input
              type="text"
              required
              maxLength={200}
              value={store.name.value}
              onInput={(e) => {
                store.name.value = e.currentTarget.value
              }}
            />
          </label>
          <section aria-labelledby="steps-title">
            <h2 id="steps-title">
              Steps <span class="count">({store.steps.value.length})</span>
            </h2>
            <StepList store={store} />
          </section>
        </div>
        <QuestSearch store={store} />
        <div class="editor-more">
          <fieldset class="bonus-groups">
            <legend class="sr-only">Bonuses this route assumes</legend>
            <BonusChecklist
              stored={{ boost: store.boosts.value, optional: store.optionals.value }}
              onChange={(group, key, value) => store.setBonus(group === 'boost' ? 'boosts' : 'optionals', key, value)}
            />
          </fieldset>
          <div class="form-actions">
            <button type="submit" class="button primary" disabled={store.saving.value}>
              {store.saving.value ? 'Saving…' : editing ? 'Save route' : 'Create route'}
            </button>
            <span class="hint small">Every route is shared with everyone on this server.</span>
          </div>
        </div>
      </form>
    </div>
  )
}
