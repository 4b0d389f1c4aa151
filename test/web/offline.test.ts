// The website with the server away, in Chromium and Firefox: the service worker keeps the app shell and the
// last answer of each page opened, so with the server stopped the tracker, build and routes pages
// still show their data, marked offline with its age; ticks made offline wait in the browser's
// queue (shown), survive a reload, and are sent in order when the server is back on the same port,
// stored once; a tick the server refuses stays shown with its reason. Signing out leaves nothing
// of the account in the browser, and another account never sees what the first one kept.
import { describe, expect, test } from 'bun:test'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { LIVE_PAGE, signIn, startSite } from './harness'

/**
 * A page's console lines of a request that failed (the server away): expected here, not a
 * problem. Firefox words one that went through the service worker as an "Error Response".
 */
const NETWORK_FAILURE = /Failed to load resource|net::ERR_|A ServiceWorker passed an Error Response/

// One ordered scenario: one page passes its kept answers, its queue of offline ticks and the server's state (away or back) to the next test.
describe.skipIf(BROWSERS.length === 0)(`the website with the server away, one ordered scenario, ${IN_BROWSERS}`, () => {
  // One page per browser through the tests: they follow one browser's kept data and queue.
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    await site.addUser('bob')
    const token = await site.pluginToken('alice')
    const plugin = site.plugin(token)
    // No class levels yet: every quest of the small catalog is in the tracker's band.
    const heroId = ok(await plugin.characters.post({ givenName: 'Tordek' }), 201).id
    const ghostId = ok(await plugin.characters.post({ givenName: 'Ghost' }), 201).id
    ok(await plugin.characters({ id: heroId }).completions.post({ name: "Tempest's Spine", difficulty: 'Heroic' }), 201)
    ok(await plugin.routes.post({ name: 'Evening run', quests: [{ name: 'The Pit' }] }), 201)
    const page = await browser.newPage()
    // Rows of the live page: the server's drawing of the tracker shows them before the page read
    // (and the worker kept) anything, and a test that left then found nothing kept.
    const row = (name: string, difficulty: string, attributes = '') =>
      page.locator(`${LIVE_PAGE} tr[data-quest="${name}"][data-difficulty="${difficulty}"]${attributes}`)
    return {
      site,
      token,
      heroId,
      ghostId,
      aliceId: 0,
      page,
      /** The server goes away, as a home server that reboots or leaves the Wi-Fi. */
      serverAway: () => site.pause(),
      /** The server is back on the same port. */
      serverBack: () => site.resume(),
      hero: () => site.plugin(token).characters({ id: heroId }),
      trackerOf: (id: number) => `${site.base}/characters/${id}`,
      row,
      done: (name: string) => row(name, 'Heroic', '[data-completed="true"]'),
      box: (name: string, setting: string) => row(name, 'Heroic').getByLabel(setting, { exact: true }),
      bar: (attributes: string) => page.locator(`.offline-bar${attributes}`),
      /**
       * Uncaught errors and console errors since the test began (`from`: the count then), but not
       * the failed loads of a server away. An earlier test's are not this one's: leaving a page
       * cuts off its last reads (a re-read after the event stream opened, say), which Firefox
       * reports through a service worker as the worker's "unexpected error".
       */
      problems: (from: number) => page.problems.slice(from).filter((p) => !NETWORK_FAILURE.test(p)),
      /** The site's caches, each with the paths it keeps. */
      kept: () =>
        page.evaluate(async () => {
          const all: Record<string, string[]> = {}
          for (const name of await caches.keys()) {
            const keys = await (await caches.open(name)).keys()
            all[name] = keys.map((request) => new URL(request.url).pathname + new URL(request.url).search)
          }
          return all
        }),
      /** The queued writes in the browser's IndexedDB, every account's. */
      queuedInBrowser: () =>
        page.evaluate(
          () =>
            new Promise<number>((resolve, reject) => {
              const open = indexedDB.open('quest-tracker-offline')
              open.onerror = () => reject(open.error)
              open.onsuccess = () => {
                const db = open.result
                if (!db.objectStoreNames.contains('writes')) return resolve(0)
                const count = db.transaction('writes').objectStore('writes').count()
                count.onsuccess = () => resolve(count.result)
                count.onerror = () => reject(count.error)
              }
            }),
        ),
    }
  })

  test(
    'each page opened once is kept: with the server stopped, a reload shows its data, marked offline with its age',
    each(async (w) => {
      const { site, token, heroId, ghostId, page, serverAway, trackerOf, row, done, bar, kept } = w
      await signIn(page, site.base, 'alice')
      await page.getByRole('heading', { name: 'Your characters' }).waitFor()
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      // The characters list was read before the worker was active: read again through it (a
      // page loaded with a worker active is held by it from the start).
      await page.reload()
      await page.getByRole('heading', { name: 'Your characters' }).waitFor()
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
      // Every page once with the server there: the worker keeps what each read.
      await page.goto(trackerOf(ghostId))
      await row('The Pit', 'Heroic').waitFor()
      await page.goto(`${trackerOf(heroId)}/build`)
      await page.getByRole('heading', { name: 'Tordek' }).first().waitFor()
      await page.goto(`${site.base}/routes`)
      await page.getByRole('link', { name: 'Evening run' }).waitFor()
      await page.goto(trackerOf(heroId))
      await done("Tempest's Spine").waitFor()
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
      expect(await bar('').count()).toBe(0)

      const caches = await kept()
      const names = Object.keys(caches)
      expect(names.filter((name) => name.startsWith('qt-shell-'))).toHaveLength(1)
      const session = (await page.evaluate(() => fetch('/api/session').then((r) => r.json()))) as {
        user: { id: number }
      }
      w.aliceId = session.user.id
      const aliceId = w.aliceId
      expect(caches[`qt-data-${aliceId}`]).toEqual(
        expect.arrayContaining([
          '/api/characters',
          `/api/characters/${heroId}`,
          `/api/characters/${heroId}/progress`,
          `/api/characters/${ghostId}/progress`,
          `/api/characters/${heroId}/build`,
          '/api/routes?limit=50&offset=0',
        ]),
      )
      expect(caches['qt-public']).toEqual(['/api/quests'])
      // Never the event stream, nor anything of the plugin API.
      for (const keys of Object.values(caches)) {
        for (const key of keys) expect(key).not.toMatch(/\/events$|^\/api\/plugin/)
      }

      // The Ghost goes while the page is not looking; then the server goes away.
      ok(await site.plugin(token).characters({ id: ghostId }).delete())
      await serverAway()
      await page.reload()
      await done("Tempest's Spine").waitFor()
      const offline = bar('[data-state="offline"]')
      await offline.waitFor()
      expect(await offline.getByRole('status').textContent()).toMatch(
        /^Offline\. The server cannot be reached\. Showing what it sent (just now|\d+ min ago) \(.+\)\./,
      )

      // The build and routes pages too, from what they read before.
      await page.goto(`${trackerOf(heroId)}/build`)
      await page.getByRole('heading', { name: 'Tordek' }).first().waitFor()
      await offline.waitFor()
      await page.goto(`${site.base}/routes`)
      await page.getByRole('link', { name: 'Evening run' }).waitFor()
      await offline.waitFor()
    }),
    60_000,
  )

  test(
    'ticks made offline wait in a queue that is shown and survives a reload',
    each(async (w) => {
      const { heroId, ghostId, page, trackerOf, done, box, bar, problems, queuedInBrowser } = w
      const seen = page.problems.length
      await page.goto(trackerOf(heroId))
      await bar('[data-state="offline"]').waitFor()
      await box('The Pit', 'elite').check()
      await bar('[data-waiting="1"]').waitFor()
      expect(await bar('').locator('li[data-refused="false"]').textContent()).toContain(
        'Tordek: The Pit (Heroic), elite: ticked',
      )
      // Ticked then unticked: both wait, in that order.
      await box('Devil Assault (quest)', 'elite').check()
      await box('Devil Assault (quest)', 'elite').uncheck()
      await bar('[data-waiting="3"]').waitFor()

      await page.waitForReads()
      await page.reload()
      await bar('[data-state="offline"][data-waiting="3"]').waitFor()
      await done('The Pit').waitFor()
      expect(await box('The Pit', 'elite').isChecked()).toBe(true)
      expect(await box('Devil Assault (quest)', 'elite').isChecked()).toBe(false)

      // The Ghost's tracker, as kept before it was deleted: two changes the server will refuse.
      await page.waitForReads()
      await page.goto(trackerOf(ghostId))
      await bar('[data-state="offline"]').waitFor()
      await box('The Pit', 'hard').check()
      await box("Tempest's Spine", 'normal').check()
      await bar('[data-waiting="5"]').waitFor()
      expect(await queuedInBrowser()).toBe(5)
      // Nothing reached the server meanwhile.
      expect(problems(seen)).toEqual([])
    }),
    60_000,
  )

  test(
    'the server back on the same port: the queue is sent in order, stored once; refusals stay with their reason',
    each(async (w) => {
      const { heroId, ghostId, page, serverBack, hero, trackerOf, done, bar, queuedInBrowser } = w
      await page.goto(trackerOf(heroId))
      await bar('[data-state="offline"][data-waiting="5"]').waitFor()
      serverBack()
      await bar('[data-waiting="0"][data-refused="2"]').waitFor({ timeout: 30_000 })

      const progress = ok(await hero().progress.get())
      const stored = (name: string) =>
        progress.completions.filter((c) => c.name === name && c.difficulty === 'Heroic' && c.setting === 'elite')
      expect(stored('The Pit')).toHaveLength(1)
      // Its untick went after its tick.
      expect(stored('Devil Assault (quest)')).toHaveLength(0)
      const exported = (await page.evaluate(() => fetch('/api/account/export').then((r) => r.json()))) as {
        characters: { id: number; completions: { name: string; setting: string; runs: number }[] }[]
      }
      const pit = exported.characters
        .find((c) => c.id === heroId)
        ?.completions.filter((c) => c.name === 'The Pit' && c.setting === 'elite')
      expect(pit?.map((c) => c.runs)).toEqual([1])

      // The page reads the server again: The Pit stays ticked, now from the server.
      await done('The Pit').waitFor()
      const refused = bar('').locator('li[data-refused="true"]')
      expect(await refused.allTextContents()).toEqual([
        expect.stringContaining(`Ghost: The Pit (Heroic), hard: ticked`),
        expect.stringContaining(`Ghost: Tempest's Spine (Heroic), normal: ticked`),
      ])
      for (const text of await refused.allTextContents()) {
        expect(text).toContain(`No character ${ghostId} on this account.`)
      }

      // The rest of the page is still what was kept: the bar offers a reload. The refusals are
      // still shown after it, until dismissed.
      await bar('[data-state="back"]').getByRole('button', { name: 'Reload' }).click()
      await bar('[data-state="online"][data-waiting="0"][data-refused="2"]').waitFor()
      await refused.first().getByRole('button', { name: 'Dismiss' }).click()
      await bar('[data-refused="1"]').waitFor()
      expect(await queuedInBrowser()).toBe(1)
    }),
    60_000,
  )

  test(
    'a tick whose answer never came is queued and sent again: the server has it once, one run',
    each(async (w) => {
      const { site, heroId, page, trackerOf, row, box, bar } = w
      await page.goto(trackerOf(heroId))
      await row('The Pit', 'Heroic').waitFor()
      // The tick reaches the server, and its answer is lost on the way back: sent from here with
      // the page's own body and a session of the same account, and the page's request aborted.
      const path = `/api/characters/${heroId}/completions`
      const cookies = await site.session('alice')
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ')
      let reached = 0
      await page.route(
        (url) => url.pathname === path,
        async ({ method, body }) => {
          if (method !== 'POST' || reached > 0) return { continue: true }
          reached++
          const answer = await fetch(`${site.base}${path}`, {
            method,
            headers: { 'content-type': 'application/json', cookie },
            body,
          })
          expect(answer.status).toBe(201)
          return { abort: true }
        },
      )
      const postsBefore = page.requests.filter((url) => url.pathname === path).length
      const posts = () => page.requests.filter((url) => url.pathname === path).length - postsBefore
      await box("Tempest's Spine", 'hard').check()
      // The lost answer puts the tick in the queue, and the page sends it once more as soon as any
      // answer shows the server is there (with its event stream open, at once: the queue can be
      // empty again before a test could look at it). So: the tick went out twice, nothing waits.
      for (const deadline = Date.now() + 20_000; posts() < 2 && Date.now() < deadline; ) await Bun.sleep(50)
      expect(reached).toBe(1)
      expect(posts()).toBe(2)
      await bar('[data-waiting="0"]').waitFor()
      await page.unrouteAll()
      const exported = (await page.evaluate(() => fetch('/api/account/export').then((r) => r.json()))) as {
        characters: { id: number; completions: { name: string; difficulty: string; setting: string; runs: number }[] }[]
      }
      const spine = exported.characters
        .find((c) => c.id === heroId)
        ?.completions.filter((c) => c.name === "Tempest's Spine" && c.setting === 'hard')
      expect(spine?.map((c) => c.runs)).toEqual([1])
    }),
    60_000,
  )

  test(
    'a kept answer revalidated by a 304 keeps its body, and is what an offline page gets',
    each(async (w) => {
      const { page, serverAway, serverBack } = w
      const answers = await page.evaluate(async () => {
        const first = await fetch('/api/quests')
        const etag = first.headers.get('etag') ?? ''
        const again = await fetch('/api/quests', { headers: { 'if-none-match': etag } })
        const keptAnswer = await caches.match('/api/quests', { cacheName: 'qt-public' })
        const body = (await keptAnswer?.json()) as { quests: unknown[] }
        return { first: first.status, etag, again: again.status, keptEtag: keptAnswer?.headers.get('etag'), body }
      })
      expect(answers.first).toBe(200)
      expect(answers.again).toBe(304)
      expect(answers.keptEtag).toBe(answers.etag)
      expect(answers.body.quests.length).toBeGreaterThan(0)

      await serverAway()
      const offline = await page.evaluate(async (etag) => {
        const answer = await fetch('/api/quests', { headers: { 'if-none-match': etag } })
        const body = (await answer.json()) as { quests: unknown[] }
        return {
          status: answer.status,
          storedAt: answer.headers.get('x-offline-stored-at'),
          quests: body.quests.length,
        }
      }, answers.etag)
      serverBack()
      expect(offline.status).toBe(200)
      expect(offline.storedAt).not.toBeNull()
      expect(offline.quests).toBe(answers.body.quests.length)
    }),
    60_000,
  )

  test(
    'signing out leaves nothing of the account; another account never sees what the first kept',
    each(async (w) => {
      const {
        site,
        heroId,
        aliceId,
        page,
        serverAway,
        serverBack,
        trackerOf,
        row,
        bar,
        problems,
        kept,
        queuedInBrowser,
      } = w
      const seen = page.problems.length
      await page.goto(trackerOf(heroId))
      await bar('[data-refused="1"]').waitFor()
      expect(Object.keys(await kept())).toContain(`qt-data-${aliceId}`)
      // The tracker's reads have come (leaving cuts them off: an error in Firefox).
      await page.waitForReads()
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${site.base}/login`)
      // The sign-in page loaded (the next address asked for would cut its load off).
      await page.getByLabel('Username or e-mail').waitFor()
      expect(await queuedInBrowser()).toBe(0)
      const afterSignOut = Object.keys(await kept())
      expect(afterSignOut.filter((name) => name.startsWith('qt-data-') || name === 'qt-session')).toEqual([])

      // Alice again: her pages kept anew; then her session ends without a sign-out (an expired
      // cookie), and Bob signs in on the same browser.
      await signIn(page, site.base, 'alice')
      await page.getByRole('heading', { name: 'Your characters' }).waitFor()
      await page.goto(trackerOf(heroId))
      await row('The Pit', 'Heroic').waitFor()
      expect(Object.keys(await kept())).toContain(`qt-data-${aliceId}`)
      expect(await bar('').count()).toBe(0)
      // Away from the tracker before the session ends: its next read would meet the ended session
      // and send the page to sign in itself, cutting off this test's own navigation.
      await page.waitForReads()
      await page.goto('about:blank')
      await page.clearCookies()
      await signIn(page, site.base, 'bob')
      await page.getByRole('heading', { name: 'Your characters' }).waitFor()
      expect(Object.keys(await kept()).filter((name) => name.startsWith('qt-data-'))).not.toContain(
        `qt-data-${aliceId}`,
      )

      await serverAway()
      await page.reload()
      await page.getByRole('heading', { name: 'Your characters' }).waitFor()
      await bar('[data-state="offline"]').waitFor()
      expect(await page.getByText('Tordek').count()).toBe(0)
      await page.goto(trackerOf(heroId))
      await page.getByText('The server cannot be reached.', { exact: false }).first().waitFor()
      expect(await page.getByText('Tordek').count()).toBe(0)
      serverBack()
      expect(problems(seen)).toEqual([])
    }),
    60_000,
  )
})
