// "Your data" on the account page: everything of the account as one JSON file, each character's
// completions as CSV, and a CSV of completions imported into a character after a preview that
// says what would be added, what is stored already, what is ambiguous (choose) and what is not
// in the catalog (listed by name). Nothing is written until Import.
import { useMemo } from 'preact/hooks'
import { count } from '../../rules/words'
import { api, type Character } from '../api'
import { ErrorMessage } from '../components/Layout'
import { QuestMatches } from '../components/QuestMatches'
import { createDataImportStore, type DataImportStore } from './dataImport'

function Preview({ store }: { store: DataImportStore }) {
  const preview = store.preview.value
  if (!preview) return null
  const confirmed = preview.confirmed
  return (
    <div class="import-preview" data-confirmed={confirmed ? 'true' : 'false'}>
      <p
        data-summary={`${preview.add.length}/${preview.stored.length}/${preview.ambiguous.length}/${preview.unmatched.length}/${preview.invalid.length}`}
      >
        {confirmed ? 'Imported' : 'Would import'} {count(preview.add.length, 'completion')} of {preview.total}
        {preview.stored.length > 0 && `; ${count(preview.stored.length, 'is', 'are')} stored already`}.
      </p>
      <QuestMatches
        preview={preview}
        choices={store.choices.value}
        onChoose={store.choose}
        keepUnmatched={store.keepUnmatched.value}
        onKeepUnmatched={(keep) => {
          store.keepUnmatched.value = keep
        }}
      />
      {preview.invalid.length > 0 && (
        <div class="invalid">
          <p>Lines that could not be read, left out ({preview.invalid.length}):</p>
          <ul class="small">
            {preview.invalid.map((i) => (
              <li key={i.source}>
                {i.source}: {i.error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

export function DataSection({ characters }: { characters: Character[] }) {
  const store = useMemo(createDataImportStore, [])
  const busy = store.busy.value
  const preview = store.preview.value
  // What a confirm would do differs from the preview shown once a choice or the checkbox changed.
  const settled =
    preview !== null &&
    !preview.confirmed &&
    Object.keys(store.choices.value).length === 0 &&
    store.keepUnmatched.value === false
  return (
    <section class="account-part" aria-labelledby="data-title">
      <h2 id="data-title">Your data</h2>
      <p>
        <a class="button" href={api.exportAccountUrl()} download>
          Download everything (JSON)
        </a>
      </p>
      <p class="hint small">
        Every character with its completions, tracker settings, builds and lives, and the routes you made. No password
        or token.
      </p>
      {characters.length > 0 && (
        <>
          <h3>Completions as CSV</h3>
          <ul class="csv-downloads">
            {characters.map((c) => (
              <li key={c.id}>
                <a href={api.completionsCsvUrl(c.id)} download>
                  {c.name}: download completions (CSV)
                </a>
              </li>
            ))}
          </ul>
          <form
            class="stack"
            aria-labelledby="csv-import-title"
            onSubmit={(e) => {
              e.preventDefault()
              void store.confirm()
            }}
          >
            <h3 id="csv-import-title">Import completions from CSV</h3>
            <p class="hint small">
              Columns: name, difficulty, setting, completedAt, durationSeconds, xpEarned, reaperXpEarned, runs (a header
              line first; only name is needed). You see what would be imported first; completions already logged are
              kept as they are.
            </p>
            <label class="field">
              <span>Character</span>
              <select
                value={store.characterId.value ?? ''}
                onChange={(e) => {
                  store.characterId.value = e.currentTarget.value === '' ? null : Number(e.currentTarget.value)
                  store.reset()
                  if (store.file.value) void store.previewAgain()
                }}
              >
                <option value="">Choose…</option>
                {characters.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label class="field">
              <span>CSV file</span>
              <input
                type="file"
                accept=".csv,text/csv"
                onChange={(e) => void store.chooseFile(e.currentTarget.files?.[0] ?? null)}
              />
            </label>
            {busy === 'preview' && <p aria-live="polite">Reading the file…</p>}
            <Preview store={store} />
            {preview && !preview.confirmed && (
              <div class="panel-actions">
                {!settled && (
                  <button
                    type="button"
                    class="button quiet"
                    disabled={busy !== null}
                    onClick={() => void store.previewAgain()}
                  >
                    Update the preview
                  </button>
                )}
                <button type="submit" class="button primary" disabled={busy !== null}>
                  {busy === 'import' ? 'Importing…' : 'Import'}
                </button>
              </div>
            )}
            {store.error.value && <ErrorMessage message={store.error.value} />}
            {store.notice.value && (
              <p class="ok-note" role="status">
                {store.notice.value}
              </p>
            )}
          </form>
        </>
      )}
    </section>
  )
}
