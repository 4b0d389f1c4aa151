// The site installs as an app: Chromium, asked over its DevTools protocol as its own install
// prompt asks, finds the manifest, its icons and a secure origin, and no reason to refuse.
// Chromium only, by nature: the question is Chromium's own (Page.getInstallabilityErrors), and
// Firefox offers no installing of sites on the desktop, nor a protocol question for it.
// (Chromium 156 no longer asks for a service worker for this.) A browser profile of its own:
// Chromium never offers installation in a throwaway (incognito) context, which is what
// playwright's browser.newContext() makes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { browserPath, launchChromium } from './driver'
import { type Site, signIn, startSite } from './harness'

const executable = browserPath('chromium')

describe.skipIf(!executable)('installing the site as an app, in Chromium', () => {
  let site: Site
  let profile: string
  let browser: BrowserContext

  beforeAll(async () => {
    site = await startSite()
    await site.addUser('alice')
    profile = await mkdtemp(join(tmpdir(), 'qt-profile-'))
    browser = await launchChromium(executable as string, { profileDir: profile })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await site?.stop()
    if (profile) await rm(profile, { recursive: true, force: true })
  })

  /** What Chromium says of the page `open` leaves it on: why it would not install it, and the manifest it read. */
  async function installability(open: (page: Page) => Promise<void>) {
    const page = await browser.newPage()
    try {
      await open(page)
      await page.waitForLoadState('networkidle')
      const cdp = await browser.newCDPSession(page)
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
      const manifest = await cdp.send('Page.getAppManifest')
      return { errors: installabilityErrors.map((error) => error.errorId), manifest }
    } finally {
      await page.close()
    }
  }

  test('the sign-in page: installable, its manifest read without an error', async () => {
    const { errors, manifest } = await installability(async (page) => {
      await page.goto(`${site.base}/login`)
    })
    expect(errors).toEqual([])
    expect(manifest.url).toBe(`${site.base}/manifest.webmanifest`)
    expect(manifest.errors).toEqual([])
  })

  test('a signed-in page (the characters): installable too, with the same manifest', async () => {
    const { errors, manifest } = await installability(async (page) => {
      await signIn(page, site.base, 'alice')
      await page.getByRole('heading', { name: 'Your characters' }).waitFor()
    })
    expect(errors).toEqual([])
    expect(manifest.url).toBe(`${site.base}/manifest.webmanifest`)
  })
})
