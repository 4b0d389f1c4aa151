// The group's quests × characters grid (issue 42, "Seeing each other"): the account's grid over the
// characters shared with the group, read-only, each name a link to that character's tracker. Its
// filters are the account's (the same as on its own grid); it reads again with the group's page
// (GroupView follows the group's stream: a member's completion shows within a second or two).
import type { Signal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import { act, useFeedback } from '../action'
import { api, type GroupDetail } from '../api'
import { Grid } from '../grid/Grid'
import { createGridStore, type GridStore, loadGrid } from '../grid/store'

export function GroupGrid({ group, store }: { group: GroupDetail; store: Signal<GridStore | null> }) {
  const feedback = useFeedback()
  const problem = feedback.error
  useEffect(() => {
    const read = () => api.groupGrid(group.id)
    void act(feedback, () => Promise.all([loadGrid(read), api.gridView()]), { quiet: true }).then((answer) => {
      if (!answer.ok) return
      const [loaded, view] = answer.value
      store.value = createGridStore({ mode: 'group', ...loaded, view, read })
    })
  }, [group.id])
  const grid = store.value
  return (
    <section class="account-part group-grid" aria-labelledby="grid-title">
      <h2 id="grid-title">Quests × characters</h2>
      <p class="hint">
        What each character the group sees has done of every quest, in its current life; a name opens its quests,
        read-only.
      </p>
      {problem.value && (
        <p class="error" role="alert">
          {problem.value}
        </p>
      )}
      {grid === null ? (
        !problem.value && <p class="loading">Loading the grid…</p>
      ) : (
        <Grid
          store={grid}
          caption={`Every quest against every character ${group.name} sees: what each has done`}
          linkOf={(column) => `/groups/${group.id}/characters/${column.character.id}`}
        />
      )}
    </section>
  )
}
