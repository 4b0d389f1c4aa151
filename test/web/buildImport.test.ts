// The build page's DDO Builder import, in Chromium and Firefox: a file dropped on the box shows its preview
// (lives, builds, what the character would change, quests matched) and writes nothing; picking
// another build previews that one; Import takes what was chosen, and the page shows it. Our own
// three-life file (test/fixtures/three-lives.DDOBuild) against the small catalog.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { SMALL_JSON } from '../catalogFixtures'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import type { Page } from './driver'
import { openSignedIn, startSite } from './harness'

const THREE_LIVES = join(import.meta.dir, '..', 'fixtures', 'three-lives.DDOBuild')

/** Drops `text` as a file named `name` on the import box, as a file dragged from the desktop. */
async function drop(page: Page, name: string, text: string) {
  const dispatch = (type: 'dragover' | 'drop') =>
    page.locator('.file-drop').evaluate(
      (box, [event, fileName, content]) => {
        const data = new DataTransfer()
        data.items.add(new File([content as string], fileName as string))
        box.dispatchEvent(new DragEvent(event as string, { dataTransfer: data, bubbles: true, cancelable: true }))
      },
      [type, name, text],
    )
  await dispatch('dragover')
  expect(await page.locator('.file-drop').getAttribute('data-over')).toBe('true')
  await dispatch('drop')
}

// The world (a site, alice) is shared; each test makes the character it imports into.
describe.skipIf(BROWSERS.length === 0)(`the build page imports a whole DDO Builder file, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite(SMALL_JSON)
    await site.addUser('alice')
    return { site, browser, token: await site.pluginToken('alice') }
  })

  test(
    'dropped, previewed (nothing written), another build picked, imported with its history and quests',
    each(async ({ site, browser, token }) => {
      const hero = ok(await site.plugin(token).characters.post({ givenName: 'Brakk' }), 201)
      const me = site.plugin(token).characters({ id: hero.id })
      const page = await openSignedIn(browser, site, 'alice', `/characters/${hero.id}/build`)

      await drop(page, 'three-lives.DDOBuild', await Bun.file(THREE_LIVES).text())
      const preview = page.locator('form.build-import')
      await preview.locator('[data-plan="4"]').waitFor()
      expect(await preview.locator('h3').textContent()).toBe('three-lives.DDOBuild')
      expect(await preview.locator('.file-lives li').allTextContents()).toEqual([
        'Brakk: Human Fighter 20, True Neutral',
        'Brakk the Wise: Elf Wizard 20, Chaotic Good',
        'Brakk Stoneward: Dwarf Cleric 10 / Fighter 2, Lawful Good (2 builds)',
      ])
      // A new character: its history is the file's, offered first, with what would change.
      expect(await preview.getByRole('radio', { name: /^All of that, and the lives history/ }).isChecked()).toBe(true)
      expect(await preview.locator('.changes tr[data-field="level"] td').allTextContents()).toEqual(['0', '12'])
      expect(await preview.locator('[data-quests]').getAttribute('data-quests')).toBe('3/0/0/0')
      // Nothing written yet.
      expect(ok(await me.build.get()).document).toBeNull()
      // On a phone the preview fits the screen (a long build in the list once widened the page).
      await page.setViewportSize({ width: 390, height: 844 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390)
      await page.setViewportSize({ width: 1280, height: 900 })

      // Build 3 (Cleric 4): its plan and its four quests, one ambiguous and one not in the catalog.
      await preview.getByLabel(/^Build to plan from/).selectOption('3')
      await preview.locator('[data-plan="3"]').waitFor()
      expect(await preview.locator('[data-quests]').getAttribute('data-quests')).toBe('2/0/1/1')
      await preview
        .getByLabel("quest 3: “Delera's Rest” (casual)")
        .selectOption({ label: "Delera's Rest (Heroic, level 7)" })
      expect(await preview.getByText('quest 4: “Sleeping with the Fishes”').count()).toBe(1)

      await preview.getByRole('button', { name: 'Import', exact: true }).click()
      await page
        .getByRole('status')
        .filter({
          hasText: 'Imported build 3 of three-lives.DDOBuild: the plan, the character, 3 lives, 3 completions.',
        })
        .waitFor()
      expect(await page.locator('form.build-import').count()).toBe(0)

      const lives = ok(await me.lives.get({ query: {} }))
      expect(lives.lives.map((l) => `${l.name} (${l.race})`)).toEqual([
        'Brakk (Human)',
        'Brakk the Wise (Elf)',
        'Brakk Stoneward (Dwarf)',
      ])
      const progress = ok(await me.progress.get())
      expect(progress.completions.map((c) => `${c.name}/${c.difficulty}/${c.setting}`).sort()).toEqual([
        'Crypt/Heroic/hard',
        "Delera's Rest/Heroic/casual",
        'Sewer Run/Heroic/elite',
      ])
      expect(ok(await me.get()).race).toBe('Dwarf')
      // The page took it all: the plan's level, and the three lives in the timeline.
      await page.locator('[data-sheet="planned"] [data-life="level"]', { hasText: '4' }).waitFor()
      await page.close()
    }),
    30_000,
  )

  test(
    'a character with a life of its own: the plan alone is offered first, and leaves it as it is',
    each(async ({ site, browser, token }) => {
      const hero = ok(
        await site
          .plugin(token)
          .characters.post({ givenName: 'Tordek', race: 'Halfling', classes: [{ name: 'Rogue', levels: 14 }] }),
        201,
      )
      const me = site.plugin(token).characters({ id: hero.id })
      const page = await openSignedIn(browser, site, 'alice', `/characters/${hero.id}/build`)
      await page.getByLabel('Build file (.DDOBuild)').setInputFiles(THREE_LIVES)
      const preview = page.locator('form.build-import')
      await preview.locator('[data-plan="4"]').waitFor()
      expect(await preview.getByRole('radio', { name: /^The plan only/ }).isChecked()).toBe(true)
      // The changes show only once taking the character is chosen.
      expect(await preview.locator('.changes').count()).toBe(0)
      await preview.getByRole('radio', { name: /^The plan, and the character/ }).check()
      expect(await preview.locator('.changes tr[data-field="classes"] td').allTextContents()).toEqual([
        'Rogue 14',
        'Cleric 10 / Fighter 2',
      ])
      await preview.getByRole('radio', { name: /^The plan only/ }).check()
      await preview.getByLabel(/^Log this build/).uncheck()
      await preview.getByRole('button', { name: 'Import', exact: true }).click()
      await page
        .getByRole('status')
        .filter({ hasText: 'Imported build 4 of three-lives.DDOBuild: the plan.' })
        .waitFor()
      const now = ok(await me.get())
      expect({ race: now.race, classes: now.classes }).toEqual({
        race: 'Halfling',
        classes: [{ name: 'Rogue', levels: 14 }],
      })
      expect(ok(await me.build.get()).document?.build?.level).toBe(12)
      expect(ok(await me.progress.get()).completions).toEqual([])

      // A file the server cannot read: its one sentence, and no preview.
      await page.getByLabel('Build file (.DDOBuild)').setInputFiles({
        name: 'cut.DDOBuild',
        mimeType: 'application/xml',
        buffer: Buffer.from('<DDOBuilderCharacterData><Character><Life><Na'),
      })
      await page
        .getByRole('alert')
        .filter({ hasText: /line 1, column \d+/ })
        .waitFor()
      expect(await page.locator('form.build-import').count()).toBe(0)
      await page.close()
    }),
    30_000,
  )
})
