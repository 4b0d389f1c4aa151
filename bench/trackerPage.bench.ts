// The tracker page with the full catalog, in Debian's Chromium: how long until every row is on
// the page (a cold load: new browser context, empty cache; and a warm reload: assets cached, the
// catalog answered 304), how long a search keystroke takes to filter the rows, and what the page
// transfers. The real app on a file database, a character with 200 completions.
//   bun bench/trackerPage.bench.ts [runs]
import { existsSync } from 'node:fs'
import { browserPath, launchChromium } from '../test/web/driver'
import { FULL_CATALOG, newContext, SMALL_CATALOG, signIn, startSite, succeeded } from '../test/web/harness'

const RUNS = Number(Bun.argv[2] ?? 10)
const executable = browserPath('chromium')
if (!executable) process.exit(1)

const catalogFile = existsSync(FULL_CATALOG) ? FULL_CATALOG : SMALL_CATALOG
const catalog = (await Bun.file(catalogFile).json()) as { name: string; difficulty: string }[]
const site = await startSite(catalogFile)
await site.addUser('bench')
const token = await site.pluginToken('bench')
const plugin = site.plugin(token)
const hero = await succeeded(plugin.characters.post({ givenName: 'Bench', classes: [{ name: 'Fighter', levels: 12 }] }))
const mine = plugin.characters({ id: hero.id })
const settings = ['casual', 'normal', 'hard', 'elite', 'reaper']
for (let i = 0; i < 200; i++) {
  const quest = catalog[i % catalog.length] as { name: string; difficulty: string }
  await succeeded(
    mine.completions.post({
      name: quest.name,
      difficulty: quest.difficulty,
      setting: settings[Math.floor(i / catalog.length) % settings.length],
    }),
  )
}
// Every row shown: the "any level" band, no filter left on.
await succeeded(mine.progress.put({ levelBand: 255 }))

const browser = await launchChromium(executable)
const path = `/characters/${hero.id}`
const allRows = `tr[data-quest]:nth-of-type(${catalog.length})`

const cold: number[] = []
const warm: number[] = []
const keystroke: number[] = []
const bytes = new Map<string, number>()
for (let run = 0; run < RUNS; run++) {
  const { context } = await newContext(browser, { viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await signIn(page, site.base, 'bench')
  if (run === 0) {
    page.on('response', async (response) => {
      const url = new URL(response.url())
      const body = await response.body().catch(() => Buffer.alloc(0))
      bytes.set(url.pathname.replace(/-[\w]+\.(js|css)$/, '.$1'), body.length)
    })
  }
  await page.waitForURL(`${site.base}/`) // signed in: the characters page
  let start = performance.now()
  await page.goto(`${site.base}${path}`)
  await page.locator(allRows).waitFor({ state: 'attached' })
  cold.push(performance.now() - start)
  page.removeAllListeners('response')

  start = performance.now()
  await page.reload()
  await page.locator(allRows).waitFor({ state: 'attached' })
  warm.push(performance.now() - start)

  // One keystroke that narrows the list, then clearing it to bring every row back.
  const search = page.getByLabel('Search quests')
  start = performance.now()
  await search.fill('the')
  await page.waitForFunction((n) => document.querySelectorAll('tr[data-quest]').length < n, catalog.length)
  keystroke.push(performance.now() - start)
  await context.close()
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return (sorted[Math.floor(sorted.length / 2)] as number).toFixed(0)
}
const max = (values: number[]) => Math.max(...values).toFixed(0)
console.log(`tracker page: ${catalog.length} catalog rows, 200 completions, ${RUNS} runs, Chromium headless`)
console.log('| measure | median ms | max ms |')
console.log('|---|--:|--:|')
console.log(`| cold load to every row on the page | ${median(cold)} | ${max(cold)} |`)
console.log(`| warm reload to every row | ${median(warm)} | ${max(warm)} |`)
console.log(`| search keystroke to filtered rows | ${median(keystroke)} | ${max(keystroke)} |`)
console.log('\n| response (cold load) | bytes |')
console.log('|---|--:|')
for (const [name, size] of [...bytes].sort()) console.log(`| ${name} | ${size.toLocaleString('en-US')} |`)
await browser.close()
await site.stop()
process.exit(0)
