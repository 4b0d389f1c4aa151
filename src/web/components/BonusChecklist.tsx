// The XP bonuses, boosts and optionals per run in a fieldset each: a checkbox per bonus, a percent
// box for the ones the player types (an elixir comes in several strengths). The tracker's filters
// edit the character's own; the route editor the ones a route assumes.
import { XP_BONUSES, type XpBonus } from '../../rules/quests/xp'

export type BonusGroup = XpBonus['group']
/** What a bonus is stored as: on (`true`), a percent, or off (`null` removes it). */
export type BonusValue = true | number | null

/** A stored bonus is on when `true` or a positive percent. */
export const bonusOn = (stored: unknown) => stored === true || (typeof stored === 'number' && stored > 0)

const GROUPS: readonly [BonusGroup, string][] = [
  ['boost', 'Boosts'],
  ['optional', 'Optionals per run'],
]

interface BoxProps {
  bonus: XpBonus
  stored: unknown
  onChange: (value: BonusValue) => void
  percents: boolean
}

function BonusBox({ bonus, stored, onChange, percents }: BoxProps) {
  if (bonus.custom) {
    return (
      <label class="check">
        <span>{bonus.label}</span>
        <input
          type="number"
          class="percent-input"
          min={0}
          max={500}
          step={1}
          inputMode="numeric"
          value={typeof stored === 'number' ? stored : stored === true ? Number(bonus.percent) : 0}
          onChange={(e) => onChange(Math.max(0, Math.round(Number(e.currentTarget.value) || 0)))}
        />
        <span>%</span>
      </label>
    )
  }
  const percent = typeof bonus.percent === 'number' ? `+${bonus.percent}%` : '+20% / +45% elite'
  return (
    <label class="check">
      <input type="checkbox" checked={bonusOn(stored)} onChange={(e) => onChange(e.currentTarget.checked || null)} />
      {percents ? (
        <span>
          {bonus.label} <span class="muted">{typeof stored === 'number' ? `+${stored}%` : percent}</span>
        </span>
      ) : (
        <span>{bonus.label}</span>
      )}
    </label>
  )
}

interface ChecklistProps {
  /** The stored bonuses of each group: `{key: true | percent}`. */
  stored: Readonly<Record<BonusGroup, Readonly<Record<string, unknown>>>>
  onChange: (group: BonusGroup, key: string, value: BonusValue) => void
  /** Each bonus's percent beside its name. */
  percents?: boolean
}

export function BonusChecklist({ stored, onChange, percents = false }: ChecklistProps) {
  return (
    <>
      {GROUPS.map(([group, legend]) => (
        <fieldset key={group}>
          <legend>{legend}</legend>
          <div class="checklist">
            {XP_BONUSES.filter((b) => b.group === group).map((b) => (
              <BonusBox
                key={b.key}
                bonus={b}
                stored={stored[group][b.key]}
                onChange={(value) => onChange(group, b.key, value)}
                percents={percents}
              />
            ))}
          </div>
        </fieldset>
      ))}
    </>
  )
}
