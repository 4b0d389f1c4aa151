// The tracker on a phone beside the game (390 × 844, in Chromium and Firefox): the quests start on
// the first screen (the site's header in two lines, the filters folded into one bar that opens),
// at least 8 quests fill a screen, the five settings are targets of at least 44 px, and a tap on
// a quest's name shows its details.
// At 1280 px the tracker is laid out as before: every filter in view, one line a quest.
import { describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import type { Page } from './driver'
import { openSignedIn, startSite } from './harness'

/** Apple's and the accessibility guidelines' smallest target a finger hits reliably. */
const MIN_TARGET_PX = 44
const PHONE = { width: 390, height: 844 }

/** Quest names as long as the game's run (a colon and a subtitle wrap on a phone). */
const NAMES = [
  'The Pit',
  'Gateway to Khyber',
  'Haywire Foundry',
  'Into the Deep',
  'The Church and the Cult',
  'The Claw of Vulkoor',
  'The Fane of the Six: Cleansing the Temple',
  'The Giant Lieutenants',
  "The Giants' Lair",
  'Entering the Gate Chamber',
  'Fathom the Depths',
  'Stopping the Sahuagin',
  'Redfang the Unruly',
  'Irestone Inlet',
  'Sins of Attrition',
  'The Shadow Crypt',
  'Tomb of the Tormented',
  'The Twilight Forge',
  'White Plume Mountain',
  'Hold for Reinforcements',
]

/** A catalog of these quests, levels 5 to 14, written where the site's sync reads it. */
async function catalogFile(dir: string): Promise<string> {
  const path = join(dir, 'quests.json')
  const rows = NAMES.map((name, i) => ({
    name,
    difficulty: 'Heroic',
    level: 5 + (i % 10),
    soloXP: 900 + i * 100,
    normalXP: 1500 + i * 100,
    hardXP: 1600 + i * 100,
    eliteXP: 1700 + i * 100,
    duration: i % 2 ? 'Long' : 'Short',
    pack: i % 3 ? 'Vault of Night' : 'Free to Play',
    patron: i % 2 ? 'House Kundarak' : 'The Coin Lords',
    favor: 3 + (i % 4),
  }))
  await Bun.write(path, JSON.stringify(rows))
  return path
}

/** The quest rows wholly on screen: below the list's column heads (they stay in view) and above the bottom. */
const rowsOnScreen = (page: Page) =>
  page.evaluate(() => {
    const head = document.querySelector('table.quests thead')?.getBoundingClientRect()
    const top = head && head.top >= 0 ? head.bottom : 0
    return [...document.querySelectorAll('tr[data-quest]')].filter((row) => {
      const box = row.getBoundingClientRect()
      return box.top >= top - 1 && box.bottom <= innerHeight + 1
    }).length
  })

// The world (a site, alice's Tordek) is shared: the phone test ticks The Pit on elite; the desk test
// reads only the row's layout, the same ticked or not.
describe.skipIf(BROWSERS.length === 0)(`the tracker on a phone, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const dir = await mkdtemp(join(tmpdir(), 'qt-phone-'))
    const site = await startSite(await catalogFile(dir))
    await rm(dir, { recursive: true, force: true })
    await site.addUser('alice')
    const token = await site.pluginToken('alice')
    const hero = ok(
      await site.plugin(token).characters.post({
        givenName: 'Tordek',
        surname: 'Stonehammer',
        race: 'Dwarf',
        server: 'Thrane',
        classes: [{ name: 'Fighter', levels: 12 }],
      }),
      201,
    )
    // Every level shown: the whole list.
    ok(await site.plugin(token).characters({ id: hero.id }).progress.put({ levelBand: 255 }))
    return { site, browser, path: `/characters/${hero.id}` }
  })

  test(
    'at 390 × 844: quests on the first screen, at least 8 to a screen, settings of 44 px, details on a tap',
    each(async ({ site, browser, path }) => {
      const page = await openSignedIn(browser, site, 'alice', path, { viewport: PHONE })
      await page.locator('tr[data-quest]').first().waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width)

      // The first screen: the filters are one bar (the search, and a button that opens the rest),
      // and quests are on it.
      expect(await page.getByLabel('Search quests').isVisible()).toBe(true)
      expect(await page.getByLabel('Play on').isVisible()).toBe(false)
      // Two whole quests below the header, the share link, the live switch and the totals (one
      // while the site's header took three lines).
      expect(await rowsOnScreen(page)).toBeGreaterThanOrEqual(2)
      const filters = page.getByRole('button', { name: /^Filters/ })
      expect(await filters.getAttribute('aria-expanded')).toBe('false')
      await filters.click()
      await page.getByLabel('Play on').waitFor()
      await page.locator('summary', { hasText: 'Patrons' }).waitFor()
      await filters.click()
      await page.getByLabel('Play on').waitFor({ state: 'hidden' })

      // A screen of the list, its first quest at the top: at least 8 quests whole.
      await page.evaluate(() => {
        const first = document.querySelector('tr[data-quest]')?.getBoundingClientRect()
        const head = document.querySelector('table.quests thead')?.getBoundingClientRect()
        if (first && head) window.scrollBy(0, first.top - head.height)
      })
      expect(await rowsOnScreen(page)).toBeGreaterThanOrEqual(8)

      // The five settings of a quest: each a target of at least 44 × 44 px, and ticking works.
      const pit = page.locator('tr[data-quest="The Pit"][data-difficulty="Heroic"]')
      const targets = await pit.locator('td.tick input').evaluateAll((boxes) =>
        boxes.map((box) => {
          const { width, height } = box.getBoundingClientRect()
          return { setting: box.getAttribute('aria-label'), width, height }
        }),
      )
      expect(targets.map((t) => t.setting)).toEqual(['casual', 'normal', 'hard', 'elite', 'reaper'])
      for (const target of targets) {
        expect(target.width).toBeGreaterThanOrEqual(MIN_TARGET_PX)
        expect(target.height).toBeGreaterThanOrEqual(MIN_TARGET_PX)
      }
      await pit.getByLabel('elite', { exact: true }).check()
      await page.locator('tr[data-quest="The Pit"][data-completed="true"]').waitFor()

      // The details on a tap of the name, and away on another.
      const xp = pit.locator('td.xp')
      expect(await xp.isVisible()).toBe(false)
      const details = pit.getByRole('button', { name: 'Details of The Pit (Heroic)' })
      await details.click()
      await xp.waitFor()
      expect(await xp.textContent()).toBe('1,700')
      expect(await pit.locator('td.pack').textContent()).toBe('Free to Play')
      expect(await details.getAttribute('aria-expanded')).toBe('true')
      await details.click()
      await xp.waitFor({ state: 'hidden' })
      await page.close()
    }),
    30_000,
  )

  test(
    'at 1280 px the tracker is as before: every filter in view, one line a quest with its details',
    each(async ({ site, browser, path }) => {
      const page = await openSignedIn(browser, site, 'alice', path, { viewport: { width: 1280, height: 900 } })
      const pit = page.locator('tr[data-quest="The Pit"][data-difficulty="Heroic"]')
      await pit.waitFor()
      for (const label of ['Search quests', 'Play on', 'Levels', 'Hide completed']) {
        expect(await page.getByLabel(label).isVisible()).toBe(true)
      }
      expect(await page.getByRole('button', { name: /^Filters/ }).count()).toBe(0)
      expect(await page.getByRole('button', { name: 'What to run next' }).count()).toBe(0)
      expect(await pit.locator('td.xp').isVisible()).toBe(true)
      expect(await pit.getByRole('button', { name: /^Details of/ }).count()).toBe(0)
      expect((await pit.boundingBox()).height).toBeLessThan(50)
      expect(await page.locator('table.quests thead th', { hasText: 'Patron' }).isVisible()).toBe(true)
      await page.close()
    }),
    30_000,
  )
})
