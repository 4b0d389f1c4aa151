// The website's tests share Chromium's tabs (driver/chromium.ts TabPool): a page a test closes is
// made as new and handed to the next test that asks for a page with the same options. Whatever a
// test leaves in its tab — a session cookie, localStorage and sessionStorage, an IndexedDB
// database, a cache, the site's service worker, another window size — must be gone for the next.
import { describe, expect, test } from 'bun:test'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { startSite } from './harness'

describe.skipIf(BROWSERS.length === 0)(`a tab handed to the next test, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    return { site, browser }
  })

  test(
    'keeps nothing of the test before: no cookie, no storage, no database, cache or worker, the same size',
    each(async ({ site }, browser) => {
      const first = await browser.newPage({ cookies: await site.session('alice') })
      // Signed in, the site's page loads and registers its service worker.
      expect(await first.goto(`${site.base}/`)).toBe(200)
      await first.getByRole('button', { name: 'Sign out' }).waitFor()
      await first.waitForFunction(async () => (await navigator.serviceWorker.getRegistrations()).length > 0)
      await first.evaluate(async () => {
        localStorage.setItem('left', 'behind')
        sessionStorage.setItem('left', 'behind')
        await (await caches.open('left-behind')).put('/left', new Response('behind'))
        await new Promise<void>((resolve, reject) => {
          const request = indexedDB.open('left-behind', 1)
          request.onupgradeneeded = () => request.result.createObjectStore('things')
          request.onsuccess = () => {
            request.result.close()
            resolve()
          }
          request.onerror = () => reject(request.error)
        })
      })
      await first.setViewportSize({ width: 390, height: 844 })
      await first.close()
      // A late call of the test that had it (a poll still running) never reaches the next test.
      await first.close()
      expect(() => first.url()).toThrow('url() on a page that was closed')

      const next = await browser.newPage()
      // Else this test proves nothing in Chromium: the tab must be the one the first page had.
      // (Firefox's pages are never kept: each has a context of its own.)
      expect(next.reused).toBe(browser.name === 'chromium')
      // An address that is not a page of the site: nothing of it runs to make its own storage.
      expect(await next.goto(`${site.base}/api/health`)).toBe(200)
      const left = await next.evaluate(async () => ({
        cookie: document.cookie,
        local: localStorage.length,
        session: sessionStorage.length,
        caches: await caches.keys(),
        databases: (await indexedDB.databases()).map((d) => d.name),
        workers: (await navigator.serviceWorker.getRegistrations()).length,
        controlled: navigator.serviceWorker.controller !== null,
        width: window.innerWidth,
      }))
      expect(left).toEqual({
        cookie: '',
        local: 0,
        session: 0,
        caches: [],
        databases: [],
        workers: 0,
        controlled: false,
        width: 1280,
      })
      // The session cookie (httpOnly, so not in document.cookie) went too: the site asks to sign in.
      await next.goto(`${site.base}/`)
      await next.waitForURL(`${site.base}/login`)
      await next.close()
    }),
    30_000,
  )
})
