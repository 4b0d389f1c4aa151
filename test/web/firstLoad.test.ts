// The tracker's first load (issue 42, section 4): every read of the first screen once (progress and
// what to run next were each read twice: a second time when the event stream opened), all asked at
// once (they waited for the session, then for the character), a change
// made between the page's read and its stream still shown (the stream's `ready` says the version
// it continues from), the first rows drawn before the rest of a long list, and the first screen
// the server draws into the page: there before any script runs, inert, and the same as the live
// page that takes its place.
import { describe, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FIRST_ROWS } from '../../src/web/tracker/rowsDrawn'
import { generatedHeroics } from '../catalogFixture'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { LIVE_PAGE, openSignedIn, startSite } from './harness'

/** More rows than the first draw holds: a catalog of this many heroic quests, levels 1 to 20. */
const QUESTS = 300
const questName = (i: number) => `Generated quest ${String(i).padStart(3, '0')}`

/**
 * Run in the page before its scripts: how many rows the page's own first draw held, and at its
 * frame (the rows of the first screen the server drew are not the page's draw).
 */
function watchFirstRows(): void {
  const seen = { first: 0, atFrame: -1 }
  ;(window as unknown as { __firstRows: typeof seen }).__firstRows = seen
  const count = () => document.querySelectorAll('tr[data-quest]:not([data-first-screen] *)').length
  const observer = new MutationObserver(() => {
    const rows = count()
    if (rows === 0) return
    observer.disconnect()
    seen.first = rows
    requestAnimationFrame(() => {
      seen.atFrame = count()
    })
  })
  observer.observe(document, { childList: true, subtree: true })
}

