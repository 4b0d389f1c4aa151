// Issue 41 section 4 in Chromium and Firefox: a character's sagas page, reached from its tabs.
// The game logs quests of two sagas (one newer than the catalog): each saga says how many of its
// quests are done, a started one opens on its quests with the best setting (R4 on reaper), a quest
// the catalog lacks says so, a closed saga opens on a click, and the page fits a phone.
import { describe, expect, test } from 'bun:test'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { FAILED_LOAD, openSignedIn, startSite } from './harness'

describe.skipIf(BROWSERS.length === 0)(`the sagas page, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    const plugin = site.plugin(await site.pluginToken('alice'))
    const hero = ok(
      await plugin.characters.post({ givenName: 'Vex', race: 'Elf', classes: [{ name: 'Rogue', levels: 17 }] }),
      201,
    )
    const me = plugin.characters({ id: hero.id })
    ok(await me.completions.post({ name: 'Smash and Burn', difficulty: 'Heroic', setting: 'hard' }), 201)
    ok(await me.completions.post({ name: 'Smash and Burn', difficulty: 'Heroic', setting: 'R4' }), 201)
    ok(await me.completions.post({ name: 'Roll Call', setting: 'elite' }), 201)
    ok(await me.completions.post({ name: 'Vecna Unleashed', difficulty: 'Heroic', setting: 'normal' }), 201)
    return { site, browser, id: hero.id }
  })

  test(
    'each saga’s count; a started one open on its quests and on what each was done; a closed one opens',
    each(async ({ site, browser, id }) => {
      const page = await openSignedIn(browser, site, 'alice', `/characters/${id}`)
      await page.locator('.tabs a[data-tab="sagas"]').click()
      await page.waitForURL(`${site.base}/characters/${id}/sagas`)
      expect(await page.locator('.tabs a[aria-current="page"]').textContent()).toBe('Sagas')
      const cogs = page.locator('[data-saga="cogs-heroic"]')
      await cogs.waitFor()
      expect(await cogs.locator('.saga-count').textContent()).toBe('2 of 8')
      expect(await cogs.getAttribute('open')).not.toBeNull()
      const line = (name: string) => cogs.locator(`li[data-quest="${name}"]`)
      expect(await line('Smash and Burn').getAttribute('data-done')).toBe('true')
      expect(await line('Smash and Burn').locator('.saga-best').textContent()).toBe('R4')
      expect(await line('Roll Call').locator('.saga-best').textContent()).toBe('Elite')
      expect(await line('Rescue Me').count()).toBe(0)
      expect(await line('Security Detail').getAttribute('data-done')).toBe('false')
      expect(await cogs.locator('[data-reward-xp]').textContent()).toContain('Elite 35,000')
      // The legendary Cogs counts Roll Call (logged without a tier) too; it shows no reward XP.
      const legendary = page.locator('[data-saga="cogs-legendary"]')
      expect(await legendary.locator('.saga-count').textContent()).toBe('1 of 8')
      expect(await legendary.locator('[data-reward-xp]').count()).toBe(0)
      // A newer quest than the catalog: listed by name, marked, and counted.
      const vecna = page.locator('[data-saga="vecna-unleashed-heroic"]')
      expect(await vecna.locator('li[data-quest="Vecna Unleashed"] .saga-missing').textContent()).toBe(
        ' not in the quest catalog',
      )
      expect(await vecna.locator('li[data-quest="Vecna Unleashed"]').getAttribute('data-done')).toBe('true')
      // A saga nothing of is done is closed; a click opens it.
      const saltmarsh = page.locator('[data-saga="saltmarsh-heroic"]')
      expect(await saltmarsh.getAttribute('open')).toBeNull()
      await saltmarsh.locator('summary').click()
      await saltmarsh.locator('li').first().waitFor()
      expect(await saltmarsh.getAttribute('open')).not.toBeNull()
      expect(await saltmarsh.locator('li').count()).toBe(10)
      expect(await page.locator('.sagas-sources li').count()).toBe(2)
      await page.setViewportSize({ width: 390, height: 844 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390)
      await page.close()
      expect(page.problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
    }),
    30_000,
  )
})
