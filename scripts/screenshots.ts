// Screenshots of the website in Chromium and Firefox, light and dark, narrow (390 px) and wide
// (1280 px), on the real app with the 718-row catalog (or the small fixture), a character with
// completions spread over a few days (stats), a monk with a DDO Builder plan and a live snapshot
// behind it (build, past lives), a rogue with two lives behind her (past lives), a level-30 wizard
// about to reincarnate (reincarnate), shared routes
// (routes), a group of two accounts (groups, party planner), an invite, an untick's undo, the
// tracker with the server away, the reaper skulls beside a tick, the sagas, raid lockouts and
// runs this week (tracker-timers, party), every alt at a glance and a group's grid, a shared
// character's read-only tracker and a guildmate's character's address.
// Usage: bun scripts/screenshots.ts [outdir] [--docs] [--browser chromium|firefox] (default
// /tmp/qt-screenshots, both browsers). Files are <page>-<browser>-<scheme>-<width>.png. `--docs`
// refreshes docs/screenshots/{tracker,build,routes,stats}.png from Chromium's wide light run.

import { existsSync } from 'node:fs'
import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { BROWSER_NAMES, browserPath, launchBrowser, type Page } from '../test/web/driver'
import { FULL_CATALOG, SMALL_CATALOG, signIn, startSite, succeeded } from '../test/web/harness'

const args = process.argv.slice(2)
const browserArg = args.indexOf('--browser')
const chosen = browserArg >= 0 ? args[browserArg + 1] : undefined
const outdir =
  args.find((a, i) => !a.startsWith('--') && (browserArg < 0 || i !== browserArg + 1)) ?? '/tmp/qt-screenshots'
await mkdir(outdir, { recursive: true })
const browsers = BROWSER_NAMES.filter((name) => !chosen || name === chosen).flatMap((name) => {
  const path = browserPath(name)
  return path ? [{ name, path }] : []
})
if (browsers.length === 0) process.exit(1)

const MONK = join(import.meta.dir, '..', '..', 'shared', 'fixtures', 'builds', 'example-monk.DDOBuild')
const CLERIC = join(import.meta.dir, '..', 'test', 'fixtures', 'small-cleric.DDOBuild')
const catalogFile = existsSync(FULL_CATALOG) ? FULL_CATALOG : SMALL_CATALOG
const site = await startSite(catalogFile)
await site.addUser('alice')
await site.addUser('bob')
const token = await site.pluginToken('alice')
const bobToken = await site.pluginToken('bob')
const alice = site.plugin(token)
const hero = await succeeded(
  alice.characters.post({
    givenName: 'Tordek',
    surname: 'Stonehammer',
    race: 'Dwarf',
    server: 'Thrane',
    classes: [
      { name: 'Fighter', levels: 12 },
      { name: 'Rogue', levels: 2 },
    ],
    lastLoginAt: 'now',
  }),
)
// Shared, for the share page's shots (a new character starts unshared).
const heroShare = await succeeded(alice.characters({ id: hero.id }).share.post())
const lidda = await succeeded(
  alice.characters.post({
    givenName: 'Lidda',
    race: 'Halfling',
    server: 'Cannith',
    classes: [{ name: 'Rogue', levels: 20 }],
    epicLevels: 9,
  }),
)
const monk = await succeeded(
  alice.characters.post({
    givenName: 'Mira',
    surname: 'Sunfist',
    race: 'Aasimar',
    server: 'Thrane',
    classes: [{ name: 'Monk', levels: 12 }],
  }),
)