// The world (a site, erin, her character) is shared and only read; the one test that logs a quest makes its own character.
describe.skipIf(BROWSERS.length === 0)(`the tracker's first load, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const dir = await mkdtemp(join(tmpdir(), 'qt-first-load-'))
    const catalog = join(dir, 'quests.json')
    const quests = generatedHeroics(QUESTS, questName)
    await writeFile(catalog, JSON.stringify(quests))
    const site = await startSite(catalog)
    await rm(dir, { recursive: true, force: true })
    await site.addUser('erin')
    const token = await site.pluginToken('erin')
    const me = () => site.plugin(token).characters({ id: hero.id })
    // No class levels: the Full XP band shows every quest.
    const hero = ok(await site.plugin(token).characters.post({ givenName: 'Erin' }), 201)
    ok(await me().completions.post({ name: questName(0), setting: 'elite' }), 201)
    return { site, browser, id: hero.id, plugin: site.plugin(token) }
  })

  test(
    'reads the progress and what to run next once each, the stream open and the page settled',
    each(async ({ site, browser, id }) => {
      // No service worker: each of the page's reads is one request the page made.
      const page = await openSignedIn(browser, site, 'erin', `/characters/${id}`, { serviceWorkers: 'block' })
      await page.locator('.live-state[data-mode="push"]').waitFor()
      await page.locator('section.next[data-next-by]').waitFor({ state: 'attached' })
      await page.waitForReads({ quietMs: 600 })
      const reads = (path: string) => page.requests.filter((url) => url.pathname === path).length
      const character = `/api/characters/${id}`
      expect({
        session: reads('/api/session'),
        character: reads(character),
        progress: reads(`${character}/progress`),
        catalog: reads('/api/quests'),
        next: reads(`${character}/next`),
        times: reads(`${character}/quest-times`),
      }).toEqual({ session: 1, character: 1, progress: 1, catalog: 1, next: 1, times: 1 })
      await page.close()
    }),
    30_000,
  )

  test(
    'asks for the character, its progress, the catalog and what to run next without waiting for the session',
    each(async ({ site, browser, id }) => {
      const page = await browser.newPage({ cookies: await site.session('erin'), serviceWorkers: 'block' })
      const character = `/api/characters/${id}`
      const others = [character, `${character}/progress`, '/api/quests', `${character}/next`]
      const asked = () => others.filter((path) => page.requests.some((url) => url.pathname === path))
      // The session's answer is held until the page has asked for the others (at most 3 s): a page
      // that waits for it first (session, then the character, then the rest) asks for none meanwhile.
      let askedWhileHeld: string[] = []
      await page.route(
        (url) => url.pathname === '/api/session',
        async () => {
          const until = Date.now() + 3000
          while (asked().length < others.length && Date.now() < until) await Bun.sleep(20)
          askedWhileHeld = asked()
          return { continue: true }
        },
      )
      await page.goto(`${site.base}/characters/${id}`)
      // The live page's row: the server's drawing shows it before the held session is answered.
      await page.locator(`${LIVE_PAGE} tr[data-quest="${questName(0)}"]`).waitFor()
      expect(askedWhileHeld).toEqual(others)
      await page.waitForReads()
      await page.close()
    }),
    30_000,
  )

  test(
    "a completion logged between the page's read and its stream still shows (the stream's `ready`)",
    each(async ({ site, browser, plugin }) => {
      // A character of its own (no class levels, as the world's): the quest it logs is no other test's.
      const id = ok(await plugin.characters.post({ givenName: 'Ervin' }), 201).id
      const me = () => plugin.characters({ id })
      const page = await browser.newPage({ cookies: await site.session('erin'), serviceWorkers: 'block' })
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      // The stream waits until the game has logged a quest after the page read the progress.
      await page.route(
        (url) => url.pathname.endsWith('/events'),
        async () => {
          await held
          return { continue: true }
        },
      )
      await page.goto(`${site.base}/characters/${id}`)
      // The live page's row, drawn from the page's own read (the server's drawing comes before it).
      const later = page.locator(`${LIVE_PAGE} tr[data-quest="${questName(1)}"]`)
      await later.waitFor()
      expect(await later.getAttribute('data-completed')).toBe('false')
      ok(await me().completions.post({ name: questName(1), setting: 'normal' }), 201)
      release()
      await page.locator(`tr[data-quest="${questName(1)}"][data-completed="true"]`).waitFor({ timeout: 5000 })
      await page.close()
    }),
    30_000,
  )

  test(
    `draws the first ${FIRST_ROWS} rows first, then the rest`,
    each(async ({ site, browser, id }) => {
      const page = await browser.newPage({ cookies: await site.session('erin') })
      await page.engine.addInitScript(watchFirstRows)
      await page.goto(`${site.base}/characters/${id}`)
      await page.waitForFunction((total) => document.querySelectorAll('tr[data-quest]').length === total, QUESTS)
      const seen = await page.evaluate(
        () => (window as unknown as { __firstRows: { first: number; atFrame: number } }).__firstRows,
      )
      // A frame was drawn with the first rows alone, before the rest were made.
      expect(seen.first).toBe(FIRST_ROWS)
      expect(seen.atFrame).toBe(FIRST_ROWS)
      // In the order of the list, the rest after them: the first rows are the list's first.
      const names = await page
        .locator('tr[data-quest]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-quest')))
      expect(names.slice(0, 3)).toEqual([questName(0), questName(20), questName(40)])
      expect(new Set(names).size).toBe(QUESTS)
      await page.close()
    }),
    30_000,
  )
  test(
    'the first screen is in the page before any script runs, inert; the live page takes its place',
    each(async ({ site, browser, plugin }) => {
      // A character of its own: the box this test ticks is no other test's.
      const id = ok(await plugin.characters.post({ givenName: 'Esme' }), 201).id
      const drawn = await browser.newPage({ cookies: await site.session('erin'), serviceWorkers: 'block' })
      // No script at all: what shows is the server's drawing alone.
      await drawn.route(
        (url) => url.pathname.endsWith('.js'),
        () => ({ abort: true }),
      )
      await drawn.goto(`${site.base}/characters/${id}`)
      expect(await drawn.locator('h1').textContent()).toBe('Esme')
      expect(await drawn.locator('tr[data-quest]').count()).toBe(FIRST_ROWS)
      expect(await drawn.locator('#app').getAttribute('inert')).toBe('')
      // Inert: nothing on it takes a click or the keyboard, so no tick is made that would be lost.
      const focused = await drawn.evaluate(() => {
        const box = document.querySelector<HTMLInputElement>('tr[data-quest] input[type="checkbox"]')
        box?.focus()
        return { inert: document.querySelector<HTMLElement>('#app')?.inert, focused: document.activeElement === box }
      })
      expect(focused).toEqual({ inert: true, focused: false })
      await drawn.close()

      const page = await browser.newPage({ cookies: await site.session('erin'), serviceWorkers: 'block' })
      // When the bundle's script is in the page (the boot script puts it there once the drawn
      // screen is painted: in a task after that frame's animation callbacks), and when the frame
      // that paints the drawn rows began (its animation callback: before any task it queues).
      await page.engine.addInitScript(() => {
        const w = window as unknown as { __bundleAt: number; __rowsFrameAt: number }
        new MutationObserver((_, observer) => {
          if (!w.__rowsFrameAt && document.querySelector('tr[data-quest]')) {
            w.__rowsFrameAt = -1
            requestAnimationFrame(() => {
              w.__rowsFrameAt = performance.now()
            })
          }
          if (w.__bundleAt || !document.querySelector('script[type="module"]')) return
          w.__bundleAt = performance.now()
          observer.disconnect()
        }).observe(document, { childList: true, subtree: true })
      })
      await page.goto(`${site.base}/characters/${id}`)
      await page.locator(`${LIVE_PAGE} tr[data-quest]`).first().waitFor()
      const order = await page.evaluate(() => {
        const w = window as unknown as { __bundleAt: number; __rowsFrameAt: number }
        return { rowsFrame: w.__rowsFrameAt, bundle: w.__bundleAt }
      })
      expect(order.rowsFrame).toBeGreaterThan(0)
      expect(order.rowsFrame).toBeLessThanOrEqual(order.bundle)
      expect(await page.locator('#app').count()).toBe(1)
      expect(await page.locator('[inert]').count()).toBe(0)
      await page.locator(`tr[data-quest="${questName(0)}"] input[aria-label="normal"]`).check()
      await page.waitForReads()
      const progress = ok(await plugin.characters({ id }).progress.get())
      expect(progress.completions.map((c) => [c.name, c.setting])).toEqual([[questName(0), 'normal']])
      await page.close()
    }),
    30_000,
  )

  test(
    'the live page draws what the server drew: the header, the totals, what to run next, the first rows',
    each(async ({ site, browser, plugin }) => {
      // A level-5 fighter: a band with quests in it, so that there is something to run next.
      const fighter = { givenName: 'Edda', classes: [{ name: 'Fighter', levels: 5 }] }
      const id = ok(await plugin.characters.post(fighter), 201).id
      const page = await browser.newPage({ cookies: await site.session('erin'), serviceWorkers: 'block' })
      await page.goto(`${site.base}/characters/${id}`)
      await page.locator(`${LIVE_PAGE} tr[data-quest]`).first().waitFor()
      await page.waitForReads()
      const [server, live] = await page.evaluate(async (rows) => {
        const seen = (root: ParentNode) => ({
          heading: root.querySelector('h1')?.textContent,
          totals: root.querySelector('.totals')?.textContent,
          next: [...root.querySelectorAll('section.next li')].map((li) => li.textContent),
          rows: [...root.querySelectorAll('tr[data-quest]')].slice(0, rows).map((tr) => tr.textContent),
        })
        // The page as the server answers it, read again (drawn for this session).
        const html = await (await fetch(location.href, { headers: { accept: 'text/html' } })).text()
        const drawn = new DOMParser().parseFromString(html, 'text/html')
        if (!drawn.querySelector('[data-first-screen]')) throw new Error('no first screen in the page')
        return [seen(drawn), seen(document)]
      }, FIRST_ROWS)
      expect(server.rows).toHaveLength(FIRST_ROWS)
      expect(server.next.length).toBeGreaterThan(0)
      expect(live).toEqual(server)
      await page.close()
    }),
    30_000,
  )
})
