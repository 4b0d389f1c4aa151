// Reincarnation (the API document's fields: name, race, alignment of the new life, the heroic
// and racial past lives to grant, more past lives) and the lives timeline, newest first, with the
// past-life feats each finished life granted.
import { useSignal } from '@preact/signals'
import { classSummary } from '../../rules/character/levels'
import { dominantClass, grantedPastLives, heroicPastLife, racialPastLife } from '../../rules/character/pastLives'
import { ALIGNMENTS, RACE_NAMES } from '../../rules/character/picklists'
import { pastLifeCount } from '../../rules/words'
import type { Life, ReincarnateBody } from '../api'
import { SelectField } from '../components/SelectField'
import { formatDate } from '../format'
import type { BuildStore } from './store'

const PAST_LIFE_TYPES = [
  ['HeroicPastLife', 'Heroic'],
  ['RacialPastLife', 'Racial'],
  ['IconicPastLife', 'Iconic'],
  ['EpicPastLife', 'Epic'],
] as const

interface ExtraPastLife {
  key: number
  name: string
  type: string
  stacks: number
}

function ReincarnateForm({ store, current }: { store: BuildStore; current: Life }) {
  const extras = useSignal<ExtraPastLife[]>([])
  const nextKey = useSignal(1)
  /** Reincarnating resets what the character has done: the button asks first, saying what. */
  const asking = useSignal(false)
  const dominant = dominantClass(current.classes)
  const heroic = dominant ? heroicPastLife(dominant).name : null
  const racial = current.race ? racialPastLife(current.race).name : null

  const update = (key: number, patch: Partial<ExtraPastLife>) => {
    extras.value = extras.value.map((e) => (e.key === key ? { ...e, ...patch } : e))
  }

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const text = (name: string) => String(data.get(name) ?? '').trim()
    const body: ReincarnateBody = {
      grantHeroic: data.get('grantHeroic') === 'on',
      grantRacial: data.get('grantRacial') === 'on',
    }
    if (text('name')) body.name = text('name')
    if (text('race')) body.race = text('race')
    if (text('alignment')) body.alignment = text('alignment')
    const more = extras.value.filter((e) => e.name.trim() !== '')
    if (more.length > 0)
      body.additionalPastLives = more.map((e) => ({ name: e.name.trim(), type: e.type, stacks: e.stacks }))
    void store.reincarnate(body).then(() => {
      asking.value = false
      if (store.error.value === null) {
        form.reset()
        extras.value = []
      }
    })
  }

  return (
    <form class="reincarnate" onSubmit={onSubmit} aria-labelledby="reincarnate-title">
      <h3 id="reincarnate-title">Reincarnate</h3>
      <p class="hint small">
        Ends life {current.lifeIndex} ({current.name || 'unnamed'}) and starts the next. Past lives carry over; the
        tracker, favor and first-time bonuses start over.
      </p>
      <div class="row-fields">
        <label class="field">
          <span>Name of the new life</span>
          <input name="name" type="text" placeholder={current.name} autoComplete="off" maxLength={100} />
        </label>
        <label class="field">
          <span>Race</span>
          <input name="race" type="text" list="race-names" placeholder={current.race} autoComplete="off" />
          <datalist id="race-names">
            {RACE_NAMES.map((r) => (
              <option key={r} value={r} />
            ))}
          </datalist>
        </label>
        <SelectField
          id="reincarnate-alignment"
          label="Alignment"
          name="alignment"
          options={[['', `Keep ${current.alignment || 'as it is'}`], ...ALIGNMENTS]}
        />
      </div>
      <fieldset class="grants">
        <legend>Past lives to grant</legend>
        <label class="check">
          <input type="checkbox" name="grantHeroic" disabled={!heroic} />
          <span>
            Heroic past life{' '}
            {heroic ? <span class="muted">({heroic})</span> : <span class="muted">(no class levels)</span>}
          </span>
        </label>
        <label class="check">
          <input type="checkbox" name="grantRacial" disabled={!racial} />
          <span>
            Racial past life {racial ? <span class="muted">({racial})</span> : <span class="muted">(no race)</span>}
          </span>
        </label>
        {extras.value.map((extra, i) => (
          <div class="extra-life" key={extra.key} data-extra={i + 1}>
            <label class="field">
              <span>Past life {i + 1}: feat name</span>
              <input
                type="text"
                value={extra.name}
                placeholder="Past Life: Arcane Sphere"
                onInput={(e) => update(extra.key, { name: e.currentTarget.value })}
              />
            </label>
            <SelectField
              id={`extra-type-${extra.key}`}
              label="Kind"
              options={PAST_LIFE_TYPES}
              value={extra.type}
              onChange={(type) => update(extra.key, { type })}
            />
            <label class="field">
              <span>Stacks</span>
              <input
                type="number"
                class="percent-input"
                min={1}
                max={3}
                value={extra.stacks}
                onInput={(e) =>
                  update(extra.key, { stacks: Math.min(3, Math.max(1, Number(e.currentTarget.value) || 1)) })
                }
              />
            </label>
            <button
              type="button"
              class="button quiet"
              onClick={() => {
                extras.value = extras.value.filter((e) => e.key !== extra.key)
              }}
            >
              Remove past life {i + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          class="button quiet"
          onClick={() => {
            extras.value = [...extras.value, { key: nextKey.value, name: '', type: 'EpicPastLife', stacks: 1 }]
            nextKey.value++
          }}
        >
          Add another past life
        </button>
      </fieldset>
      {asking.value ? (
        <fieldset class="confirm" data-reincarnate-confirm>
          <legend>
            Reincarnate {current.name || 'this character'}? Life {current.lifeIndex}'s quests stay in its history but no
            longer count as done: the tracker, favor (and its rewards) and first-time XP bonuses start over in life{' '}
            {current.lifeIndex + 1}. The class levels start over too; past lives and builds are kept.
          </legend>
          <button type="submit" class="button danger" disabled={store.busy.value !== null}>
            {store.busy.value === 'reincarnate' ? 'Reincarnating…' : 'Yes, reincarnate'}
          </button>
          <button
            ref={(button) => button?.focus()}
            type="button"
            class="button quiet"
            onClick={() => {
              asking.value = false
            }}
          >
            Not now
          </button>
        </fieldset>
      ) : (
        <button
          type="button"
          class="button primary"
          disabled={store.busy.value !== null}
          onClick={() => {
            asking.value = true
          }}
        >
          Reincarnate…
        </button>
      )}
    </form>
  )
}

function Timeline({ lives }: { lives: readonly Life[] }) {
  const byIndex = new Map(lives.map((l) => [l.lifeIndex, l]))
  const newestFirst = [...lives].sort((a, b) => b.lifeIndex - a.lifeIndex)
  return (
    <ol class="timeline" aria-label="Lives, newest first">
      {newestFirst.map((life) => {
        const next = byIndex.get(life.lifeIndex + 1)
        const granted = next ? grantedPastLives(life.specialFeats, next.specialFeats) : []
        const pastLives = life.specialFeats.filter((f) => f.type.endsWith('PastLife'))
        return (
          <li key={life.id} data-life={life.lifeIndex} data-current={life.isCurrent ? 'true' : 'false'}>
            <h3>
              Life {life.lifeIndex}
              {life.isCurrent && <span class="badge">current</span>}
            </h3>
            <p>
              <strong>{life.name || 'unnamed'}</strong>
              {[life.race, life.alignment, classSummary(life.classes)].filter(Boolean).map((f) => ` · ${f}`)}
            </p>
            <p class="muted small">
              Started {formatDate(life.createdAt)}
              {life.archivedAt && ` · ended ${formatDate(life.archivedAt)}`}
            </p>
            {!life.isCurrent && (
              <p class="granted" data-granted={granted.map((g) => g.name).join('|')}>
                {granted.length === 0
                  ? 'Granted no past life.'
                  : `Granted: ${granted.map((g) => (g.stacks > 1 ? `${g.name} ×${g.stacks}` : g.name)).join(', ')}.`}
              </p>
            )}
            {life.isCurrent && (
              <p class="small">
                {pastLives.length === 0
                  ? 'No past lives yet.'
                  : `Has ${pastLifeCount(
                      pastLives.length,
                      pastLives.reduce((n, f) => n + f.stacks, 0),
                    )}.`}
              </p>
            )}
          </li>
        )
      })}
    </ol>
  )
}

export function Lives({ store }: { store: BuildStore }) {
  const lives = store.lives.value
  const current = lives.find((l) => l.isCurrent)
  return (
    <section class="lives" aria-labelledby="lives-title">
      <h2 id="lives-title">Lives</h2>
      {current && <ReincarnateForm store={store} current={current} />}
      <Timeline lives={lives} />
    </section>
  )
}
