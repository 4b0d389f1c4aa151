// Sign in (/login): the same accounts as the game plugin. After signing in, back to `next`
// (the page a signed-out visitor was sent away from) when it is a path on this site.
import { useEffect, useRef } from 'preact/hooks'
import { act, goOnTo, useFeedback } from '../action'
import { api } from '../api'
import { Layout } from '../components/Layout'
import { safeNext } from '../paths'
import { currentUser } from '../session'

export function LoginPage() {
  const next = safeNext(new URLSearchParams(location.search).get('next'))
  const feedback = useFeedback()
  const error = feedback.error.value
  const busy = feedback.busy.value
  const identifierRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    // Already signed in: straight on.
    currentUser()
      .then((user) => {
        if (user) location.replace(next)
      })
      .catch(() => {})
    identifierRef.current?.focus()
  }, [next])

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const signedIn = await act(feedback, () =>
      api.signIn(String(form.get('identifier') ?? ''), String(form.get('password') ?? '')),
    )
    if (signedIn.ok) goOnTo(feedback, next, { replace: true })
  }

  return (
    <Layout title="Sign in">
      <div class="login">
        <h1>Sign in</h1>
        <p class="hint">Use the account you log in with from the game plugin.</p>
        <form class="stack" onSubmit={onSubmit} aria-describedby={error ? 'login-error' : undefined}>
          <label class="field">
            <span>Username or e-mail</span>
            <input
              ref={identifierRef}
              name="identifier"
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellcheck={false}
              required
            />
          </label>
          <label class="field">
            <span>Password</span>
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          {error && (
            <p id="login-error" class="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="button primary" disabled={busy}>
            Sign in
          </button>
        </form>
      </div>
    </Layout>
  )
}
