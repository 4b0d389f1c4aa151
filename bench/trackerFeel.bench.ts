// The website at the limits (issue 25 item 4): the tracker page with the whole catalog, in
// Debian's Chromium with the CPU throttled 4× (a phone), for a character with 100 completions
// and one with 10,000 (the cap), medians of --runs, all in one run (the sizes take turns):
//   cold load    a new browser context (empty cache) to every catalog row on the page;
//   keystroke    a search keystroke to the filtered list painted (measured in the page);
//   untick, tick a ticked box unticked, then ticked again, each to its write answered and painted,
//                any re-read it causes included (measured in the page: every fetch it starts,
//                then the next frame). Both on the same box at both sizes, ticked by its own
//                completion alone before the page opens: at the cap every box is ticked, and a
//                new completion is refused (409) until one is unticked; and the page's own
//                script time meanwhile (CDP ScriptDuration), which the wait on the server can hide;
// beside the floor of the browser: the same rows as a plain HTML page rendered by bench/bare.ts
// (its cold load), and the keystroke unthrottled against one 60 Hz frame (16.7 ms).
// The app as shipped (`src/main.ts serve`), or another checkout's (--app DIR: a before).
//   bun bench/trackerFeel.bench.ts [--runs 5] [--app DIR]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { browserPath, launchChromium } from '../test/web/driver'
import { spawnServer } from './lib/servers'
import { seed } from './seed'

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { runs: { type: 'string', default: '5' }, app: { type: 'string' } },
})
const RUNS = Number(values.runs)
const executable = browserPath('chromium')
if (!executable) process.exit(1)
const work = mkdtempSync(join(tmpdir(), 'qt-feel-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))

/** Counts the page's fetches and notes the frame after the last one settled (read by `tick`). */
const FETCH_PROBE = `(() => {
  const original = window.fetch
  window.__probe = { inflight: 0, started: 0, lastPaint: 0 }
  window.fetch = async (...args) => {
    const p = window.__probe
    p.inflight++
    p.started++
    try {
      const response = await original(...args)
      const body = await response.arrayBuffer()
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
    } finally {
      p.inflight--
      setTimeout(() => requestAnimationFrame(() => { p.lastPaint = performance.now() }), 0)
    }
  }
})()`

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

async function throttle(page: Page, rate: number) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate })
  return cdp
}

type Cdp = Awaited<ReturnType<typeof throttle>>

/**
 * `action`'s milliseconds, and the page's script time meanwhile (CDP ScriptDuration, throttled):
 * the page's own part, which the wait for the server's answers can hide in the first figure.
 */
async function withWork(cdp: Cdp, action: () => Promise<number>): Promise<[number, number]> {
  const taskMs = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    return (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0) * 1000
  }
  const before = await taskMs()
  const took = await action()
  return [took, (await taskMs()) - before]
}

/** Milliseconds from a search keystroke to the first frame painted after the list changed. */
const keystroke = (page: Page) =>
  page.evaluate(async () => {
    const input = document.querySelector<HTMLInputElement>('input[type="search"]') as HTMLInputElement
    const rows = () => document.querySelectorAll('tr[data-quest]').length
    const before = rows()
    const start = performance.now()
    input.value = 'the'
    input.dispatchEvent(new Event('input', { bubbles: true }))
    await new Promise<void>((resolve) => {
      const check = () => (rows() !== before ? resolve() : requestAnimationFrame(check))
      check()
    })
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    const took = performance.now() - start
    input.value = ''
    input.dispatchEvent(new Event('input', { bubbles: true }))
    await new Promise<void>((resolve) => {
      const check = () => (rows() === before ? resolve() : requestAnimationFrame(check))
      check()
    })
    return took
  })

/** A box of the table: its row (quest and tier) and its setting. */
interface Box {
  quest: string
  difficulty: string
  setting: string
}

/** Milliseconds from clicking a box to the frame after the last fetch it caused settled. */
const toggle = (page: Page, target: Box) =>
  page.evaluate(async ({ quest, difficulty, setting }) => {
    const probe = (window as unknown as { __probe: { inflight: number; started: number; lastPaint: number } }).__probe
    const box = document.querySelector<HTMLInputElement>(
      `tr[data-quest="${CSS.escape(quest)}"][data-difficulty="${difficulty}"] input[aria-label="${setting}"]`,
    ) as HTMLInputElement
    const started = probe.started
    const start = performance.now()
    box.click()
    // Quiet: the write went out, nothing is in flight, and nothing new started for 300 ms
    // (an answer may set off a re-read, and an event another one 100 ms later).
    let quietSince = performance.now()
    let seen = probe.started
    while (probe.started === started || probe.inflight > 0 || performance.now() - quietSince < 300) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      if (probe.started !== seen || probe.inflight > 0) {
        seen = probe.started
        quietSince = performance.now()
      }
    }
    return probe.lastPaint - start
  }, target)

