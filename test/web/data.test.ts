// "Your data" on the account page, in Chromium and Firefox: a CSV of completions chosen from disk shows its
// preview (what would be added, what is ambiguous, what the catalog lacks), nothing is written
// until Import, the player's choice decides the ambiguous name, and the download links are there.
import { describe, expect, test } from 'bun:test'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { openSignedIn, startSite } from './harness'

describe.skipIf(BROWSERS.length === 0)(`your data, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    const token = await site.pluginToken('alice')
    const heroId = ok(await site.plugin(token).characters.post({ givenName: 'Stonefist' }), 201).id
    const progress = async () => ok(await site.plugin(token).characters({ id: heroId }).progress.get())
    return { site, browser, heroId, progress }
  })

  test(
    'a CSV previews first, imports on confirm with the choice made, and downloads are offered',
    each(async ({ site, browser, heroId, progress }) => {
      const page = await openSignedIn(browser, site, 'alice', '/account')
      const section = page.getByRole('region', { name: 'Your data' })
      expect(await section.getByRole('link', { name: 'Download everything (JSON)' }).getAttribute('href')).toBe(
        '/api/account/export',
      )
      expect(
        await section.getByRole('link', { name: 'Stonefist: download completions (CSV)' }).getAttribute('href'),
      ).toBe(`/api/characters/${heroId}/completions/csv`)

      await section.getByLabel('Character').selectOption(String(heroId))
      await section.getByLabel('CSV file').setInputFiles({
        name: 'done.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          'name,difficulty,setting\nthe pit,,elite\nDevil Assault,,hard\nNo Such Quest,,elite\nThe Pit,Heroic,elite\n',
        ),
      })
      // Devil Assault (quest) is in the small catalog at two tiers: the player chooses.
      await section.locator('.import-preview [data-summary="1/1/1/1/0"]').waitFor()
      expect((await progress()).completions).toEqual([])
      await section
        .getByLabel('line 3: “Devil Assault” (hard)')
        .selectOption({ label: 'Devil Assault (quest) (Epic, level 27)' })
      await section.getByRole('button', { name: 'Import' }).click()
      await section.locator('.import-preview[data-confirmed="true"]').waitFor()
      await section.getByRole('status').filter({ hasText: 'Imported 2 completions from done.csv.' }).waitFor()
      expect((await progress()).completions.map((c) => `${c.name}/${c.difficulty}/${c.setting}`).sort()).toEqual([
        'Devil Assault (quest)/Epic/hard',
        'The Pit/Heroic/elite',
      ])
      await page.close()
    }),
    30_000,
  )
})
