// A shared route's page body: its steps, and navigation along it for one of your characters in
// either match mode (the step's own setting, or any setting of its remake): steps ticked, the
// next quest highlighted, progress counted, all updated live; each step's XP and the total; the
// owner's edit and delete.
import { count } from '../../rules/words'
import { act, goOnTo, useFeedback } from '../action'
import { api, type MatchMode, type Navigation, type RouteDetail } from '../api'
import { Confirm } from '../components/Confirm'
import { ErrorMessage } from '../components/Layout'
import { LiveSwitch } from '../components/LiveSwitch'
import { Messages } from '../components/Messages'
import { SelectField } from '../components/SelectField'
import { formatDate, formatNumber } from '../format'
import { bonusWords } from './bonuses'
import type { NavStore } from './navigation'

const MATCH_LABELS: readonly [MatchMode, string, string][] = [
  ['setting', 'Its own setting', 'a step is done when its exact setting is logged'],
  ['remake', 'Any setting', 'a step is done when any setting of its remake is logged'],
]

function Progress({ nav }: { nav: Navigation }) {
  const { completed, total, remaining, finished } = nav.progress
  const next = nav.nextQuest
  return (
    <div class="nav-progress" data-completed={completed} data-total={total}>
      <p class="progress-line">
        <strong>
          {formatNumber(completed)} of {formatNumber(total)}
        </strong>{' '}
        steps done · {formatNumber(remaining)} to go
      </p>
      <progress max={total} value={completed} aria-label="Steps done" />
      {finished ? (
        <p class="ok-note">Route finished.</p>
      ) : (
        next && (
          <p class="next-line" data-next={next.position}>
            Next: <strong>{next.name}</strong>{' '}
            <span class="muted">
              (step {next.position}, {next.difficulty}, {next.setting})
            </span>
          </p>
        )
      )}
    </div>
  )
}

function NavigationControls({ store }: { store: NavStore }) {
  return (
    <form class="nav-controls" onSubmit={(e) => e.preventDefault()} aria-label="Navigation">
      <SelectField
        id="nav-character"
        label="Character"
        options={store.characters.map((c) => [String(c.id), `${c.name} (level ${c.totalLevel})`] as const)}
        value={String(store.characterId.value ?? '')}
        onChange={(id) => {
          store.characterId.value = Number(id)
        }}
      />
      <fieldset class="match">
        <legend>A step counts as done with</legend>
        {MATCH_LABELS.map(([value, label, note]) => (
          <label class="check" key={value}>
            <input
              type="radio"
              name="match"
              value={value}
              checked={store.match.value === value}
              onChange={() => {
                store.match.value = value
              }}
            />
            <span>
              {label} <span class="muted small">({note})</span>
            </span>
          </label>
        ))}
      </fieldset>
      <LiveSwitch live={store.liveOn} mode={store.liveMode} />
    </form>
  )
}

/** The route's XP in all, and how many steps the catalog gives no figure for. */
function XpTotal({ xp, bonuses }: { xp: ReadonlyMap<number, number | null>; bonuses: boolean }) {
  const figures = [...xp.values()]
  const total = figures.reduce<number>((sum, x) => sum + (x ?? 0), 0)
  const unknown = figures.filter((x) => x === null).length
  return (
    <p class="route-xp" data-xp={total}>
      {formatNumber(total)} XP in all, {bonuses ? 'with the boosts and optionals above' : 'the base XP (no boosts)'}
      {unknown > 0 && ` · ${count(unknown, 'step')} ${unknown === 1 ? 'has' : 'have'} no XP figure in the catalog`}
    </p>
  )
}

