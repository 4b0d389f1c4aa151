// The website's browser tests and screenshots: the real app listening on a free port over a
// temporary database file, a catalog loaded through the real sync, accounts and characters
// made through the plugin API (as the game would). The tests drive Debian's Chromium and Firefox
// through driver.ts (browsers.ts runs each test in both); the Chromium-only tools (installability,
// the page benchmarks) take playwright-core's Chromium from the driver's launchChromium, and
// find it with its browserPath. Without a browser the tests skip it, saying so, except under CI=true.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { treaty } from '@elysiajs/eden'
import type { Browser, BrowserContext } from 'playwright-core'
import { type App, createApp } from '../../src/app'
import { systemClock } from '../../src/clock'
import { loadConfig } from '../../src/config'
import { type DB, openDatabase } from '../../src/db/client'
import { silentLogger } from '../../src/logger'
import { createUser } from '../../src/modules/account/service'
import { syncCatalog } from '../../src/modules/catalog/sync'
import { cheapHasher } from '../helpers'
import type { Cookie, Page, PageOptions, Browser as TestBrowser } from './driver'

export const PASSWORD = 'correct horse battery'
export const SMALL_CATALOG = join(import.meta.dir, '..', 'fixtures', 'quests-small.json')
export const FULL_CATALOG = join(import.meta.dir, '..', '..', '..', 'shared', 'fixtures', 'catalog', 'quests-718.json')

/**
 * Eden Treaty over the listening site, typed from the app's routes, sending `headers` with every
 * call. `parseDate: false`: timestamps stay the strings the API sends.
 */
const clientOf = (base: string, headers: Record<string, string> = {}) =>
  treaty<App>(base, { headers, parseDate: false }).api

/** The plugin API of the site, as a game client with a bearer token calls it. */
export type PluginClient = ReturnType<typeof clientOf>['plugin']
/** The website's cookie API of the site, with a session (Site.session). */
export type WebClient = ReturnType<typeof clientOf>

/**
 * The data of a call that succeeded (any 2xx), else an Error with its status and body: for the
 * set-up steps of the scripts that drive the site (screenshots, benchmarks), where a test would
 * use ok() and its exact status.
 */
export async function succeeded<A extends { data: unknown; error: { value: unknown } | null; status: number }>(
  call: Promise<A>,
): Promise<NonNullable<A['data']>> {
  const { data, error, status } = await call
  if (error || data === null || data === undefined) throw new Error(`${status} ${JSON.stringify(error?.value)}`)
  return data
}

export interface Site {
  base: string
  /** Logs in through the plugin API (as the game does) and returns its bearer token. */
  pluginToken(username: string): Promise<string>
  /** The typed plugin API with a bearer token: `ok(await site.plugin(token).characters.post(...), 201)`. */
  plugin(token: string): PluginClient
  addUser(username: string): Promise<void>
  /** The site's database, for what only the operator makes (an invite: `invite create`). */
  db: DB
  /** The server goes away (connections closed, nothing listening); the database stays. */
  pause(): Promise<void>
  /** The server is back, on the same port, over the same database. */
  resume(): void
  /**
   * Signs in through the website's API (not its form) and returns the session cookie, for a page
   * that starts signed in: the form itself is tested once (tracker.test.ts), not before each test.
   */
  session(username: string): Promise<Cookie[]>
  /** The website's typed cookie API with a session: `ok(await site.web(cookies).account.export.get())`. */
  web(cookies: readonly Cookie[]): WebClient
  stop(): Promise<void>
}

