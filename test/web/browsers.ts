// The browsers the website's tests run in, and how a test runs in each: every installed browser
// (Chromium and Firefox; under CI=true a missing one fails), one launch of each for the whole run
// (driver/launch.ts sharedBrowser), and per test file a world of its own in each browser (a site, its
// accounts) so that what one browser's test writes is never what the other's reads.
// Bun runs a file's describe blocks one after another, never together: so each test body runs
// in every browser at once, rather than a describe per browser, and a failure names its browser.
// Never `await expect(promise).resolves` in these tests: bun waits for that promise by running its
// event loop inside the call, which reads the browsers' sockets out of turn and has dropped the
// connection to Firefox mid-test ("Connection closed"). `expect(await promise)` instead.
import { afterAll, beforeAll } from 'bun:test'
import {
  BROWSER_TITLES,
  type Browser,
  type BrowserName,
  browserPath,
  browsersToRun,
  type Page,
  sharedBrowser,
} from './driver'
import type { Site } from './harness'

const installed = browsersToRun().flatMap((name) => {
  const path = browserPath(name)
  return path ? [{ name, path }] : []
})

/** The browsers this run drives (each installed one), in order. */
export const BROWSERS: readonly BrowserName[] = installed.map((b) => b.name)

/** "Chromium and Firefox": for the names of describe blocks. */
export const IN_BROWSERS = `in ${BROWSERS.map((name) => BROWSER_TITLES[name]).join(' and ')}`

interface Lane<W> {
  browser: Browser
  world: W
}

/**
 * Before the describe's tests: `setUp` builds a world in each browser (a site of its own, and
 * whatever the tests need of it), at once. After them, each world's site stops. Returns `each`:
 * a test body run in every browser together; a failure's message starts with its browser.
 */
export function inEachBrowser<W extends { site: Site }>(setUp: (browser: Browser) => Promise<W>) {
  const lanes: Lane<W>[] = []
  beforeAll(async () => {
    const made = await Promise.all(
      installed.map(async ({ name, path }) => {
        const browser = await sharedBrowser(name, path)
        return { browser, world: await setUp(browser) }
      }),
    )
    lanes.push(...made)
  }, 60_000)
  afterAll(async () => {
    await Promise.all(lanes.map((lane) => lane.world.site.stop()))
  })
  return (body: (world: W, browser: Browser) => Promise<void>) => async () => {
    const results = await Promise.allSettled(lanes.map((lane) => body(lane.world, lane.browser)))
    const failures = results.flatMap((result, i) =>
      result.status === 'rejected'
        ? [{ name: BROWSER_TITLES[lanes[i]?.browser.name ?? 'chromium'], error: result.reason as unknown }]
        : [],
    )
    if (failures.length === 0) return
    for (const { name, error } of failures) {
      if (error instanceof Error) error.message = `in ${name}: ${error.message}`
    }
    if (failures.length === 1) throw failures[0]?.error
    throw new Error(
      failures
        .map(({ error }) => (error instanceof Error ? (error.stack ?? error.message) : String(error)))
        .join('\n\n'),
    )
  }
}

/** Where a world gathers what its pages asked for and complained of (keepOnClose): either or both. */
export interface PageLog {
  requests?: URL[]
  problems?: string[]
}

/**
 * `page`, whose close() then adds its requests and its problems to `log` (each the log keeps), for
 * the test that reads them all at the end: no request to another host, no console error.
 */
export function keepOnClose(page: Page, log: PageLog): Page {
  const close = page.close.bind(page)
  page.close = async () => {
    await close()
    log.requests?.push(...page.requests)
    log.problems?.push(...page.problems)
  }
  return page
}
