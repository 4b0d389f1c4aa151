// The completions import's state: the file chosen, the preview the server answered (what would
// be added, what is stored already, what is ambiguous or not in the catalog), the player's
// choices for the ambiguous, and the import itself once confirmed. Nothing is written before
// the player confirms; the server previews again inside the write, so what is written is what
// was shown for the same file and choices.
import { signal } from '@preact/signals'
import type { Difficulty } from '../../rules/quests/completion'
import { api, type CompletionsImportResult, errorMessage } from '../api'

export type DataImportStore = ReturnType<typeof createDataImportStore>

export function createDataImportStore() {
  const characterId = signal<number | null>(null)
  const file = signal<{ name: string; text: string } | null>(null)
  const preview = signal<CompletionsImportResult | null>(null)
  /** By source line: the remake the player chose for an ambiguous name. */
  const choices = signal<Record<string, { name: string; difficulty: Difficulty }>>({})
  const keepUnmatched = signal(false)
  const busy = signal<'preview' | 'import' | null>(null)
  const error = signal<string | null>(null)
  const notice = signal<string | null>(null)

  const body = (confirm: boolean) => ({
    csv: file.value?.text ?? '',
    confirm,
    keepUnmatched: keepUnmatched.value,
    choices: Object.entries(choices.value).map(([source, choice]) => ({ source, ...choice })),
  })

  async function run(confirm: boolean): Promise<void> {
    const id = characterId.value
    if (id === null || !file.value) {
      error.value = id === null ? 'Choose a character first.' : 'Choose a CSV file first.'
      return
    }
    busy.value = confirm ? 'import' : 'preview'
    error.value = null
    try {
      const answer = await api.importCompletions(id, body(confirm))
      preview.value = answer
      if (confirm) {
        notice.value = `Imported ${answer.add.length} completion${answer.add.length === 1 ? '' : 's'} from ${file.value.name}.`
      }
    } catch (e) {
      error.value = errorMessage(e)
    } finally {
      busy.value = null
    }
  }

  /** A new file or character: the old preview no longer says anything about it. */
  function reset(): void {
    preview.value = null
    choices.value = {}
    notice.value = null
  }

  async function chooseFile(chosen: File | null): Promise<void> {
    reset()
    file.value = chosen ? { name: chosen.name, text: await chosen.text() } : null
    if (chosen) await run(false)
  }

  function choose(source: string, choice: { name: string; difficulty: Difficulty } | null): void {
    const next = { ...choices.value }
    if (choice) next[source] = choice
    else delete next[source]
    choices.value = next
  }

  return {
    characterId,
    file,
    preview,
    choices,
    keepUnmatched,
    busy,
    error,
    notice,
    reset,
    chooseFile,
    choose,
    previewAgain: () => run(false),
    confirm: () => run(true),
  }
}