/** One size's servers and figures; `measure(run)` adds one run's (the sizes take turns, run by run). */
async function openSize(completions: number, browser: Browser) {
  const appDb = join(work, `app-${completions}.sqlite`)
  const bareDb = join(work, `bare-${completions}.sqlite`)
  const seeded = await seed(appDb, { completions, big: 0, characters: 1, others: 0 })
  copyFileSync(appDb, bareDb)
  const app = await spawnServer('app', appDb, 'full', values.app)
  const bare = await spawnServer('bare', bareDb, 'full')
  const appBase = `http://127.0.0.1:${app.port}`
  const bareBase = `http://127.0.0.1:${bare.port}`
  // Every row shown: the "any level" band.
  await fetch(`${appBase}/api/plugin/characters/${seeded.small}/progress`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ levelBand: 255 }),
  })
  const catalog = (await (await fetch(`${appBase}/api/quests`)).json()) as {
    quests: { name: string; difficulty: string }[]
  }
  /**
   * Run `run`'s box, ticked by its own completion alone, at both sizes: the seeded history also
   * logs every name without a tier (a box that also stands for it unticks with two deletes).
   */
  const prepareBox = async (run: number): Promise<Box> => {
    const row = catalog.quests[(run * 37) % catalog.quests.length] as { name: string; difficulty: string }
    const box = { quest: row.name, difficulty: row.difficulty, setting: run % 2 === 0 ? 'casual' : 'normal' }
    const completions = `${appBase}/api/plugin/characters/${seeded.small}/completions`
    const headers = { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' }
    const key = { name: box.quest, setting: box.setting }
    await fetch(completions, { method: 'DELETE', headers, body: JSON.stringify({ ...key, difficulty: 'Unknown' }) })
    const posted = await fetch(completions, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...key, difficulty: box.difficulty }),
    })
    if (!posted.ok) throw new Error(`the box of run ${run} could not be ticked: ${posted.status}`)
    return box
  }
  const lastRow = `tr[data-quest]:nth-of-type(${catalog.quests.length})`
  const [, cookieValue] = seeded.cookie.split('=') as [string, string]
  const result = {
    cold: [] as number[],
    plain: [] as number[],
    keystroke: [] as number[],
    untick: [] as number[],
    tick: [] as number[],
    untickWork: [] as number[],
    tickWork: [] as number[],
    fast: [] as number[],
  }
  async function measure(run: number): Promise<void> {
    const box = await prepareBox(run)
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies([{ name: 'qt_session', value: cookieValue, domain: '127.0.0.1', path: '/' }])
    await context.addInitScript(FETCH_PROBE)
    const plainPage = await context.newPage()
    await throttle(plainPage, 4)
    let start = performance.now()
    await plainPage.goto(`${bareBase}/plain/characters/${seeded.small}`)
    await plainPage.locator(lastRow).waitFor({ state: 'attached' })
    result.plain.push(performance.now() - start)
    await plainPage.close()

    const page = await context.newPage()
    const cdp = await throttle(page, 4)
    await cdp.send('Performance.enable')
    start = performance.now()
    await page.goto(`${appBase}/characters/${seeded.small}`)
    await page.locator(lastRow).waitFor({ state: 'attached' })
    result.cold.push(performance.now() - start)
    // The stream open and its read done before anything is timed.
    await page.waitForTimeout(1000)
    result.keystroke.push(await keystroke(page))
    // The run's box, unticked and ticked again.
    for (const kind of ['untick', 'tick'] as const) {
      const [took, work] = await withWork(cdp, () => toggle(page, box))
      result[kind].push(took)
      result[`${kind}Work`].push(work)
    }
    await throttle(page, 1)
    result.fast.push(await keystroke(page))
    await context.close()
  }
  return { result, measure, stop: () => Promise.all([app.stop(), bare.stop()]) }
}

type Figures = Awaited<ReturnType<typeof openSize>>['result']

const before = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')
const started = new Date().toISOString()
const browser = await launchChromium(executable as string)
const sizes = [await openSize(100, browser), await openSize(10_000, browser)] as const
try {
  // Run by run, each size in turn: a change of the machine's load falls on both.
  for (let run = 0; run < RUNS; run++) for (const size of sizes) await size.measure(run)
} finally {
  await browser.close()
  await Promise.all(sizes.map((size) => size.stop()))
}
const [small, large] = sizes.map((size) => size.result) as [Figures, Figures]
const ms = (n: number) => `${n.toFixed(0)} ms`
const ratio = (a: number, b: number) => (a / b).toFixed(2)
console.log(
  `\ntracker page, Chromium headless, CPU throttled 4x (keystroke unthrottled last), median of ${RUNS}; ` +
    `${started}; load average before ${before}, after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${values.app ? `; app from ${values.app}` : ''}\n`,
)
console.log('| measure | 100 completions | 10,000 completions | 10,000 / 100 |')
console.log('|---|--:|--:|--:|')
const row = (label: string, key: keyof Figures) =>
  console.log(
    `| ${label} | ${ms(median(small[key]))} | ${ms(median(large[key]))} | ${ratio(median(large[key]), median(small[key]))} |`,
  )
row('cold load to every row', 'cold')
row('the same rows as plain HTML (bench/bare.ts)', 'plain')
row('search keystroke to the list painted', 'keystroke')
row('an untick to its write answered and painted', 'untick')
row('a tick to its write answered and painted', 'tick')
row("the page's script time in the untick", 'untickWork')
row("the page's script time in the tick", 'tickWork')
row('search keystroke, unthrottled', 'fast')
console.log(
  `\ncold load / plain HTML: ${ratio(median(small.cold), median(small.plain))} at 100, ${ratio(median(large.cold), median(large.plain))} at 10,000`,
)
process.exit(0)
