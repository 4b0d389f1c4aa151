// The tracker's level band in Chromium and Firefox (issue 42, section 3): a level 7 character
// sees quests 4 to 9 by default (no Legendary raid first when sorted by XP), sets its own range
// on the Levels filter (saved for the game plugin, kept across a reload, moving with its level),
// and "Any level" and "Full XP" are the contract's levelBand 255 and 0.
import { describe, expect, test } from 'bun:test'
import { SMALL_JSON } from '../catalogFixtures'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import type { Page } from './driver'
import { openSignedIn, startSite } from './harness'

const shown = (page: Page) =>
  page
    .locator('tr[data-quest]')
    .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-quest')}/${r.getAttribute('data-difficulty')}`))

/** Waits for the tracker listing exactly these quests (in the page's order, or any order with `anyOrder`). */
async function expectRows(page: Page, expected: string[], anyOrder = false) {
  const want = anyOrder ? [...expected].sort() : expected
  await page
    .waitForFunction(
      ([rows, sorted]) => {
        const seen = [...document.querySelectorAll('tr[data-quest]')].map(
          (r) => `${r.getAttribute('data-quest')}/${r.getAttribute('data-difficulty')}`,
        )
        return JSON.stringify(sorted ? seen.sort() : seen) === JSON.stringify(rows)
      },
      [want, anyOrder] as const,
      { timeout: 10_000 },
    )
    .catch(async () => {
      const seen = await shown(page)
      expect(anyOrder ? seen.sort() : seen).toEqual(want)
    })
}

/** The progress once `done` says the tracker's last write has landed (each change is a PUT of its own). */
async function savedWhen<P>(read: () => Promise<P>, done: (p: P) => boolean): Promise<P> {
  const deadline = Date.now() + 10_000
  let saved = await read()
  while (!done(saved) && Date.now() < deadline) saved = await read()
  return saved
}

describe.skipIf(BROWSERS.length === 0)(`the level band on the tracker, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    // The small catalog: heroic quests at 2, 3, 4, 6, 7, 9 and 18, epic at 24 and 27, legendary at 31 and 32.
    const site = await startSite(SMALL_JSON)
    await site.addUser('alice')
    const token = await site.pluginToken('alice')
    const hero = ok(
      await site.plugin(token).characters.post({ givenName: 'Seven', classes: [{ name: 'Fighter', levels: 7 }] }),
      201,
    )
    const me = site.plugin(token).characters({ id: hero.id })
    return { site, browser, me, trackerPath: `/characters/${hero.id}` }
  })

  test(
    'quests 4 to 9 by default; a range set on the Levels filter is saved, kept and moves with the level',
    each(async ({ site, browser, me, trackerPath }) => {
      const page = await openSignedIn(browser, site, 'alice', trackerPath)
      const levels = page.getByLabel('Levels')
      await page.locator('tr[data-quest]').first().waitFor()
      const band = ['Sewer Run/Heroic', 'Bell Tower/Heroic', "Delera's Rest/Heroic", 'Crypt/Heroic']
      await expectRows(page, band)
      expect(await levels.inputValue()).toBe('0')
      expect(await page.locator('#filter-levels option[value="0"]').textContent()).toBe(
        'Full XP for level 7 (quests 4–9)',
      )
      // Sorted by XP, most first: the band's own best, not a Legendary raid.
      const xp = page.getByRole('button', { name: 'XP', exact: true })
      await xp.click()
      await xp.click()
      await expectRows(page, ["Delera's Rest/Heroic", 'Crypt/Heroic', 'Bell Tower/Heroic', 'Sewer Run/Heroic'])

      // A range: from level 2 to 18.
      await levels.selectOption('range')
      await page.getByLabel('To level').selectOption('18')
      await page.getByLabel('From level').selectOption('2')
      await expectRows(page, [
        'Shadow Gate/Heroic',
        "Delera's Rest/Heroic",
        'Crypt/Heroic',
        'Bell Tower/Heroic',
        'Sewer Run/Heroic',
        'Crypt of the Fallen/Heroic',
        'The Hidden Crypt/Heroic',
      ])
      expect(await page.locator('#filter-levels-hint').textContent()).toBe(
        'Moves with your level: from 5 below to 11 above.',
      )
      // Saved for the game plugin: the contract's levelBand 0, the range beside it.
      const progress = async () => ok(await me.progress.get())
      expect(await savedWhen(progress, (p) => p.levelsBelow === 5)).toMatchObject({
        levelBand: 0,
        levelsBelow: 5,
        levelsAbove: 11,
        levelFrom: 2,
        levelTo: 18,
      })

      // Fighter 8 (as the game plugin says), then a reload: the range moved up a level.
      ok(await me.patch({ classes: [{ name: 'Fighter', levels: 8 }] }))
      await page.reload()
      await page.getByLabel('To level').waitFor()
      expect(await levels.inputValue()).toBe('range')
      expect(await page.getByLabel('From level').inputValue()).toBe('3')
      expect(await page.getByLabel('To level').inputValue()).toBe('19')
      await expectRows(
        page,
        [
          'Crypt of the Fallen/Heroic',
          'Sewer Run/Heroic',
          'Bell Tower/Heroic',
          "Delera's Rest/Heroic",
          'Crypt/Heroic',
          'Shadow Gate/Heroic',
        ],
        true,
      )

      // Any level: every row (the Legendary ones too), the range dropped.
      await levels.selectOption('255')
      await page.getByLabel('To level').waitFor({ state: 'detached' })
      expect(await savedWhen(progress, (p) => p.levelBand === 255)).toMatchObject({
        levelsBelow: null,
        levelsAbove: null,
      })
      expect((await shown(page)).length).toBe(12)
      // Full XP: the band of level 8, base levels 5 to 10.
      await levels.selectOption('0')
      await expectRows(page, ['Bell Tower/Heroic', "Delera's Rest/Heroic", 'Crypt/Heroic'], true)
      expect(await page.locator('#filter-levels option[value="0"]').textContent()).toBe(
        'Full XP for level 8 (quests 5–10)',
      )
      expect(await savedWhen(progress, (p) => p.levelBand === 0)).toMatchObject({
        levelsBelow: null,
        levelsAbove: null,
        levelFrom: 5,
        levelTo: 10,
      })
      await page.close()
    }),
    60_000,
  )
})
