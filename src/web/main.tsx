// The website's entry, choosing the page by path. Pages are ordinary links (a full load each).
// The sign-in, characters, tracker and share pages are in this bundle: the tracker is the page
// kept open beside the game. The others (joining with an invite, a character's form, build, stats, sagas,
// past lives, routes, account, groups, every alt at a glance) are chunks of their own,
// loaded when visited, and the stats page's chart library is one more, loaded only there.
import type { JSX } from 'preact'
import { render } from 'preact'
import { matchPage, type PagePath } from '../pages'
import { firstReadsDone } from './api'
import { drawingRoot } from './firstScreen'
import { registerServiceWorker } from './offline/register'
import { watchReachability } from './offline/status'
import { CharactersPage } from './pages/Characters'
import { LoginPage } from './pages/Login'
import { NotFoundPage } from './pages/NotFound'
import { SharePage, TrackerPage } from './pages/Tracker'

type Page = JSX.Element | Promise<JSX.Element>

/** The view of each page of the site (paths.ts lists them; a page without a view is a type error). */
const VIEWS: Readonly<Record<PagePath, (param: string, params: readonly string[]) => Page>> = {
  '/': () => <CharactersPage />,
  '/login': () => <LoginPage />,
  '/join/:code': (code) => import('./pages/Join').then(({ JoinPage }) => <JoinPage code={code} />),
  '/account': () => import('./pages/Account').then(({ AccountPage }) => <AccountPage />),
  '/characters/new': () => import('./pages/CharacterEdit').then(({ CharacterNewPage }) => <CharacterNewPage />),
  '/characters/:id': (id) => <TrackerPage id={Number(id)} />,
  '/characters/:id/edit': (id) =>
    import('./pages/CharacterEdit').then(({ CharacterEditPage }) => <CharacterEditPage id={Number(id)} />),
  '/characters/:id/build': (id) => import('./pages/Build').then(({ BuildPage }) => <BuildPage id={Number(id)} />),
  '/characters/:id/stats': (id) => import('./pages/Stats').then(({ StatsPage }) => <StatsPage id={Number(id)} />),
  '/characters/:id/sagas': (id) => import('./pages/Sagas').then(({ SagasPage }) => <SagasPage id={Number(id)} />),
  '/groups': () => import('./pages/Groups').then(({ GroupsPage }) => <GroupsPage />),
  '/groups/:id': (id) => import('./pages/Groups').then(({ GroupPage }) => <GroupPage id={Number(id)} />),
  '/groups/:id/party': (id) => import('./pages/Groups').then(({ PartyPage }) => <PartyPage id={Number(id)} />),
  '/groups/:id/characters/:characterId': (id, [, characterId]) =>
    import('./pages/Groups').then(({ GroupCharacterPage }) => (
      <GroupCharacterPage id={Number(id)} characterId={Number(characterId)} />
    )),
  '/alts': () => import('./pages/Alts').then(({ AltsPage }) => <AltsPage />),
  '/past-lives': () => import('./pages/PastLives').then(({ PastLivesPage }) => <PastLivesPage />),
  '/past-lives/:id': (id) =>
    import('./pages/PastLives').then(({ CharacterPastLivesPage }) => <CharacterPastLivesPage id={Number(id)} />),
  '/routes': () => import('./pages/Routes').then(({ RoutesPage }) => <RoutesPage />),
  '/routes/new': () => import('./pages/RouteEdit').then(({ RouteNewPage }) => <RouteNewPage />),
  '/routes/:id': (id) => import('./pages/Route').then(({ RoutePage }) => <RoutePage id={Number(id)} />),
  '/routes/:id/edit': (id) =>
    import('./pages/RouteEdit').then(({ RouteEditPage }) => <RouteEditPage id={Number(id)} />),
  '/s/:token': (token) => <SharePage token={token} />,
}

function pageFor(path: string): Page {
  const match = matchPage(path)
  return match ? VIEWS[match.page](match.param, match.params) : <NotFoundPage />
}

watchReachability()
registerServiceWorker(firstReadsDone)

const root = document.getElementById('app')
if (root) {
  Promise.resolve(pageFor(location.pathname))
    .then((page) => render(page, drawingRoot(root)))
    .catch(() => {
      // A chunk that does not load (the server restarted with a new build): a reload fetches the new one.
      root.textContent = 'This page could not load. Reload the page to try again.'
      root.removeAttribute('inert')
    })
}