// Completions near the character's level over the last five days, most with a run length and
// the XP the game reported, so every plot of the stats page has something to draw.
const catalog = (await Bun.file(catalogFile).json()) as { name: string; difficulty: string; level: number }[]
const near = catalog.filter((q) => q.difficulty === 'Heroic' && q.level >= 10 && q.level <= 13).slice(0, 14)
const settings = ['elite', 'hard', 'reaper', 'normal', 'elite', 'casual', 'elite', 'reaper', 'hard']
const day = 24 * 3600 * 1000
const now = Date.now()
for (const [i, q] of near.entries()) {
  const setting = settings[i % settings.length]
  await succeeded(
    alice.characters({ id: hero.id }).completions.post({
      name: q.name,
      difficulty: i === 3 ? 'Unknown' : q.difficulty,
      setting,
      completedAt: new Date(now - (4 - Math.floor(i / 3)) * day + i * 1200_000).toISOString(),
      durationSeconds: i % 4 === 3 ? undefined : 600 + ((i * 377) % 1500),
      xpEarned: i % 3 === 2 ? undefined : 4000 + ((i * 911) % 5000),
      reaperXpEarned: setting === 'reaper' ? 30 + i * 4 : undefined,
      reaperSkulls: setting === 'reaper' ? 3 + (i % 8) : undefined,
    }),
  )
}
// A raid three hours ago (on lockout, its ready time), and one quest run eight times this week
// (ransack likely): the tracker's timer marks.
const raidName = catalog.some((q) => q.name === 'The Titan Awakes') ? 'The Titan Awakes' : (near[2]?.name ?? '')
await succeeded(
  alice.characters({ id: hero.id }).completions.post({
    name: raidName,
    difficulty: 'Heroic',
    setting: 'elite',
    completedAt: new Date(now - 3 * 3600_000).toISOString(),
  }),
)
const farmed = near[1]?.name ?? ''
for (let i = 0; i < 8; i++) {
  await succeeded(
    alice.characters({ id: hero.id }).completions.post({
      name: farmed,
      difficulty: 'Heroic',
      setting: i % 2 ? 'hard' : 'elite',
      completedAt: new Date(now - (40 - i) * 3600_000).toISOString(),
    }),
  )
}
await succeeded(
  alice.characters({ id: hero.id }).progress.put({
    targetDifficulty: 'elite',
    xpBoosts: { vip: true, xpElixir: 20 },
    optionalPursuit: { firstTime: true, conquest: true },
  }),
)

// Lidda's lives: a racial then a heroic reincarnation out of a Halfling Rogue (the past lives page).
for (const kind of ['racial', 'heroic'] as const) {
  await succeeded(alice.characters({ id: lidda.id }).lives.reincarnate.post({ kind }))
  // The new life's levels, as the game plugin sends them.
  await succeeded(
    alice
      .characters({ id: lidda.id })
      .live.put({ build: { levels: Array.from({ length: 20 }, () => ({ class: 'Rogue' })) } }),
  )
}

