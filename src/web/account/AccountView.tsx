// The account page's body: change the password (asks for the current one; every other session
// and every plugin token end, this browser stays signed in), the plugin tokens with a revoke
// button each, the player's data out and in (DataSection), and signing out everywhere.
import { type Signal, useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import { ApiError, api, type Character, errorMessage, type TokenListItem, type User } from '../api'
import { Confirm } from '../components/Confirm'
import { Messages } from '../components/Messages'
import { formatDate } from '../format'
import { signOutEverywhere as endEverySession, requireUser } from '../session'
import { DataSection } from './DataSection'

interface Feedback {
  error: Signal<string | null>
  notice: Signal<string | null>
}

/** Shows what went wrong (a session that ended has already sent the page to sign in: api.ts). */
function failed(feedback: Feedback, e: unknown): void {
  feedback.error.value = errorMessage(e)
}

function PasswordForm({ feedback, onChanged }: { feedback: Feedback; onChanged: () => void }) {
  const busy = useSignal(false)
  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const current = String(data.get('currentPassword') ?? '')
    const next = String(data.get('newPassword') ?? '')
    feedback.error.value = null
    if (next !== String(data.get('repeatPassword') ?? '')) {
      feedback.error.value = 'The new password and its repetition differ.'
      return
    }
    busy.value = true
    try {
      await api.changePassword(current, next)
      form.reset()
      feedback.notice.value =
        'Password changed. Every other session and every plugin token has ended; this browser stays signed in.'
      onChanged()
    } catch (e) {
      // A 401 here is the current password being wrong, unless the session itself has ended:
      // then asking who is signed in sends the page to sign in.
      if (e instanceof ApiError && e.status === 401) {
        await requireUser()
        feedback.error.value = 'The current password is not right.'
      } else failed(feedback, e)
    } finally {
      busy.value = false
    }
  }
  return (
    <section class="account-part" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form class="stack narrow" onSubmit={onSubmit}>
        <label class="field">
          <span>Current password</span>
          <input name="currentPassword" type="password" autoComplete="current-password" required />
        </label>
        <label class="field">
          <span>New password</span>
          <input
            name="newPassword"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            aria-describedby="password-note"
          />
        </label>
        <label class="field">
          <span>Repeat the new password</span>
          <input name="repeatPassword" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <p id="password-note" class="hint small">
          At least 8 characters. The game plugin will need to log in again with it.
        </p>
        <button type="submit" class="button primary" disabled={busy.value}>
          {busy.value ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  )
}

function Tokens({ tokens, feedback }: { tokens: Signal<TokenListItem[]>; feedback: Feedback }) {
  const revoke = async (token: TokenListItem) => {
    feedback.error.value = null
    try {
      await api.revokeToken(token.id)
      tokens.value = tokens.value.filter((t) => t.id !== token.id)
      feedback.notice.value = `Token “${token.label}” revoked: a plugin using it must log in again.`
    } catch (e) {
      failed(feedback, e)
    }
  }
  return (
    <section class="account-part" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Plugin tokens</h2>
      <p class="hint">
        Each login of the game plugin makes a token. Revoke one you no longer use (an old PC, a lost copy): that plugin
        must log in again.
      </p>
      {tokens.value.length === 0 ? (
        <p data-tokens="0">No plugin tokens.</p>
      ) : (
        <div class="table-wrap">
          <table class="tokens cards" data-tokens={tokens.value.length}>
            <caption class="sr-only">Plugin tokens of this account</caption>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.value.map((t) => (
                <tr key={t.id} data-token={t.id}>
                  <th scope="row">{t.label}</th>
                  <td data-label="Created">{formatDate(t.createdAt)}</td>
                  <td data-label="Last used">{formatDate(t.lastUsedAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="button quiet"
                      aria-label={`Revoke token ${t.label} created ${formatDate(t.createdAt)}`}
                      onClick={() => void revoke(t)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

function Everywhere({ feedback }: { feedback: Feedback }) {
  const signOutEverywhere = async () => {
    try {
      await endEverySession()
    } catch (e) {
      failed(feedback, e)
    }
  }
  return (
    <section class="account-part" aria-labelledby="everywhere-title">
      <h2 id="everywhere-title">Sign out everywhere</h2>
      <p class="hint">Ends every session of this account (this one too) and every plugin token.</p>
      <Confirm
        label="Sign out everywhere"
        class="button"
        question="End every session and plugin token of this account?"
        yes="Yes, sign out everywhere"
        no="Cancel"
        onYes={() => void signOutEverywhere()}
      />
    </section>
  )
}

/** Whether this account's runs count in the server's quest times (only medians leave it). */
function Sharing({ feedback }: { feedback: Feedback }) {
  const share = useSignal<boolean | null>(null)
  useEffect(() => {
    api
      .settings()
      .then((settings) => {
        share.value = settings.shareQuestTimes
      })
      // The switch stays off until the setting is known; the page says why.
      .catch((e: unknown) => failed(feedback, e))
  }, [])
  return (
    <section class="account-part" aria-labelledby="sharing-title">
      <h2 id="sharing-title">Quest times</h2>
      <label class="check">
        <input
          type="checkbox"
          disabled={share.value === null}
          checked={share.value ?? false}
          onChange={async (e) => {
            const on = e.currentTarget.checked
            try {
              share.value = (await api.putSettings(on)).shareQuestTimes
              feedback.notice.value = on
                ? 'Your runs count in the server’s quest times again.'
                : 'Your runs no longer count in the server’s quest times.'
            } catch (error) {
              failed(feedback, error)
            }
          }}
        />{' '}
        Count my runs in this server’s quest times
      </label>
      <p class="hint">
        The tracker shows how long each quest takes on this server: the median of every player’s runs, from 3 runs by 2
        characters. Only those medians leave your account; your runs themselves are yours alone.
      </p>
    </section>
  )
}

export function AccountView({
  user,
  initialTokens,
  characters,
}: {
  user: User
  initialTokens: TokenListItem[]
  characters: Character[]
}) {
  const tokens = useSignal(initialTokens)
  const feedback: Feedback = { error: useSignal(null), notice: useSignal(null) }
  return (
    <div class="account-page">
      <h1>Account</h1>
      <p class="facts">
        {user.username ?? user.displayName}
        {user.email ? ` · ${user.email}` : ''}
      </p>
      <Messages error={feedback.error} notice={feedback.notice} />
      {feedback.notice.value && (
        <p class="ok-note" aria-hidden="true">
          {feedback.notice.value}
        </p>
      )}
      <PasswordForm
        feedback={feedback}
        onChanged={() => {
          // Every token ended with the old password.
          api
            .tokens()
            .then((list) => {
              tokens.value = list.tokens
            })
            .catch((e: unknown) => failed(feedback, e))
        }}
      />
      <Tokens tokens={tokens} feedback={feedback} />
      <Sharing feedback={feedback} />
      <DataSection characters={characters} />
      <Everywhere feedback={feedback} />
    </div>
  )
}
