// One build document as a character sheet: the life, classes by level, ability scores with
// their breakdown (point buy, racial, level-ups, tomes), hit points, spell points, saves, past
// lives and the trees. Used twice, side by side: the live snapshot and the planned build.
// Areas the snapshot has not read yet (`meta.incomplete`) say so instead of showing zeros.
import type { ComponentChildren } from 'preact'
import type { Breakdown } from '../../rules/builds/breakdown'
import { type DiffArea, treeRanks } from '../../rules/builds/buildDiff'
import { classLabel } from '../../rules/builds/buildLevels'
import { ABILITIES, ABILITY_NAMES } from '../../rules/character/gameData'
import { pastLifeName } from '../../rules/character/pastLifeGlance'
import { isPastLife } from '../../rules/character/pastLives'
import { canonicalRace } from '../../rules/character/picklists'
import { pastLifeCount } from '../../rules/words'
import type { BuildDocument } from '../api'
import { formatDate, formatNumber } from '../format'

const PAST_LIFE_LABELS: Readonly<Record<string, string>> = {
  HeroicPastLife: 'Heroic',
  RacialPastLife: 'Racial',
  IconicPastLife: 'Iconic',
  EpicPastLife: 'Epic',
}

/** The life's facts shown as they are, '—' when the document has none. */
const LIFE_FACTS = [
  ['Name', 'name'],
  ['Race', 'race'],
  ['Alignment', 'alignment'],
] as const

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0')

/** "1–4 Fighter", "5 Rogue": consecutive levels of one class as one run. */
export function levelRuns(document: BuildDocument): { from: number; to: number; label: string }[] {
  const level = document.build?.level ?? document.build?.levels?.length ?? 0
  const runs: { from: number; to: number; label: string }[] = []
  ;(document.build?.levels ?? []).slice(0, level).forEach((entry, i) => {
    const label = classLabel(entry.class) ?? (entry.class?.trim() || 'no class')
    const last = runs[runs.length - 1]
    if (last && last.label === label && last.to === i) last.to = i + 1
    else runs.push({ from: i + 1, to: i + 1, label })
  })
  return runs
}

function NotRead() {
  return <p class="unread-note">Not read yet from the game.</p>
}

function Section({ title, id, children }: { title: string; id: string; children: ComponentChildren }) {
  return (
    <section class="sheet-part" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  )
}

/** Column headings, and the short forms a phone shows (screen readers get the long ones). */
const COLUMNS = [
  ['Point buy', 'Buy'],
  ['Racial', 'Race'],
  ['Level-ups', 'Lvl'],
  ['Tomes', 'Tome'],
  ['Score', 'Score'],
  ['Mod', 'Mod'],
] as const

