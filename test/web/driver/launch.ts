// Launching a browser for the tests, and the one browser of each kind the whole run shares.
import { readFileSync } from 'node:fs'
import { chromiumBrowser } from './chromium'
import type { ColorScheme } from './engine'
import { firefoxBrowser } from './firefox'
import { type BrowserName, browsersToRun, installedPath } from './installed'
import type { Browser } from './page'

/** Launches the browser; colorScheme holds for every page (Firefox takes it per browser). */
export async function launchBrowser(
  name: BrowserName,
  executablePath: string,
  { colorScheme = 'light' }: { colorScheme?: ColorScheme } = {},
): Promise<Browser> {
  return name === 'chromium'
    ? chromiumBrowser(executablePath, colorScheme)
    : firefoxBrowser(executablePath, colorScheme)
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
    const path = installedPath(name)
    if (path) sharedBrowser(name, path).catch(() => {})
  }
}

export async function closeSharedBrowsers(): Promise<void> {
  const browsers = [...shared.values()]
  shared.clear()
  await Promise.all(browsers.map(async (b) => (await b).close()))
}
