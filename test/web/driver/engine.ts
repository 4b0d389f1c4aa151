// What the Page needs of a browser library (engine): the few calls that differ between
// playwright-core (Chromium over its DevTools protocol, chromium.ts) and puppeteer-core (Firefox
// over WebDriver BiDi, firefox.ts), and the options and cookies a test opens a page with.

/** How often a wait asks the page again (after an error, or a slice that ended without its state). */
export const POLL_MS = 30
/** Playwright's default window, used for both browsers so that layouts match. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 720 }

export type ColorScheme = 'light' | 'dark'

export interface Cookie {
  name: string
  value: string
  domain: string
  path: string
  httpOnly: boolean
  secure: boolean
  sameSite: 'Strict' | 'Lax' | 'None'
  /** Seconds since the epoch; -1 for a session cookie. */
  expires: number
}

export interface PageOptions {
  viewport?: { width: number; height: number }
  deviceScaleFactor?: number
  /** Cookies to start with (a session signed in through the API: Site.session). */
  cookies?: readonly Cookie[]
  /**
   * 'block' for a page whose test stands in for the server with Page.route: a request the site's
   * service worker answers never reaches a route (test/web/offline.test.ts tests the worker).
   */
  serviceWorkers?: 'allow' | 'block'
}

export interface Handle {
  evaluate<R, A>(fn: (value: never, arg: A) => R | Promise<R>, arg: A): Promise<R>
  dispose(): Promise<void>
}

export interface RouteRequest {
  url: URL
  method: string
  /** The request's body as text (a POST's JSON), or null. */
  body: string | null
}
/** What a routed request gets: aborted, answered with JSON, or sent on to the server. */
export type RouteAnswer = { abort: true } | { json: unknown } | { continue: true }
export type RouteHandler = (request: RouteRequest) => RouteAnswer | Promise<RouteAnswer>
export type UrlMatch = (url: URL) => boolean

export interface EnginePage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>
  evaluateHandle<A>(fn: (arg: A) => unknown, arg: A): Promise<Handle>
  /** Whether the handle holds an element (a wait answers with its state when it has none). */
  isElement(handle: Handle): boolean
  /** The one element the handle holds: clicked, focused, given files. */
  click(element: Handle): Promise<void>
  focus(element: Handle): Promise<void>
  setFiles(element: Handle, paths: string[]): Promise<void>
  goto(url: string): Promise<number | null>
  reload(): Promise<void>
  url(): string
  setViewport(size: { width: number; height: number }): Promise<void>
  screenshot(path: string, fullPage: boolean): Promise<void>
  press(key: string): Promise<void>
  type(text: string, delay: number): Promise<void>
  addInitScript(fn: () => void): Promise<void>
  route(match: UrlMatch, handler: RouteHandler): Promise<void>
  unrouteAll(): Promise<void>
  /** Every cookie of the page's context goes (a session that ended without a sign-out). */
  clearCookies(): Promise<void>
  close(): Promise<void>
}

export interface PageEvents {
  request(url: string): void
  problem(text: string): void
  /** A request of the page itself (not its service worker's) left; `request` is its handle. */
  started(request: object, url: string): void
  /**
   * That request has its answer's head (its body may still come), or failed. Firefox does not
   * always say when a body has come (the catalog's, over WebDriver BiDi): the head is enough to
   * know the page is not waiting on a service worker that would report being cut off.
   */
  ended(request: object): void
}

/** A mistake in the test itself (two elements where one was meant): fails at once, not after a wait. */
export class DriverError extends Error {}

/** Closes a tab that will not be kept, leaving its page first (see Page.close). */
export async function leaveAndClose(
  page: { goto(url: string): Promise<unknown> },
  context: { close(): Promise<void> },
): Promise<void> {
  await page.goto('about:blank').catch(() => {})
  await context.close()
}

/** The page's calls, each refused once it is closed; a second close does nothing. */
export function closable(engine: EnginePage): EnginePage {
  let closed = false
  const guarded = { ...engine }
  for (const name of Object.keys(engine) as (keyof EnginePage)[]) {
    const call = engine[name] as (...args: unknown[]) => unknown
    ;(guarded as Record<string, unknown>)[name] = (...args: unknown[]) => {
      if (closed) throw new DriverError(`${name}() on a page that was closed`)
      return call(...args)
    }
  }
  guarded.unrouteAll = async () => {
    if (!closed) await engine.unrouteAll()
  }
  guarded.close = async () => {
    if (closed) return
    closed = true
    await engine.close()
  }
  return guarded
}
