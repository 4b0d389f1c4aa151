// The build page's DDO Builder import: a file dropped on the box or chosen, then the preview of
// it (its lives, its builds to pick the plan from, what it would change on the character, its
// completed quests matched to the catalog) with what to take, and Import. Nothing is written
// before Import; errors are the server's one sentence.
import { useState } from 'preact/hooks'
import { classSummary } from '../../rules/character/levels'
import { canonicalRace } from '../../rules/character/picklists'
import { count } from '../../rules/words'
import type { BuildImportPreview } from '../api'
import { ErrorMessage } from '../components/Layout'
import { QuestMatches } from '../components/QuestMatches'
import type { FileImportStore, Take } from './fileImportStore'

const FIELD_NAMES = {
  race: 'Race',
  alignment: 'Alignment',
  classes: 'Classes',
  level: 'Level',
  pastLives: 'Past lives',
} as const

const classes = (list: { name: string; levels: number }[]) => classSummary(list) || 'no classes'

function BuildPicker({ store, preview }: { store: FileImportStore; preview: BuildImportPreview }) {
  if (preview.builds.length === 1) return null
  return (
    <label class="field">
      <span>Build to plan from ({count(preview.builds.length, 'build')} in the file)</span>
      <select
        value={String(preview.build)}
        disabled={store.busy.value !== null}
        onChange={(e) => void store.pick(Number(e.currentTarget.value))}
      >
        {preview.builds.map((b) => (
          <option key={b.number} value={String(b.number)}>
            {`${b.number}: life ${b.life}, level ${b.level}, ${classes(b.classes)}`}
            {b.number === preview.activeBuild ? ' (the planner’s active build)' : ''}
            {b.notes.trim() ? ` — ${b.notes.trim().split('\n')[0]?.slice(0, 60)}` : ''}
          </option>
        ))}
      </select>
    </label>
  )
}

function Lives({ preview }: { preview: BuildImportPreview }) {
  return (
    <details open={preview.lives.length > 1}>
      <summary>{count(preview.lives.length, 'life', 'lives')} in the file</summary>
      <ol class="small file-lives">
        {preview.lives.map((life) => (
          <li key={life.number}>
            {life.name || 'Unnamed'}: {canonicalRace(life.race)} {classes(life.classes)}, {life.alignment}
            {life.builds > 1 && ` (${count(life.builds, 'build')})`}
          </li>
        ))}
      </ol>
    </details>
  )
}

