// Issue 23 on the website, in Chromium and Firefox: the tracker's "What to run next" panel (by XP per minute
// and by the next favor reward, read again after a tick), the Time column of the server's medians,
// an earlier life's quests on demand, and the account's opt-out of the quest times.
import { describe, expect, test } from 'bun:test'
import { SMALL_JSON } from '../catalogFixtures'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { openSignedIn, startSite } from './harness'

// The world (a site, the other accounts' runs, alice's Brom after a reincarnation) is shared and only read:
// the test that ticks makes its own character, and the one that switches a setting its own account.
describe.skipIf(BROWSERS.length === 0)(`what to run next, quest times and earlier lives, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite(SMALL_JSON)
    await site.addUser('alice')
    const alice = await site.pluginToken('alice')
    // Three other accounts ran Bell Tower on elite in 4, 5 and 6 minutes: the server's median is 5.
    for (const [name, durationSeconds] of [
      ['bob', 240],
      ['carol', 300],
      ['dave', 360],
    ] as const) {
      await site.addUser(name)
      const token = await site.pluginToken(name)
      const char = ok(await site.plugin(token).characters.post({ givenName: name }), 201)
      await site.plugin(token).characters({ id: char.id }).completions.post({
        name: 'Bell Tower',
        difficulty: 'Heroic',
        setting: 'elite',
        durationSeconds,
        completedAt: '2026-11-20T10:00:00Z',
      })
    }
    const hero = ok(
      await site.plugin(alice).characters.post({ givenName: 'Brom', classes: [{ name: 'Fighter', levels: 9 }] }),
      201,
    )
    const heroId = hero.id
    const me = site.plugin(alice).characters({ id: heroId })
    // Every level shown in the tracker (the panel keeps to the Full XP band by itself).
    ok(await me.progress.put({ targetDifficulty: 'elite', levelBand: 255 }))
    // A first life with Sewer Run done, then a reincarnation: the tracker starts over.
    ok(await me.lives.get())
    ok(await me.completions.post({ name: 'Sewer Run', difficulty: 'Heroic', setting: 'elite' }), 201)
    await Bun.sleep(5)
    ok(await me.lives.reincarnate.post({}))
    // The new life starts with no class levels; the game client says when it is Fighter 9 again.
    ok(await me.patch({ classes: [{ name: 'Fighter', levels: 9 }] }))
    return { site, browser, heroId, alice }
  })

  test(
    'the panel ranks by XP per minute and by favor, says why, and follows a tick',
    each(async ({ site, browser, alice }) => {
      // A Fighter 9 of its own, every level shown on elite: the tick below is on no other test's character.
      const heroId = ok(
        await site.plugin(alice).characters.post({ givenName: 'Regdar', classes: [{ name: 'Fighter', levels: 9 }] }),
        201,
      ).id
      ok(
        await site.plugin(alice).characters({ id: heroId }).progress.put({ targetDifficulty: 'elite', levelBand: 255 }),
      )
      const page = await openSignedIn(browser, site, 'alice', `/characters/${heroId}`)
      const panel = page.locator('section.next')
      await page.locator('section.next[data-next-by="xp"] [data-next-quest]').first().waitFor()
      // Bell Tower 1914 XP in the server's 5 min; Delera's Rest 3486 in an estimated 30; Crypt 3190 in 20.
      expect(
        await panel
          .locator('[data-next-quest]')
          .evaluateAll((items) => items.map((li) => li.getAttribute('data-next-quest'))),
      ).toEqual(['Bell Tower', 'Crypt', "Delera's Rest"])
      expect(await panel.locator('[data-next-quest="Bell Tower"] .why').textContent()).toContain(
        "this server's median run 5 min (3 runs)",
      )
      // The Time column shows the same median on Bell Tower's row (this hero never ran it, so no
      // time of its own comes first), nothing where too few ran.
      expect(await page.locator('tr[data-quest="Bell Tower"][data-difficulty="Heroic"] td.time').textContent()).toBe(
        '5 min on this server',
      )
      expect(await page.locator('tr[data-quest="Bell Tower"] td.time [data-time="own"]').count()).toBe(0)
      expect(await page.locator('tr[data-quest="Crypt"][data-difficulty="Heroic"] td.time').textContent()).toBe('—')
      // Ticking Bell Tower on elite takes it off the list.
      await page.locator('tr[data-quest="Bell Tower"][data-difficulty="Heroic"] input[aria-label="elite"]').check()
      await panel.locator('[data-next-quest="Bell Tower"]').waitFor({ state: 'detached' })
      // By favor: the nearest reward is named, and each quest says what it reaches or leaves.
      await panel.getByLabel('Next favor reward').check()
      await page.locator('section.next[data-next-by="favor"] [data-next-reward]').waitFor()
      expect(await panel.locator('[data-next-quest]').count()).toBeGreaterThan(0)
      expect(await panel.locator('[data-next-quest] .why').first().textContent()).toMatch(
        /^(reaches|then \d+ short of)/,
      )
      await page.close()
    }),
    30_000,
  )

  test(
    "this life is shown; an earlier life's quests open on demand",
    each(async ({ site, browser, heroId }) => {
      const page = await openSignedIn(browser, site, 'alice', `/characters/${heroId}`)
      await page.locator('tr[data-quest="Sewer Run"]').first().waitFor()
      expect(
        await page.locator('tr[data-quest="Sewer Run"][data-difficulty="Heroic"]').getAttribute('data-completed'),
      ).toBe('false')
      await page.locator('details.earlier-life[data-life="1"] summary').click()
      await page.locator('details.earlier-life[data-life="1"] li', { hasText: 'Sewer Run' }).waitFor()
      await page.close()
    }),
    30_000,
  )

  test(
    'the account page switches sharing of quest times off and on',
    each(async ({ site, browser }) => {
      // An account of its own: the setting it switches is no other test's.
      await site.addUser('erin')
      const page = await openSignedIn(browser, site, 'erin', '/account')
      const box = page.getByLabel('Count my runs in this server’s quest times')
      // The box is disabled until the account's setting has been read.
      const settingRead = () =>
        page.waitForFunction(() => {
          const input = document.querySelector<HTMLInputElement>('#sharing-title ~ label input')
          return input !== null && !input.disabled
        })
      await settingRead()
      expect(await box.isChecked()).toBe(true)
      await box.uncheck()
      await page.getByText('Your runs no longer count').first().waitFor()
      // Stored: a fresh page reads it back off.
      await page.reload()
      await settingRead()
      expect(await box.isChecked()).toBe(false)
      await box.check()
      await page.getByText('Your runs count in the server’s quest times again.').first().waitFor()
      await page.close()
    }),
    30_000,
  )
})
