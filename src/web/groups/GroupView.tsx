// A group's page (/groups/{id}): the characters it sees (each a link to its tracker, read-only),
// which of yours it sees (a checkbox each, none by default), the members (the owner hands the
// group on and names officers; the owner and officers remove members; anyone leaves), the links
// the owner and the officers make, and the quests × characters grid over the shared characters.
// Live: a shared character's change or the group's own re-reads (the grid too); removed from the
// group, the page says so and shows nothing more of it.
import { useEffect, useMemo } from 'preact/hooks'
import { count } from '../../rules/words'
import { api, type GroupDetail } from '../api'
import { Confirm } from '../components/Confirm'
import { Messages } from '../components/Messages'
import { formatDate } from '../format'
import { followGroup } from '../live'
import { GroupGrid } from './GroupGrid'
import { createGroupStore, type GroupStore } from './store'

export function GroupView({ initial }: { initial: GroupDetail }) {
  const store = useMemo(() => createGroupStore(initial), [])
  const { group, removed, liveMode, feedback } = store
  useEffect(
    () =>
      followGroup({
        groupId: initial.id,
        liveMode,
        refresh: store.refresh,
        onRemoved: () => {
          removed.value = true
        },
      }),
    [],
  )
  if (removed.value) {
    return (
      <div class="group" data-removed="true">
        <h1>{initial.name}</h1>
        <p class="error" role="alert">
          You are no longer a member of this group: its characters are not shown any more.
        </p>
        <p>
          <a href="/groups">Back to your groups</a>
        </p>
      </div>
    )
  }
  const g = group.value
  const owner = g.members.find((m) => m.isOwner)
  return (
    <div class="group" data-group={g.id} data-live={liveMode.value}>
      <div class="page-head">
        <h1>{g.name}</h1>
        <p class="hint">
          {g.isOwner ? 'You own this group.' : `Owned by ${owner?.name ?? 'nobody'}.`}{' '}
          {count(g.members.length, 'member')} · {count(g.characters.length, 'character')} shared
        </p>
      </div>
      <Messages error={feedback.error} notice={feedback.notice} />
      <p>
        <a class="button primary" href={`/groups/${g.id}/party`}>
          Plan a party
        </a>
      </p>
      <SharedCharacters group={g} />
      <YourCharacters group={g} act={store.change} />
      <Members group={g} store={store} />
      {g.yourSay !== 'member' && <Invites group={g} store={store} />}
      {g.isOwner && <OwnerActions group={g} store={store} />}
      <GroupGrid group={g} store={store.grid} />
    </div>
  )
}

type Act = (change: () => Promise<unknown>, done: string) => Promise<void>

