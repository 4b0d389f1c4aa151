// Chromium through playwright-core (its DevTools protocol): the one place Chromium is launched
// (the tests' Browser, and the Chromium-only tools: installability, the page benchmarks), and
// its tabs kept between tests (TabPool).
import type * as Playwright from 'playwright-core'
import {
  type ColorScheme,
  closable,
  DEFAULT_VIEWPORT,
  DriverError,
  type EnginePage,
  type Handle,
  leaveAndClose,
  type PageOptions,
} from './engine'
import { type Browser, Page } from './page'

const CHROMIUM_ARGS = [
  '--headless',
  // Test containers run as root.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Chromium's own services stay quiet: "no request to another host" is about the page.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * A Chromium context and its one page, kept between tests. A page of its own context costs
 * Chromium a new renderer (0.6 s, and 1.1 s of a core): so a page a test closes is put back,
 * blank, with everything of the origins it went to gone (cookies, storage, IndexedDB, Cache
 * Storage, service workers, the HTTP cache), and the next page asked for with the same options
 * takes it (0.14 s). A page with an init script, which cannot be taken back, is closed instead,
 * after leaving its page. What stays: the tab's history, which the site never reads. Firefox's
 * pages are not kept: WebDriver BiDi has no command to clear an origin, and clearing it from the
 * origin's own pages cost the suite as much as new contexts did (87 s alone without, 92 s with).
 */
interface ChromiumTab {
  context: Playwright.BrowserContext
  page: Playwright.Page
  /** The options the context was made with: a tab is reused only for the same ones. */
  key: string
  viewport: { width: number; height: number }
  /** Every origin the tab's requests went to. */
  origins: Set<string>
  /** Whether it cannot be made as new, and is closed when the test is done with it. */
  tainted: boolean
  /** Takes the test's listeners off. */
  unlisten: () => void
  /** Whether a test had it before. */
  served: boolean
}

/** The tabs waiting for a test. */
class TabPool {
  private readonly idle: ChromiumTab[] = []

  /** A kept tab made with the same options, else a new one from `make`. */
  async take(
    options: PageOptions,
    make: (key: string, viewport: ChromiumTab['viewport']) => Promise<ChromiumTab>,
  ): Promise<ChromiumTab> {
    const viewport = options.viewport ?? DEFAULT_VIEWPORT
    const key = JSON.stringify([viewport, options.deviceScaleFactor ?? 1, options.serviceWorkers ?? 'allow'])
    const kept = this.idle.findIndex((tab) => tab.key === key)
    if (kept >= 0) return this.idle.splice(kept, 1)[0] as ChromiumTab
    return make(key, viewport)
  }

  /**
   * When the test closes its page: `reset` makes the tab as new (leaving the page first, so that
   * its event stream and polls end in the browser); if it cannot, `close`.
   */
  async putBack(tab: ChromiumTab, reset: () => Promise<void>, close: () => Promise<void>): Promise<void> {
    tab.unlisten()
    tab.unlisten = () => {}
    const reusable =
      !tab.tainted &&
      (await reset().then(
        () => true,
        () => false,
      ))
    if (!reusable) return close().catch(() => {})
    tab.origins.clear()
    tab.served = true
    this.idle.push(tab)
  }
}

/** Whether a page was given another size than its context was made with (Page.setViewportSize). */
function resized(now: { width: number; height: number } | null, made: { width: number; height: number }): boolean {
  return now === null || now.width !== made.width || now.height !== made.height
}

/**
 * Chromium as the tests and the tools run it (headless, CHROMIUM_ARGS): the one place it is
 * launched. With `profileDir`, a browser with a profile there, as a person's is (its one
 * context): what Chromium refuses in a throwaway (incognito) context, such as installing the
 * site as an app, works in it.
 */
export function launchChromium(executablePath: string): Promise<Playwright.Browser>
export function launchChromium(
  executablePath: string,
  options: { profileDir: string },
): Promise<Playwright.BrowserContext>
export async function launchChromium(
  executablePath: string,
  { profileDir }: { profileDir?: string } = {},
): Promise<Playwright.Browser | Playwright.BrowserContext> {
  const { chromium } = await import('playwright-core')
  const options = { executablePath, headless: true, args: CHROMIUM_ARGS }
  return profileDir === undefined ? chromium.launch(options) : chromium.launchPersistentContext(profileDir, options)
}

/** The tests' Chromium; colorScheme holds for every page. */
export async function chromiumBrowser(executablePath: string, colorScheme: ColorScheme): Promise<Browser> {
  const browser = await launchChromium(executablePath)
  const pool = new TabPool()
  const reset = async ({ context, page, origins, viewport }: ChromiumTab) => {
    await page.goto('about:blank')
    await page.mouse.move(0, 0)
    await context.clearCookies()
    const cdp = await context.newCDPSession(page)
    for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })
    await cdp.send('Network.clearBrowserCache')
    await cdp.detach()
    if (resized(page.viewportSize(), viewport)) await page.setViewportSize(viewport)
  }
  return {
    name: 'chromium',
    async newPage(options = {}) {
      const tab = await pool.take(options, async (key, viewport) => {
        const context = await browser.newContext({
          viewport,
          deviceScaleFactor: options.deviceScaleFactor,
          colorScheme,
          serviceWorkers: options.serviceWorkers ?? 'allow',
        })
        const page = await context.newPage()
        return {
          context,
          page,
          key,
          viewport,
          origins: new Set(),
          tainted: false,
          unlisten: () => {},
          served: false,
        }
      })
      const { context, page } = tab
      if (options.cookies) await context.addCookies(options.cookies.map((c) => ({ ...c })))
      const close = () =>
        pool.putBack(
          tab,
          () => reset(tab),
          () => leaveAndClose(page, context),
        )
      return new Page('chromium', closable(chromiumPage(tab, close)), tab.served, (events) => {
        const onRequest = (request: Playwright.Request) => {
          const url = request.url()
          if (/^https?:/.test(url)) tab.origins.add(new URL(url).origin)
          events.request(url)
        }
        const onConsole = (message: Playwright.ConsoleMessage) => {
          if (message.type() === 'error') events.problem(`${page.url()}: ${message.text()}`)
        }
        const onError = (error: Error) => events.problem(`${page.url()}: ${error.message}`)
        const onStarted = (request: Playwright.Request) => events.started(request, request.url())
        const onFailed = (request: Playwright.Request) => events.ended(request)
        const onResponse = (response: Playwright.Response) => events.ended(response.request())
        context.on('request', onRequest)
        page.on('console', onConsole)
        page.on('pageerror', onError)
        page.on('request', onStarted)
        page.on('response', onResponse)
        page.on('requestfailed', onFailed)
        tab.unlisten = () => {
          context.off('request', onRequest)
          page.off('console', onConsole)
          page.off('pageerror', onError)
          page.off('request', onStarted)
          page.off('response', onResponse)
          page.off('requestfailed', onFailed)
        }
      })
    },
    close: () => browser.close(),
  }
}

