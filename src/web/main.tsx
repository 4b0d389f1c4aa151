// The website's entry, choosing the page by path. Pages are ordinary links (a full load each).
// The sign-in, characters, tracker and share pages are in this bundle: the tracker is the page
// kept open beside the game. The others (build, stats, routes, account) are chunks of their own,
// loaded when visited, and the stats page's chart library is one more, loaded only there.
import type { JSX } from 'preact'
import { render } from 'preact'
import { CharactersPage } from './pages/Characters'
import { LoginPage } from './pages/Login'
import { NotFoundPage } from './pages/NotFound'
import { SharePage, TrackerPage } from './pages/Tracker'

type Page = JSX.Element | Promise<JSX.Element>

/** Pages by path; `id` is the number in the path where there is one. */
const PAGES: readonly [RegExp, (id: number) => Page][] = [
  [/^\/$/, () => <CharactersPage />],
  [/^\/login$/, () => <LoginPage />],
  [/^\/characters\/(\d+)$/, (id) => <TrackerPage id={id} />],
  [/^\/characters\/(\d+)\/build$/, (id) => import('./pages/Build').then(({ BuildPage }) => <BuildPage id={id} />)],
  [/^\/characters\/(\d+)\/stats$/, (id) => import('./pages/Stats').then(({ StatsPage }) => <StatsPage id={id} />)],
  [/^\/routes$/, () => import('./pages/Routes').then(({ RoutesPage }) => <RoutesPage />)],
  [/^\/routes\/new$/, () => import('./pages/RouteEdit').then(({ RouteNewPage }) => <RouteNewPage />)],
  [/^\/routes\/(\d+)$/, (id) => import('./pages/Route').then(({ RoutePage }) => <RoutePage id={id} />)],
  [
    /^\/routes\/(\d+)\/edit$/,
    (id) => import('./pages/RouteEdit').then(({ RouteEditPage }) => <RouteEditPage id={id} />),
  ],
  [/^\/account$/, () => import('./pages/Account').then(({ AccountPage }) => <AccountPage />)],
]

function pageFor(path: string): Page {
  const share = /^\/s\/([^/]+)\/?$/.exec(path)
  if (share) return <SharePage token={decodeURIComponent(share[1] ?? '')} />
  const trimmed = path.length > 1 ? path.replace(/\/$/, '') : path
  for (const [pattern, page] of PAGES) {
    const match = pattern.exec(trimmed)
    if (match) return page(Number(match[1]))
  }
  return <NotFoundPage />
}

const root = document.getElementById('app')
if (root) {
  Promise.resolve(pageFor(location.pathname))
    .then((page) => {
      root.textContent = ''
      render(page, root)
    })
    .catch(() => {
      // A chunk that does not load (the server restarted with a new build): a reload fetches the new one.
      root.textContent = 'This page could not load. Reload the page to try again.'
    })
}
