// The tracker's totals: quests done of those shown, favor (overall and per patron, counted per
// GAME-RULES.md: best setting once per name) and XP earned (reported, else estimated).
import { FavorTable } from '../components/FavorTable'
import { formatNumber } from '../format'
import type { TrackerStore } from './store'

export function Totals({ store }: { store: TrackerStore }) {
  const favor = store.favor.value
  const xp = store.xp.value
  const counts = store.counts.value
  const byName = [...favor.byPatron]
    .map(([patron, total]) => ({ patron, ...total }))
    .sort((a, b) => a.patron.localeCompare(b.patron))
  const xpNote = [
    xp.reported > 0 && `${formatNumber(xp.reported)} reported by the game`,
    xp.estimated > 0 && `${formatNumber(xp.estimated)} estimated`,
    xp.unknown > 0 && `${formatNumber(xp.unknown)} unknown`,
  ].filter(Boolean)
  return (
    <section class="totals" aria-labelledby="totals-title">
      <h2 id="totals-title" class="sr-only">
        Totals
      </h2>
      <dl class="stats">
        <div>
          <dt>Quests done / shown</dt>
          <dd data-total="done">
            {formatNumber(counts.done)} / {formatNumber(counts.shown)}
          </dd>
        </div>
        <div>
          <dt>Favor</dt>
          <dd data-total="favor">
            {formatNumber(favor.earned)} <span class="muted">of {formatNumber(favor.possible)}</span>
          </dd>
        </div>
        <div>
          <dt>XP earned</dt>
          <dd data-total="xp">
            {formatNumber(xp.total)}
            {xpNote.length > 0 && <span class="muted small"> ({xpNote.join(', ')})</span>}
          </dd>
        </div>
      </dl>
      <details class="panel">
        <summary>Favor by patron</summary>
        <FavorTable class="patron-favor" favor={byName} possible="Possible" />
      </details>
    </section>
  )
}
