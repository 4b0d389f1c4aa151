// The reads of a page's first screen, started by the boot script (boot.ts) as soon as the page
// arrives, before the site's bundle has loaded and run, and taken by the API client (api.ts) when
// the page asks for them: they travel while the bundle loads, instead of after. Only the tracker's,
// the page kept open beside the game and the one with the most to read.
import { matchPage } from '../pages'

/** The reads the boot script started, by path and query, as the API client asks for them. */
export type EarlyReads = Map<string, Promise<Response>>

declare global {
  interface Window {
    /** Left by the boot script; `taken` once the bundle has run (the boot script then starts none). */
    qtEarlyReads?: EarlyReads | 'taken'
  }
}

/** The tracker's ranking of what to run next as the page first asks it (NextPanel, api.next). */
export const FIRST_NEXT = { by: 'xp', limit: 8 } as const

/** The reads of the first screen of the page at `pathname` (none for most pages). */
export function firstReadsOf(pathname: string): string[] {
  const match = matchPage(pathname)
  if (match?.page !== '/characters/:id') return []
  const character = `/api/characters/${encodeURIComponent(match.param)}`
  return [
    '/api/session',
    character,
    `${character}/progress`,
    '/api/quests',
    `${character}/next?by=${FIRST_NEXT.by}&limit=${FIRST_NEXT.limit}`,
  ]
}
