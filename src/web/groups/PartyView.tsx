// The party planner (/groups/{id}/party?c=12,15&s=elite): pick up to six characters the group
// sees and a setting; the quests every one of them can run for full XP, most needed first, with
// favor and this server's measured time, and who of them is locked out of a raid tonight. The
// address holds the choice, so it is the link to send the party; a completion any of them logs
// (from the game) re-reads it through the group's stream.
import { useEffect, useMemo } from 'preact/hooks'
import { MAX_PARTY_SIZE } from '../../rules/quests/groupNeeds'
import { RAID_TIMER_HOURS } from '../../rules/quests/timers'
import { STEP_SETTINGS } from '../../rules/routes/routeStep'
import { count, levelSpan } from '../../rules/words'
import type { GroupDetail, PartyAnswer } from '../api'
import { SelectField } from '../components/SelectField'
import { formatDate, formatNumber, formatSoon, minutes } from '../format'
import { createPartyStore } from './partyStore'

export function PartyView({ initial }: { initial: GroupDetail }) {
  const store = useMemo(() => createPartyStore(initial), [])
  const { group, ids, setting, plan, removed, liveMode, feedback } = store
  useEffect(() => store.follow(), [])

  if (removed.value) {
    return (
      <div class="party" data-removed="true">
        <h1>Plan a party</h1>
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
  const names = new Map(g.characters.map((c) => [c.id, c.name]))
  const answer = plan.value
  return (
    <div class="party" data-live={liveMode.value}>
      <div class="page-head">
        <h1>Plan a party</h1>
        <p class="crumbs">
          <a href={`/groups/${g.id}`}>{g.name}</a>
        </p>
      </div>
      <fieldset class="party-pick">
        <legend>
          The party (up to {MAX_PARTY_SIZE} of the characters {g.name} sees)
        </legend>
        {g.characters.length === 0 && <p>No character is shared with the group yet.</p>}
        <ul class="checklist">
          {g.characters.map((c) => {
            const on = ids.value.includes(c.id)
            return (
              <li key={c.id}>
                <label class="check">
                  <input
                    type="checkbox"
                    data-party={c.name}
                    checked={on}
                    disabled={!on && ids.value.length >= MAX_PARTY_SIZE}
                    onChange={(e) => store.toggle(c.id, e.currentTarget.checked)}
                  />
                  {c.name}{' '}
                  <span class="muted small">
                    ({c.owner.name}, level {c.level})
                  </span>
                </label>
              </li>
            )
          })}
        </ul>
      </fieldset>
      <SelectField
        id="party-setting"
        label="Setting"
        options={STEP_SETTINGS}
        value={setting.value}
        onChange={(value) => {
          setting.value = value
        }}
      />
      {ids.value.length > 0 && (
        <p class="hint">
          Link for the party: <a href={location.href}>{location.href}</a>
        </p>
      )}
      {feedback.error.value && (
        <p class="error" role="alert">
          {feedback.error.value}
        </p>
      )}
      {answer && <PartyLockouts answer={answer} names={names} />}
      {answer && <PartyTable answer={answer} names={names} />}
      {ids.value.length === 0 && <p>Pick the characters of tonight's party.</p>}
    </div>
  )
}

/** Who of the party is locked out of a raid now (its raid timer), and when each is ready. */
function PartyLockouts({ answer, names }: { answer: PartyAnswer; names: Map<number, string> }) {
  if (answer.lockouts.length === 0) {
    return (
      <p class="hint" data-party-lockouts="0">
        Nobody in this party is locked out of a raid.
      </p>
    )
  }
  return (
    <section
      class="party-lockouts panel"
      aria-labelledby="party-lockouts-title"
      data-party-lockouts={answer.lockouts.length}
    >
      <h2 id="party-lockouts-title">Locked out of raids tonight</h2>
      <ul>
        {answer.lockouts.map(({ characterId, raids }) => (
          <li key={characterId} data-locked-character={names.get(characterId) ?? `#${characterId}`}>
            <strong>{names.get(characterId) ?? `#${characterId}`}</strong>:{' '}
            {raids.map((r, i) => (
              <span
                key={r.name}
                data-locked-raid={r.name}
                data-ready-at={r.readyAt}
                title={`Ready at ${formatDate(r.readyAt)}`}
              >
                {i > 0 && '; '}
                {r.name} (ready at {formatSoon(r.readyAt)})
              </span>
            ))}
          </li>
        ))}
      </ul>
      <p class="hint small">
        A raid's end reward is locked for {RAID_TIMER_HOURS} hours after a character's run of it (the raid timer), from
        the runs their game clients posted.
      </p>
    </section>
  )
}

function PartyTable({ answer, names }: { answer: PartyAnswer; names: Map<number, string> }) {
  const nameList = (list: number[]) => list.map((id) => names.get(id) ?? `#${id}`).join(', ')
  if (answer.quests.length === 0) {
    return (
      <p data-party-quests="0">
        No quest gives all of them full XP on {answer.setting}: their levels are too far apart, or their packs differ.
      </p>
    )
  }
  const summary = `${count(answer.quests.length, 'quest')} for full XP on ${answer.setting} (base ${levelSpan(answer.band.from, answer.band.to)}), most needed first`
  return (
    <>
      <p class="hint">{summary}</p>
      <div class="table-wrap">
        <table class="cards party-quests" data-party-quests={answer.quests.length}>
          <caption class="sr-only">{summary}</caption>
          <thead>
            <tr>
              <th scope="col">Quest</th>
              <th scope="col" class="num">
                Level
              </th>
              <th scope="col" class="num">
                XP
              </th>
              <th scope="col">Needed by</th>
              <th scope="col" class="num">
                Favor
              </th>
              <th scope="col" class="num">
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {answer.quests.map((q) => (
              <tr
                key={`${q.difficulty}:${q.name}`}
                data-quest={q.name}
                data-needed={q.neededBy.length}
                data-raid={q.raid ? 'true' : undefined}
                data-locked-out={q.lockedOut.length > 0 ? q.lockedOut.length : undefined}
              >
                <th scope="row">
                  {q.name} <span class="muted small">{q.difficulty}</span>
                  {q.raid && <span class="muted small"> · raid</span>}
                  {q.lockedOut.length > 0 && (
                    <span
                      class="timer-mark lockout"
                      title={q.lockedOut
                        .map(
                          (l) =>
                            `${names.get(l.characterId) ?? `#${l.characterId}`}: ready at ${formatDate(l.readyAt)}`,
                        )
                        .join('; ')}
                    >
                      locked: {nameList(q.lockedOut.map((l) => l.characterId))}
                    </span>
                  )}
                </th>
                <td data-label="Level" class="num">
                  {q.level}
                </td>
                <td data-label="XP" class="num" title={`Base XP on ${answer.setting}, before bonuses`}>
                  {q.xp === null ? '—' : formatNumber(q.xp)}
                </td>
                <td data-label="Needed by">
                  {q.neededBy.length === 0 ? (
                    <span class="muted">nobody</span>
                  ) : (
                    <>
                      <strong>{q.neededBy.length}</strong> {nameList(q.neededBy)}
                    </>
                  )}
                </td>
                <td data-label="Favor" class="num">
                  {formatNumber(q.favor)}
                </td>
                <td
                  data-label="Time"
                  class="num"
                  title={q.time ? `Median of ${count(q.time.runs, 'run')} on this server` : "The wiki's length"}
                >
                  {q.time
                    ? minutes(q.time.medianSeconds)
                    : q.estimatedMinutes === null
                      ? '—'
                      : `~${q.estimatedMinutes} min`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}
