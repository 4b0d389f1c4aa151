// The tracker's first screen drawn to HTML, for the server to put in the page it answers
// (src/modules/web/firstScreen.ts): the website's own view (TrackerLayout) over the answers the
// page's first reads get. Built by scripts/buildWeb.ts into src/web/dist/server/firstScreen.js,
// a module of its own the server loads when it draws (the site's JSX compiled as the site's is,
// and no import of the website into the server's own modules).
import { renderToString } from 'preact-render-to-string'
import type { FirstScreenDrawing } from '../modules/web/screen'
import { pageTitle } from './components/Layout'
import { drawnAt } from './here'
import { TrackerLayout } from './pages/Tracker'
import { createTrackerStore } from './tracker/store'

export const drawTracker: FirstScreenDrawing['drawTracker'] = (screen) => {
  const store = createTrackerStore({
    character: screen.character,
    progress: screen.progress,
    quests: screen.quests,
    // Drawn with the panel at once; the read the panel's effect would take is never made here
    // (a drawing runs no effects).
    nextNow: screen.next,
    // The owner's view (its share link, its boxes); nothing is sent from here.
    save: true,
  })
  const markup = drawnAt(screen.place, () => renderToString(<TrackerLayout user={screen.user} store={store} />))
  return { title: pageTitle(screen.character.name), markup }
}