function chromiumPage(tab: ChromiumTab, close: () => Promise<void>): EnginePage {
  const { context, page } = tab
  const element = (handle: Handle) => {
    const el = (handle as unknown as Playwright.JSHandle).asElement()
    if (!el) throw new DriverError('the handle is not an element')
    return el
  }
  return {
    // playwright's types unbox handles in the argument; these arguments are plain data.
    evaluate: (fn, arg) => page.evaluate(fn as (arg: unknown) => never, arg),
    evaluateHandle: async (fn, arg) =>
      (await page.evaluateHandle(fn as (arg: unknown) => unknown, arg)) as unknown as Handle,
    isElement: (handle) => (handle as unknown as { asElement(): unknown }).asElement() !== null,
    click: (handle) => element(handle).click(),
    focus: (handle) => element(handle).focus(),
    setFiles: (handle, paths) => element(handle).setInputFiles(paths),
    goto: async (url) => (await page.goto(url))?.status() ?? null,
    reload: async () => {
      await page.reload()
    },
    url: () => page.url(),
    setViewport: (size) => page.setViewportSize(size),
    screenshot: async (path, fullPage) => {
      await page.screenshot({ path, fullPage })
    },
    press: (key) => page.keyboard.press(key),
    type: (text, delay) => page.keyboard.type(text, { delay }),
    addInitScript: async (fn) => {
      tab.tainted = true
      await context.addInitScript(fn)
    },
    route: async (match, handler) => {
      await page.route(match, async (route) => {
        const request = route.request()
        const answer = await handler({
          url: new URL(request.url()),
          method: request.method(),
          body: request.postData(),
        })
        if ('abort' in answer) await route.abort()
        else if ('json' in answer) await route.fulfill({ json: answer.json })
        else await route.continue()
      })
    },
    unrouteAll: () => page.unrouteAll({ behavior: 'ignoreErrors' }),
    clearCookies: () => context.clearCookies(),
    close,
  }
}
