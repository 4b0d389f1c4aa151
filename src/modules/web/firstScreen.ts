// The tracker's first screen, drawn here into the page the server answers (issue 42): the page
// kept open beside the game shows its header, filters, totals, what to run next and its first
// rows as soon as the HTML has come, instead of after the bundle has loaded, run, read and drawn
// (on a 2-core home server that shares its processor with the browser, most of a first load).
// The drawing is the website's own view (src/web/drawnFirstScreen.tsx, built beside the site)
// over the same answers the page's first reads get, for the account the session cookie signs in
// and only for its own characters; anything else is answered the built page as it is. The page
// marks it `inert` (nothing on it takes a click or a key) and swaps in the live page once that
// has drawn itself (src/web/firstScreen.ts).
import type { AppDeps } from '../../deps'
import { quoted } from '../../logger'
import { FIRST_NEXT } from '../../web/firstReads'
import { APP_MODULE_ATTRIBUTE, FIRST_SCREEN_ATTRIBUTE } from '../../web/firstScreen'
import { catalogAnswer } from '../catalog/service'
import { assertOwnsCharacter } from '../characters/access'
import { getCharacter } from '../characters/service'
import { nextForCharacter } from '../next/service'
import { getProgress } from '../progress/service'
import { readCookie, SESSION_COOKIE, sessionUser } from '../session/service'
import type { FirstScreenDrawing, TrackerScreen } from './screen'

/** What the built page holds where the website draws itself (src/web/index.html). */
export const APP_ROOT = '<div id="app"><p class="boot">Loading Quest Tracker…</p></div>'
/** The built page's tag of the site's bundle (scripts/buildWeb.ts). */
export const APP_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/

// The catalog's rows as the page reads them (GET /api/quests), parsed once per answer.
const parsedCatalogs = new WeakMap<object, TrackerScreen['quests']>()

type Deps = Pick<AppDeps, 'db' | 'clock' | 'logger'>

function catalogRows(deps: Deps): TrackerScreen['quests'] {
  const answer = catalogAnswer(deps.db, deps.clock)
  let rows = parsedCatalogs.get(answer)
  if (!rows) {
    rows = (JSON.parse(answer.json) as { quests: TrackerScreen['quests'] }).quests
    parsedCatalogs.set(answer, rows)
  }
  return rows
}

const escapeText = (text: string) => text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * `page` (the built HTML) with character `id`'s tracker drawn in, when the request's session is
 * its owner's; else null (the page is answered as it is, and draws itself).
 */
export function withTrackerFirstScreen(
  deps: Deps,
  drawing: FirstScreenDrawing,
  request: Request,
  id: number,
  page: string,
): string | null {
  const user = sessionUser(deps.db, deps.clock, readCookie(request.headers.get('cookie'), SESSION_COOKIE))
  if (!user || !page.includes(APP_ROOT) || !APP_SCRIPT.test(page)) return null
  let character: TrackerScreen['character']
  try {
    assertOwnsCharacter(deps.db, user.id, id)
    character = getCharacter(deps.db, user.id, id)
  } catch {
    // Not this account's (the page says so itself, and which group sees it).
    return null
  }
  try {
    const url = new URL(request.url)
    const { title, markup } = drawing.drawTracker({
      user,
      character,
      progress: getProgress(deps.db, user.id, id),
      quests: catalogRows(deps),
      next: nextForCharacter(deps.db, deps.clock, user.id, id, FIRST_NEXT),
      place: { origin: url.origin, pathname: url.pathname },
    })
    // The bundle is fetched at once but run after the drawn screen's first paint (boot.ts starts
    // it): run as a module script, it held that paint back by its whole first run.
    return page
      .replace('<title>Quest Tracker</title>', () => `<title>${escapeText(title)}</title>`)
      .replace(
        APP_SCRIPT,
        (_, src: string) => `<link rel="modulepreload" crossorigin href="${src}" ${APP_MODULE_ATTRIBUTE}>`,
      )
      .replace(APP_ROOT, () => `<div id="app" ${FIRST_SCREEN_ATTRIBUTE} inert>${markup}</div>`)
  } catch (e) {
    // The page still works without it: it draws itself, as it did before there was one.
    deps.logger.warn(
      `The first screen of character ${id} (${quoted(character.name)}) could not be drawn: ${e instanceof Error ? e.message : String(e)}`,
    )
    return null
  }
}
