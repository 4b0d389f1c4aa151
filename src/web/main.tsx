// The website's entry: one bundle for every page, chosen by path. Pages are ordinary links
// (a full load each): the catalog is fetched once per tracker load, and nothing else is heavy.
import { render } from 'preact'
import { CharactersPage } from './pages/Characters'
import { LoginPage } from './pages/Login'
import { NotFoundPage } from './pages/NotFound'
import { SharePage, TrackerPage } from './pages/Tracker'

function pageFor(path: string) {
  if (path === '/login') return <LoginPage />
  if (path === '/') return <CharactersPage />
  const tracker = /^\/characters\/(\d+)\/?$/.exec(path)
  if (tracker) return <TrackerPage id={Number(tracker[1])} />
  const share = /^\/s\/([^/]+)\/?$/.exec(path)
  if (share) return <SharePage token={decodeURIComponent(share[1] ?? '')} />
  return <NotFoundPage />
}

const root = document.getElementById('app')
if (root) {
  root.textContent = ''
  render(pageFor(location.pathname), root)
}
