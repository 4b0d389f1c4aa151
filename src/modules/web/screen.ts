// What the server's drawing of the tracker's first screen takes and gives (src/web/drawnFirstScreen.tsx
// draws; firstScreen.ts puts it in the page): the answers of the page's first reads, as their
// routes' schemas say, and where the page is. The one contract between the two sides, neither of
// which imports the other (the drawing is a module the website's build makes: scripts/buildWeb.ts).
import type { Static } from 'elysia'
import type { User } from '../auth/model'
import type { QuestListRow } from '../catalog/model'
import type { Character } from '../characters/model'
import type { NextAnswer } from '../next/model'
import type { Progress } from '../progress/model'

export interface TrackerScreen {
  user: Static<typeof User>
  character: Static<typeof Character>
  progress: Static<typeof Progress>
  quests: readonly Static<typeof QuestListRow>[]
  next: Static<typeof NextAnswer>
  /** The page's origin and path, as `location` gives them in the browser. */
  place: { origin: string; pathname: string }
}

export interface FirstScreenDrawing {
  /** The page's title and the tracker's markup, as the page draws them once its reads are in. */
  drawTracker(screen: TrackerScreen): { title: string; markup: string }
}
