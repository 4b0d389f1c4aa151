// Making and editing a character on the website (/characters/new, /characters/{id}/edit), for a
// player without the game plugin or one fixing what it sent: the plugin API's fields, rules and
// picklists (GET /characters/meta), and deleting the character after a confirmation.
import type { Signal } from '@preact/signals'
import { useMemo } from 'preact/hooks'
import { api, type Character, type CharacterMeta, type User } from '../api'
import { Confirm } from '../components/Confirm'
import { Layout } from '../components/Layout'
import { PageData, TO_CHARACTERS } from '../components/PageData'
import { SelectField } from '../components/SelectField'
import { requireUser } from '../session'
import { type CharacterEditStore, createCharacterEditStore, type Draft } from './characterEditStore'

/** A picklist's choices, with "none" first and a stored value the list does not know kept. */
function choices(list: readonly string[], current: string): [string, string][] {
  const known = current === '' || list.includes(current) ? list : [current, ...list]
  return [['', '—'], ...known.map((value): [string, string] => [value, value])]
}

function CharacterFormPage({ id }: { id: number | null }) {
  const load = async () => {
    const user = await requireUser()
    const [meta, character] = await Promise.all([api.characterMeta(), id === null ? null : api.character(id)])
    return { user, meta, character }
  }
  const title = id === null ? 'New character' : 'Edit character'
  return (
    <PageData title={title} what="the character" back={TO_CHARACTERS} load={load}>
      {(data) => <CharacterFormView {...data} />}
    </PageData>
  )
}

export const CharacterNewPage = () => <CharacterFormPage id={null} />
export const CharacterEditPage = ({ id }: { id: number }) => <CharacterFormPage id={id} />

interface ViewProps {
  user: User
  meta: CharacterMeta
  character: Character | null
}

function CharacterFormView({ user, meta, character }: ViewProps) {
  const store = useMemo(() => createCharacterEditStore(character, meta.maxMulticlass), [])
  const { draft } = store
  const { busy, error } = store.saving
  const title = character ? `Edit ${character.name}` : 'New character'
  const back = character ? `/characters/${character.id}` : '/'

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault()
    void store.save()
  }

  return (
    <Layout title={title} user={user}>
      <p class="crumbs">
        <a href={back}>{character ? `← ${character.name}` : '← All characters'}</a>
      </p>
      <h1>{title}</h1>
      <p class="hint">
        The same fields the game plugin sends; it keeps them up to date for a character it logs in with.
      </p>
      <form class="character-form" onSubmit={onSubmit} aria-describedby={error.value ? 'character-error' : undefined}>
        <ProfileFields draft={draft} meta={meta} />
        <ClassFields draft={draft} meta={meta} />
        {error.value && (
          <p id="character-error" class="error" role="alert">
            {error.value}
          </p>
        )}
        <div class="form-actions">
          <button type="submit" class="button primary" disabled={busy.value}>
            {character ? 'Save' : 'Create character'}
          </button>
          <a href={back}>Cancel</a>
        </div>
      </form>
      {character && <DeleteCharacter character={character} store={store} />}
    </Layout>
  )
}

type TextField = 'givenName' | 'surname' | 'guild'
type PickField = 'race' | 'gender' | 'alignment' | 'server'

function ProfileFields({ draft, meta }: { draft: Signal<Draft>; meta: CharacterMeta }) {
  const set = (field: TextField | PickField | 'epicLevels', value: string) => {
    draft.value = { ...draft.value, [field]: value }
  }
  const text = (field: TextField, label: string, required = false) => (
    <label class="field">
      <span>{label}</span>
      <input
        name={field}
        type="text"
        maxLength={100}
        required={required}
        value={draft.value[field]}
        onInput={(e) => set(field, e.currentTarget.value)}
      />
    </label>
  )
  const pick = (field: PickField, label: string, list: readonly string[]) => (
    <SelectField
      id={`character-${field}`}
      label={label}
      options={choices(list, draft.value[field])}
      value={draft.value[field]}
      onChange={(value) => set(field, value)}
    />
  )
  return (
    <div class="form-grid">
      {text('givenName', 'Given name', true)}
      {text('surname', 'Surname')}
      {pick('race', 'Race', meta.races)}
      {pick('gender', 'Gender', meta.genders)}
      {pick('alignment', 'Alignment', meta.alignments)}
      {pick('server', 'Server', meta.servers)}
      {text('guild', 'Guild')}
      <label class="field">
        <span>Epic levels</span>
        <input
          name="epicLevels"
          type="number"
          inputMode="numeric"
          min={0}
          max={meta.maxEpicLevels}
          required
          value={draft.value.epicLevels}
          onInput={(e) => set('epicLevels', e.currentTarget.value)}
        />
      </label>
    </div>
  )
}

/** Up to three classes, each once, 1 to 20 levels; the level shown is what the server will count. */
function ClassFields({ draft, meta }: { draft: Signal<Draft>; meta: CharacterMeta }) {
  const setClass = (index: number, change: Partial<Draft['classes'][number]>) => {
    const classes = draft.value.classes.map((entry, i) => (i === index ? { ...entry, ...change } : entry))
    draft.value = { ...draft.value, classes }
  }
  const heroic = draft.value.classes
    .filter((entry) => entry.name !== '')
    .reduce((sum, entry) => sum + (Number(entry.levels) || 0), 0)
  const level = Math.min(meta.maxTotalLevel, heroic + (Number(draft.value.epicLevels) || 0))
  return (
    <fieldset class="class-rows">
      <legend>Classes</legend>
      {draft.value.classes.map((entry, i) => (
        <div class="class-row" key={i}>
          <SelectField
            id={`character-class-${i + 1}`}
            label={`Class ${i + 1}`}
            options={choices(meta.classes, entry.name)}
            value={entry.name}
            onChange={(name) => setClass(i, { name })}
          />
          <label class="field">
            <span>Levels of class {i + 1}</span>
            <input
              name={`levels${i + 1}`}
              type="number"
              inputMode="numeric"
              min={1}
              max={meta.maxClassLevel}
              required={entry.name !== ''}
              disabled={entry.name === ''}
              value={entry.levels}
              onInput={(e) => setClass(i, { levels: e.currentTarget.value })}
            />
          </label>
        </div>
      ))}
      <p class="hint small" data-level={level}>
        Level {level}: the class levels and the epic levels together, at most {meta.maxTotalLevel}.
      </p>
    </fieldset>
  )
}

function DeleteCharacter({ character, store }: { character: Character; store: CharacterEditStore }) {
  const { error } = store.removing
  return (
    <section class="danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      <p class="hint">Deleting a character deletes its completions, builds and lives with it; it cannot be undone.</p>
      <Confirm
        label="Delete this character"
        class="button danger"
        question={`Delete ${character.name} and everything recorded for it?`}
        yes={`Delete ${character.name}`}
        no="Keep it"
        onYes={() => void store.remove()}
      />
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
    </section>
  )
}
