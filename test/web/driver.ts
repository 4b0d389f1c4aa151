// One way to drive a browser for the website's tests, whichever browser it is: Chromium through
// playwright-core (its DevTools protocol) and Firefox through puppeteer-core (WebDriver BiDi).
// The test bodies see only this file's Page and Locator (named as playwright names them, so a
// test reads the same as before): elements are found by one script run in the page (CSS, label,
// role, text: the same rules in both browsers), acted on with each library's real input (clicks,
// keys, file choosers), and waited for by polling from here.
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Playwright from 'playwright-core'
import type * as Puppeteer from 'puppeteer-core'

export const BROWSER_NAMES = ['chromium', 'firefox'] as const
export type BrowserName = (typeof BROWSER_NAMES)[number]

/** What a person calls each browser, for test names and failure messages. */
export const BROWSER_TITLES: Readonly<Record<BrowserName, string>> = { chromium: 'Chromium', firefox: 'Firefox' }

const CANDIDATES: Readonly<Record<BrowserName, { env: string; paths: string[]; install: string }>> = {
  chromium: { env: 'CHROMIUM_PATH', paths: ['/usr/bin/chromium', '/usr/bin/chromium-browser'], install: 'chromium' },
  firefox: { env: 'FIREFOX_PATH', paths: ['/usr/bin/firefox-esr', '/usr/bin/firefox'], install: 'firefox-esr' },
}

/**
 * Where the browser is, or null (after printing why the tests skip it) when it is not installed.
 * Under CI=true a missing browser is an error: CI must run every browser's tests.
 */
export function browserPath(name: BrowserName): string | null {
  const { env, paths, install } = CANDIDATES[name]
  const candidates = [process.env[env], ...paths].filter((p): p is string => typeof p === 'string' && p !== '')
  const found = candidates.find((p) => existsSync(p))
  if (found) return found
  if (process.env.CI === 'true') {
    throw new Error(`CI=true and no ${BROWSER_TITLES[name]} found (tried ${candidates.join(', ')})`)
  }
  console.warn(`skipped in ${BROWSER_TITLES[name]}: not installed (set ${env} or apt-get install ${install})`)
  return null
}

/** The browsers to run the tests in: TEST_BROWSERS=firefox (a comma-separated list) while working on them, else all. */
export function browsersToRun(): BrowserName[] {
  const chosen = process.env.TEST_BROWSERS?.split(',').map((name) => name.trim())
  return BROWSER_NAMES.filter((name) => !chosen || chosen.includes(name))
}

/**
 * How long a wait or an action waits before it fails, unless the page says otherwise. A page
 * answers in well under a second; `npm test` runs these tests beside the rest of the suite, and
 * on a loaded 2-core machine a sign-out (a request, the worker's and IndexedDB's bookkeeping, a
 * new page) has taken over 8 s in Firefox.
 */
const DEFAULT_TIMEOUT_MS = 15_000
/** How often a wait asks the page again (after an error, or a slice that ended without its state). */
const POLL_MS = 30
/**
 * How long the page itself waits for a state before answering (it answers at once on reaching
 * it). Under a second: the fake clock of Page.clock leaves shorter timers alone.
 */
const WAIT_SLICE_MS = 500
/** How often a Firefox click that landed beside its moving element is tried again before failing. */
const CLICK_ATTEMPTS = 20
/** Playwright's default window, used for both browsers so that layouts match. */
const DEFAULT_VIEWPORT = { width: 1280, height: 720 }

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

/** Runs in the page before its scripts: the site's service worker is never registered. */
function noServiceWorker(): void {
  if ('serviceWorker' in navigator) navigator.serviceWorker.register = () => new Promise(() => {})
}

