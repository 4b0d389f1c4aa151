// A route's `boosts` and `optionals` (the tracker's shapes: `{key: true | percent}`) as words,
// with the labels of the one XP bonus table. Keys the table does not know are shown as stored.
import { XP_BONUSES } from '../../rules/quests/xp'
import { bonusOn } from '../components/BonusChecklist'

const LABELS: ReadonlyMap<string, string> = new Map(XP_BONUSES.map((b) => [b.key, b.label]))

export function bonusWords(bonuses: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(bonuses)
    .filter(([, v]) => bonusOn(v))
    .map(([key, v]) => {
      const label = LABELS.get(key) ?? key
      return typeof v === 'number' ? `${label} ${v}%` : label
    })
}
