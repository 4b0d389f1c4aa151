// The character form's state: the draft as the inputs hold it (numbers as typed), and the save
// and delete actions, each saying its own refusal where its button is; either leaves for the page
// that follows once the server said yes.
import { signal } from '@preact/signals'
import { act, createFeedback, goOnTo } from '../action'
import { api, type Character, type CharacterInput } from '../api'

/** The form's fields as the inputs hold them (numbers as typed). */
export interface Draft {
  givenName: string
  surname: string
  race: string
  gender: string
  alignment: string
  server: string
  guild: string
  classes: { name: string; levels: string }[]
  epicLevels: string
}

const draftOf = (c: Character | null, slots: number): Draft => ({
  givenName: c?.givenName ?? '',
  surname: c?.surname ?? '',
  race: c?.race ?? '',
  gender: c?.gender ?? '',
  alignment: c?.alignment ?? '',
  server: c?.server ?? '',
  guild: c?.guild ?? '',
  classes: Array.from({ length: slots }, (_, i) => {
    const entry = c?.classes[i]
    return entry ? { name: entry.name, levels: String(entry.levels) } : { name: '', levels: '1' }
  }),
  epicLevels: String(c?.epicLevels ?? 0),
})

/** What the form sends: every field (an empty one clears it), the classes that are chosen. */
function inputOf(draft: Draft): CharacterInput {
  return {
    givenName: draft.givenName,
    surname: draft.surname,
    race: draft.race,
    gender: draft.gender,
    alignment: draft.alignment,
    server: draft.server,
    guild: draft.guild,
    classes: draft.classes
      .filter((entry) => entry.name !== '')
      .map((entry) => ({ name: entry.name, levels: Number(entry.levels) })),
    epicLevels: Number(draft.epicLevels),
  }
}

export type CharacterEditStore = ReturnType<typeof createCharacterEditStore>

export function createCharacterEditStore(character: Character | null, slots: number) {
  const draft = signal(draftOf(character, slots))
  /** The form's save. */
  const saving = createFeedback()
  /** The delete, said under its own button. */
  const removing = createFeedback()

  async function save(): Promise<void> {
    const body = inputOf(draft.value)
    const saved = await act(saving, () =>
      character ? api.updateCharacter(character.id, body) : api.createCharacter(body),
    )
    if (saved.ok) goOnTo(saving, `/characters/${saved.value.id}`)
  }

  async function remove(): Promise<void> {
    if (!character) return
    const id = character.id
    if ((await act(removing, () => api.deleteCharacter(id), { quiet: true })).ok)
      goOnTo(removing, '/', { replace: true })
  }

  return { draft, saving, removing, save, remove }
}