export interface Browser {
  readonly name: BrowserName
  newPage(options?: PageOptions): Promise<Page>
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Finding elements: one function, run in the page, that both browsers evaluate the same way.

type WireText = { s: string } | { re: string; flags: string }
type Step =
  | { kind: 'css'; css: string }
  | { kind: 'label'; text: WireText; exact: boolean }
  | { kind: 'role'; role: string; name: WireText | null; exact: boolean; level: number | null }
  | { kind: 'text'; text: WireText; exact: boolean }
  | { kind: 'hasText'; text: WireText }
  | { kind: 'nth'; index: number }

type Probe =
  | { op: 'all'; steps: Step[] }
  | { op: 'first'; steps: Step[] }
  | { op: 'state'; steps: Step[] }
  | {
      op: 'wait'
      steps: Step[]
      until: Until
      within: number
      /**
       * What the wait answers with: the state (default); the element itself once reached (one
       * call for a wait and the element an action takes); or a read of it, as `read` answers.
       */
      answer?: 'state' | 'element' | { what: ReadWhat; name?: string }
    }
  | { op: 'read'; steps: Step[]; what: ReadWhat; name?: string }
  | { op: 'texts'; steps: Step[] }
  | { op: 'fill'; steps: Step[]; value: string }
  | { op: 'select'; steps: Step[]; value: string | null; label: string | null }

type ReadWhat = 'text' | 'attr' | 'value' | 'checked'

/** What a wait waits for: `actionable` is exactly one element, visible and enabled (or two: a mistake). */
type Until = 'attached' | 'detached' | 'visible' | 'hidden' | 'actionable'

interface ElementState {
  count: number
  visible: boolean
  enabled: boolean
}

/**
 * Runs in the page (self-contained: it is sent as its source). Resolves the steps from the
 * document to a list of elements in document order, then does `op` with them. The rules follow
 * playwright's: a label or a role's name matches as a case-blind substring unless exact; roles
 * skip what assistive technology would not see; text matches the innermost element.
 */
function pageQuery(probe: Probe): unknown {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
  const matches = (value: string, text: WireText, exact: boolean) => {
    const v = norm(value)
    if ('re' in text) return new RegExp(text.re, text.flags).test(v)
    const want = norm(text.s)
    return exact ? v === want : v.toLowerCase().includes(want.toLowerCase())
  }
  const CONTROLS = 'input,select,textarea,button'
  /** Text of a subtree: hidden-from-AT parts and (for labels) nested controls left out. */
  const textOf = (node: Node, skipControls: boolean): string => {
    if (node.nodeType === Node.TEXT_NODE) return (node as CharacterData).data
    if (!(node instanceof Element)) return ''
    if (node.getAttribute('aria-hidden') === 'true') return ''
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(node.tagName)) return ''
    if (skipControls && node.matches(CONTROLS)) return ''
    const inner = [...node.childNodes].map((child) => textOf(child, skipControls)).join('')
    return getComputedStyle(node).display.startsWith('inline') ? inner : ` ${inner} `
  }
  const byIds = (el: Element) =>
    (el.getAttribute('aria-labelledby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id))
      .filter((ref): ref is HTMLElement => ref !== null)
      .map((ref) => textOf(ref, false))
      .join(' ')
  const labelsOf = (el: Element): string[] => {
    const found: string[] = []
    if (el.hasAttribute('aria-labelledby')) found.push(byIds(el))
    const aria = el.getAttribute('aria-label')
    if (aria?.trim()) found.push(aria)
    const labels = (el as HTMLInputElement).labels
    if (labels) for (const label of labels) found.push(textOf(label, true))
    return found.map(norm)
  }
  const NAME_FROM_CONTENT = new Set([
    'button',
    'link',
    'heading',
    'cell',
    'columnheader',
    'rowheader',
    'row',
    'option',
    'tab',
    'menuitem',
    'listitem',
    'status',
    'alert',
  ])
  const ROLE_SELECTORS: Record<string, string> = {
    button: 'button,input[type=button],input[type=submit],input[type=reset],input[type=image],[role=button]',
    link: 'a[href],area[href],[role=link]',
    checkbox: 'input[type=checkbox],[role=checkbox]',
    radio: 'input[type=radio],[role=radio]',
    heading: 'h1,h2,h3,h4,h5,h6,[role=heading]',
    navigation: 'nav,[role=navigation]',
    region: 'section[aria-label],section[aria-labelledby],[role=region]',
    form: 'form[aria-label],form[aria-labelledby],[role=form]',
    alert: '[role=alert]',
    status: '[role=status],output',
    textbox:
      'input:not([type]),input[type=text],input[type=email],input[type=tel],input[type=url],textarea,[role=textbox]',
    searchbox: 'input[type=search],[role=searchbox]',
    combobox: 'select:not([multiple]),[role=combobox]',
    listbox: 'select[multiple],[role=listbox]',
    table: 'table,[role=table]',
    row: 'tr,[role=row]',
    cell: 'td,[role=cell]',
    list: 'ul,ol,[role=list]',
    listitem: 'li,[role=listitem]',
    dialog: 'dialog,[role=dialog]',
    group: 'fieldset,details,[role=group]',
    main: 'main,[role=main]',
  }
  const roleSelector = (role: string) => ROLE_SELECTORS[role] ?? `[role="${role}"]`
  const nameOf = (el: Element, role: string): string => {
    const labels = labelsOf(el)
    if (labels.length > 0 && labels.some((l) => l !== '')) return labels.join(' ')
    if (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type)) return norm(el.value)
    if (NAME_FROM_CONTENT.has(role)) return norm(textOf(el, false))
    return norm(el.getAttribute('title') ?? el.getAttribute('placeholder') ?? '')
  }
  const hiddenFromAt = (el: Element) =>
    el.closest('[aria-hidden="true"]') !== null || !el.checkVisibility({ visibilityProperty: true })
  const visible = (el: Element) => {
    const box = el.getBoundingClientRect()
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden'
  }
  const inOrder = (list: Element[]) =>
    [...new Set(list)].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
  const within = (roots: (Document | Element)[], selector: string) =>
    inOrder(roots.flatMap((root) => [...root.querySelectorAll(selector)]))

  const resolveSteps = (): Element[] => {
    let found: Element[] = []
    let roots: (Document | Element)[] = [document]
    for (const step of probe.steps) {
      switch (step.kind) {
        case 'css':
          found = within(roots, step.css)
          break
        case 'label':
          found = within(roots, `${CONTROLS},[aria-label],[aria-labelledby],meter,output,progress`).filter((el) =>
            labelsOf(el).some((label) => matches(label, step.text, step.exact)),
          )
          break
        case 'role':
          found = within(roots, roleSelector(step.role)).filter((el) => {
            const explicit = el.getAttribute('role')
            if (explicit && explicit.split(/\s+/)[0] !== step.role) return false
            if (hiddenFromAt(el)) return false
            if (step.level !== null) {
              const level = Number(el.getAttribute('aria-level') ?? el.tagName.slice(1))
              if (level !== step.level) return false
            }
            return step.name === null || matches(nameOf(el, step.role), step.name, step.exact)
          })
          break
        case 'text': {
          const all = within(roots, '*').filter(
            (el) =>
              !['SCRIPT', 'STYLE', 'HEAD', 'TITLE'].includes(el.tagName) &&
              matches(el.textContent ?? '', step.text, step.exact),
          )
          // The innermost: an element none of whose children matches too.
          found = all.filter((el) => ![...el.children].some((child) => all.includes(child)))
          break
        }
        case 'hasText':
          found = found.filter((el) => matches(el.textContent ?? '', step.text, false))
          break
        case 'nth': {
          const el = step.index < 0 ? found[found.length + step.index] : found[step.index]
          found = el ? [el] : []
          break
        }
      }
      roots = found
    }
    return found
  }
  const readOf = (list: Element[], what: ReadWhat, name?: string) => {
    const el = list[0]
    if (!el) return { count: 0, value: null }
    let value: string | boolean | null = null
    if (what === 'text') value = el.textContent
    else if (what === 'attr') value = el.getAttribute(name ?? '')
    else if (what === 'value') value = (el as HTMLInputElement).value
    else value = (el as HTMLInputElement).checked
    return { count: list.length, value }
  }
  const stateOf = (list: Element[]): ElementState => ({
    count: list.length,
    visible: list[0] !== undefined && visible(list[0]),
    enabled: list[0] !== undefined && !list[0].matches(':disabled'),
  })

  if (probe.op === 'wait') {
    // Answers as soon as the state is reached: checked at once, then on every change of the
    // document and every 50 ms (a change of layout alone: a resize, a stylesheet), up to `within`.
    const { until, within } = probe
    const reached = (now: ElementState) =>
      until === 'attached'
        ? now.count > 0
        : until === 'detached'
          ? now.count === 0
          : until === 'visible'
            ? now.visible
            : until === 'hidden'
              ? !now.visible
              : now.count > 1 || (now.count === 1 && now.visible && now.enabled)
    const { answer: kind = 'state' } = probe
    const answer = (list: Element[], now: ElementState): unknown =>
      kind === 'state'
        ? now
        : kind === 'element'
          ? reached(now) && now.count === 1
            ? list[0]
            : now
          : readOf(list, kind.what, kind.name)
    const firstList = resolveSteps()
    const first = stateOf(firstList)
    if (reached(first)) return answer(firstList, first)
    return new Promise<unknown>((resolve) => {
      const check = () => {
        const list = resolveSteps()
        const now = stateOf(list)
        if (reached(now)) finish(list, now)
      }
      const observer = new MutationObserver(check)
      const timer = setInterval(check, 50)
      const limit = setTimeout(() => {
        const list = resolveSteps()
        finish(list, stateOf(list))
      }, within)
      const finish = (list: Element[], now: ElementState) => {
        observer.disconnect()
        clearInterval(timer)
        clearTimeout(limit)
        resolve(answer(list, now))
      }
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    })
  }

  const found = resolveSteps()

  const first = found[0]
  switch (probe.op) {
    case 'all':
      return found
    case 'first':
      return first ?? null
    case 'state':
      return stateOf(found)
    case 'texts':
      return found.map((el) => el.textContent ?? '')
    case 'read':
      return readOf(found, probe.what, probe.name)
    case 'fill':
    case 'select': {
      if (found.length !== 1 || !first || !visible(first) || first.matches(':disabled'))
        return { count: found.length, done: false }
      const control = first as HTMLInputElement | HTMLSelectElement
      const proto = Object.getPrototypeOf(control) as object
      const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set
      let value = probe.op === 'fill' ? probe.value : null
      if (probe.op === 'select') {
        const options = [...(control as HTMLSelectElement).options]
        const option = options.find((o) =>
          probe.label !== null ? norm(o.label) === norm(probe.label) : o.value === probe.value,
        )
        if (!option) return { count: found.length, done: false }
        value = option.value
      }
      control.focus()
      setter?.call(control, value)
      control.dispatchEvent(new Event('input', { bubbles: true }))
      control.dispatchEvent(new Event('change', { bubbles: true }))
      return { count: found.length, done: true }
    }
  }
}

/**
 * Runs in the page before its own scripts (Page.clock.install): timers of a second or more
 * (the live polls, reconnections, undo windows) wait for Page.clock.runFor instead of real
 * time, so a test moves them on rather than waiting. Shorter timers (rendering, coalescing)
 * keep running as they would.
 */
function fakeSlowTimers(): void {
  const SLOW_MS = 1000
  const realSetTimeout = window.setTimeout.bind(window)
  const realSetInterval = window.setInterval.bind(window)
  const realClearTimeout = window.clearTimeout.bind(window)
  const realClearInterval = window.clearInterval.bind(window)
  type Timer = { at: number; every: number; run: () => void }
  const timers = new Map<number, Timer>()
  let now = 0
  let nextId = 1_000_000_000
  const add = (handler: TimerHandler, ms: number, args: unknown[], every: boolean) => {
    const id = nextId++
    const run = () => (typeof handler === 'function' ? handler(...args) : undefined)
    timers.set(id, { at: now + ms, every: every ? ms : 0, run })
    return id
  }
  const fake = window as unknown as Record<string, unknown>
  fake.setTimeout = (handler: TimerHandler, ms = 0, ...args: unknown[]) =>
    ms >= SLOW_MS ? add(handler, ms, args, false) : realSetTimeout(handler, ms, ...args)
  fake.setInterval = (handler: TimerHandler, ms = 0, ...args: unknown[]) =>
    ms >= SLOW_MS ? add(handler, ms, args, true) : realSetInterval(handler, ms, ...args)
  fake.clearTimeout = (id?: number) => (id !== undefined && timers.delete(id) ? undefined : realClearTimeout(id))
  fake.clearInterval = (id?: number) => (id !== undefined && timers.delete(id) ? undefined : realClearInterval(id))
  Object.defineProperty(window, '__testClock', {
    value: {
      runFor(ms: number) {
        const end = now + ms
        for (;;) {
          let due: [number, Timer] | undefined
          for (const entry of timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry
          if (!due) break
          const [id, timer] = due
          now = timer.at
          if (timer.every > 0) timer.at += timer.every
          else timers.delete(id)
          timer.run()
        }
        now = end
      },
    },
  })
}

/** A click's check in the page (armHitCheck): whether it missed, and how to take the check away. */
interface HitCheck {
  missed: boolean
  stop: () => void
}

/**
 * Runs in the page before puppeteer's click on `target`: the mouse events of that click reach
 * the page only if they land on `target` (or inside it). Puppeteer clicks at the point where
 * the element was a moment before; a page still laying itself out (a panel loading above a
 * table) moves it, and the click would land on whatever is there now. Playwright checks this
 * itself in Chromium; here a click that missed is held back and marked, and tried again.
 */
function armHitCheck(target: Element): void {
  const holder = window as unknown as { __qtHit?: HitCheck }
  holder.__qtHit?.stop()
  const state: HitCheck = { missed: false, stop: () => undefined }
  const events = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'] as const
  const check = (event: Event) => {
    if (event.isTrusted && !(event.target instanceof Node && target.contains(event.target))) {
      state.missed = true
      event.preventDefault()
      event.stopImmediatePropagation()
    }
  }
  for (const type of events) window.addEventListener(type, check, { capture: true })
  state.stop = () => {
    for (const type of events) window.removeEventListener(type, check, { capture: true })
  }
  holder.__qtHit = state
}

/** After the click: whether it missed its element (armHitCheck), and the check taken away. */
function takeHitCheck(): boolean {
  const holder = window as unknown as { __qtHit?: HitCheck }
  const state = holder.__qtHit
  holder.__qtHit = undefined
  state?.stop()
  return state?.missed ?? false
}

// ---------------------------------------------------------------------------------------------
// What each library does for the Page: the few calls that differ between them.

interface Handle {
  evaluate<R, A>(fn: (value: never, arg: A) => R | Promise<R>, arg: A): Promise<R>
  dispose(): Promise<void>
}

interface RouteRequest {
  url: URL
  method: string
  /** The request's body as text (a POST's JSON), or null. */
  body: string | null
}
/** What a routed request gets: aborted, answered with JSON, or sent on to the server. */
export type RouteAnswer = { abort: true } | { json: unknown } | { continue: true }
type RouteHandler = (request: RouteRequest) => RouteAnswer | Promise<RouteAnswer>
type UrlMatch = (url: URL) => boolean

interface EnginePage {
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

interface PageEvents {
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

/** Closes a tab that will not be kept, leaving its page first (see Page.close). */
async function leaveAndClose(
  page: { goto(url: string): Promise<unknown> },
  context: { close(): Promise<void> },
): Promise<void> {
  await page.goto('about:blank').catch(() => {})
  await context.close()
}

/** The page's calls, each refused once it is closed; a second close does nothing. */
function closable(engine: EnginePage): EnginePage {
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

async function launchChromium(executablePath: string, colorScheme: ColorScheme): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS })
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

async function launchFirefox(executablePath: string, colorScheme: ColorScheme): Promise<Browser> {
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

/** Launches the browser; colorScheme holds for every page (Firefox takes it per browser). */
export async function launchBrowser(
  name: BrowserName,
  executablePath: string,
  { colorScheme = 'light' }: { colorScheme?: ColorScheme } = {},
): Promise<Browser> {
  return name === 'chromium' ? launchChromium(executablePath, colorScheme) : launchFirefox(executablePath, colorScheme)
}

const shared = new Map<BrowserName, Promise<Browser>>()

/**
 * One browser of each kind for the whole test run (bun runs the files in one process): Firefox
 * takes seconds to start, and each page gets a context of its own anyway (a new one, or one
 * made as new: TabPool).
 * closeSharedBrowsers (test/setup.ts, after the last file) ends them.
 */
export function sharedBrowser(name: BrowserName, executablePath: string): Promise<Browser> {
  let browser = shared.get(name)
  if (!browser) {
    browser = launchBrowser(name, executablePath)
    shared.set(name, browser)
  }
  return browser
}

/** The options of `bun test` that take the next argument as their value (the rest are flags or name=value). */
const VALUE_OPTIONS = new Set([
  '-t',
  '--test-name-pattern',
  '--preload',
  '--timeout',
  '--rerun-each',
  '--seed',
  '--shard',
])

/**
 * Whether this `bun test` runs the website's tests: it names no file (the whole suite) or names
 * one under test/web. Read from the process's own command line (Linux); elsewhere: no.
 */
function runsWebsiteTests(): boolean {
  let args: string[]
  try {
    args = readFileSync('/proc/self/cmdline', 'utf8')
      .split('\0')
      .filter((a) => a !== '')
  } catch {
    return false
  }
  const rest = args.slice(args.indexOf('test') + 1)
  const filters = rest.filter((arg, i) => !arg.startsWith('-') && !VALUE_OPTIONS.has(rest[i - 1] ?? ''))
  return filters.length === 0 || filters.some((f) => /(^|\/)web(\/|$)/.test(f))
}

/**
 * Starts the shared browsers before the first test file (test/setup.ts): Firefox takes seconds to
 * start, and this way they pass while the tests before the website's run. Quiet: a browser that is
 * missing is left for browsers.ts to report, and a failed start for the first test that needs it.
 */
export function warmSharedBrowsers(): void {
  if (!runsWebsiteTests()) return
  for (const name of browsersToRun()) {
    const { env, paths } = CANDIDATES[name]
    const path = [process.env[env], ...paths].find(
      (p): p is string => typeof p === 'string' && p !== '' && existsSync(p),
    )
    if (path) sharedBrowser(name, path).catch(() => {})
  }
}

export async function closeSharedBrowsers(): Promise<void> {
  const browsers = [...shared.values()]
  shared.clear()
  await Promise.all(browsers.map(async (b) => (await b).close()))
}

// ---------------------------------------------------------------------------------------------
// The Page and its Locators.

/** A mistake in the test itself (two elements where one was meant): fails at once, not after a wait. */
class DriverError extends Error {}

const wire = (text: string | RegExp): WireText =>
  typeof text === 'string' ? { s: text } : { re: text.source, flags: text.flags }

/**
 * Lets the page forget a handle without waiting for it to say so (one round trip less per
 * action); a page that closed meanwhile has forgotten it anyway.
 */
function release(handle: Handle): void {
  handle.dispose().catch(() => undefined)
}

async function poll<T>(what: string, timeout: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeout
  let last: unknown
  for (;;) {
    try {
      const value = await attempt()
      if (value !== undefined) return value
      last = undefined
    } catch (e) {
      // A page navigating away destroys what was asked of it: ask again, on the next page.
      if (e instanceof DriverError) throw e
      last = e
    }
    if (Date.now() >= deadline) {
      const why = last instanceof Error ? ` (last error: ${last.message})` : ''
      throw new Error(`Timed out after ${timeout} ms waiting for ${what}${why}`)
    }
    await Bun.sleep(POLL_MS)
  }
}

export type InputFile = string | { name: string; mimeType: string; buffer: Buffer }

export class Page {
  /** Every request the page made over the network (the "no other host" checks read it). */
  readonly requests: URL[] = []
  /** Console errors and uncaught exceptions (a CSP refusal is one). */
  readonly problems: string[] = []
  timeout = DEFAULT_TIMEOUT_MS
  readonly keyboard = {
    press: (key: string) => this.engine.press(key),
    type: (text: string, { delay = 0 } = {}) => this.engine.type(text, delay),
  }
  readonly clock = {
    /** From the next load on, the page's slow timers wait for runFor (fakeSlowTimers). */
    install: () => this.engine.addInitScript(fakeSlowTimers),
    runFor: (ms: number) =>
      this.engine.evaluate(
        (by) => (window as unknown as { __testClock: { runFor(ms: number): void } }).__testClock.runFor(by),
        ms,
      ),
  }

  constructor(
    readonly browserName: BrowserName,
    readonly engine: EnginePage,
    /** Whether its tab served an earlier test, and was made as new since (TabPool). */
    readonly reused: boolean,
    listen: (events: PageEvents) => void,
  ) {
    listen({
      // Over the network only: Firefox lists a data: font of its own among a page's requests.
      request: (url) => {
        const parsed = new URL(url)
        if (/^(http|ws)s?:$/.test(parsed.protocol)) this.requests.push(parsed)
      },
      problem: (text) => this.problems.push(text),
      started: (request, url) => {
        // An event stream stays open for as long as the page does: it is never "in flight".
        if (/^https?:/.test(url) && !new URL(url).pathname.endsWith('/events')) this.inFlight.set(request, url)
      },
      ended: (request) => this.inFlight.delete(request),
    })
  }

  /** The page's requests still waiting for an answer (event streams aside). */
  private readonly inFlight = new Map<object, string>()

  /**
   * Waits until no request of the page has waited for its answer for `quietMs` (its reads have
   * come): leaving a page cuts off what it still waits for, which Firefox reports as an error of
   * the service worker that served it.
   */
  async waitForReads({ quietMs = 150, timeout = this.timeout } = {}): Promise<void> {
    let quietSince = 0
    await poll("the page's requests in flight to end", timeout, async () => {
      if (this.inFlight.size > 0) {
        quietSince = 0
        return undefined
      }
      quietSince ||= Date.now()
      return Date.now() - quietSince >= quietMs ? true : undefined
    }).catch((e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : e}: ${[...this.inFlight.values()].join(', ')}`)
    })
  }

  setDefaultTimeout(ms: number): void {
    this.timeout = ms
  }

  /** Loads the address; the status of its answer (null for about:blank). */
  goto(url: string): Promise<number | null> {
    return this.engine.goto(url)
  }

  reload(): Promise<void> {
    return this.engine.reload()
  }

  url(): string {
    return this.engine.url()
  }

  async waitForURL(url: string | RegExp, { timeout = this.timeout } = {}): Promise<void> {
    await poll(`the address ${url}`, timeout, async () => {
      const now = this.url()
      return (typeof url === 'string' ? now === url : url.test(now)) ? true : undefined
    })
  }

  locator(css: string, { hasText }: { hasText?: string | RegExp } = {}): Locator {
    return new Locator(this, []).locator(css, { hasText })
  }

  getByLabel(text: string | RegExp, options: { exact?: boolean } = {}): Locator {
    return new Locator(this, []).getByLabel(text, options)
  }

  getByRole(role: string, options: { name?: string | RegExp; exact?: boolean; level?: number } = {}): Locator {
    return new Locator(this, []).getByRole(role, options)
  }

  getByText(text: string | RegExp, options: { exact?: boolean } = {}): Locator {
    return new Locator(this, []).getByText(text, options)
  }

  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.engine.evaluate(fn, arg as A)
  }

  /** Waits until `fn` (run in the page) returns something truthy, and returns it. */
  waitForFunction<R, A = undefined>(
    fn: (arg: A) => R | Promise<R>,
    arg?: A,
    { timeout = this.timeout }: { timeout?: number } = {},
  ): Promise<R> {
    return poll(`the page function ${fn.toString().slice(0, 120)}`, timeout, async () => {
      const value = await this.engine.evaluate(fn, arg as A)
      return value ? value : undefined
    })
  }

  setViewportSize(size: { width: number; height: number }): Promise<void> {
    return this.engine.setViewport(size)
  }

  screenshot({ path, fullPage = false }: { path: string; fullPage?: boolean }): Promise<void> {
    return this.engine.screenshot(path, fullPage)
  }

  /** Answers the page's requests whose address matches, instead of the server (or as well as). */
  route(match: UrlMatch, handler: RouteHandler): Promise<void> {
    return this.engine.route(match, handler)
  }

  unrouteAll(): Promise<void> {
    return this.engine.unrouteAll()
  }

  /** Every cookie of the page goes (a session that ended without a sign-out). */
  clearCookies(): Promise<void> {
    return this.engine.clearCookies()
  }

  private uploads: string | undefined

  /** Writes a file for an upload (Locator.setInputFiles) where it stays until the page closes. */
  async writeUpload(name: string, content: Buffer): Promise<string> {
    this.uploads ??= await mkdtemp(join(tmpdir(), 'qt-upload-'))
    const path = join(this.uploads, name)
    await writeFile(path, content)
    return path
  }

  /**
   * Done with the page: its tab is made as new for another test (Chromium: TabPool.putBack), or
   * closed. Either way it leaves the page first, so its event stream and polls end in the browser
   * (network events for a closed page make the libraries throw). Every later call is refused.
   */
  async close(): Promise<void> {
    await this.engine.unrouteAll()
    await this.engine.close()
    if (this.uploads) await rm(this.uploads, { recursive: true, force: true })
  }
}

export class Locator {
  constructor(
    readonly page: Page,
    private readonly steps: Step[],
  ) {}

  private and(step: Step): Locator {
    return new Locator(this.page, [...this.steps, step])
  }

  private get description(): string {
    return this.steps
      .map((s) => {
        switch (s.kind) {
          case 'css':
            return s.css
          case 'label':
            return `label ${JSON.stringify(s.text)}`
          case 'role':
            return `role ${s.role}${s.name ? ` named ${JSON.stringify(s.name)}` : ''}`
          case 'text':
            return `text ${JSON.stringify(s.text)}`
          case 'hasText':
            return `with text ${JSON.stringify(s.text)}`
          default:
            return `#${s.index}`
        }
      })
      .join(' >> ')
  }

  locator(css: string, { hasText }: { hasText?: string | RegExp } = {}): Locator {
    const found = this.and({ kind: 'css', css })
    return hasText === undefined ? found : found.filter({ hasText })
  }

  getByLabel(text: string | RegExp, { exact = false }: { exact?: boolean } = {}): Locator {
    return this.and({ kind: 'label', text: wire(text), exact })
  }

  getByRole(
    role: string,
    { name, exact = false, level }: { name?: string | RegExp; exact?: boolean; level?: number } = {},
  ): Locator {
    return this.and({ kind: 'role', role, name: name === undefined ? null : wire(name), exact, level: level ?? null })
  }

  getByText(text: string | RegExp, { exact = false }: { exact?: boolean } = {}): Locator {
    return this.and({ kind: 'text', text: wire(text), exact })
  }

  filter({ hasText }: { hasText: string | RegExp }): Locator {
    return this.and({ kind: 'hasText', text: wire(hasText) })
  }

  first(): Locator {
    return this.and({ kind: 'nth', index: 0 })
  }

  nth(index: number): Locator {
    return this.and({ kind: 'nth', index })
  }

  private state(): Promise<ElementState> {
    return this.page.engine.evaluate(pageQuery, { op: 'state', steps: this.steps }) as Promise<ElementState>
  }

  /**
   * Waits for the state, in the page (pageQuery's `wait`: it answers as soon as the document
   * changes to it), a slice at a time so that a navigation only costs the slice it ended.
   */
  private reach(until: Until, timeout = this.page.timeout): Promise<ElementState> {
    return poll(`${this.description} to be ${until}`, timeout, async () => {
      const now = (await this.page.engine.evaluate(pageQuery, {
        op: 'wait',
        steps: this.steps,
        until,
        within: WAIT_SLICE_MS,
      })) as ElementState
      if (until === 'actionable' && now.count > 1) {
        throw new DriverError(`${this.description} matches ${now.count} elements, not one`)
      }
      const reached =
        until === 'attached'
          ? now.count > 0
          : until === 'detached'
            ? now.count === 0
            : until === 'visible'
              ? now.visible
              : until === 'hidden'
                ? !now.visible
                : now.count === 1 && now.visible && now.enabled
      return reached ? now : undefined
    })
  }

  async waitFor({
    state = 'visible',
    timeout = this.page.timeout,
  }: {
    state?: 'visible' | 'attached' | 'detached' | 'hidden'
    timeout?: number
  } = {}): Promise<void> {
    await this.reach(state, timeout)
  }

  async count(): Promise<number> {
    return (await this.state()).count
  }

  /** Whether the (first) element is there and visible now: no waiting. */
  async isVisible(): Promise<boolean> {
    return (await this.state()).visible
  }

  /** The one element's value, once there is exactly one (two or more is a mistake in the test). */
  private read<T>(what: ReadWhat, name?: string): Promise<T> {
    // One call a slice: the page waits for the element and reads it as soon as it is there.
    return poll(`${this.description} to exist`, this.page.timeout, async () => {
      const { count, value } = (await this.page.engine.evaluate(pageQuery, {
        op: 'wait',
        steps: this.steps,
        until: 'attached',
        within: WAIT_SLICE_MS,
        answer: { what, name },
      })) as { count: number; value: T }
      if (count > 1) throw new DriverError(`${this.description} matches ${count} elements, not one`)
      return count === 1 ? { value } : undefined
    }).then((found) => found.value)
  }

  textContent(): Promise<string | null> {
    return this.read('text')
  }

  getAttribute(name: string): Promise<string | null> {
    return this.read('attr', name)
  }

  inputValue(): Promise<string> {
    return this.read('value')
  }

  isChecked(): Promise<boolean> {
    return this.read('checked')
  }

  async allTextContents(): Promise<string[]> {
    return (await this.page.engine.evaluate(pageQuery, { op: 'texts', steps: this.steps })) as string[]
  }

  /** Runs `fn` in the page with every element found (none is an empty list). */
  async evaluateAll<R, A = undefined>(fn: (elements: Element[], arg: A) => R, arg?: A): Promise<R> {
    const handle = await this.page.engine.evaluateHandle(pageQuery, { op: 'all', steps: this.steps })
    try {
      return await handle.evaluate(fn as (value: never, arg: A) => R, arg as A)
    } finally {
      release(handle)
    }
  }

  /** Runs `fn` in the page with the one element, once it is there. */
  async evaluate<R, A = undefined>(fn: (element: Element, arg: A) => R, arg?: A): Promise<R> {
    await this.read('text')
    const handle = await this.page.engine.evaluateHandle(pageQuery, { op: 'first', steps: this.steps })
    try {
      return await handle.evaluate(fn as (value: never, arg: A) => R, arg as A)
    } finally {
      release(handle)
    }
  }

  /** Acts on the one element once it is visible and enabled. */
  private async act(what: string, action: (element: Handle) => Promise<void>): Promise<void> {
    await poll(`${this.description} to ${what}`, this.page.timeout, async () => {
      // One call a slice: the page waits until the element is actionable and hands it over.
      const handle = await this.page.engine.evaluateHandle(pageQuery, {
        op: 'wait',
        steps: this.steps,
        until: 'actionable',
        within: WAIT_SLICE_MS,
        answer: 'element',
      })
      try {
        if (!this.page.engine.isElement(handle)) {
          const now = await this.state()
          if (now.count > 1) throw new DriverError(`${this.description} matches ${now.count} elements, not one`)
          return undefined
        }
        await action(handle)
      } finally {
        release(handle)
      }
      return true
    })
  }

  click(): Promise<void> {
    return this.act('be clicked', (el) => this.page.engine.click(el))
  }

  focus(): Promise<void> {
    return this.act('take focus', (el) => this.page.engine.focus(el))
  }

  private async setChecked(on: boolean): Promise<void> {
    if ((await this.isChecked()) === on) return
    await this.click()
    await poll(`${this.description} to be ${on ? 'checked' : 'unchecked'}`, this.page.timeout, async () =>
      (await this.isChecked()) === on ? true : undefined,
    )
  }

  check(): Promise<void> {
    return this.setChecked(true)
  }

  uncheck(): Promise<void> {
    return this.setChecked(false)
  }

  /** Sets an input's value and fires input and change, as typing and leaving would. */
  async fill(value: string): Promise<void> {
    await this.reach('actionable')
    await poll(`${this.description} to be filled`, this.page.timeout, async () => {
      const { count, done } = (await this.page.engine.evaluate(pageQuery, {
        op: 'fill',
        steps: this.steps,
        value,
      })) as { count: number; done: boolean }
      if (count > 1) throw new DriverError(`${this.description} matches ${count} elements, not one`)
      return done ? true : undefined
    })
  }

  /** Types into the element key by key (real key events). */
  async pressSequentially(text: string, { delay = 0 } = {}): Promise<void> {
    await this.focus()
    await this.page.keyboard.type(text, { delay })
  }

  /** Chooses an option of a select, by its value or by its label. */
  async selectOption(choice: string | { label: string }): Promise<void> {
    const [value, label] = typeof choice === 'string' ? [choice, null] : [null, choice.label]
    await this.reach('actionable')
    await poll(`${this.description} to select ${JSON.stringify(choice)}`, this.page.timeout, async () => {
      const { count, done } = (await this.page.engine.evaluate(pageQuery, {
        op: 'select',
        steps: this.steps,
        value,
        label,
      })) as { count: number; done: boolean }
      if (count > 1) throw new DriverError(`${this.description} matches ${count} elements, not one`)
      return done ? true : undefined
    })
  }

  /**
   * Gives a file input a file from disk, or one made here: written to a folder of the page's own
   * first, kept until the page closes (Firefox reads a chosen file when the page does, not before).
   */
  async setInputFiles(file: InputFile): Promise<void> {
    const path = typeof file === 'string' ? file : await this.page.writeUpload(file.name, file.buffer)
    await this.act('take a file', (el) => this.page.engine.setFiles(el, [path]))
  }

  /** Where the one element is on the page, in CSS pixels. */
  async boundingBox(): Promise<{ x: number; y: number; width: number; height: number }> {
    return this.evaluate((el) => {
      const { x, y, width, height } = el.getBoundingClientRect()
      return { x, y, width, height }
    })
  }
}