function Abilities({ b, tomesUnread, prefix }: { b: Breakdown; tomesUnread: boolean; prefix: string }) {
  return (
    <div class="table-wrap">
      <table class="abilities">
        <caption class="sr-only">
          Ability scores: point buy, racial modifier, level-ups and tomes add up to the score
          {tomesUnread ? ' (tomes not read yet)' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Ability</th>
            {COLUMNS.map(([long, short]) => (
              <th scope="col" class="num" key={long}>
                <span class="long-label">{long}</span>
                <span class="short-label" aria-hidden="true">
                  {short}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ABILITIES.map((a) => {
            const line = b.abilities[a]
            return (
              <tr key={a} data-ability={a}>
                <th scope="row">{ABILITY_NAMES[a]}</th>
                <td class="num" data-part="pointBuy">
                  {line.pointBuy} <span class="muted small spend">({formatNumber(line.spend)} pt)</span>
                </td>
                <td class="num" data-part="racial">
                  {signed(line.racial)}
                </td>
                <td class="num" data-part="levelUps">
                  {signed(line.levelUps)}
                </td>
                <td class={tomesUnread ? 'num unread' : 'num'} data-part="tome">
                  {tomesUnread ? 'not read' : signed(line.tome)}
                </td>
                <td class="num strong" data-part="score">
                  {line.score}
                </td>
                <td class="num" data-part="modifier">
                  {signed(line.modifier)}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <p class="hint small" id={`${prefix}-points`}>
        Build points: {formatNumber(b.buildPoints.spent)} spent of {formatNumber(b.buildPoints.available)}.
      </p>
    </div>
  )
}

function Numbers({ b }: { b: Breakdown }) {
  return (
    <dl class="stats sheet-numbers">
      <div>
        <dt>Hit points</dt>
        <dd data-stat="hp">{formatNumber(b.hp)}</dd>
        <dd class="muted small">
          classes {formatNumber(b.hpDetail.classes)} + epic {formatNumber(b.hpDetail.epicLevels)} + Con{' '}
          {formatNumber(b.hpDetail.constitution)}
        </dd>
      </div>
      <div>
        <dt>Spell points</dt>
        <dd data-stat="sp">{formatNumber(b.sp)}</dd>
      </div>
      <div>
        <dt>Fortitude</dt>
        <dd data-stat="fortitude">{signed(b.saves.fortitude.total)}</dd>
      </div>
      <div>
        <dt>Reflex</dt>
        <dd data-stat="reflex">{signed(b.saves.reflex.total)}</dd>
      </div>
      <div>
        <dt>Will</dt>
        <dd data-stat="will">{signed(b.saves.will.total)}</dd>
      </div>
    </dl>
  )
}

/** Past lives grouped by kind, each group one line: a full set of 70 stays readable. */
function PastLives({ document }: { document: BuildDocument }) {
  const feats = (document.life?.specialFeats ?? []).filter((f) => isPastLife(f.type ?? '') && f.name)
  if (feats.length === 0) return <p class="muted">None.</p>
  const stacks = feats.reduce((sum, f) => sum + (f.stacks ?? 1), 0)
  return (
    <>
      <p class="small muted">{pastLifeCount(feats.length, stacks)}</p>
      <dl class="past-lives">
        {Object.entries(PAST_LIFE_LABELS).map(([type, label]) => {
          const group = feats.filter((f) => f.type === type)
          if (group.length === 0) return null
          return (
            <div key={type}>
              <dt>{label}</dt>
              <dd>
                {group.map((f, i) => (
                  <span key={f.name} data-past-life={f.name} data-stacks={f.stacks ?? 1}>
                    {pastLifeName(type, f.name ?? '')}
                    {(f.stacks ?? 1) > 1 && <span class="stacks"> ×{f.stacks}</span>}
                    {i < group.length - 1 ? ', ' : ''}
                  </span>
                ))}
              </dd>
            </div>
          )
        })}
      </dl>
    </>
  )
}

function Trees({ spend, unread, what }: { spend: readonly unknown[] | undefined; unread: boolean; what: string }) {
  if (unread) return <NotRead />
  const trees = [...treeRanks(spend)]
  if (trees.length === 0) return <p class="muted">No {what} trained.</p>
  return (
    <table class="trees">
      <caption class="sr-only">{what}: ranks trained per tree</caption>
      <thead>
        <tr>
          <th scope="col">Tree</th>
          <th scope="col" class="num">
            Ranks trained
          </th>
        </tr>
      </thead>
      <tbody>
        {trees.map(([name, ranks]) => (
          <tr key={name} data-tree={name}>
            <th scope="row">{name}</th>
            <td class="num">{formatNumber(ranks.total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

interface SheetProps {
  kind: 'live' | 'planned'
  title: string
  document: BuildDocument
  breakdown: Breakdown
  /** Live only: the areas not read yet. */
  unread: readonly DiffArea[]
  updatedAt: string | null
  validationErrors?: readonly string[]
}

export function Sheet({ kind, title, document, breakdown: b, unread, updatedAt, validationErrors }: SheetProps) {
  const id = (part: string) => `${kind}-${part}`
  const runs = levelRuns(document)
  const isUnread = (area: DiffArea) => unread.includes(area)
  const life = document.life ?? {}
  return (
    <section class="sheet" data-sheet={kind} aria-labelledby={id('title')}>
      <h2 id={id('title')}>{title}</h2>
      <p class="hint small">
        {document.meta?.source ? `${document.meta.source} · ` : ''}saved {formatDate(updatedAt)}
      </p>
      {unread.length > 0 && (
        <p class="unread-note" data-unread={unread.join(' ')}>
          Not read yet from the game: {unread.join(', ')}.
        </p>
      )}

      <dl class="facts-list">
        {LIFE_FACTS.map(([term, key]) => (
          <div key={key}>
            <dt>{term}</dt>
            <dd data-life={key}>{(key === 'race' ? canonicalRace(life.race ?? '') : life[key]) || '—'}</dd>
          </div>
        ))}
        <div>
          <dt>Level</dt>
          <dd data-life="level">
            {b.level}
            {b.classes.length > 0 && (
              <span class="muted"> · {b.classes.map((c) => `${c.name} ${c.levels}`).join(' / ')}</span>
            )}
          </dd>
        </div>
      </dl>

      <Section title="Classes by level" id={id('levels')}>
        {runs.length === 0 ? (
          <p class="muted">No levels in this document.</p>
        ) : (
          <ol class="level-runs">
            {runs.map((r) => (
              <li key={r.from}>
                <span class="level-span">{r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`}</span> {r.label}
              </li>
            ))}
          </ol>
        )}
      </Section>

      <Section title="Ability scores" id={id('abilities')}>
        <Abilities b={b} tomesUnread={isUnread('tomes')} prefix={kind} />
      </Section>

      <Section title="Hit points, spell points, saves" id={id('numbers')}>
        <Numbers b={b} />
      </Section>

      <Section title="Past lives" id={id('past-lives')}>
        <PastLives document={document} />
      </Section>

      <Section title="Enhancement trees" id={id('enhancements')}>
        <Trees spend={document.build?.enhancementTrees?.spend} unread={isUnread('enhancements')} what="enhancements" />
      </Section>

      <Section title="Destiny trees" id={id('destiny')}>
        <Trees spend={document.build?.destinyTrees?.spend} unread={isUnread('destiny')} what="destinies" />
      </Section>

      {validationErrors && (
        <Section title="Validation" id={id('validation')}>
          {validationErrors.length === 0 ? (
            <p class="ok-note" data-validation="ok">
              No validation errors.
            </p>
          ) : (
            <ul class="validation" data-validation="errors">
              {validationErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </Section>
      )}

      {b.notes.length > 0 && (
        <ul class="hint small breakdown-notes">
          {b.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </section>
  )
}
