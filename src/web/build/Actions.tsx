// What a player does to the planned build from here: copy the live snapshot over it, import a
// DDO Builder file (read in the browser, sent as text), or download it as one.
import { useRef } from 'preact/hooks'
import { api } from '../api'
import type { BuildStore } from './store'

export function Actions({ store }: { store: BuildStore }) {
  const fileRef = useRef<HTMLInputElement>(null)
  const busy = store.busy.value
  const hasLive = store.live.value !== null
  const hasPlan = store.planned.value.document !== null
  const warnings = store.importWarnings.value

  const onImport = (event: SubmitEvent) => {
    event.preventDefault()
    const file = fileRef.current?.files?.[0]
    if (!file) {
      store.error.value = 'Choose a DDO Builder file (.DDOBuild) first.'
      fileRef.current?.focus()
      return
    }
    void store.importFile(file).then(() => {
      if (fileRef.current && store.error.value === null) fileRef.current.value = ''
    })
  }

  return (
    <section class="build-actions" aria-labelledby="actions-title">
      <h2 id="actions-title" class="sr-only">
        Planned build actions
      </h2>
      <div class="action-box">
        <h3>From the game</h3>
        <p class="hint small" id="promote-note">
          Copies the live snapshot over the planned build.
        </p>
        <button
          type="button"
          class="button"
          disabled={!hasLive || busy !== null}
          aria-describedby="promote-note"
          onClick={() => void store.promote()}
        >
          {busy === 'promote' ? 'Promoting…' : 'Promote live to planned'}
        </button>
        {!hasLive && <p class="hint small">No live snapshot yet.</p>}
      </div>

      <form class="action-box" onSubmit={onImport} aria-labelledby="import-title">
        <h3 id="import-title">DDO Builder file</h3>
        <p class="hint small" id="import-note">
          Replaces the planned build with the file's active life and build.
        </p>
        <div class="file-row">
          <label class="field">
            <span>Build file (.DDOBuild)</span>
            <input ref={fileRef} type="file" name="file" accept=".DDOBuild" aria-describedby="import-note" />
          </label>
          <button type="submit" class="button primary" disabled={busy !== null}>
            {busy === 'import' ? 'Importing…' : 'Import'}
          </button>
        </div>
        {hasPlan && (
          <p class="small">
            <a href={api.exportBuildUrl(store.characterId)} download>
              Download the planned build (.DDOBuild)
            </a>
          </p>
        )}
      </form>

      {warnings !== null && (
        <div class="import-warnings" data-warnings={warnings.length}>
          {warnings.length === 0 ? (
            <p class="ok-note">Everything in the file was imported.</p>
          ) : (
            <>
              <p>Not imported (the build document has no place for it):</p>
              <ul>
                {warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  )
}
