// Screenshots of the website, light and dark, narrow (390 px) and wide (1280 px), on the real
// app with the 718-row catalog (or the small fixture) and a character with some completions.
// Usage: bun scripts/screenshots.ts [outdir]   (default /tmp/qt-screenshots)
// The README's docs/screenshots/tracker.png is the wide light tracker from this run.

import { existsSync } from 'node:fs'
import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { chromiumPath, FULL_CATALOG, launch, newContext, SMALL_CATALOG, signIn, startSite } from '../test/web/harness'

const outdir = process.argv[2] ?? '/tmp/qt-screenshots'
await mkdir(outdir, { recursive: true })
const executable = chromiumPath()
if (!executable) process.exit(1)

const site = await startSite(existsSync(FULL_CATALOG) ? FULL_CATALOG : SMALL_CATALOG)
await site.addUser('alice')
const token = await site.pluginToken('alice')
const hero = await site.plugin<{ id: number; shareUrl: string }>(token, 'POST', '/characters', {
  givenName: 'Tordek',
  surname: 'Stonehammer',
  race: 'Dwarf',
  server: 'Thrane',
  classes: [
    { name: 'Fighter', levels: 12 },
    { name: 'Rogue', levels: 2 },
  ],
  lastLoginAt: 'now',
})
await site.plugin(token, 'POST', '/characters', {
  givenName: 'Lidda',
  race: 'Halfling',
  server: 'Cannith',
  classes: [{ name: 'Rogue', levels: 20 }],
  epicLevels: 9,
})
// Completions near the character's level, so the first screen of the tracker shows some.
const catalog = (await Bun.file(existsSync(FULL_CATALOG) ? FULL_CATALOG : SMALL_CATALOG).json()) as {
  name: string
  difficulty: string
  level: number
}[]
const near = catalog.filter((q) => q.difficulty === 'Heroic' && q.level >= 11 && q.level <= 12).slice(0, 6)
const settings = ['elite', 'hard', 'reaper', 'normal', 'elite', 'casual']
const done = near.map((q, i) => [q.name, i === 3 ? 'Unknown' : q.difficulty, settings[i], i === 0 ? 6100 : undefined])
for (const [name, difficulty, setting, xpEarned] of done) {
  await site.plugin(token, 'POST', `/characters/${hero.id}/completions`, { name, difficulty, setting, xpEarned })
}
await site.plugin(token, 'PUT', `/characters/${hero.id}/progress`, {
  targetDifficulty: 'elite',
  xpBoosts: { vip: true, xpElixir: 20 },
  optionalPursuit: { firstTime: true, conquest: true },
})

const browser = await launch(executable)
for (const scheme of ['light', 'dark'] as const) {
  for (const width of [390, 1280]) {
    const { context } = await newContext(browser, {
      colorScheme: scheme,
      viewport: { width, height: width < 600 ? 844 : 900 },
      deviceScaleFactor: width < 600 ? 2 : 1,
    })
    const page = await context.newPage()
    const shot = (name: string) => page.screenshot({ path: join(outdir, `${name}-${scheme}-${width}.png`) })
    await page.goto(`${site.base}/login`)
    await page.getByLabel('Password').waitFor()
    await shot('login')
    await signIn(page, site.base, 'alice')
    await page.getByRole('link', { name: 'Tordek Stonehammer' }).waitFor()
    await shot('characters')
    await page.goto(`${site.base}/characters/${hero.id}`)
    await page.locator('tr[data-quest]').first().waitFor()
    await shot('tracker')
    await page.locator('table.quests tbody').scrollIntoViewIfNeeded()
    await shot('tracker-rows')
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.getByText('Favor by patron').click()
    await page.getByText('XP bonuses').click()
    await page.screenshot({ path: join(outdir, `tracker-panels-${scheme}-${width}.png`) })
    await page.goto(`${site.base}${hero.shareUrl}`)
    await page.locator('tr[data-quest]').first().waitFor()
    await shot('share')
    await context.close()
  }
}
await browser.close()
await site.stop()
if (process.argv.includes('--docs')) {
  await mkdir('docs/screenshots', { recursive: true })
  await copyFile(join(outdir, 'tracker-light-1280.png'), 'docs/screenshots/tracker.png')
}
console.log(`screenshots in ${outdir}`)
