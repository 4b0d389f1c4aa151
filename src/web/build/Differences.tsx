// What differs between the live snapshot and the plan: the next things to do in game, one row
// per difference (from src/rules/builds/buildDiff.ts), and the areas not compared because the game
// has not been read for them yet.
import type { JSX } from 'preact'
import { DIFF_AREAS, type DiffArea } from '../../rules/builds/buildDiff'
import type { BuildStore } from './store'

const AREA_LABELS: Readonly<Record<DiffArea, string>> = {
  life: 'Life',
  levels: 'Levels',
  abilities: 'Abilities',
  tomes: 'Tomes',
  pastLives: 'Past lives',
  feats: 'Feats',
  skills: 'Skills',
  enhancements: 'Enhancements',
  destiny: 'Destinies',
  spells: 'Spells',
  reaper: 'Reaper',
}

export function Differences({ store }: { store: BuildStore }) {
  const diff = store.diff.value
  const noLive = !store.live.value
  let body: JSX.Element
  if (!diff) {
    body = noLive ? (
      <p>
        No live snapshot and no planned build yet: the game plugin sends a snapshot when you play this character; import
        a DDO Builder file to start a plan.
      </p>
    ) : (
      <p>No planned build yet: import a DDO Builder file, or promote the live snapshot, to start one.</p>
    )
  } else if (diff.differences.length === 0) {
    body = (
      <p class="ok-note" data-differences="0">
        {noLive
          ? 'The character and the plan agree on race, level and classes.'
          : 'Live and plan agree on everything read so far.'}
      </p>
    )
  } else {
    const ordered = [...diff.differences].sort((a, b) => DIFF_AREAS.indexOf(a.area) - DIFF_AREAS.indexOf(b.area))
    body = (
      <div class="table-wrap">
        <table class="differences cards" data-differences={ordered.length}>
          <caption class="sr-only">Differences between the character in game and the plan</caption>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">In game</th>
              <th scope="col">Planned</th>
              <th scope="col">Next in game</th>
            </tr>
          </thead>
          <tbody>
            {ordered.map((d) => (
              <tr key={`${d.area}:${d.subject}`} data-area={d.area} data-subject={d.subject}>
                <th scope="row">
                  <span class="muted small">{AREA_LABELS[d.area]} · </span>
                  {d.subject}
                </th>
                <td data-label="In game">{d.live}</td>
                <td data-label="Planned">{d.planned}</td>
                <td data-label="Next" class={d.todo ? 'todo' : 'muted'}>
                  {d.todo ?? 'nothing to do'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )
  }
  return (
    <section class="differences-part" aria-labelledby="differences-title" data-against={noLive ? 'profile' : 'live'}>
      <h2 id="differences-title">What differs: next in game</h2>
      {diff && noLive && (
        <p class="hint" data-no-live="true">
          No live snapshot yet: the plan is compared with the character's race, level and classes as they are here; the
          rest waits for the snapshot the game plugin sends when you play this character.
        </p>
      )}
      {body}
      {diff && diff.notRead.length > 0 && (
        <p class="unread-note">
          Not compared, not read yet from the game: {diff.notRead.map((a) => AREA_LABELS[a].toLowerCase()).join(', ')}.
        </p>
      )}
    </section>
  )
}