// Mordo, a level-30 Wizard with epic past lives: the build page's reincarnation form, epic chosen.
const mordo = await succeeded(
  alice.characters.post({
    givenName: 'Mordo',
    race: 'Human',
    classes: [{ name: 'Wizard', levels: 20 }],
    epicLevels: 10,
  }),
)
await succeeded(
  alice.characters({ id: mordo.id }).live.partial.put({
    pastLives: [
      { name: 'Past Life: Wizard', type: 'HeroicPastLife', stacks: 3 },
      { name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife', stacks: 3 },
      { name: 'Past Life: Arcane Sphere: Arcane Alacrity', type: 'EpicPastLife', stacks: 1 },
    ],
  }),
)

// Shared routes: two of alice's, one of bob's.
const steps = (from: number, n: number) =>
  near.slice(from, from + n).map((q, i) => ({ name: q.name, setting: i % 4 === 2 ? 'hard' : 'elite' }))
const route = await succeeded(
  alice.routes.post({
    name: 'Level 11–13 elite run',
    quests: steps(0, 8),
    boosts: { vip: true },
    optionals: { firstTime: true },
  }),
)
await succeeded(alice.routes.post({ name: 'Short evening', quests: steps(4, 3) }))
await succeeded(
  site.plugin(bobToken).routes.post({
    name: 'Bob’s reaper grind',
    quests: steps(6, 6),
    boosts: { shipBuff: true },
  }),
)

// A group of two accounts: alice's Tordek and bob's Krusk shared, for the groups pages.
const krusk = await succeeded(
  site
    .plugin(bobToken)
    .characters.post({ givenName: 'Krusk', race: 'Half-Orc', classes: [{ name: 'Barbarian', levels: 11 }] }),
)
const group = await succeeded(alice.groups.post({ name: 'Stormreach Irregulars' }))
const invite = await succeeded(alice.groups({ id: group.id }).invites.post())
await succeeded(site.plugin(bobToken).groups.join.post({ code: invite.code }))
await succeeded(alice.groups({ id: group.id }).characters({ characterId: hero.id }).put())
await succeeded(site.plugin(bobToken).groups({ id: group.id }).characters({ characterId: krusk.id }).put())
// Krusk ran The Twilight Forge (level 11, in the party's band) an hour ago: locked out tonight.
await succeeded(
  site
    .plugin(bobToken)
    .characters({ id: krusk.id })
    .completions.post({
      name: 'The Twilight Forge',
      difficulty: 'Heroic',
      setting: 'elite',
      completedAt: new Date(now - 3600_000).toISOString(),
    }),
)
// A link for the join page, seen signed out.
const joinLink = await succeeded(alice.groups({ id: group.id }).invites.post())

/** Imports the plan through the page (as a player would) and sends a live snapshot behind it. */
async function seedBuild(page: Page) {
  await page.goto(`${site.base}/characters/${monk.id}/build`)
  await page.getByLabel('Build file (.DDOBuild)').setInputFiles(existsSync(MONK) ? MONK : CLERIC)
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await page.locator('[data-sheet="planned"] [data-stat="hp"]').waitFor()
  const { document } = await succeeded(alice.characters({ id: monk.id }).build.get())
  if (!document) throw new Error('the import saved no planned build')
  const doc = structuredClone(document)
  const build = doc.build ?? {}
  const levels = build.levels ?? []
  const life = doc.life ?? {}
  const feats = life.specialFeats ?? []
  await succeeded(
    alice.characters({ id: monk.id }).live.put({
      document: {
        ...doc,
        // Two past lives short of the plan, one not earned at all.
        life: { ...life, specialFeats: feats.slice(1).map((f, i) => (i < 2 ? { ...f, stacks: 1 } : f)) },
        tomes: { ...(doc.tomes ?? {}), str: 1, wis: 2 },
        build: { ...build, level: 12, levels: levels.slice(0, 12), enhancementTrees: undefined },
      },
      incomplete: ['enhancements', 'destiny', 'reaper'],
      source: 'game plugin',
    }),
  )
}

let seeded = false
for (const { name: browserName, path } of browsers) {
  for (const scheme of ['light', 'dark'] as const) {
    const browser = await launchBrowser(browserName, path, { colorScheme: scheme })
    for (const width of [390, 1280]) {
      const page = await browser.newPage({
        viewport: { width, height: width < 600 ? 844 : 900 },
        deviceScaleFactor: width < 600 ? 2 : 1,
      })
      const shot = async (name: string, fullPage = false) => {
        const file = `${name}-${browserName}-${scheme}-${width}`
        await page.screenshot({ path: join(outdir, `${file}.png`), fullPage })
        // A page wider than the screen scrolls sideways on a phone: name what sticks out.
        const overflow = await page.evaluate(() => {
          if (document.documentElement.scrollWidth <= innerWidth) return []
          return [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > innerWidth + 1)
            .slice(0, 5)
            .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
        })
        if (overflow.length > 0) console.warn(`${file}: wider than the screen: ${overflow.join(', ')}`)
        // A control a screen reader would announce without a name.
        const unnamed = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('input, select, textarea, button')]
            .filter((el) => {
              const labelled = el instanceof HTMLButtonElement ? false : (el as HTMLInputElement).labels?.length
              return (
                !labelled &&
                !el.getAttribute('aria-label') &&
                !el.getAttribute('aria-labelledby') &&
                !el.textContent?.trim()
              )
            })
            .map((el) => el.outerHTML.slice(0, 80)),
        )
        if (unnamed.length > 0) console.warn(`${file}: controls without a name: ${unnamed.join(' | ')}`)
      }
      await page.goto(`${site.base}${joinLink.path}`)
      await page.getByRole('heading', { name: 'Join Stormreach Irregulars' }).waitFor()
      await shot('join')
      await page.goto(`${site.base}/login`)
      await page.getByLabel('Password').waitFor()
      await shot('login')
      await signIn(page, site.base, 'alice')
      await page.getByRole('link', { name: 'Tordek Stonehammer', exact: true }).waitFor()
      await shot('characters')
      await page.goto(`${site.base}/characters/${hero.id}`)
      await page.locator('#app:not([data-first-screen]) tr[data-quest]').first().waitFor()
      await shot('tracker')
      await page.evaluate(() => document.querySelector('table.quests tbody')?.scrollIntoView())
      await shot('tracker-rows')
      // A quest the player looks for and does not find: the line under the list says where the quests come from.
      await page.getByLabel('Search quests').fill('Den of Vipers')
      await page.locator('.catalog-source').waitFor()
      await page.evaluate(() => document.querySelector('.catalog-source')?.scrollIntoView({ block: 'center' }))
      await shot('tracker-missing')
      // Quests run on reaper: the most skulls logged beside the reaper tick (`R7`).
      await page.getByLabel('Search quests').fill(near[2]?.name ?? '')
      await page.locator('td.tick .skulls').first().waitFor()
      await page.evaluate(() => document.querySelector('table.quests')?.scrollIntoView())
      await shot('tracker-reaper')
      await page.getByLabel('Search quests').fill('')
      // The raid on lockout and the quest run eight times this week, their marks beside the names.
      await page.locator('.timer-mark.lockout').first().waitFor()
      await page.evaluate(() => document.querySelector('.timer-mark.lockout')?.scrollIntoView({ block: 'center' }))
      await shot('tracker-timers')
      await page.evaluate(() => window.scrollTo(0, 0))
      // On a phone the filters are folded into one bar (styles.css): opened for this shot.
      if (await page.locator('.filters-toggle').isVisible()) await page.locator('.filters-toggle').click()
      await page.getByText('Favor by patron').click()
      await page.getByText('XP bonuses').click()
      await shot('tracker-panels')
      await page.goto(`${site.base}${heroShare.shareUrl}`)
      await page.locator('tr[data-quest]').first().waitFor()
      await shot('share')

      if (!seeded) {
        await seedBuild(page)
        seeded = true
      }
      await page.goto(`${site.base}/characters/${monk.id}/build`)
      await page.locator('[data-sheet="live"] [data-stat="hp"]').waitFor()
      await shot('build')
      await shot('build-full', true)

      await page.goto(`${site.base}/characters/${mordo.id}/build`)
      await page.getByRole('radio', { name: /^Epic/ }).check()
      await page.getByLabel('Epic past life to grant').waitFor()
      await page.evaluate(() => document.querySelector('.reincarnate')?.scrollIntoView())
      await shot('reincarnate')

      await page.goto(`${site.base}/routes`)
      await page.locator('tr[data-route]').first().waitFor()
      await shot('routes-list')
      await page.goto(`${site.base}/routes/${route.id}?character=${hero.id}&match=setting`)
      await page.locator('.nav-progress').waitFor()
      await shot('routes')
      await page.goto(`${site.base}/routes/${route.id}/edit`)
      await page.getByLabel('Find a quest').fill(near[0]?.name.slice(0, 4) ?? 'the')
      await shot('route-edit')

      await page.goto(`${site.base}/characters/${hero.id}/stats`)
      await page.locator('.chart[data-drawn="true"]').first().waitFor()
      await page.waitForFunction(() => document.querySelectorAll('.chart:not([data-drawn])').length === 0)
      await shot('stats')
      await shot('stats-full', true)

      await page.goto(`${site.base}/characters/${hero.id}/sagas`)
      await page.locator('[data-saga]').first().waitFor()
      await shot('sagas')
      await shot('sagas-full', true)

      // The monk's snapshot (seedBuild) holds most past lives of the game; Lidda has two lives behind her.
      await page.goto(`${site.base}/past-lives`)
      await page.locator('tr[data-character]').first().waitFor()
      await shot('past-lives')
      await shot('past-lives-full', true)
      await page.goto(`${site.base}/past-lives/${monk.id}`)
      await page.getByRole('heading', { name: 'Next reincarnation' }).waitFor()
      await shot('past-lives-character')
      await shot('past-lives-character-full', true)

      await page.goto(`${site.base}/account`)
      await page.getByRole('heading', { name: 'Plugin tokens' }).waitFor()
      await shot('account')

      await page.goto(`${site.base}/groups`)
      await page.locator('[data-groups="1"]').waitFor()
      await shot('groups')
      await page.goto(`${site.base}/groups/${group.id}`)
      await page.locator('.group-characters [data-character="Krusk"]').waitFor()
      await shot('group')
      // The group's quests × characters grid, and a shared character's tracker for a member.
      await page.locator('.group-grid .grid-count[data-drawn="true"]').waitFor()
      await page.locator('.group-grid').evaluate((el) => el.scrollIntoView())
      await shot('group-grid')
      await page.goto(`${site.base}/groups/${group.id}/characters/${krusk.id}`)
      await page.locator('.tracker[data-read-only="true"]').waitFor()
      await shot('group-character')
      // Bob's character at its own address, for alice: whose it is, in the site's frame.
      await page.goto(`${site.base}/characters/${krusk.id}`)
      await page.locator('.not-yours').waitFor()
      await shot('not-yours')
      // Every alt at a glance.
      await page.goto(`${site.base}/alts`)
      await page.locator('.grid-count[data-drawn="true"]').waitFor()
      await shot('alts')
      await page.goto(`${site.base}/groups/${group.id}/party?c=${hero.id},${krusk.id}&s=elite`)
      await page.locator('[data-party-quests]').waitFor()
      await page.locator('[data-party-lockouts]').waitFor()
      await shot('party')
      await shot('party-full', true)
      await page.goto(`${site.base}/characters/new`)
      await page.getByLabel('Given name').waitFor()
      await shot('character-new')

      // An untick, with its undo offered; then undone, so the next run finds the same data.
      const first = near[0]?.name ?? ''
      await page.goto(`${site.base}/characters/${hero.id}`)
      const box = page
        .locator(`tr[data-quest="${first}"][data-difficulty="Heroic"]`)
        .getByLabel('elite', { exact: true })
      await box.waitFor({ state: 'attached' })
      if (await box.isChecked()) {
        // Scrolled to first: Firefox's click through puppeteer misses a box deep in the 718 rows.
        await page.evaluate(
          (name) => document.querySelector(`tr[data-quest="${name}"]`)?.scrollIntoView({ block: 'center' }),
          first,
        )
        await box.uncheck()
        await page.getByRole('button', { name: 'Undo', exact: true }).waitFor()
        await shot('tracker-undo')
        await page.getByRole('button', { name: 'Undo', exact: true }).click()
      }

      // The server away: the tracker from what the browser kept, marked offline.
      await page.locator('tr[data-quest]').first().waitFor()
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await page.reload()
      await page.locator('#app:not([data-first-screen]) tr[data-quest]').first().waitFor()
      await site.pause()
      await page.reload()
      await page.locator('.offline-bar[data-state="offline"]').waitFor()
      await page.evaluate(() => window.scrollTo(0, 0))
      await shot('tracker-offline')
      site.resume()
      await page.close()
    }
    await browser.close()
  }
}
await site.stop()
if (args.includes('--docs')) {
  await mkdir('docs/screenshots', { recursive: true })
  for (const name of ['tracker', 'build', 'routes', 'stats']) {
    await copyFile(join(outdir, `${name}-chromium-light-1280.png`), `docs/screenshots/${name}.png`)
  }
}
console.log(`screenshots in ${outdir}`)