function TakeChoice({ store, preview }: { store: FileImportStore; preview: BuildImportPreview }) {
  const take = store.take.value
  const option = (value: Take, label: string, detail: preact.ComponentChildren) => (
    <label class="check take-option">
      <input
        type="radio"
        name="take"
        value={value}
        checked={take === value}
        onChange={() => {
          store.take.value = value
        }}
      />
      <span>
        <strong>{label}</strong>
        <span class="hint small"> {detail}</span>
      </span>
    </label>
  )
  const changes = preview.character
  const { stored, file, ignored } = preview.history
  return (
    <fieldset class="take">
      <legend>What to take</legend>
      {option('plan', 'The plan only', 'The character stays as it is now.')}
      {option(
        'character',
        'The plan, and the character as this build has it',
        changes.length === 0 ? 'Nothing about the character would change.' : 'Changes what the table below lists.',
      )}
      {option(
        'history',
        'All of that, and the lives history',
        `${stored === 0 ? 'No lives are stored yet' : `Replaces the ${count(stored, 'life', 'lives')} stored`} with the file's ${count(file.length, 'life', 'lives')}, oldest first${ignored > 0 ? ` (the ${count(ignored, 'life', 'lives')} after this build's are left out)` : ''}.`,
      )}
      {changes.length > 0 && take !== 'plan' && (
        <table class="changes small">
          <caption class="sr-only">What the character would change</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Now</th>
              <th scope="col">From the file</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.field} data-field={c.field}>
                <th scope="row">{FIELD_NAMES[c.field]}</th>
                <td>{c.now || '—'}</td>
                <td>{c.file}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </fieldset>
  )
}

function Quests({ store, preview }: { store: FileImportStore; preview: BuildImportPreview }) {
  const q = preview.quests
  if (q.total === 0) return <p class="hint small">This build lists no completed quests.</p>
  return (
    <div class="file-quests">
      <label class="check">
        <input
          type="checkbox"
          checked={store.quests.value}
          onChange={(e) => {
            store.quests.value = e.currentTarget.checked
          }}
        />
        <span>
          Log this build's {count(q.total, 'completed quest')} as completions:{' '}
          <span data-quests={`${q.add.length}/${q.stored.length}/${q.ambiguous.length}/${q.unmatched.length}`}>
            {count(q.add.length, 'is', 'are')} new
            {q.stored.length > 0 && `, ${q.stored.length} logged already`}
            {q.ambiguous.length > 0 && `, ${q.ambiguous.length} to choose`}
            {q.unmatched.length > 0 && `, ${q.unmatched.length} not in the catalog`}
          </span>
        </span>
      </label>
      {store.quests.value && (
        <QuestMatches
          preview={q}
          choices={store.choices.value}
          onChoose={store.chooseQuest}
          keepUnmatched={store.keepUnmatched.value}
          onKeepUnmatched={(keep) => {
            store.keepUnmatched.value = keep
          }}
        />
      )}
    </div>
  )
}

function Preview({ store, preview }: { store: FileImportStore; preview: BuildImportPreview }) {
  const plan = preview.plan
  const busy = store.busy.value
  return (
    <form
      class="import-preview build-import"
      aria-labelledby="file-preview-title"
      onSubmit={(e) => {
        e.preventDefault()
        void store.confirm()
      }}
    >
      <h3 id="file-preview-title">{store.file.value?.name}</h3>
      <p data-plan={preview.build}>
        The plan: {plan.name || 'unnamed'}, {canonicalRace(plan.race)} {classes(plan.classes)}, level {plan.level}.
      </p>
      <BuildPicker store={store} preview={preview} />
      <Lives preview={preview} />
      <TakeChoice store={store} preview={preview} />
      <Quests store={store} preview={preview} />
      {plan.warnings.length > 0 && (
        <details>
          <summary>
            Not imported: {count(plan.warnings.length, 'kind of thing', 'kinds of things')} the plan has no place for
          </summary>
          <ul class="small">
            {plan.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
      <div class="panel-actions">
        <button type="button" class="button quiet" disabled={busy !== null} onClick={store.cancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy !== null}>
          {busy === 'import' ? 'Importing…' : 'Import'}
        </button>
      </div>
    </form>
  )
}

/** The drop box, in the row of actions. */
export function FileDrop({ store, children }: { store: FileImportStore; children?: preact.ComponentChildren }) {
  const [over, setOver] = useState(false)
  const busy = store.busy.value
  return (
    // A drop target is a region of the page: the file input inside is how a keyboard chooses a file.
    <section
      class="action-box file-drop"
      aria-labelledby="import-title"
      data-over={over ? 'true' : 'false'}
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault()
        setOver(false)
        void store.choose(e.dataTransfer?.files?.[0] ?? null)
      }}
    >
      <h3 id="import-title">DDO Builder file</h3>
      <p class="hint small" id="import-note">
        Drop a .DDOBuild file here, or choose one. You see what it holds and choose what to take before anything
        changes.
      </p>
      <label class="field">
        <span>Build file (.DDOBuild)</span>
        <input
          type="file"
          name="file"
          accept=".DDOBuild"
          aria-describedby="import-note"
          disabled={busy === 'import'}
          onChange={(e) => void store.choose(e.currentTarget.files?.[0] ?? null)}
        />
      </label>
      {(busy === 'reading' || busy === 'preview') && (
        <p class="small" aria-live="polite">
          Reading the file…
        </p>
      )}
      {children}
    </section>
  )
}

/** The preview, full width under the actions, and the import's error. */
export function FileImport({ store }: { store: FileImportStore }) {
  const preview = store.preview.value
  return (
    <>
      {store.error.value && <ErrorMessage message={store.error.value} />}
      {preview && <Preview store={store} preview={preview} />}
    </>
  )
}
