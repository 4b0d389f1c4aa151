// What a player does to the planned build from here: copy the live snapshot over it, import a
// DDO Builder file (read in the browser, previewed, then imported as the player chose:
// FileImport.tsx), or download it as one.
import { useMemo } from 'preact/hooks'
import { api } from '../api'
import { FileDrop, FileImport } from './FileImport'
import { createFileImportStore } from './fileImportStore'
import type { BuildStore } from './store'

export function Actions({ store }: { store: BuildStore }) {
  const busy = store.busy.value
  const hasLive = store.live.value !== null
  const hasPlan = store.planned.value.document !== null
  const warnings = store.importWarnings.value
  const fileImport = useMemo(
    () =>
      createFileImportStore(
        store.characterId,
        // A new character: no classes yet and no reincarnation; its history is the file's.
        () => store.character.value.classes.length === 0 && store.lives.value.length <= 1,
        store.imported,
      ),
    [store],
  )

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

      <FileDrop store={fileImport}>
        {hasPlan && (
          <p class="small">
            <a href={api.exportBuildUrl(store.characterId)} download>
              Download the planned build and the lives history (.DDOBuild)
            </a>
          </p>
        )}
      </FileDrop>

      <div class="build-import-wrap">
        <FileImport store={fileImport} />
      </div>

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
