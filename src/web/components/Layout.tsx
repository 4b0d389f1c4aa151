// The frame of every page: a skip link, the site header (with the account and Sign out when
// signed in) and the main landmark the skip link and screen readers jump to.
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { User } from '../api'
import { signOut } from '../session'

interface LayoutProps {
  title: string
  user?: User | null
  wide?: boolean
  children: ComponentChildren
}

export function Layout({ title, user, wide, children }: LayoutProps) {
  useEffect(() => {
    document.title = title === 'Quest Tracker' ? title : `${title} — Quest Tracker`
  }, [title])
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <a class="brand" href={user ? '/' : '/login'}>
          Quest Tracker
        </a>
        {user && <Account user={user} />}
      </header>
      <main id="main" tabIndex={-1} class={wide ? 'main wide' : 'main'}>
        {children}
      </main>
    </>
  )
}

function Account({ user }: { user: User }) {
  const [error, setError] = useState<string | null>(null)
  const onSignOut = async () => {
    try {
      await signOut()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <div class="account">
      <span class="who">
        Signed in as <strong>{user.displayName}</strong>
      </span>
      <button type="button" class="button quiet" onClick={onSignOut}>
        Sign out
      </button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  )
}

/** A loading line that screen readers hear once. */
export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  )
}

export function ErrorMessage({ message }: { message: string }) {
  return (
    <p class="error" role="alert">
      {message}
    </p>
  )
}
