// Reincarnation as the game has it (src/rules/character/reincarnation.ts): the kinds this life
// can take (heroic and racial out of a race that is not iconic, iconic out of an iconic one, epic,
// lesser), each with what it grants and resets and the level it needs, one grant per kind (an
// epic past life from the ones still below 3); then the lives timeline, newest first, with the
// past-life feats each finished life granted.
import { useSignal } from '@preact/signals'
import { classSummary } from '../../rules/character/levels'
import {
  type PastLifeGrant,
  pastLifeGlance,
  pastLifeName,
  type ReincarnationOption,
} from '../../rules/character/pastLifeGlance'
import { grantedPastLives } from '../../rules/character/pastLives'
import { ALIGNMENTS, canonicalRace, RACE_NAMES } from '../../rules/character/picklists'
import {
  REINCARNATION_LEVEL,
  REINCARNATION_RESETS,
  type ReincarnationKind,
  startsQuestLife,
} from '../../rules/character/reincarnation'
import { pastLifeCount } from '../../rules/words'
import type { Life, ReincarnateBody } from '../api'
import { SelectField } from '../components/SelectField'
import { formatDate } from '../format'
import type { BuildStore } from './store'

const KIND_LABELS: Record<ReincarnationKind, string> = {
  heroic: 'Heroic',
  racial: 'Racial',
  iconic: 'Iconic',
  epic: 'Epic',
  lesser: 'Lesser',
}

/** A kind the form offers: the glance's option (what it grants), or lesser (nothing). */
interface Kind {
  kind: ReincarnationKind
  requiredLevel: number
  allowed: boolean
  grants: PastLifeGrant[]
}

const grantWords = (g: PastLifeGrant) =>
  g.to > g.from ? `${g.feat} (${g.from} → ${g.to})` : `${g.feat} (at 3 already)`

/** What a kind would grant out of the life being finished, in words (the rule's line says the kind's own). */
function grantLine(option: Kind): string {
  if (option.kind === 'lesser' || option.kind === 'epic') return '' // nothing; the picklist says it
  if (option.grants.length === 0)
    return option.kind === 'racial'
      ? 'This life has no race: nothing to grant.'
      : 'This life has no class levels yet: nothing to grant.'
  return `This life: ${option.grants.map(grantWords).join(' and ')}.`
}

