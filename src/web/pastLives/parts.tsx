// What both past lives pages show: the totals, and a past life's stacks as three pips.
import type { CharacterPastLives } from '../api'

export type Totals = CharacterPastLives['totals']

export const KIND_LABELS: readonly [keyof Totals, string][] = [
  ['heroic', 'Heroic'],
  ['racial', 'Racial'],
  ['iconic', 'Iconic'],
  ['epic', 'Epic'],
  ['all', 'All'],
]

/** Stacks of each kind; with `max`, out of what the lists can hold. */
export function TotalsList({ totals, max, label }: { totals: Totals; max?: Totals; label: string }) {
  return (
    <dl class="stats pl-totals" aria-label={label}>
      {KIND_LABELS.map(([kind, name]) => (
        <div key={kind}>
          <dt>{name}</dt>
          <dd data-total={kind}>
            {totals[kind]}
            {max && <span class="muted small"> of {max[kind]}</span>}
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** A past life's stacks (0 to 3) as three pips, with the number for screen readers. */
export function Pips({ count }: { count: number }) {
  return (
    <span class="pips">
      <span aria-hidden="true">
        {[1, 2, 3].map((n) => (
          <span key={n} class={n <= count ? 'pip on' : 'pip'} />
        ))}
      </span>
      <span class="sr-only">{count} of 3</span>
    </span>
  )
}

/** A past life's row state: full at 3, none at 0 (the style reads it). */
export const fullness = (count: number) => (count >= 3 ? 'full' : count === 0 ? 'none' : 'some')
