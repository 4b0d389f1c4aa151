// The past lives pages in Chromium and Firefox: a character with lives recorded through the plugin API and a
// live snapshot, another with none; the account page shows the totals, each character's row and
// the sums, the character's page every past life and what its next reincarnation would grant,
// with the numbers worked by hand; both fit a phone.
import { describe, expect, test } from 'bun:test'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser, keepOnClose } from './browsers'
import type { Page } from './driver'
import { openSignedIn, startSite } from './harness'

const fitsPhone = async (page: Page) => {
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390)
  await page.setViewportSize({ width: 1280, height: 900 })
}

// The world (a site, alice's Brom and Lidda) is shared and only read: the test that changes a past life
// makes its own account and Brom. The shared `problems` gathers the complaints of the first two tests' pages.
describe.skipIf(BROWSERS.length === 0)(`the past lives pages, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    /** Brom, with lives recorded through the plugin API and a live snapshot, on `username`'s account. */
    const bromOf = async (username: string) => {
      const me = site.plugin(await site.pluginToken(username))
      const brom = ok(
        await me.characters.post({
          givenName: 'Brom',
          race: 'Dwarf',
          server: 'Thrane',
          classes: [{ name: 'Fighter', levels: 20 }],
        }),
        201,
      )
      const character = me.characters({ id: brom.id })
      // Life 1, a Dwarf Fighter 20, reincarnates (heroic): Fighter 1; the snapshot below has Dwarf 1 too.
      ok(await character.lives.reincarnate.post({ grantHeroic: true }))
      // Life 2 in game: a Wizard 20 whose snapshot knows two Wizard lives from before the plugin,
      // and an epic past life.
      ok(
        await character.live.put({
          life: {
            race: 'Dwarf',
            specialFeats: [
              { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 1 },
              { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 1 },
              { name: 'Past Life: Wizard', type: 'HeroicPastLife', stacks: 2 },
              { name: 'Past Life: Arcane Sphere: Arcane Alacrity', type: 'EpicPastLife', stacks: 1 },
            ],
          },
          build: { levels: Array.from({ length: 20 }, () => ({ class: 'Wizard' })) },
        }),
      )
      return brom.id
    }
    const bromId = await bromOf('alice')
    const plugin = site.plugin(await site.pluginToken('alice'))
    const lidda = ok(
      await plugin.characters.post({
        givenName: 'Lidda',
        race: 'Halfling',
        server: 'Cannith',
        classes: [{ name: 'Rogue', levels: 20 }],
      }),
      201,
    )
    const liddaId = lidda.id
    const problems: string[] = []
    /** A page signed in as `username` (alice) on `path`; its complaints are kept. */
    const open = async (path: string, username = 'alice'): Promise<Page> => {
      return keepOnClose(await openSignedIn(browser, site, username, path), { problems })
    }
    return { site, browser, bromId, liddaId, bromOf, problems, open }
  })

  test(
    "the account: the totals, each character's row, the sums; a character's name leads to its page",
    each(async ({ site, bromId, liddaId, open }) => {
      const page = await open('/past-lives')
      await page.getByRole('heading', { name: 'Past lives', level: 1 }).waitFor()
      const nav = page.getByRole('navigation', { name: 'Site' })
      expect(await nav.getByRole('link', { name: 'Past lives' }).getAttribute('aria-current')).toBe('page')
      // Brom: Fighter 1 + Wizard 2 heroic, Dwarf 1, Arcane Alacrity 1: 5 in all. Lidda: none.
      const total = (kind: string) => page.locator(`.pl-totals dd[data-total="${kind}"]`).textContent()
      expect([await total('heroic'), await total('racial'), await total('iconic'), await total('epic')]).toEqual([
        '3',
        '1',
        '0',
        '1',
      ])
      expect(await total('all')).toBe('5')
      const row = (id: number, kind: string) =>
        page.locator(`tr[data-character="${id}"] [data-total="${kind}"]`).textContent()
      expect([await row(bromId, 'heroic'), await row(bromId, 'all')]).toEqual(['3', '5'])
      expect([await row(liddaId, 'heroic'), await row(liddaId, 'all')]).toEqual(['0', '0'])
      expect(await page.locator(`tr[data-character="${bromId}"] td`).first().textContent()).toBe('2')
      const sums = await page.locator('[data-kind="heroic"] li').allTextContents()
      expect(sums).toEqual(['Fighter 1', 'Wizard 2'])
      await fitsPhone(page)

      await page.getByRole('link', { name: 'Brom', exact: true }).click()
      await page.waitForURL(`${site.base}/past-lives/${bromId}`)
      await page.getByRole('heading', { name: 'Next reincarnation' }).waitFor()
      await page.close()
    }),
    30_000,
  )

  test(
    'a character: every past life with its stacks, and what its next reincarnation would grant',
    each(async ({ site, bromOf, problems, open }) => {
      // A Brom of its own, on an account of its own: the Wizard it takes to 3 below is no other test's.
      await site.addUser('cleo')
      const bromId = await bromOf('cleo')
      const page = await open(`/past-lives/${bromId}`, 'cleo')
      await page.getByRole('heading', { name: 'Next reincarnation' }).waitFor()
      expect(await page.locator('.facts').textContent()).toContain('2 lives')
      const stacks = (feat: string) => page.locator(`li[data-past-life="${feat}"]`).getAttribute('data-count')
      expect(await stacks('Past Life: Wizard')).toBe('2')
      expect(await stacks('Past Life: Fighter')).toBe('1')
      expect(await stacks('Past Life: Monk')).toBe('0')
      expect(await stacks('Past Life: Dwarf')).toBe('1')
      expect(await stacks('Past Life: Arcane Sphere: Arcane Alacrity')).toBe('1')
      expect(await page.locator('li[data-past-life="Past Life: Wizard"] .sr-only').textContent()).toBe('2 of 3')
      // 25 classes, 16 races, 11 iconics, 18 epic past lives.
      expect(await page.locator('#pl-heroic + ul > li').count()).toBe(25)
      expect(await page.locator('#pl-racial + ul > li').count()).toBe(16)
      expect(await page.locator('#pl-iconic + ul > li').count()).toBe(11)
      expect(await page.locator('.pl-epic li').count()).toBe(18)
      expect(await page.locator('[data-sphere="Arcane"] h3').textContent()).toBe('Arcane 1 of 15')
      expect(await page.locator('#pl-heroic .count').textContent()).toBe('3 of 75')
      // Out of a Dwarf Wizard 20: Wizard 2 -> 3, Dwarf 1 -> 2; an epic reincarnation waits for level 30.
      const option = (kind: string) => page.locator(`[data-option="${kind}"]`).textContent()
      expect(await option('heroic')).toBe('Heroic reincarnation: Wizard 2 → 3')
      expect(await option('racial')).toBe('Racial reincarnation: Dwarf 1 → 2')
      expect(await page.locator('[data-option]').count()).toBe(2)
      expect(await page.locator('.pl-next [data-later]').textContent()).toBe(
        'Epic reincarnation needs level 30; this character is level 20.',
      )
      await fitsPhone(page)

      // The game says the Wizard went to 3: a reload shows it full, and a heroic reincarnation adds nothing.
      ok(
        await site
          .plugin(await site.pluginToken('cleo'))
          .characters({ id: bromId })
          .live.partial.put({
            pastLives: [
              { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 1 },
              { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 1 },
              { name: 'Past Life: Wizard', type: 'HeroicPastLife', stacks: 3 },
              { name: 'Past Life: Arcane Sphere: Arcane Alacrity', type: 'EpicPastLife', stacks: 1 },
            ],
          }),
      )
      await page.reload()
      await page.getByRole('heading', { name: 'Next reincarnation' }).waitFor()
      expect(await page.locator('li[data-past-life="Past Life: Wizard"]').getAttribute('class')).toBe('full')
      expect(await option('heroic')).toBe('Heroic reincarnation: Wizard is at 3 already: nothing more')
      await page.close()
      // The sign-in page asks whether anyone is signed in: its 401 is the browser's only complaint.
      expect(problems.filter((p) => !/Failed to load resource: .* 401/.test(p))).toEqual([])
    }),
    30_000,
  )

  test(
    "another account's character: the page says it is not there",
    each(async ({ site, browser, bromId }) => {
      await site.addUser('bob')
      const page = await openSignedIn(browser, site, 'bob', `/past-lives/${bromId}`)
      await page
        .getByRole('alert')
        .filter({ hasText: `No character ${bromId} on this account.` })
        .waitFor()
      expect(await page.getByRole('link', { name: 'Back to the past lives' }).count()).toBe(1)
      await page.close()
    }),
    30_000,
  )
})
