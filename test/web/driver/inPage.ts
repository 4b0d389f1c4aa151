// The scripts the driver runs in the page, self-contained (each is sent as its source): finding
// elements (one function that both browsers evaluate the same way), the fake clock of slow
// timers, the check that a Firefox click landed on its element, and no service worker.

/** Runs in the page before its scripts: the site's service worker is never registered. */
export function noServiceWorker(): void {
  if ('serviceWorker' in navigator) navigator.serviceWorker.register = () => new Promise(() => {})
}

export type WireText = { s: string } | { re: string; flags: string }
export type Step =
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

export type ReadWhat = 'text' | 'attr' | 'value' | 'checked'

/** What a wait waits for: `actionable` is exactly one element, visible and enabled, not inert (or two: a mistake). */
export type Until = 'attached' | 'detached' | 'visible' | 'hidden' | 'actionable'

export interface ElementState {
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
export function pageQuery(probe: Probe): unknown {
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
    // Inside an inert part (the tracker's first screen the server drew, until the live page takes
    // its place) nothing can be used, as for a person.
    enabled: list[0] !== undefined && !list[0].matches(':disabled') && list[0].closest('[inert]') === null,
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
export function fakeSlowTimers(): void {
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
export function armHitCheck(target: Element): void {
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
export function takeHitCheck(): boolean {
  const holder = window as unknown as { __qtHit?: HitCheck }
  const state = holder.__qtHit
  holder.__qtHit = undefined
  state?.stop()
  return state?.missed ?? false
}
