// Characters on the website, in Chromium and Firefox: a player without the game plugin makes one
// (the plugin's picklists and rules), edits it, and deletes it after a confirmation; the guild
// (sent by the form or by the plugin) shows in the characters' list and the tracker's header.
import { describe, expect, test } from 'bun:test'
import { ok, refused } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import type { Page } from './driver'
import { FAILED_LOAD, openSignedIn, startSite } from './harness'

// One ordered scenario: one page and one character (its id in the world) pass from its making through its edit to its deletion.
describe.skipIf(BROWSERS.length === 0)(`characters on the website, one ordered scenario, ${IN_BROWSERS}`, () => {
  // One page per browser, kept through the tests: they follow one character from its making to its deletion.
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    const token = await site.pluginToken('alice')
    const page: Page = await openSignedIn(browser, site, 'alice', '/')
    const world = {
      site,
      token,
      page,
      id: 0,
      characters: async () => ok(await site.plugin(token).characters.get()).characters,
      facts: () => page.locator('.character-head .facts').textContent(),
    }
    return world
  })

  test(
    'a new character: the form, the picklists, the classes; then its tracker shows it with its guild',
    each(async (world) => {
      const { site, token, page, characters, facts } = world
      await page.getByText('No characters yet.').waitFor()
      await page.getByRole('link', { name: 'New character' }).first().click()
      await page.waitForURL(`${site.base}/characters/new`)
      await page.getByLabel('Given name').fill('Mialee')
      await page.getByLabel('Surname').fill('Liadon')
      await page.getByLabel('Race').selectOption('Elf')
      await page.getByLabel('Gender').selectOption('Female')
      await page.getByLabel('Alignment').selectOption('Chaotic Good')
      await page.getByLabel('Server').selectOption('Thrane')
      await page.getByLabel('Guild').fill('The Silver Flame')
      await page.getByLabel('Class 1', { exact: true }).selectOption('Wizard')
      await page.getByLabel('Levels of class 1').fill('5')
      // A class twice: the server's rule, in its words; nothing made.
      await page.getByLabel('Class 2', { exact: true }).selectOption('Wizard')
      await page.getByRole('button', { name: 'Create character' }).click()
      expect(await page.getByRole('alert').textContent()).toBe('Body field "classes" lists "Wizard" more than once.')
      expect(await characters()).toEqual([])

      await page.getByLabel('Class 2', { exact: true }).selectOption('Rogue')
      await page.getByLabel('Levels of class 2').fill('2')
      expect(await page.locator('[data-level]').getAttribute('data-level')).toBe('7')
      await page.getByRole('button', { name: 'Create character' }).click()
      await page.waitForURL(/\/characters\/\d+$/)
      world.id = Number(new URL(page.url()).pathname.split('/').pop())
      const id = world.id
      await page.getByRole('heading', { name: 'Mialee Liadon' }).waitFor()
      expect(await facts()).toBe('Level 7 · Wizard 5 / Rogue 2 · Elf · Thrane · Guild: The Silver Flame')
      expect(ok(await site.plugin(token).characters({ id }).get())).toMatchObject({
        givenName: 'Mialee',
        surname: 'Liadon',
        race: 'Elf',
        gender: 'Female',
        alignment: 'Chaotic Good',
        server: 'Thrane',
        guild: 'The Silver Flame',
        classes: [
          { name: 'Wizard', levels: 5 },
          { name: 'Rogue', levels: 2 },
        ],
        epicLevels: 0,
      })
    }),
    30_000,
  )

  test(
    'edit: the form holds what is stored; a change is saved, and an emptied field is cleared',
    each(async ({ site, token, page, id, facts }) => {
      await page.getByRole('link', { name: 'Edit character' }).click()
      await page.waitForURL(`${site.base}/characters/${id}/edit`)
      expect(await page.getByLabel('Given name').inputValue()).toBe('Mialee')
      expect(await page.getByLabel('Class 2', { exact: true }).inputValue()).toBe('Rogue')
      await page.getByLabel('Guild').fill('Harpers')
      await page.getByLabel('Surname').fill('')
      await page.getByLabel('Levels of class 1').fill('8')
      await page.getByLabel('Class 2', { exact: true }).selectOption('')
      await page.getByLabel('Epic levels').fill('0')
      await page.getByRole('button', { name: 'Save' }).click()
      await page.waitForURL(`${site.base}/characters/${id}`)
      await page.getByRole('heading', { name: 'Mialee', exact: true }).waitFor()
      expect(await facts()).toBe('Level 8 · Wizard 8 · Elf · Thrane · Guild: Harpers')
      expect(ok(await site.plugin(token).characters({ id }).get())).toMatchObject({
        surname: '',
        guild: 'Harpers',
        classes: [{ name: 'Wizard', levels: 8 }],
      })
    }),
    30_000,
  )

  test(
    "the plugin's guild shows in the characters' list",
    each(async ({ site, token, page }) => {
      ok(
        await site.plugin(token).characters.post({ givenName: 'Tordek', server: 'Thrane', guild: 'Stonehammer Clan' }),
        201,
      )
      await page.goto(`${site.base}/`)
      await page.locator('table.characters [data-character]').nth(1).waitFor()
      const guilds = await page.locator('table.characters td.guild').allTextContents()
      expect(guilds).toEqual(['Harpers', 'Stonehammer Clan'])
    }),
    30_000,
  )

  test(
    'delete asks first; "Keep it" keeps it, then deleting takes it and its data away',
    each(async ({ site, token, page, id, characters }) => {
      await page.goto(`${site.base}/characters/${id}/edit`)
      await page.getByRole('button', { name: 'Delete this character' }).click()
      await page.getByRole('button', { name: 'Keep it' }).click()
      expect(ok(await site.plugin(token).characters({ id }).get()).name).toBe('Mialee')
      await page.getByRole('button', { name: 'Delete this character' }).click()
      await page.getByText('Delete Mialee and everything recorded for it?').waitFor()
      await page.getByRole('button', { name: 'Delete Mialee' }).click()
      await page.waitForURL(`${site.base}/`)
      await page.locator('table.characters [data-character]').first().waitFor()
      expect(await page.locator('table.characters [data-character]').count()).toBe(1)
      refused(await site.plugin(token).characters({ id }).get(), 404)
      expect((await characters()).map((c) => c.name)).toEqual(['Tordek'])
    }),
    30_000,
  )

  test(
    'no page logged an error',
    each(async ({ page }) => {
      // A load the page cut off by leaving is a failed load, not a fault (Firefox words it as the worker's).
      expect(page.problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
      await page.close()
    }),
  )
})
