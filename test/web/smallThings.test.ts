// Issue 42, section 6 ("smaller things players noticed"), as a player sees them, in Chromium and
// Firefox: counts worded in English, one spelling of each race, the searches forgiving apostrophes,
// the party planner's XP and width, the route page's ticks and XP, and the rest of the list.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { SMALL_JSON } from '../catalogFixtures'
import { ok } from '../helpers'

const SMALL_FIGHTER = join(import.meta.dir, '..', 'fixtures', 'small-fighter.DDOBuild')

/** The sentence for a file that is not XML at all (src/modules/builds/ddobuilder/xml.ts). */
const NOT_DDO_BUILDER =
  'The file is not a DDO Builder character file (.DDOBuild): it does not begin with an XML tag, as every .DDOBuild file does.'

import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import type { Page } from './driver'
import { openSignedIn, startSite } from './harness'

// The world (a site, ann and her Brom) is shared and Brom only read: each test that changes something
// makes its own character, group or route.
describe.skipIf(BROWSERS.length === 0)(`smaller things players noticed, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite(SMALL_JSON)
    await site.addUser('ann')
    const token = await site.pluginToken('ann')
    const me = site.plugin(token)
    const brom = ok(
      await me.characters.post({ givenName: 'Brom', race: 'Drow', classes: [{ name: 'Fighter', levels: 9 }] }),
      201,
    ).id
    async function pageOf(path: string): Promise<Page> {
      const page = await openSignedIn(browser, site, 'ann', path)
      page.setDefaultTimeout(15_000)
      return page
    }
    /** A Fighter 9 of ann's, as Brom is, for a test that changes it. */
    const fighter = async (givenName: string, race?: string) =>
      ok(await me.characters.post({ givenName, race, classes: [{ name: 'Fighter', levels: 9 }] }), 201).id
    return { site, me, brom, fighter, pageOf }
  })

  test(
    'a group of one member and one character says so in English',
    each(async ({ me, fighter, pageOf }) => {
      const jay = await fighter('Jay')
      const group = ok(await me.groups.post({ name: 'Just Me' }), 201).id
      ok(await me.groups({ id: group }).characters({ characterId: jay }).put())
      const list = await pageOf('/groups')
      // This test's group (another test's may be listed too).
      const item = list.locator('.group-list li', { hasText: 'Just Me' })
      await item.waitFor()
      expect(await item.textContent()).toContain('yours · 1 member · 1 character')
      const page = await pageOf(`/groups/${group}`)
      const hint = page.locator('.page-head .hint')
      await hint.waitFor()
      expect(await hint.textContent()).toBe('You own this group. 1 member · 1 character shared')
      for (const p of [list, page]) await p.close()
    }),
    30_000,
  )

  test(
    'the searches forgive apostrophes, as the imports do: "Deleras Rest" finds Delera\'s Rest',
    each(async ({ brom, pageOf }) => {
      const tracker = await pageOf(`/characters/${brom}`)
      await tracker.locator('tr[data-quest]').first().waitFor()
      await tracker.getByLabel('Search quests').fill('deleras rest')
      await tracker.waitForFunction(() =>
        [...document.querySelectorAll('tr[data-quest]')].every((r) => r.getAttribute('data-quest') === "Delera's Rest"),
      )
      expect(await tracker.locator(`tr[data-quest="Delera's Rest"]`).count()).toBeGreaterThan(0)
      const editor = await pageOf('/routes/new')
      await editor.getByLabel('Find a quest').fill('Deleras Rest')
      await editor.locator(`[data-result="Delera's Rest"]`).first().waitFor()
      for (const p of [tracker, editor]) await p.close()
    }),
    30_000,
  )

  test(
    'a race and its past life are spelt one way on every page (the characters list\'s "Drow Elf", "Shadar-kai")',
    each(async ({ me, fighter, pageOf }) => {
      const brom = await fighter('Drizzt', 'Drow')
      // The snapshot as DDO Builder and its feats spell them: "Drow", "Shadar-Kai".
      ok(
        await me.characters({ id: brom }).live.put({
          life: {
            race: 'Drow',
            specialFeats: [
              { name: 'Past Life: Drow', type: 'RacialPastLife', stacks: 1 },
              { name: 'Past Life: Shadar-Kai', type: 'IconicPastLife', stacks: 2 },
            ],
          },
        }),
      )
      const list = await pageOf('/')
      const raceCell = list.locator(`tr[data-character="${brom}"] td[data-label="Race"]`)
      await raceCell.waitFor()
      expect(await raceCell.textContent()).toBe('Drow Elf')
      const build = await pageOf(`/characters/${brom}/build`)
      const live = build.locator('[data-sheet="live"]')
      await live.locator('[data-life="race"]').waitFor()
      expect(await live.locator('[data-life="race"]').textContent()).toBe('Drow Elf')
      expect(await live.locator('[data-past-life]').allTextContents()).toEqual(['Drow Elf', 'Shadar-kai ×2'])
      const lives = await pageOf(`/past-lives/${brom}`)
      const racial = lives.locator('[data-past-life="Past Life: Drow"] .pl-name')
      await racial.waitFor()
      expect(await racial.textContent()).toBe('Drow Elf')
      expect(await lives.locator('[data-past-life="Past Life: Shadar-Kai"] .pl-name').textContent()).toContain(
        'Shadar-kai',
      )
      for (const p of [list, build, lives]) await p.close()
    }),
    30_000,
  )

  test(
    're-ticking a box whose untick can still be undone puts the completion back as it was: no run doubled',
    each(async ({ site, me, fighter, pageOf }) => {
      const brom = await fighter('Ringer')
      const bell = { name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' } as const
      ok(
        await me
          .characters({ id: brom })
          .completions.post({ ...bell, completedAt: '2026-11-20T18:00:00Z', xpEarned: 1300 }),
        201,
      )
      ok(
        await me
          .characters({ id: brom })
          .completions.post({ ...bell, completedAt: '2026-11-20T19:00:00Z', xpEarned: 1400 }),
      )
      const web = site.web(await site.session('ann'))
      const stored = async () =>
        ok(await web.account.export.get())
          .characters.find((c) => c.id === brom)
          ?.completions.find((c) => c.name === 'Bell Tower' && c.setting === 'hard')
      const before = await stored()
      expect(before).toMatchObject({ runs: 2, xpEarned: 1400 })
      const page = await pageOf(`/characters/${brom}`)
      const box = page
        .locator('tr[data-quest="Bell Tower"][data-difficulty="Heroic"]')
        .getByLabel('hard', { exact: true })
      await box.waitFor({ state: 'attached' })
      await box.uncheck()
      const offer = page.locator('.undo-offer')
      await offer.waitFor()
      // The player ticks it again instead of pressing Undo: that is the undo.
      await box.check()
      await offer.waitFor({ state: 'detached' })
      await page.waitForReads()
      const deadline = Date.now() + 3000
      while (JSON.stringify(await stored()) !== JSON.stringify(before) && Date.now() < deadline) await Bun.sleep(50)
      expect(await stored()).toEqual(before)
      expect(await offer.count()).toBe(0)

      await page.close()
    }),
    30_000,
  )

  test(
    "a file that is not a DDO Builder file says so in words, not in an XML parser's",
    each(async ({ brom, pageOf }) => {
      const page = await pageOf(`/characters/${brom}/build`)
      await page.getByLabel('Build file (.DDOBuild)').setInputFiles({
        name: 'gear.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Brom: greataxe, full plate, ring of protection\n'),
      })
      const alert = page.getByRole('alert').filter({ hasText: /DDO Builder/ })
      await alert.waitFor()
      expect(await alert.textContent()).toContain(NOT_DDO_BUILDER)
      expect(await alert.textContent()).not.toMatch(/well-formed|char '|column/)
      await page.close()
    }),
    30_000,
  )

  test(
    'the stats page of one day of play draws one day, not three years',
    each(async ({ me, pageOf }) => {
      const solo = ok(
        await me.characters.post({ givenName: 'Solo', classes: [{ name: 'Fighter', levels: 7 }] }),
        201,
      ).id
      ok(
        await me.characters({ id: solo }).completions.post({
          name: 'Bell Tower',
          difficulty: 'Heroic',
          setting: 'reaper',
          xpEarned: 1500,
          durationSeconds: 600,
          reaperXpEarned: 40,
        }),
        201,
      )
      const page = await pageOf(`/characters/${solo}/stats`)
      for (const name of ['activity', 'reaper']) {
        const chart = page.locator(`[data-chart="${name}"][data-drawn="true"][data-x-span]`)
        await chart.waitFor()
        // The x scale's span in seconds: the day, with half a day on each side of its midnight.
        expect(await chart.getAttribute('data-x-span')).toBe(String(24 * 3600))
      }
      expect(await page.locator('[data-chart="activity"]').getAttribute('aria-label')).toStartWith(
        'Line chart of XP and completions over 1 day,',
      )
      await page.close()
    }),
    30_000,
  )

  test(
    "the party planner shows each quest's XP at the setting, and its setting's select is as wide as its words",
    each(async ({ me, fighter, pageOf }) => {
      const brom = await fighter('Tordek')
      const mira = ok(await me.characters.post({ givenName: 'Mira', classes: [{ name: 'Wizard', levels: 8 }] }), 201).id
      const group = ok(await me.groups.post({ name: 'Party of Two' }), 201).id
      for (const id of [brom, mira]) ok(await me.groups({ id: group }).characters({ characterId: id }).put())
      const page = await pageOf(`/groups/${group}/party?c=${brom},${mira}&s=elite`)
      const bell = page.locator('table.party-quests tr[data-quest="Bell Tower"]')
      await bell.waitFor()
      // The catalog's elite XP of Bell Tower (test/fixtures/catalog-small.json).
      expect(await bell.locator('td[data-label="XP"]').textContent()).toBe('1,320')
      await page.getByLabel('Setting').selectOption('hard')
      await page
        .locator(`table.party-quests tr[data-quest="Delera's Rest"] td[data-label="XP"]`, { hasText: '2,276' })
        .waitFor()
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 })
        const sizes = await page.evaluate(() => ({
          select: document.querySelector('#party-setting')?.getBoundingClientRect().width ?? 0,
          page: document.documentElement.scrollWidth,
        }))
        expect(sizes.select).toBeLessThanOrEqual(320)
        expect(sizes.page).toBeLessThanOrEqual(width)
      }
      await page.close()
    }),
    30_000,
  )

  test(
    '"Quests done" is one count on the characters list and the tracker: quest names, not their tiers',
    each(async ({ me, pageOf }) => {
      const tally = ok(
        await me.characters.post({ givenName: 'Tally', classes: [{ name: 'Rogue', levels: 20 }], epicLevels: 10 }),
        201,
      ).id
      const character = me.characters({ id: tally })
      // Every level and tier on the tracker: the whole small catalog, 12 remakes of 7 quests.
      ok(await character.progress.put({ levelBand: 255 }))
      for (const c of [
        { name: 'Crypt', difficulty: 'Heroic', setting: 'elite' },
        { name: 'Crypt', difficulty: 'Epic', setting: 'normal' },
        { name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' },
      ] as const) {
        ok(await character.completions.post(c), 201)
      }
      const list = await pageOf('/')
      const cell = list.locator(`tr[data-character="${tally}"] td[data-label="Quests done"]`)
      await cell.waitFor()
      expect(await cell.textContent()).toBe('2')
      const tracker = await pageOf(`/characters/${tally}`)
      const done = tracker.locator('[data-total="done"]')
      await tracker.locator('tr[data-quest="Crypt"][data-difficulty="Epic"][data-completed="true"]').waitFor()
      expect(await done.textContent()).toBe('2 / 7')
      // Shown: "crypt" in a name, pack or patron: Crypt's three tiers, Crypt of the Fallen, The Hidden
      // Crypt, Sewer Run (Crypt Keepers & Co.) and Bell Tower (Cryptic Order): five quests, two done.
      await tracker.getByLabel('Search quests').fill('crypt')
      await tracker
        .waitForFunction(() => document.querySelector('[data-total="done"]')?.textContent === '2 / 5', {
          timeout: 3000,
        })
        .catch(async () => expect(await done.textContent()).toBe('2 / 5'))
      for (const p of [list, tracker]) await p.close()
    }),
    30_000,
  )

  test(
    'a CSV name the catalog lacks is shown with the nearest names it has: did you mean',
    each(async ({ brom, pageOf }) => {
      const page = await pageOf('/account')
      const section = page.getByRole('region', { name: 'Your data' })
      await section.getByLabel('Character').selectOption(String(brom))
      await section.getByLabel('CSV file').setInputFiles({
        name: 'done.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('name,setting\nBell Towr,elite\nSleeping with the Fishes,hard\n'),
      })
      const typo = section.locator('[data-unmatched="Bell Towr"]')
      await typo.waitFor()
      expect(await typo.textContent()).toBe('line 2: “Bell Towr” — did you mean “Bell Tower”?')
      expect(await section.locator('[data-unmatched="Sleeping with the Fishes"]').textContent()).toBe(
        'line 3: “Sleeping with the Fishes”',
      )
      await page.close()
    }),
    30_000,
  )

  test(
    "a plan imported before any live snapshot is compared with the character's race, level and classes",
    each(async ({ site, me, pageOf }) => {
      const kara = ok(
        await me.characters.post({ givenName: 'Kara', race: 'Human', classes: [{ name: 'Rogue', levels: 2 }] }),
        201,
      ).id
      // The plan alone (a Dwarf, Fighter, Fighter, Rogue, Fighter): who Kara is now stays as it is.
      const xml = await Bun.file(SMALL_FIGHTER).text()
      const web = site.web(await site.session('ann'))
      expect(ok(await web.characters({ id: kara }).build.import.post({ xml })).imported?.take).toBe('plan')
      const page = await pageOf(`/characters/${kara}/build`)
      const table = page.locator('table.differences')
      await table.waitFor()
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent?.trim())))
      expect(rows).toEqual([
        ['Life · Race', 'Human', 'Dwarf', 'Reincarnate as a Dwarf'],
        ['Levels · Level', '2', '4', 'Level up (2 levels to go): take level 3 in Rogue'],
        ['Levels · Fighter levels', '0', '2', 'Rebuild with 2 Fighter levels (lesser reincarnation)'],
        ['Levels · Rogue levels', '2', '0', 'nothing to do'],
      ])
      expect(await page.locator('[data-no-live="true"]').count()).toBe(1)
      await page.close()
    }),
    30_000,
  )
  test(
    "a route shows each step's XP and the route's total, with the boosts and optionals it assumes",
    each(async ({ me, pageOf }) => {
      // VIP multiplies by 1.1; first time adds 45% on elite, 20% on hard: 880 × 1.45 × 1.1 = 1,404 and
      // 1,260 × 1.2 × 1.1 = 1,663 (src/rules/quests/xp.ts); the catalog has no casual XP for Delera's Rest.
      const route = ok(
        await me.routes.post({
          name: 'Harbor XP',
          quests: [
            { name: 'Sewer Run', setting: 'elite' },
            { name: 'Bell Tower', setting: 'hard' },
            { name: "Delera's Rest", setting: 'casual' },
          ],
          boosts: { vip: true },
          optionals: { firstTime: true },
        }),
        201,
      )
      const page = await pageOf(`/routes/${route.id}`)
      await page.locator('tr[data-step="3"]').waitFor()
      const xp = await page
        .locator('tr[data-step] td[data-label="XP"]')
        .evaluateAll((tds) => tds.map((td) => td.textContent?.trim()))
      expect(xp).toEqual(['1,404', '1,663', '—'])
      expect(await page.locator('.route-xp').textContent()).toBe(
        '3,067 XP in all, with the boosts and optionals above · 1 step has no XP figure in the catalog',
      )
      await page.close()
    }),
    30_000,
  )
  test(
    "a route's steps tick and untick on the route page, as the tracker's boxes do",
    each(async ({ me, fighter, pageOf }) => {
      const brom = await fighter('Walker')
      const route = ok(
        await me.routes.post({
          name: 'Two steps',
          quests: [
            { name: 'Sewer Run', setting: 'elite' },
            { name: "Delera's Rest", setting: 'hard' },
          ],
        }),
        201,
      )
      const done = async () =>
        ok(await me.navigation.get({ query: { characterId: brom, routeId: route.id } })).steps.map((s) => s.completed)
      const page = await pageOf(`/routes/${route.id}?character=${brom}`)
      const box = page.getByLabel('Step 1, Sewer Run (Heroic, elite), done')
      await box.check()
      await page.locator('tr[data-step="1"][data-completed="true"]').waitFor()
      await page.locator('.nav-progress[data-completed="1"]').waitFor()
      expect(await done()).toEqual([true, false])
      await box.uncheck()
      await page.locator('tr[data-step="1"][data-completed="false"]').waitFor()
      expect(await done()).toEqual([false, false])
      await page.close()
    }),
    30_000,
  )
})
