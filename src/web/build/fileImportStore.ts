// A DDO Builder file on its way in: the file read in the browser, the server's preview of it
// (its lives and builds, what it would change on the character, its quests matched to the
// catalog), what the player takes of it, and the import once confirmed. Nothing is written
// before Import; picking another build asks for a new preview, since the plan, the changes and
// the quests are that build's.
import { signal } from '@preact/signals'
import { count } from '../../rules/words'
import { api, type BuildImport, type BuildImportPreview, errorMessage, type ImportedBuild } from '../api'
import type { QuestChoice } from '../components/QuestMatches'

/** The server refuses bodies over 8 MiB (413); say so before sending one. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024

export type Take = NonNullable<BuildImport['take']>

export type FileImportStore = ReturnType<typeof createFileImportStore>

/**
 * `startFresh`: whether the character has nothing the file's history would replace (a new
 * character: no classes and no reincarnation yet), so taking the history is offered first.
 * `imported` runs with the server's answer once an import is done.
 */
export function createFileImportStore(
  characterId: number,
  startFresh: () => boolean,
  imported: (answer: ImportedBuild, summary: string) => Promise<void>,
) {
  const file = signal<{ name: string; text: string } | null>(null)
  const preview = signal<BuildImportPreview | null>(null)
  const build = signal<number | null>(null)
  const take = signal<Take>('plan')
  const quests = signal(false)
  const choices = signal<Record<string, QuestChoice>>({})
  const keepUnmatched = signal(false)
  const busy = signal<'reading' | 'preview' | 'import' | null>(null)
  const error = signal<string | null>(null)

  function clear(): void {
    file.value = null
    preview.value = null
    build.value = null
    choices.value = {}
    keepUnmatched.value = false
    error.value = null
  }

  async function ask(): Promise<void> {
    if (!file.value) return
    busy.value = 'preview'
    error.value = null
    try {
      const answer = await api.previewBuildImport(characterId, {
        xml: file.value.text,
        ...(build.value === null ? {} : { build: build.value }),
      })
      preview.value = answer
      build.value = answer.build
      choices.value = {}
    } catch (e) {
      preview.value = null
      error.value = errorMessage(e)
    } finally {
      busy.value = null
    }
  }

  /** A file dropped or chosen: read here (refused at once when too big), then previewed. */
  async function choose(chosen: File | null): Promise<void> {
    clear()
    if (!chosen) return
    if (chosen.size > MAX_IMPORT_BYTES) {
      error.value = `${chosen.name} is ${(chosen.size / 1024 / 1024).toFixed(1)} MiB; a DDO Builder file may be at most 8 MiB.`
      return
    }
    busy.value = 'reading'
    try {
      file.value = { name: chosen.name, text: await chosen.text() }
    } catch {
      error.value = `${chosen.name} could not be read.`
      busy.value = null
      return
    }
    await ask()
    const answer = preview.value
    if (answer) {
      take.value = startFresh() ? 'history' : 'plan'
      quests.value = answer.quests.total > 0
    }
  }

  async function pick(number: number): Promise<void> {
    build.value = number
    await ask()
  }

  function choose1(source: string, choice: QuestChoice | null): void {
    const next = { ...choices.value }
    if (choice) next[source] = choice
    else delete next[source]
    choices.value = next
  }

  async function confirm(): Promise<void> {
    const shown = preview.value
    if (!file.value || !shown || busy.value) return
    busy.value = 'import'
    error.value = null
    try {
      const answer = await api.importBuild(characterId, {
        xml: file.value.text,
        build: shown.build,
        take: take.value,
        quests: quests.value,
        keepUnmatched: keepUnmatched.value,
        choices: Object.entries(choices.value).map(([source, choice]) => ({ source, ...choice })),
      })
      const parts = ['the plan']
      if (take.value !== 'plan') parts.push('the character')
      if (answer.imported?.lives) parts.push(count(answer.imported.lives, 'life', 'lives'))
      if (answer.imported?.quests) parts.push(count(answer.imported.quests.add.length, 'completion'))
      const summary = `Imported build ${shown.build} of ${file.value.name}: ${parts.join(', ')}.`
      clear()
      await imported(answer, summary)
    } catch (e) {
      error.value = errorMessage(e)
    } finally {
      busy.value = null
    }
  }

  return {
    file,
    preview,
    build,
    take,
    quests,
    choices,
    keepUnmatched,
    busy,
    error,
    choose,
    pick,
    chooseQuest: choose1,
    confirm,
    cancel: clear,
  }
}