function Steps({ store, nav }: { store: NavStore; nav: Navigation | null }) {
  const { route, xp } = store
  const busy = store.busy.value
  const states = new Map((nav?.steps ?? []).map((s) => [s.position, s]))
  const next = nav && !nav.progress.finished ? nav.nextQuest?.position : undefined
  return (
    <div class="table-wrap">
      <table class="steps cards">
        <caption class="sr-only">
          Steps of {route.name}
          {nav ? `, for ${nav.character.name}: ${nav.progress.completed} of ${nav.progress.total} done` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              Step
            </th>
            <th scope="col">Quest</th>
            <th scope="col">Tier</th>
            <th scope="col">Setting</th>
            <th scope="col" class="num">
              XP
            </th>
            {nav && <th scope="col">Done</th>}
            {nav && <th scope="col">Settings logged</th>}
          </tr>
        </thead>
        <tbody>
          {route.quests.map((step) => {
            const state = states.get(step.position)
            const isNext = step.position === next
            return (
              <tr
                key={step.position}
                data-step={step.position}
                data-quest={step.name}
                data-completed={state ? String(state.completed) : undefined}
                data-next={isNext ? 'true' : undefined}
                class={isNext ? 'next' : state?.completed ? 'done' : undefined}
                aria-current={isNext ? 'step' : undefined}
              >
                <td class="num step-no" data-label="Step">
                  {step.position}
                </td>
                <th scope="row" class="name">
                  {step.name}
                  {isNext && <span class="badge next-badge">next</span>}
                </th>
                <td data-label="Tier" class={`tier tier-${step.difficulty.toLowerCase()}`}>
                  {step.difficulty}
                </td>
                <td data-label="Setting">{step.setting}</td>
                <td data-label="XP" class="num">
                  {formatNumber(xp.get(step.position))}
                </td>
                {nav && (
                  <td data-label="Done" class="done-cell">
                    <input
                      type="checkbox"
                      class="step-tick"
                      aria-label={`Step ${step.position}, ${step.name} (${step.difficulty}, ${step.setting}), done`}
                      checked={state?.completed ?? false}
                      // Done only with another setting (match=remake): that completion is not this step's to remove.
                      disabled={busy.has(step.position) || (state?.completed === true && !state.settingCompleted)}
                      title={
                        state?.completed && !state.settingCompleted
                          ? `Done with ${state.settingsLogged.join(', ')}: untick that on the tracker`
                          : undefined
                      }
                      onChange={(e) => void store.tick(step, e.currentTarget.checked)}
                    />{' '}
                    {state?.completed ? (
                      <>
                        <span aria-hidden="true" class="tick-mark">
                          ✓
                        </span>{' '}
                        {state.completedAt ? formatDate(state.completedAt) : 'done'}
                      </>
                    ) : (
                      <span class="muted">not yet</span>
                    )}
                  </td>
                )}
                {nav && (
                  <td data-label="Logged" class="small">
                    {state && state.settingsLogged.length > 0 ? state.settingsLogged.join(', ') : '—'}
                  </td>
                )}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function OwnerActions({ route }: { route: RouteDetail }) {
  const feedback = useFeedback()
  const { error } = feedback
  const remove = async () => {
    if ((await act(feedback, () => api.deleteRoute(route.id), { quiet: true })).ok) goOnTo(feedback, '/routes')
  }
  return (
    <div class="owner-actions">
      <a class="button" href={`/routes/${route.id}/edit`}>
        Edit route
      </a>
      <Confirm
        label="Delete route"
        class="button quiet"
        question={`Delete “${route.name}” for everyone?`}
        yes="Yes, delete it"
        no="Keep it"
        onYes={() => void remove()}
      />
      {error.value && <ErrorMessage message={error.value} />}
    </div>
  )
}

export function RouteView({ store }: { store: NavStore }) {
  const { route } = store
  const nav = store.navigation.value
  const boosts = bonusWords(route.boosts)
  const optionals = bonusWords(route.optionals)
  return (
    <div class="route-page">
      <p class="crumbs">
        <a href="/routes">← All routes</a>
      </p>
      <div class="page-head">
        <div>
          <h1>{route.name}</h1>
          <p class="facts">
            {count(route.quests.length, 'quest')} · by {route.ownerDisplayName} · updated {formatDate(route.updatedAt)}
          </p>
          {(boosts.length > 0 || optionals.length > 0) && (
            <p class="hint">
              {boosts.length > 0 && `Boosts: ${boosts.join(', ')}. `}
              {optionals.length > 0 && `Optionals: ${optionals.join(', ')}.`}
            </p>
          )}
        </div>
        {route.owned && <OwnerActions route={route} />}
      </div>
      <Messages error={store.error} notice={store.notice} />
      <section class="navigation" aria-labelledby="navigation-title">
        <h2 id="navigation-title">Follow it with a character</h2>
        {store.characters.length === 0 ? (
          <p>
            You have no characters yet. The game plugin adds each character the first time you log in with it; then you
            can follow this route with it here.
          </p>
        ) : (
          <>
            <NavigationControls store={store} />
            {nav && <Progress nav={nav} />}
          </>
        )}
      </section>
      <section aria-labelledby="steps-title">
        <h2 id="steps-title">Steps</h2>
        <XpTotal xp={store.xp} bonuses={boosts.length > 0 || optionals.length > 0} />
        <Steps store={store} nav={nav} />
      </section>
    </div>
  )
}
