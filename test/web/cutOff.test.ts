// A request cut off (a dropped connection) on the route, stats and any signed-in page, in
// Chromium and Firefox: each says why on the page, in the same sentence, instead of nothing
// (deleting a route, the character's own quest times, signing out).
import { describe, expect, test } from 'bun:test'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import type { Page } from './driver'
import { FAILED_LOAD, openSignedIn, startSite } from './harness'

const UNREACHABLE = 'The server cannot be reached. Check that it is running and that you are on its network.'

describe.skipIf(BROWSERS.length === 0)(`a request cut off says why on the page, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    const plugin = site.plugin(await site.pluginToken('alice'))
    const hero = ok(await plugin.characters.post({ givenName: 'Stonefist' }), 201)
    const route = ok(await plugin.routes.post({ name: 'Evening run', quests: [{ name: 'The Pit' }] }), 201)
    /** A signed-in page whose requests matching `cut` are cut off (no service worker between). */
    async function pageWithCut(path: string, cut: (url: URL, method: string) => boolean): Promise<Page> {
      const page = await openSignedIn(browser, site, 'alice', '/favicon.svg', { serviceWorkers: 'block' })
      page.setDefaultTimeout(15_000)
      await page.route(
        () => true,
        ({ url, method }) => (cut(url, method) ? { abort: true } : { continue: true }),
      )
      await page.goto(`${site.base}${path}`)
      return page
    }
    return { site, heroId: hero.id, routeId: route.id, pageWithCut }
  })

  test(
    "a route's delete, the quest times' read and a sign-out, cut off: the page says so",
    each(async ({ heroId, routeId, pageWithCut }) => {
      const routePage = await pageWithCut(
        `/routes/${routeId}`,
        (url, method) => method === 'DELETE' && url.pathname === `/api/routes/${routeId}`,
      )
      await routePage.getByRole('button', { name: 'Delete route' }).click()
      await routePage.getByRole('button', { name: 'Yes, delete it' }).click()
      await routePage.locator('.owner-actions [role="alert"]').filter({ hasText: UNREACHABLE }).waitFor()
      expect(new URL(routePage.url()).pathname).toBe(`/routes/${routeId}`)

      const stats = await pageWithCut(`/characters/${heroId}/stats`, (url) =>
        url.pathname.endsWith(`/characters/${heroId}/quest-times`),
      )
      await stats.locator('[data-part="run-times"] .error').filter({ hasText: UNREACHABLE }).waitFor()

      const signOut = await pageWithCut(
        '/routes',
        (url, method) => method === 'DELETE' && url.pathname === '/api/session',
      )
      await signOut.getByRole('button', { name: 'Sign out' }).click()
      await signOut.locator('.account [role="alert"]').filter({ hasText: UNREACHABLE }).waitFor()
      expect(new URL(signOut.url()).pathname).toBe('/routes')
      for (const page of [routePage, stats, signOut]) {
        expect(page.problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
        await page.close()
      }
    }),
    60_000,
  )
})
