// The groups page (/groups): the account's groups, and a form to make one. Joining is by an
// invite link from a group's owner (/join/<code>).
import { count } from '../../rules/words'
import { act, goOnTo, useFeedback } from '../action'
import { api, type GroupSummary } from '../api'

export function GroupList({ initial }: { initial: GroupSummary[] }) {
  const feedback = useFeedback()
  const { error, busy } = feedback
  const onCreate = async (event: SubmitEvent) => {
    event.preventDefault()
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '')
    const group = await act(feedback, () => api.createGroup(name))
    if (group.ok) goOnTo(feedback, `/groups/${group.value.id}`)
  }
  return (
    <div class="groups">
      <h1>Groups</h1>
      <p class="hint">
        A group — a guild, a household — sees the characters its members choose to share: who still needs which quest,
        and which quests a party of them should run. Join one with an invite link from its owner.
      </p>
      {initial.length === 0 ? (
        <p data-groups="0">You are in no group yet.</p>
      ) : (
        <ul class="group-list" data-groups={initial.length}>
          {initial.map((g) => (
            <li key={g.id}>
              <a href={`/groups/${g.id}`}>{g.name}</a>{' '}
              <span class="muted small">
                {g.isOwner ? 'yours · ' : ''}
                {count(g.members, 'member')} · {count(g.characters, 'character')}
              </span>
            </li>
          ))}
        </ul>
      )}
      <section class="account-part" aria-labelledby="new-group-title">
        <h2 id="new-group-title">Make a group</h2>
        <form class="row-fields" onSubmit={onCreate}>
          <label class="field">
            <span>Name</span>
            <input name="name" maxLength={60} required />
          </label>
          <button type="submit" class="button primary" disabled={busy.value}>
            Make the group
          </button>
        </form>
        {error.value && (
          <p class="error" role="alert">
            {error.value}
          </p>
        )}
      </section>
    </div>
  )
}
