// Which browsers the website's tests drive, what a person calls each, and where each is installed.
import { existsSync } from 'node:fs'

export const BROWSER_NAMES = ['chromium', 'firefox'] as const
export type BrowserName = (typeof BROWSER_NAMES)[number]

/** What a person calls each browser, for test names and failure messages. */
export const BROWSER_TITLES: Readonly<Record<BrowserName, string>> = { chromium: 'Chromium', firefox: 'Firefox' }

const CANDIDATES: Readonly<Record<BrowserName, { env: string; paths: string[]; install: string }>> = {
  chromium: { env: 'CHROMIUM_PATH', paths: ['/usr/bin/chromium', '/usr/bin/chromium-browser'], install: 'chromium' },
  firefox: { env: 'FIREFOX_PATH', paths: ['/usr/bin/firefox-esr', '/usr/bin/firefox'], install: 'firefox-esr' },
}

/** Where to look for the browser: its variable (CHROMIUM_PATH) when set, then Debian's paths. */
function candidatesOf(name: BrowserName): string[] {
  const { env, paths } = CANDIDATES[name]
  return [process.env[env], ...paths].filter((p): p is string => typeof p === 'string' && p !== '')
}

/**
 * Where the browser is, or null (after printing why the tests skip it) when it is not installed.
 * Under CI=true a missing browser is an error: CI must run every browser's tests.
 */
export function browserPath(name: BrowserName): string | null {
  const candidates = candidatesOf(name)
  const found = candidates.find((p) => existsSync(p))
  if (found) return found
  if (process.env.CI === 'true') {
    throw new Error(`CI=true and no ${BROWSER_TITLES[name]} found (tried ${candidates.join(', ')})`)
  }
  const { env, install } = CANDIDATES[name]
  console.warn(`skipped in ${BROWSER_TITLES[name]}: not installed (set ${env} or apt-get install ${install})`)
  return null
}

/**
 * Where the browser is, or null, without a word: for starting the shared browsers early
 * (launch.ts warmSharedBrowsers), which leaves a missing one for browserPath to report.
 */
export function installedPath(name: BrowserName): string | null {
  return candidatesOf(name).find((p) => existsSync(p)) ?? null
}

/** The browsers to run the tests in: TEST_BROWSERS=firefox (a comma-separated list) while working on them, else all. */
export function browsersToRun(): BrowserName[] {
  const chosen = process.env.TEST_BROWSERS?.split(',').map((name) => name.trim())
  return BROWSER_NAMES.filter((name) => !chosen || chosen.includes(name))
}
