// Where the page is, as a component reads it while drawing: the browser's location, or the
// request's while the server draws the tracker's first screen into the page it answers
// (src/modules/web/firstScreen.ts), where there is no `location`. Drawing is synchronous, so the
// place set for one draw is never seen by another.

/** The parts of a location a component draws with. */
export interface Place {
  origin: string
  pathname: string
}

let drawingAt: Place | null = null

/** The page's origin and path. */
export function here(): Place {
  return drawingAt ?? location
}

/** `draw()`'s result, with here() answering `place` while it runs (the server's drawing). */
export function drawnAt<T>(place: Place, draw: () => T): T {
  drawingAt = place
  try {
    return draw()
  } finally {
    drawingAt = null
  }
}