function SharedCharacters({ group }: { group: GroupDetail }) {
  return (
    <section class="account-part" aria-labelledby="shared-title">
      <h2 id="shared-title">Characters the group sees</h2>
      {group.characters.length === 0 ? (
        <p data-shared-count="0">No character is shared yet: each member chooses theirs below.</p>
      ) : (
        <div class="table-wrap">
          <table class="cards group-characters" data-shared-count={group.characters.length}>
            <caption class="sr-only">Characters shared with {group.name}</caption>
            <thead>
              <tr>
                <th scope="col">Character</th>
                <th scope="col">Player</th>
                <th scope="col" class="num">
                  Level
                </th>
                <th scope="col">Classes</th>
                <th scope="col">Race</th>
                <th scope="col">Guild</th>
              </tr>
            </thead>
            <tbody>
              {group.characters.map((c) => (
                <tr key={c.id} data-character={c.name}>
                  <th scope="row">
                    <a href={`/groups/${group.id}/characters/${c.id}`}>{c.name}</a>
                  </th>
                  <td data-label="Player">{c.owner.name}</td>
                  <td data-label="Level" class="num">
                    {c.level}
                  </td>
                  <td data-label="Classes">{c.classes || '—'}</td>
                  <td data-label="Race">{c.race || '—'}</td>
                  <td data-label="Guild">{c.guild || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

function YourCharacters({ group, act }: { group: GroupDetail; act: Act }) {
  return (
    <section class="account-part" aria-labelledby="yours-title">
      <h2 id="yours-title">Your characters in this group</h2>
      <p class="hint">The group sees only the characters you tick here; untick one to take it back at once.</p>
      {group.yourCharacters.length === 0 ? (
        <p>You have no characters yet.</p>
      ) : (
        <ul class="checklist">
          {group.yourCharacters.map((c) => (
            <li key={c.id}>
              <label class="check">
                <input
                  type="checkbox"
                  checked={c.shared}
                  data-share={c.name}
                  onChange={(e) =>
                    void (e.currentTarget.checked
                      ? act(() => api.shareWithGroup(group.id, c.id), `${c.name} is shared with the group.`)
                      : act(() => api.withdrawFromGroup(group.id, c.id), `${c.name} is no longer shared.`))
                  }
                />
                {c.name}
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Members({ group, store }: { group: GroupDetail; store: GroupStore }) {
  return (
    <section class="account-part" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <ul class="members">
        {group.members.map((m) => (
          <li key={m.id} data-member={m.name}>
            <span>
              <strong>{m.name}</strong>
              {m.role !== 'member' && <span class="badge">{m.role}</span>}
              {m.id === group.you && <span class="muted"> (you)</span>}
              <span class="muted small"> joined {formatDate(m.joinedAt)}</span>
            </span>
            {m.id !== group.you && <MemberActions group={group} member={m} act={store.change} />}
          </li>
        ))}
      </ul>
      <Confirm
        label="Leave the group"
        class="button quiet"
        question={
          group.isOwner && group.members.length > 1
            ? 'Leave the group? The longest-standing member becomes its owner, and your characters leave with you.'
            : group.members.length === 1
              ? 'Leave the group? You are its last member: the group is deleted.'
              : 'Leave the group? Your characters leave with you.'
        }
        yes="Yes, leave"
        no="Stay"
        onYes={() => void store.leaveFor(() => api.removeMember(group.id, group.you))}
      />
    </section>
  )
}

type Member = GroupDetail['members'][number]

/**
 * What the caller may do to another member: the owner hands the group on, names or unnames
 * officers and removes anyone; an officer removes plain members.
 */
function MemberActions({ group, member: m, act }: { group: GroupDetail; member: Member; act: Act }) {
  const owner = group.yourSay === 'owner'
  const removable = owner || (group.yourSay === 'officer' && m.role === 'member')
  if (!owner && !removable) return null
  return (
    <span class="member-actions">
      {owner && (
        <Confirm
          label="Make owner"
          class="button quiet"
          question={`Hand the group on to ${m.name}? You stay a member.`}
          yes={`Yes, make ${m.name} the owner`}
          no="Not now"
          onYes={() => void act(() => api.handOnGroup(group.id, m.id), `${m.name} owns the group now.`)}
        />
      )}
      {owner && (
        <button
          type="button"
          class="button quiet"
          onClick={() =>
            void act(
              () => api.setMemberRole(group.id, m.id, m.role === 'officer' ? 'member' : 'officer'),
              m.role === 'officer'
                ? `${m.name} is a member again; the links they made have ended.`
                : `${m.name} is an officer: they make and end links and remove members.`,
            )
          }
        >
          {m.role === 'officer' ? 'Make member' : 'Make officer'}
        </button>
      )}
      {removable && (
        <Confirm
          label="Remove"
          class="button quiet"
          question={`Remove ${m.name}? Their characters leave the group with them.`}
          yes={`Yes, remove ${m.name}`}
          no="Keep them"
          onYes={() => void act(() => api.removeMember(group.id, m.id), `${m.name} was removed.`)}
        />
      )}
    </span>
  )
}

/** How many players a guild's link admits unless its maker says otherwise. */
const GUILD_LINK_USES = 25

function Invites({ group, store }: { group: GroupDetail; store: GroupStore }) {
  const { link } = store
  const make = (event: SubmitEvent | null, rotate: boolean) => {
    event?.preventDefault()
    const form = document.getElementById('link-terms') as HTMLFormElement | null
    const data = form ? new FormData(form) : null
    void store.makeLink(rotate, {
      uses: Number(data?.get('uses') ?? 1) || 1,
      days: Number(data?.get('days') ?? 7) || 7,
    })
  }
  return (
    <section class="account-part" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite players</h2>
      <p class="hint">
        One link for the guild's chat: it lets in as many players as you say, until it ends. It is shown once.
      </p>
      <form id="link-terms" class="row-fields" onSubmit={(e) => void make(e, false)}>
        <label class="field">
          <span>Players it lets in</span>
          <input name="uses" type="number" min={1} max={100} defaultValue={String(GUILD_LINK_USES)} required />
        </label>
        <label class="field">
          <span>Days it works</span>
          <input name="days" type="number" min={1} max={30} defaultValue="7" required />
        </label>
        <button type="submit" class="button primary">
          New link
        </button>
        <button type="button" class="button quiet" onClick={() => void make(null, true)}>
          End all links and make a new one
        </button>
      </form>
      {link.value && (
        <label class="field invite-link">
          <span>Invite link (shown once)</span>
          <input type="text" readOnly value={link.value} onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
      {group.invites.length > 0 && (
        <ul class="invites" data-invites={group.invites.length}>
          {group.invites.map((invite) => (
            <li key={invite.id}>
              <span data-invite-by={invite.createdBy?.name ?? ''} data-invite-uses={`${invite.uses}/${invite.maxUses}`}>
                {`Link made ${invite.createdBy ? `by ${invite.createdBy.name}, ` : ''}${formatDate(invite.createdAt)}: ${invite.uses} of ${invite.maxUses} ${invite.maxUses === 1 ? 'place' : 'places'} taken, ends ${formatDate(invite.expiresAt)}`}
              </span>{' '}
              <button
                type="button"
                class="button quiet"
                onClick={() => void store.change(() => api.endInvite(group.id, invite.id), 'The link has ended.')}
              >
                End it
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function OwnerActions({ group, store }: { group: GroupDetail; store: GroupStore }) {
  const onRename = (event: SubmitEvent) => {
    event.preventDefault()
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '')
    void store.change(() => api.renameGroup(group.id, name), `The group is now called ${name.trim()}.`)
  }
  return (
    <section class="account-part" aria-labelledby="owner-title">
      <h2 id="owner-title">The group</h2>
      <form class="row-fields" onSubmit={onRename}>
        <label class="field">
          <span>Name</span>
          <input name="name" defaultValue={group.name} maxLength={60} required />
        </label>
        <button type="submit" class="button quiet">
          Rename
        </button>
      </form>
      <Confirm
        label="Delete the group"
        class="button danger"
        question="Delete the group for everyone? No character is touched."
        yes="Yes, delete it"
        no="Keep it"
        onYes={() => void store.leaveFor(() => api.deleteGroup(group.id))}
      />
    </section>
  )
}
