// One character's past lives (/past-lives/{id}): its totals, what each kind of reincarnation out of
// the current life would grant, then every heroic, racial, iconic and epic past life with its stacks.
import type { ComponentChildren } from 'preact'
import { count } from '../../rules/words'
import type { CharacterPastLives } from '../api'
import { formatDate } from '../format'
import { fullness, Pips, TotalsList } from './parts'

type Glance = CharacterPastLives
type Option = Glance['nextReincarnation']['options'][number]
type Grant = Option['grants'][number]

const OPTION_LABELS: Record<Option['kind'], string> = {
  heroic: 'Heroic reincarnation',
  racial: 'Racial reincarnation',
  iconic: 'Iconic reincarnation',
  epic: 'Epic reincarnation',
}

const grantText = (g: Grant) =>
  g.to > g.from ? `${g.name} ${g.from} → ${g.to}` : `${g.name} is at 3 already: nothing more`

/** What one kind of reincarnation grants, in a sentence. */
function optionText(option: Option): string {
  if (option.kind === 'epic') {
    if (option.grants.length === 0) return 'every epic past life is at 3 already: nothing more'
    const spheres = new Map<string, number>()
    for (const g of option.grants) spheres.set(g.sphere ?? '', (spheres.get(g.sphere ?? '') ?? 0) + 1)
    const per = [...spheres].map(([sphere, n]) => `${sphere} ${n}`).join(', ')
    return `one epic past life of your choice, among the ${option.grants.length} still below 3 (${per})`
  }
  if (option.grants.length === 0)
    return option.kind === 'racial' ? 'no race in this life' : 'no class levels in this life yet'
  return option.grants.map(grantText).join(', and ')
}

/** "Heroic and racial reincarnation need level 20, epic reincarnation level 30": the kinds not reached yet. */
function laterText(later: readonly Option[]): string {
  const byLevel = new Map<number, string[]>()
  for (const o of later) byLevel.set(o.requiredLevel, [...(byLevel.get(o.requiredLevel) ?? []), o.kind])
  const parts = [...byLevel].map(([level, kinds], i) => {
    const words = `${kinds.join(' and ')} reincarnation`
    return i === 0
      ? `${words[0]?.toUpperCase()}${words.slice(1)} ${kinds.length > 1 ? 'need' : 'needs'} level ${level}`
      : `${words} level ${level}`
  })
  return parts.join(', ')
}

function NextReincarnation({ next }: { next: Glance['nextReincarnation'] }) {
  const who = [next.race, next.dominantClass].filter(Boolean).join(' ')
  // Only what the character's level allows (the wiki's page of each kind: 20 for heroic and
  // racial, 30 for iconic and epic); the rest say the level they need.
  const now = next.options.filter((o) => o.allowed)
  const later = next.options.filter((o) => !o.allowed)
  return (
    <section class="pl-next" aria-labelledby="pl-next-title">
      <h2 id="pl-next-title">Next reincarnation</h2>
      {now.length > 0 ? (
        <>
          <p class="hint small">
            Reincarnating out of this life{who ? ` (${who})` : ''} at level {next.level} would grant:
          </p>
          <ul>
            {now.map((option) => (
              <li key={option.kind} data-option={option.kind}>
                <strong>{OPTION_LABELS[option.kind]}</strong>: {optionText(option)}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p class="small" data-no-option>
          At level {next.level}, no reincarnation grants a past life yet (a lesser one, at any level, grants nothing).
        </p>
      )}
      {later.length > 0 && (
        <p class="hint small" data-later={later.map((o) => o.kind).join(' ')}>
          {laterText(later)}; this character is level {next.level}.
        </p>
      )}
    </section>
  )
}

interface Row {
  feat: string
  count: number
  label: ComponentChildren
}

function Group({ id, title, summary, rows }: { id: string; title: string; summary: string; rows: Row[] }) {
  return (
    <section aria-labelledby={id} class="pl-group">
      <h2 id={id}>
        {title} <span class="count">{summary}</span>
      </h2>
      <ul class="pl-grid">
        {rows.map((row) => (
          <li key={row.feat} data-past-life={row.feat} data-count={row.count} class={fullness(row.count)}>
            <span class="pl-name">{row.label}</span>
            <Pips count={row.count} />
          </li>
        ))}
      </ul>
    </section>
  )
}

const of = (n: number, max: number) => `${n} of ${max}`

export function CharacterPastLivesView({ glance }: { glance: Glance }) {
  const { character, totals, max } = glance
  const snapshot = glance.snapshotUpdatedAt
    ? `live snapshot of ${formatDate(glance.snapshotUpdatedAt)}`
    : 'no live snapshot yet'
  return (
    <>
      <div class="character-head">
        <p class="crumbs">
          <a href="/past-lives">← All past lives</a>
        </p>
        <h1>
          {character.name}
          <span class="h1-part"> · Past lives</span>
        </h1>
        <p class="facts">
          {count(glance.lives, 'life', 'lives')} · {snapshot} ·{' '}
          <a href={`/characters/${character.id}/build`}>Build and lives</a>
        </p>
      </div>
      <TotalsList totals={totals} max={max} label="Past lives of each kind" />
      <NextReincarnation next={glance.nextReincarnation} />
      <Group
        id="pl-heroic"
        title="Heroic"
        summary={of(totals.heroic, max.heroic)}
        rows={glance.heroic.map((e) => ({
          feat: e.feat,
          count: e.count,
          label: (
            <>
              {e.class}
              {e.baseClass && <span class="muted small"> {e.baseClass}</span>}
            </>
          ),
        }))}
      />
      <Group
        id="pl-racial"
        title="Racial"
        summary={of(totals.racial, max.racial)}
        rows={glance.racial.map((e) => ({ feat: e.feat, count: e.count, label: e.race }))}
      />
      <Group
        id="pl-iconic"
        title="Iconic"
        summary={of(totals.iconic, max.iconic)}
        rows={glance.iconic.map((e) => ({
          feat: e.feat,
          count: e.count,
          label: (
            <>
              {e.race}
              {e.class && <span class="muted small"> {e.class}</span>}
            </>
          ),
        }))}
      />
      <section aria-labelledby="pl-epic" class="pl-epic">
        <h2 id="pl-epic">
          Epic <span class="count">{of(totals.epic, max.epic)}</span>
        </h2>
        {glance.epic.map((sphere) => (
          <div key={sphere.sphere} data-sphere={sphere.sphere} data-count={sphere.count}>
            <h3>
              {sphere.sphere} <span class="count">{of(sphere.count, sphere.max)}</span>
            </h3>
            <ul class="pl-grid">
              {sphere.feats.map((f) => (
                <li key={f.feat} data-past-life={f.feat} data-count={f.count} class={fullness(f.count)}>
                  <span class="pl-name">{f.name}</span>
                  <Pips count={f.count} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>
      {glance.unlisted > 0 && (
        <p class="hint">
          {count(glance.unlisted, 'more past life', 'more past lives')} that the game data does not know are not shown.
        </p>
      )}
      <p class="hint small">
        From the character's lives and the game's live snapshot: for each past life, whichever of the two says more. A
        past life stacks up to 3; a reincarnation adds nothing to one already at 3.
      </p>
    </>
  )
}
