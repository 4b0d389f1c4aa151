// An invite link (/join/{code}): what the invite is, then what the visitor can do with it. Signed
// out, with sign-ups on: make an account (and join the group of a group's invite) with the form
// below. Signed out otherwise: sign in, and come back here. Signed in, a group's invite: join it.
import { useMemo } from 'preact/hooks'
import { ApiError, api, type Invite, type User } from '../api'
import { Layout } from '../components/Layout'
import { PageData } from '../components/PageData'
import { formatDate } from '../format'
import { loginPath } from '../paths'
import { currentUser } from '../session'
import { createJoinStore } from './joinStore'

interface Loaded {
  user: User | null
  /** null: the code is not live (used, expired, unknown); `problem` says so in the server's words. */
  invite: Invite | null
  problem: string
}

export function JoinPage({ code }: { code: string }) {
  const load = async (): Promise<Loaded> => {
    const user = await currentUser()
    try {
      return { user, invite: (await api.invite(code)).invite, problem: '' }
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return { user, invite: null, problem: e.message }
      throw e
    }
  }
  return (
    <PageData title="Invite" what="the invite" load={load}>
      {(data) => <JoinView code={code} {...data} />}
    </PageData>
  )
}

function JoinView({ code, user, invite, problem }: { code: string } & Loaded) {
  const title = invite === null ? 'Invite' : invite.group ? `Join ${invite.group.name}` : 'Make your account'
  return (
    <Layout title={title} user={user}>
      <div class="login join" data-invite={invite?.kind ?? 'none'}>
        {invite === null ? (
          <NotValid user={user} problem={problem} />
        ) : (
          <Valid code={code} user={user} invite={invite} />
        )}
      </div>
    </Layout>
  )
}

function NotValid({ user, problem }: { user: User | null; problem: string }) {
  return (
    <>
      <h1>This invite does not work</h1>
      <p class="error" role="alert">
        {problem}
      </p>
      <p>Ask whoever sent it for a new link.</p>
      <p>{user ? <a href="/">Back to your characters</a> : <a href="/login">Sign in</a>}</p>
    </>
  )
}

function Valid({ code, user, invite }: { code: string; user: User | null; invite: Invite }) {
  const group = invite.group?.name
  const here = `/join/${code}`
  return (
    <>
      <h1>{group ? `Join ${group}` : 'Make your account'}</h1>
      <p class="hint">
        {group ? (
          <>
            An invite to the group <strong>{group}</strong> on this Quest Tracker: its members see the characters each
            of them shares with it.
          </>
        ) : (
          'An invite to make your own account on this Quest Tracker.'
        )}{' '}
        The link works once, until {formatDate(invite.expiresAt)}.
      </p>
      {user ? (
        group ? (
          <JoinButton code={code} group={group} />
        ) : (
          <p>
            You are signed in as <strong>{user.displayName}</strong> already: this invite is for someone new. Pass the
            link on to them, or <a href="/">go to your characters</a>.
          </p>
        )
      ) : invite.signup ? (
        <>
          <SignUpForm code={code} group={group} />
          <p class="hint">
            Have an account already? <a href={loginPath(here)}>{group ? 'Sign in to join' : 'Sign in'}</a>
          </p>
        </>
      ) : group ? (
        <p>
          <a class="button primary" href={loginPath(here)}>
            Sign in to join
          </a>
        </p>
      ) : (
        <p>
          Signing up is turned off on this server: ask its operator for an account, then{' '}
          <a href={loginPath('/')}>sign in</a>.
        </p>
      )}
    </>
  )
}

/** A signed-in account joins the group; the group's page follows. */
function JoinButton({ code, group }: { code: string; group: string }) {
  const { feedback, join } = useMemo(() => createJoinStore(code), [code])
  const { busy, error } = feedback
  return (
    <div class="stack">
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      <button type="button" class="button primary" disabled={busy.value} onClick={() => void join()}>
        Join {group}
      </button>
    </div>
  )
}

function SignUpForm({ code, group }: { code: string; group: string | undefined }) {
  const { feedback, signUp } = useMemo(() => createJoinStore(code), [code])
  const { busy, error } = feedback
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const field = (name: string) => String(form.get(name) ?? '')
    void signUp({
      username: field('username'),
      email: field('email'),
      password: field('password'),
      repeatPassword: field('repeatPassword'),
    })
  }
  return (
    <form class="stack" onSubmit={onSubmit} aria-describedby={error.value ? 'signup-error' : undefined}>
      <label class="field">
        <span>Username</span>
        <input
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellcheck={false}
          maxLength={64}
          pattern="[^\s@]+"
          required
          aria-describedby="username-note"
        />
      </label>
      <p id="username-note" class="hint small">
        The name other players see{group ? ` in ${group}` : ''}; no spaces or “@”.
      </p>
      <label class="field">
        <span>E-mail (optional)</span>
        <input name="email" type="email" autoComplete="email" maxLength={254} />
      </label>
      <label class="field">
        <span>Password</span>
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          aria-describedby="new-password-note"
        />
      </label>
      <label class="field">
        <span>Repeat the password</span>
        <input name="repeatPassword" type="password" autoComplete="new-password" minLength={8} required />
      </label>
      <p id="new-password-note" class="hint small">
        At least 8 characters. The game plugin logs in with the same username and password.
      </p>
      {error.value && (
        <p id="signup-error" class="error" role="alert">
          {error.value}
        </p>
      )}
      <button type="submit" class="button primary" disabled={busy.value}>
        {group ? `Make my account and join ${group}` : 'Make my account'}
      </button>
    </form>
  )
}
