// The quest list's first draw in parts: a long list (650 rows of a level-7 character, 718 at any
// level) took most of the tracker's first load to make and lay out before anything showed. The
// first FIRST_ROWS rows (more than a screen, at any width) are drawn and painted first, then the
// rest, ROWS_PER_PART at a time, each part in a task of its own after a frame, so the page is
// seen, scrolled and used meanwhile. Once every row is drawn the list draws whole, as before: a
// filter or the search changes it at once. Every row is in the page a moment after the first
// paint, for the browser's find-in-page and for the keyboard.
import { useEffect, useState } from 'preact/hooks'

/**
 * The rows of the first paint. Above them the page's header, filters, totals and "what to run
 * next" fill the first screen of a desk (1280×900 shows no row) and of a phone; fifteen rows are
 * the screen after it, while the rest follow a frame later.
 */
export const FIRST_ROWS = 15
/** The rows each later part adds. */
export const ROWS_PER_PART = 200

/** How many of the list's `total` rows to draw now: FIRST_ROWS first, then more each part, then all. */
export function useRowsDrawn(total: number): number {
  const [drawn, setDrawn] = useState(FIRST_ROWS)
  const done = drawn === Number.POSITIVE_INFINITY
  useEffect(() => {
    if (done) return
    if (drawn >= total) {
      setDrawn(Number.POSITIVE_INFINITY)
      return
    }
    // After the frame that shows the rows drawn so far, in a task of its own (a tab in the
    // background draws no frames: there, the next task).
    let timer: ReturnType<typeof setTimeout> | undefined
    const next = () => {
      timer = setTimeout(() => setDrawn(drawn + ROWS_PER_PART), 0)
    }
    const frame = document.visibilityState === 'hidden' ? next() : requestAnimationFrame(next)
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [drawn, total, done])
  return drawn
}
