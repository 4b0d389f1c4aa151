// The tracker's first load (issue 42, section 4): every read of the first screen once (progress and
// what to run next were each read twice: a second time when the event stream opened), all asked at
// once (they waited for the session, then for the character), a change
// made between the page's read and its stream still shown (the stream's `ready` says the version
// it continues from), and the first rows drawn before the rest of a long list.
import { describe, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FIRST_ROWS } from '../../src/web/tracker/rowsDrawn'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { openSignedIn, startSite } from './harness'

/** More rows than the first draw holds: a catalog of this many heroic quests, levels 1 to 20. */
const QUESTS = 300
const questName = (i: number) => `Generated quest ${String(i).padStart(3, '0')}`

/** Run in the page before its scripts: how many rows the first draw held, and at its frame. */
function watchFirstRows(): void {
  const seen = { first: 0, atFrame: -1 }
  ;(window as unknown as { __firstRows: typeof seen }).__firstRows = seen
  const count = () => document.querySelectorAll('tr[data-quest]').length
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
    const quests = Array.from({ length: QUESTS }, (_, i) => ({
      name: questName(i),
      difficulty: 'Heroic',
      level: 1 + (i % 20),
      soloXP: 100,
      normalXP: 200,
      hardXP: 220,
      eliteXP: 240,
      duration: 'Short',
      pack: 'Free to Play',
      patron: 'The Coin Lords',
      favor: 3,
    }))
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
      await page.locator(`tr[data-quest="${questName(0)}"]`).waitFor()
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
      const later = page.locator(`tr[data-quest="${questName(1)}"]`)
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
})
