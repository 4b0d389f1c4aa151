// The Page and its Locators, named as playwright names them (so a test reads the same as with
// it): elements are found by one script run in the page (inPage.ts pageQuery), acted on with each
// library's real input (engine.ts), and waited for by polling from here.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DriverError,
  type EnginePage,
  type Handle,
  type PageEvents,
  type PageOptions,
  POLL_MS,
  type RouteHandler,
  type UrlMatch,
} from './engine'
import {
  type ElementState,
  fakeSlowTimers,
  pageQuery,
  type ReadWhat,
  type Step,
  type Until,
  type WireText,
} from './inPage'
import type { BrowserName } from './installed'

/**
 * How long a wait or an action waits before it fails, unless the page says otherwise. A page
 * answers in well under a second; `npm test` runs these tests beside the rest of the suite, and
 * on a loaded 2-core machine a sign-out (a request, the worker's and IndexedDB's bookkeeping, a
 * new page) has taken over 8 s in Firefox.
 */
const DEFAULT_TIMEOUT_MS = 15_000
/**
 * How long the page itself waits for a state before answering (it answers at once on reaching
 * it). Under a second: the fake clock of Page.clock leaves shorter timers alone.
 */
const WAIT_SLICE_MS = 500

/** A browser launched for the tests (launch.ts): each page it opens is a Page. */
export interface Browser {
  readonly name: BrowserName
  newPage(options?: PageOptions): Promise<Page>
  close(): Promise<void>
}

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
