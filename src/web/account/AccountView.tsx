// The account page's body: change the password (asks for the current one; every other session
// and every plugin token end, this browser stays signed in), the plugin tokens with a revoke
// button each, the player's data out and in (DataSection), and signing out everywhere.
import { useEffect, useMemo } from 'preact/hooks'
import type { Character, TokenListItem, User } from '../api'
import { Confirm } from '../components/Confirm'
import { Messages } from '../components/Messages'
import { formatDate } from '../format'
import { DataSection } from './DataSection'
import { type AccountStore, createAccountStore } from './store'

function PasswordForm({ store }: { store: AccountStore }) {
  const { busy } = store.feedback
  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const field = (name: string) => String(data.get(name) ?? '')
    if (await store.changePassword(field('currentPassword'), field('newPassword'), field('repeatPassword')))
      form.reset()
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

function Tokens({ store }: { store: AccountStore }) {
  const { tokens } = store
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
                      onClick={() => void store.revoke(t)}
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

function Everywhere({ store }: { store: AccountStore }) {
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
        onYes={() => void store.endEverySession()}
      />
    </section>
  )
}

/** Whether this account's runs count in the server's quest times (only medians leave it). */
function Sharing({ store }: { store: AccountStore }) {
  const share = store.shareQuestTimes
  useEffect(() => void store.loadSettings(), [])
  return (
    <section class="account-part" aria-labelledby="sharing-title">
      <h2 id="sharing-title">Quest times</h2>
      <label class="check">
        <input
          type="checkbox"
          disabled={share.value === null}
          checked={share.value ?? false}
          onChange={(e) => void store.setShareQuestTimes(e.currentTarget.checked)}
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
  const store = useMemo(() => createAccountStore(initialTokens), [])
  const { feedback } = store
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
      <PasswordForm store={store} />
      <Tokens store={store} />
      <Sharing store={store} />
      <DataSection characters={characters} />
      <Everywhere store={store} />
    </div>
  )
}
