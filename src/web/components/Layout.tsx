// The frame of every page: a skip link, the site header (when signed in: the site's sections,
// the account and Sign out), when signed in the connection's state and the changes waiting to be
// sent (offline/OfflineBar.tsx), and the main landmark the skip link and screen readers jump to.
import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { act, useFeedback } from '../action'
import type { User } from '../api'
import { here } from '../here'
import { OfflineBar } from '../offline/OfflineBar'
import { signOut } from '../session'

interface LayoutProps {
  title: string
  user?: User | null
  wide?: boolean
  children: ComponentChildren
}

/** The browser's title of a page whose own title is `title`. */
export const pageTitle = (title: string): string => (title === 'Quest Tracker' ? title : `${title} — Quest Tracker`)

export function Layout({ title, user, wide, children }: LayoutProps) {
  useEffect(() => {
    document.title = pageTitle(title)
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
        {user && <SiteNav />}
        {user && <Account user={user} />}
      </header>
      {user && <OfflineBar />}
      <main id="main" tabIndex={-1} class={wide ? 'main wide' : 'main'}>
        {children}
      </main>
    </>
  )
}

const SECTIONS = [
  {
    href: '/',
    label: 'Characters',
    owns: (path: string) => path === '/' || path === '/alts' || path.startsWith('/characters/'),
  },
  {
    href: '/past-lives',
    label: 'Past lives',
    owns: (path: string) => path === '/past-lives' || path.startsWith('/past-lives/'),
  },
  { href: '/groups', label: 'Groups', owns: (path: string) => path === '/groups' || path.startsWith('/groups/') },
  { href: '/routes', label: 'Routes', owns: (path: string) => path === '/routes' || path.startsWith('/routes/') },
  { href: '/account', label: 'Account', owns: (path: string) => path === '/account' },
] as const

/** The site's sections; the one this page belongs to is marked for screen readers and the eye. */
function SiteNav() {
  const path = here().pathname
  return (
    <nav class="site-nav" aria-label="Site">
      <ul>
        {SECTIONS.map((section) => {
          const here = section.owns(path)
          // `page` only on the section's own address; below it (a character's build) the link is its section.
          const current = here ? (path === section.href ? 'page' : 'true') : undefined
          return (
            <li key={section.href}>
              <a href={section.href} aria-current={current}>
                {section.label}
              </a>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function Account({ user }: { user: User }) {
  const feedback = useFeedback()
  const error = feedback.error.value
  const onSignOut = () => act(feedback, () => signOut(), { quiet: true })
  return (
    <div class="account">
      <span class="who">
        <span class="who-label">Signed in as </span>
        <strong>{user.displayName}</strong>
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
