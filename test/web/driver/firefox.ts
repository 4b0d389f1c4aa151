// Firefox through puppeteer-core (WebDriver BiDi).
import type * as Puppeteer from 'puppeteer-core'
import {
  type ColorScheme,
  closable,
  DEFAULT_VIEWPORT,
  DriverError,
  type EnginePage,
  type Handle,
  leaveAndClose,
  POLL_MS,
  type RouteHandler,
  type UrlMatch,
} from './engine'
import { armHitCheck, noServiceWorker, takeHitCheck } from './inPage'
import { type Browser, Page } from './page'

/** How often a Firefox click that landed beside its moving element is tried again before failing. */
const CLICK_ATTEMPTS = 20

/** The tests' Firefox; colorScheme holds for the whole browser (Firefox has no per-page one over BiDi). */
export async function firefoxBrowser(executablePath: string, colorScheme: ColorScheme): Promise<Browser> {
  const { default: puppeteer } = await import('puppeteer-core')
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    defaultViewport: null,

    // Firefox has no per-page colour scheme over BiDi: the whole browser takes one.
    extraPrefsFirefox: {
      'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1,
      // Scrollbars over the page, as on a phone and in headless Chromium: a 390 px window is 390
      // px of page in both browsers.
      'ui.useOverlayScrollbars': 1,
      // No offer to save the test's passwords, and no form history: nothing of the browser's own
      // over the page.
      'signon.rememberSignons': false,
      'signon.autofillForms': false,
      'signon.formlessCapture.enabled': false,
      'browser.formfill.enable': false,
      // Pages are tabs, one per context, and all but the last opened are background tabs: their
      // timers and frames run as the foreground tab's do (Firefox would hold a background tab's
      // timers to one a second: a page's 100 ms coalescing would take a second).
      'dom.min_background_timeout_value': 4,
      'dom.min_background_timeout_value_without_budget_throttling': 4,
      'dom.timeout.enable_budget_timer_throttling': false,
      'layout.throttled_frame_rate': 60,
      'dom.suspend_inactive.enabled': false,
    },
  })
  return {
    name: 'firefox',
    async newPage(options = {}) {
      const context = await browser.createBrowserContext()
      if (options.cookies) await context.setCookie(...options.cookies.map((c) => ({ ...c })))
      // A tab: a window of its own costs Firefox twice the time and the work. The tabs of pages
      // open at once are background tabs but one, run as the foreground one (the prefs above).
      const page = await context.newPage({ type: 'tab' })
      await page.setViewport({
        ...(options.viewport ?? DEFAULT_VIEWPORT),
        deviceScaleFactor: options.deviceScaleFactor,
      })
      // Firefox has no switch per page: the page's own registration is stubbed out.
      if (options.serviceWorkers === 'block') await page.evaluateOnNewDocument(noServiceWorker)
      const close = () => leaveAndClose(page, context)
      return new Page('firefox', closable(firefoxPage(context, page, close)), false, (events) => {
        page.on('request', (request) => {
          events.request(request.url())
          events.started(request, request.url())
        })
        page.on('response', (response) => events.ended(response.request()))
        page.on('requestfailed', (request) => events.ended(request))
        page.on('console', (message) => {
          if (message.type() === 'error') events.problem(`${page.url()}: ${message.text()}`)
        })
        page.on('pageerror', (error) => events.problem(`${page.url()}: ${String(error)}`))
      })
    },
    close: () => browser.close(),
  }
}

function firefoxPage(context: Puppeteer.BrowserContext, page: Puppeteer.Page, close: () => Promise<void>): EnginePage {
  const element = (handle: Handle) => {
    const el = (handle as unknown as Puppeteer.JSHandle).asElement()
    if (!el) throw new DriverError('the handle is not an element')
    return el as Puppeteer.ElementHandle<HTMLInputElement>
  }
  const routes: { match: UrlMatch; handler: RouteHandler }[] = []
  let intercepting = false
  const onRequest = async (request: Puppeteer.HTTPRequest) => {
    const url = new URL(request.url())
    const route = routes.find((r) => r.match(url))
    try {
      // Over WebDriver BiDi the body is fetched (postData() is CDP's).
      const body = request.hasPostData() ? ((await request.fetchPostData()) ?? null) : null
      const answer = route ? await route.handler({ url, method: request.method(), body }) : { continue: true as const }
      if ('abort' in answer) await request.abort()
      else if ('json' in answer) {
        await request.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(answer.json) })
      } else await request.continue()
    } catch {
      // The page went away while the request was held: nothing left to answer.
    }
  }
  // Firefox never answers a call whose document was replaced while it ran (a wait in the page
  // when a click navigates): such a call is ended when the next document has loaded, and the
  // wait that made it asks again, on the new page.
  const running = new Set<(error: Error) => void>()
  page.on('domcontentloaded', () => {
    for (const end of running) end(new Error('the page was replaced while it was asked'))
    running.clear()
  })
  const answered = <T>(call: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      running.add(reject)
      call.then(resolve, reject).finally(() => running.delete(reject))
    })
  return {
    evaluate: (fn, arg) => answered(page.evaluate(fn as (arg: unknown) => unknown, arg)) as never,
    evaluateHandle: async (fn, arg) =>
      (await answered(page.evaluateHandle(fn as (arg: unknown) => unknown, arg))) as unknown as Handle,
    isElement: (handle) => (handle as unknown as { asElement(): unknown }).asElement() !== null,
    async click(handle) {
      const el = element(handle)
      for (let attempt = 1; ; attempt++) {
        await el.evaluate(armHitCheck)
        await el.click()
        // A click that took the page elsewhere missed nothing.
        const missed = await page.evaluate(takeHitCheck).catch(() => false)
        if (!missed) return
        if (attempt === CLICK_ATTEMPTS) throw new DriverError(`${CLICK_ATTEMPTS} clicks landed beside the element`)
        await Bun.sleep(POLL_MS)
      }
    },
    focus: (handle) => element(handle).focus(),
    setFiles: (handle, paths) => element(handle).uploadFile(...paths),
    goto: async (url) => (await page.goto(url))?.status() ?? null,
    reload: async () => {
      await page.reload()
    },
    url: () => page.url(),
    setViewport: (size) => page.setViewport(size),
    screenshot: async (path, fullPage) => {
      await page.screenshot({ path: path as `${string}.png`, fullPage })
    },
    press: (key) => page.keyboard.press(key as Puppeteer.KeyInput),
    type: (text, delay) => page.keyboard.type(text, { delay }),
    addInitScript: async (fn) => {
      await page.evaluateOnNewDocument(fn)
    },
    async route(match, handler) {
      routes.push({ match, handler })
      if (!intercepting) {
        intercepting = true
        await page.setRequestInterception(true)
        page.on('request', (request) => void onRequest(request))
      }
    },
    async unrouteAll() {
      routes.length = 0
    },
    async clearCookies() {
      const cookies = await context.cookies()
      if (cookies.length > 0) await context.deleteCookie(...cookies)
    },
    close,
  }
}