function ReincarnateForm({ store, current }: { store: BuildStore; current: Life }) {
  const kind = useSignal<ReincarnationKind | null>(null)
  const epicFeat = useSignal<string | null>(null)
  /** Reincarnating may reset what the character has done: the button asks first, saying what. */
  const asking = useSignal(false)
  const character = store.character.value
  const level = character.totalLevel
  const glance = pastLifeGlance({
    history: store.lives.value.map((life) => life.specialFeats),
    snapshot: store.live.value ? (store.live.value.document.life?.specialFeats ?? []) : null,
    current: { race: current.race, classes: current.classes },
    level,
  })
  const kinds: Kind[] = [
    ...glance.nextReincarnation.options.map((o: ReincarnationOption) => ({
      kind: o.kind,
      requiredLevel: o.requiredLevel,
      allowed: o.allowed,
      grants: o.grants,
    })),
    { kind: 'lesser', requiredLevel: REINCARNATION_LEVEL.lesser, allowed: true, grants: [] },
  ]
  const chosen = kinds.find((k) => k.kind === kind.value && k.allowed) ?? null
  const epicGrants = kinds.find((k) => k.kind === 'epic')?.grants ?? []
  const epicPick = epicGrants.find((g) => g.feat === epicFeat.value) ?? epicGrants[0]
  const startsOver = chosen !== null && startsQuestLife(chosen.kind)
  const who = character.name || 'this character'
  const levelWords = level === 0 ? `${who} has no class levels yet` : `${who} is level ${level}`
  const nextIndex = current.lifeIndex + 1

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault()
    if (!chosen) return
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const text = (name: string) => String(data.get(name) ?? '').trim()
    // The kind says the grants (the server's defaults): an epic one names its epic past life.
    const body: ReincarnateBody = { kind: chosen.kind }
    if (chosen.kind === 'epic' && epicPick) body.additionalPastLives = [{ name: epicPick.feat, type: 'EpicPastLife' }]
    if (text('name')) body.name = text('name')
    if (startsOver && text('race')) body.race = text('race')
    if (startsOver && text('alignment')) body.alignment = text('alignment')
    void store.reincarnate(body).then(() => {
      asking.value = false
      if (store.error.value === null) {
        form.reset()
        kind.value = null
        epicFeat.value = null
      }
    })
  }

  const question = !chosen
    ? ''
    : startsOver
      ? `Reincarnate ${who} (${KIND_LABELS[chosen.kind].toLowerCase()})? Life ${current.lifeIndex}'s quests stay in its history but no longer count as done: the tracker, favor (and its rewards) and first-time XP bonuses start over in life ${nextIndex}. The class levels start over too; past lives and builds are kept.`
      : chosen.kind === 'epic'
        ? `Epic reincarnation of ${who}? Level 30 back to 20 in life ${nextIndex}; the quests, favor and class levels are kept${epicPick ? `, and ${epicPick.feat} is granted` : ''}.`
        : `Lesser reincarnation of ${who}? Life ${nextIndex} keeps the level, quests, favor and past lives; nothing is granted.`

  return (
    <form class="reincarnate" onSubmit={onSubmit} aria-labelledby="reincarnate-title">
      <h3 id="reincarnate-title">Reincarnate</h3>
      <p class="hint small">
        Ends life {current.lifeIndex} ({current.name || 'unnamed'}) and starts the next. Past lives carry over; the kind
        decides what else does. {who} is level {level}.
      </p>
      <fieldset class="kinds">
        <legend>Kind of reincarnation</legend>
        {kinds.map((k) => (
          <label key={k.kind} class="check take-option" data-kind={k.kind} data-allowed={k.allowed ? 'true' : 'false'}>
            <input
              type="radio"
              name="kind"
              value={k.kind}
              checked={kind.value === k.kind}
              disabled={!k.allowed}
              aria-describedby={`kind-${k.kind}-rule`}
              onChange={() => {
                kind.value = k.kind
                asking.value = false
              }}
            />
            <span>
              <strong>{KIND_LABELS[k.kind]}</strong>{' '}
              <span class="muted">{k.requiredLevel > 1 ? `(level ${k.requiredLevel}+)` : '(any level)'}</span>
              <span class="hint small block" id={`kind-${k.kind}-rule`}>
                {REINCARNATION_RESETS[k.kind]}
                {!k.allowed && ` Needs level ${k.requiredLevel}; ${levelWords}.`}
                {k.allowed && grantLine(k) && ` ${grantLine(k)}`}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {chosen?.kind === 'epic' &&
        (epicGrants.length === 0 ? (
          <p class="small">Every epic past life is at 3 already: nothing more to grant.</p>
        ) : (
          <SelectField
            id="reincarnate-epic"
            label="Epic past life to grant"
            options={epicGrants.map((g) => [g.feat, `${g.sphere}: ${g.name} (${g.from} → ${g.to})`] as const)}
            value={epicPick?.feat}
            onChange={(feat) => {
              epicFeat.value = feat
            }}
          />
        ))}
      {chosen && (
        <div class="row-fields">
          <label class="field">
            <span>Name of the new life</span>
            <input name="name" type="text" placeholder={current.name} autoComplete="off" maxLength={100} />
          </label>
          {startsOver && (
            <>
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
            </>
          )}
        </div>
      )}
      {asking.value && chosen ? (
        <fieldset class="confirm" data-reincarnate-confirm>
          <legend>{question}</legend>
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
          disabled={store.busy.value !== null || !chosen}
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
              {[canonicalRace(life.race), life.alignment, classSummary(life.classes)]
                .filter(Boolean)
                .map((f) => ` · ${f}`)}
            </p>
            <p class="muted small" data-kind={life.kind ?? ''}>
              Started {formatDate(life.createdAt)}
              {life.kind &&
                ` by a${life.kind === 'epic' || life.kind === 'iconic' ? 'n' : ''} ${life.kind} reincarnation`}
              {life.questLife !== life.lifeIndex && ` (quests of life ${life.questLife} on)`}
              {life.archivedAt && ` · ended ${formatDate(life.archivedAt)}`}
            </p>
            {!life.isCurrent && (
              <p class="granted" data-granted={granted.map((g) => g.name).join('|')}>
                {granted.length === 0
                  ? 'Granted no past life.'
                  : `Granted past lives: ${granted
                      .map((g) => `${pastLifeName(g.type, g.name)}${g.stacks > 1 ? ` ×${g.stacks}` : ''}`)
                      .join(', ')}.`}
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
