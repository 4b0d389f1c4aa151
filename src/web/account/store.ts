// The account page's state, as signals: the plugin tokens, whether the account's runs count in
// the server's quest times, and what its actions said. The actions (change the password, revoke a
// token, switch sharing, sign out everywhere) write through the API client and take its answer.
import { signal } from '@preact/signals'
import { act, createFeedback } from '../action'
import { ApiError, api, type TokenListItem } from '../api'
import { requireUser, signOutEverywhere } from '../session'

export type AccountStore = ReturnType<typeof createAccountStore>

export function createAccountStore(initialTokens: TokenListItem[]) {
  const feedback = createFeedback()
  const tokens = signal(initialTokens)
  /** Null until the server said; the switch waits for it. */
  const shareQuestTimes = signal<boolean | null>(null)

  /** Reads the sharing setting once the page shows (the switch stays off until it is known). */
  function loadSettings(): Promise<unknown> {
    return act(
      feedback,
      async () => {
        shareQuestTimes.value = (await api.settings()).shareQuestTimes
      },
      { quiet: true },
    )
  }

  /** True when the password changed; every token ended with the old one, so the list is read again. */
  async function changePassword(current: string, next: string, repeated: string): Promise<boolean> {
    if (next !== repeated) {
      feedback.error.value = 'The new password and its repetition differ.'
      return false
    }
    const done = await act(feedback, () => api.changePassword(current, next), {
      notice: () =>
        'Password changed. Every other session and every plugin token has ended; this browser stays signed in.',
      // A 401 here is the current password being wrong, unless the session itself has ended:
      // then asking who is signed in sends the page to sign in.
      explain: async (e) => {
        if (!(e instanceof ApiError && e.status === 401)) return null
        await requireUser()
        return 'The current password is not right.'
      },
    })
    if (!done.ok) return false
    await act(
      feedback,
      async () => {
        tokens.value = (await api.tokens()).tokens
      },
      { quiet: true },
    )
    return true
  }

  function revoke(token: TokenListItem): Promise<unknown> {
    return act(
      feedback,
      async () => {
        await api.revokeToken(token.id)
        tokens.value = tokens.value.filter((t) => t.id !== token.id)
      },
      { quiet: true, notice: () => `Token “${token.label}” revoked: a plugin using it must log in again.` },
    )
  }

  function setShareQuestTimes(on: boolean): Promise<unknown> {
    return act(
      feedback,
      async () => {
        shareQuestTimes.value = (await api.putSettings(on)).shareQuestTimes
      },
      {
        quiet: true,
        notice: () =>
          on
            ? 'Your runs count in the server’s quest times again.'
            : 'Your runs no longer count in the server’s quest times.',
      },
    )
  }

  function endEverySession(): Promise<unknown> {
    return act(feedback, signOutEverywhere, { quiet: true })
  }

  return {
    feedback,
    tokens,
    shareQuestTimes,
    loadSettings,
    changePassword,
    revoke,
    setShareQuestTimes,
    endEverySession,
  }
}