/** `env`: variables of the site's configuration beyond the defaults (`SIGNUP_INVITES: 'on'`). */
export async function startSite(catalog: string = SMALL_CATALOG, env: Record<string, string> = {}): Promise<Site> {
  const dir = await mkdtemp(join(tmpdir(), 'qt-web-'))
  const db = openDatabase(join(dir, 'qt.sqlite'))
  const deps = {
    db,
    config: loadConfig({ CATALOG_SYNC_CRON: 'off', ...env }),
    clock: systemClock,
    logger: silentLogger,
    // Cheap hashing: the tests sign in often, and argon2 at full cost is most of a sign-in's time.
    passwordHasher: cheapHasher,
  }
  const synced = await syncCatalog(deps, catalog)
  if (!synced.ok) throw new Error(`catalog fixture did not load: ${synced.error}`)
  const app = createApp(deps)
  app.listen({ port: 0, hostname: '127.0.0.1' })
  const port = app.server?.port
  const base = `http://127.0.0.1:${port}`
  let listening = true

  return {
    base,
    db,
    plugin: (token) => clientOf(base, { authorization: `Bearer ${token}` }).plugin,
    web: (cookies) => clientOf(base, { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') }),
    async addUser(username) {
      await createUser(deps, { username, password: PASSWORD })
    },
    async session(username) {
      const { response, status } = await clientOf(base).session.post({ identifier: username, password: PASSWORD })
      const token = /qt_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1]
      if (!token) throw new Error(`sign in: ${status}`)
      const host = new URL(base).hostname
      return [
        {
          name: 'qt_session',
          value: token,
          domain: host,
          path: '/',
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
          expires: -1,
        },
      ]
    },
    async pluginToken(username) {
      const { data, status } = await clientOf(base).plugin.auth.login.post({ identifier: username, password: PASSWORD })
      if (!data) throw new Error(`plugin login: ${status}`)
      return data.token
    },
    async pause() {
      await app.stop(true)
      listening = false
    },
    resume() {
      app.listen({ port, hostname: '127.0.0.1' })
      listening = true
    },
    async stop() {
      // A test that failed while the server was away leaves it paused.
      if (listening) await app.stop(true)
      db.$client.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * The page the website's script draws, not the first screen the server drew in its place
 * (src/web/firstScreen.ts): the drawing shows the rows at once, before the page has read anything,
 * so a test that must see the page's own reads done (and kept by the service worker) waits
 * for rows under this.
 */
export const LIVE_PAGE = '#app:not([data-first-screen])'

/**
 * Console errors that are failed loads, not faults: Chromium logs every failed load (the 401s and
 * 404s tests cause on purpose, an event stream a test blocks); Firefox says a blocked event
 * stream too, and words a load through the service worker cut off by the page leaving (or
 * closing) as the worker's error. Anything else a page logs (a CSP refusal, an exception) is one.
 * test/web/offline.test.ts, which tests the worker, keeps its own stricter list.
 */
export const FAILED_LOAD =
  /Failed to load resource|net::ERR_FAILED|can’t establish a connection to the server at \S+\/events\b|A ServiceWorker intercepted the request and encountered an unexpected error|A ServiceWorker passed an Error Response/

/** A fresh context (no cookies) that records every request the pages make. */
export async function newContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; requests: URL[] }> {
  const context = await browser.newContext(options)
  const requests: URL[] = []
  context.on('request', (request) => requests.push(new URL(request.url())))
  return { context, requests }
}

/** A page of `browser` signed in as `username` (Site.session), on `path` of the site. */
export async function openSignedIn(
  browser: TestBrowser,
  site: Site,
  username: string,
  path: string,
  options: PageOptions = {},
): Promise<Page> {
  const page = await browser.newPage({ ...options, cookies: await site.session(username) })
  await page.goto(`${site.base}${path}`)
  return page
}

/** What signIn needs of a page: the driver's Page and playwright's both have it. */
interface SignInPage {
  goto(url: string): Promise<unknown>
  getByLabel(text: string): { fill(value: string): Promise<void> }
  getByRole(role: 'button', options: { name: string }): { click(): Promise<void> }
}

/** Signs in through the page, as a person would. */
export async function signIn(page: SignInPage, base: string, username: string, next = '') {
  await page.goto(`${base}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`)
  await page.getByLabel('Username or e-mail').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}
