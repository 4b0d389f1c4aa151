// The build, routes, stats and account pages in real browsers (Chromium and Firefox, browsers.ts): the build
// page (DDO Builder import and the breakdown it shows, promote, reincarnation and the lives
// timeline), routes (made and reordered in the editor, navigation ticking live when the game posts
// a completion), the stats page's plots and tables, and the account page (a revoked token is
// refused by the plugin API; a password change keeps this browser signed in). Waits are on events.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Breakdown } from '../../src/rules/builds/breakdown'
import { ok, refused } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser, keepOnClose } from './browsers'
import type { Locator, Page } from './driver'
import { FAILED_LOAD, openSignedIn, PASSWORD, startSite } from './harness'

const FIXTURES = join(import.meta.dir, '..', 'fixtures')
const FIGHTER = join(FIXTURES, 'small-fighter.DDOBuild')
const CLERIC = join(FIXTURES, 'small-cleric.DDOBuild')
/** The real planner file, beside the repository (../shared/fixtures from its root). */
const MONK = join(import.meta.dir, '..', '..', '..', 'shared', 'fixtures', 'builds', 'example-monk.DDOBuild')
const haveMonk = existsSync(MONK)
if (BROWSERS.length > 0 && !haveMonk)
  console.warn(`skipped: ${MONK} not found (the example-monk import in the browser)`)

const cell = (page: Page, sheet: string, ability: string, part: string) =>
  page.locator(`[data-sheet="${sheet}"] tr[data-ability="${ability}"] [data-part="${part}"]`)

/** Chooses the file, waits for its preview, and imports its plan alone. */
async function importFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel('Build file (.DDOBuild)').setInputFiles(file)
  await page.getByRole('radio', { name: /^The plan only/ }).check()
  await page.getByRole('button', { name: 'Import', exact: true }).click()
}

/** Whether a control is disabled (the driver reads attributes, not states). */
const isDisabled = async (control: Locator) => (await control.getAttribute('disabled')) !== null

// One ordered scenario: the tests share one site and account, and each goes on from what the one before left.
describe.skipIf(BROWSERS.length === 0)(
  `the build, routes, stats and account pages, one ordered scenario, ${IN_BROWSERS}`,
  () => {
    const each = inEachBrowser(async (browser) => {
      const site = await startSite()
      await site.addUser('alice')
      const token = await site.pluginToken('alice')
      const hero = ok(
        await site.plugin(token).characters.post({
          givenName: 'Stonefist',
          race: 'Dwarf',
          server: 'Thrane',
          classes: [{ name: 'Fighter', levels: 3 }],
        }),
        201,
      )
      const requests: URL[] = []
      const problems: string[] = []
      const world = {
        site,
        token,
        heroId: hero.id,
        requests,
        problems,
        buildPath: `/characters/${hero.id}/build`,
        /**
         * A signed-in page; what it asked for and complained of is kept for the last test.
         * `serviceWorkers: 'block'` for a test that stands in for the server with page.route
         * (PageOptions.serviceWorkers).
         */
        async openPage(path: string, serviceWorkers: 'allow' | 'block' = 'allow'): Promise<Page> {
          const page = keepOnClose(await openSignedIn(browser, site, 'alice', path, { serviceWorkers }), {
            requests,
            problems,
          })
          await page.getByRole('navigation', { name: 'Site' }).waitFor()
          return page
        },
        /** A character through the plugin API, as the game would call it. */
        character: (id = hero.id) => site.plugin(world.token).characters({ id }),
        planned: async (id = hero.id) => ok(await world.character(id).build.get()),
        /**
         * The breakdown the server computed for a plan. The route's schema leaves it an open object
         * (`{}` in the types), so it is read as the type builds/service.ts stores there.
         */
        breakdownOf: async (id = hero.id) => (await world.planned(id)).breakdownCache as Breakdown | null,
      }
      return world
    })

    test(
      'a DDO Builder file imports into the plan and its breakdown shows; warnings and a 400 are shown',
      each(async ({ heroId, buildPath, openPage, breakdownOf }) => {
        const page = await openPage(buildPath)
        await page.getByText('No planned build yet', { exact: false }).first().waitFor()

        // The cleric file has an old life and party buffs: imported, with warnings.
        await importFile(page, CLERIC)
        const warnings = page.locator('.import-warnings li')
        await warnings.first().waitFor()
        expect(await warnings.allTextContents()).toContainEqual(expect.stringContaining('not imported'))

        // small-fighter.DDOBuild: Dwarf, Fighter/Fighter/Rogue/Fighter (level 4), 36 points:
        // Str 10 raises = 18 (16 points), racial 0, the level 4 increase, tome +2: 21, +5.
        // Con 8 raises = 16 (10 points), Dwarf +2, tome +1: 19, +4. Cha 8 - 2 = 6.
        // HP: Fighter 3 x 10 + Rogue 1 x 8 + Con 4 x level 4 = 54.
        await importFile(page, FIGHTER)
        await page.locator('.import-warnings[data-warnings="0"]').waitFor()
        await page.locator('[data-sheet="planned"] [data-life="name"]', { hasText: 'Stonefist' }).waitFor()
        expect(await cell(page, 'planned', 'str', 'pointBuy').textContent()).toStartWith('18')
        expect(await cell(page, 'planned', 'str', 'levelUps').textContent()).toBe('+1')
        expect(await cell(page, 'planned', 'str', 'tome').textContent()).toBe('+2')
        expect(await cell(page, 'planned', 'str', 'score').textContent()).toBe('21')
        expect(await cell(page, 'planned', 'str', 'modifier').textContent()).toBe('+5')
        expect(await cell(page, 'planned', 'con', 'racial').textContent()).toBe('+2')
        expect(await cell(page, 'planned', 'con', 'score').textContent()).toBe('19')
        expect(await cell(page, 'planned', 'cha', 'score').textContent()).toBe('6')
        expect(await page.locator('[data-sheet="planned"] [data-stat="hp"]').textContent()).toBe('54')
        // The page shows what the server computed.
        const breakdown = await breakdownOf()
        expect(breakdown?.hp).toBe(54)
        expect(breakdown?.abilities.str?.score).toBe(21)
        expect(
          await page
            .locator('[data-sheet="planned"] [data-past-life]')
            .evaluateAll((els) =>
              els.map((e) => `${e.getAttribute('data-past-life')} x${e.getAttribute('data-stacks')}`),
            ),
        ).toEqual(['Past Life: Fighter x2', 'Past Life: Dwarf x1'])
        await page.locator('[data-sheet="planned"] [data-validation]').waitFor()

        // The download link serves the plan back as a planner file.
        const link = page.getByRole('link', { name: 'Download the planned build and the lives history (.DDOBuild)' })
        expect(await link.getAttribute('href')).toBe(`/api/characters/${heroId}/build/export`)
        const file = await page.evaluate(async (url) => {
          const answer = await fetch(url)
          return { status: answer.status, text: await answer.text() }
        }, `/api/characters/${heroId}/build/export`)
        expect(file.status).toBe(200)
        expect(file.text).toContain('<DDOBuilderCharacterData>')

        // Not a planner file: the server's sentence, and the plan is unchanged.
        await page
          .getByLabel('Build file (.DDOBuild)')
          .setInputFiles({ name: 'broken.DDOBuild', mimeType: 'application/xml', buffer: Buffer.from('<Nope/>') })
        await page.getByRole('alert').filter({ hasText: 'DDOBuilderCharacterData' }).waitFor()
        expect((await breakdownOf())?.hp).toBe(54)
        await page.close()
      }),
      30_000,
    )

    test.skipIf(!haveMonk)(
      'the real example-monk.DDOBuild imports and shows the breakdown the server computed',
      each(async ({ site, token, openPage, planned, breakdownOf }) => {
        const monk = ok(await site.plugin(token).characters.post({ givenName: 'Monk' }), 201)
        const page = await openPage(`/characters/${monk.id}/build`)
        await importFile(page, MONK)
        await page.locator('.import-warnings li').first().waitFor()
        expect((await planned(monk.id)).document?.build?.level).toBe(34)
        const breakdown = await breakdownOf(monk.id)
        await page.locator('[data-sheet="planned"] [data-life="level"]', { hasText: '34' }).waitFor()
        expect(await page.locator('[data-sheet="planned"] [data-stat="hp"]').textContent()).toBe(String(breakdown?.hp))
        for (const ability of ['str', 'dex', 'con', 'int', 'wis', 'cha'] as const) {
          expect(await cell(page, 'planned', ability, 'score').textContent()).toBe(
            String(breakdown?.abilities[ability]?.score),
          )
        }
        expect(await page.locator('[data-sheet="planned"] tr[data-tree]').count()).toBeGreaterThan(0)
        await page.close()
      }),
      30_000,
    )

    test(
      'a live snapshot arrives by itself, unread areas say so, the difference shows, and promote copies it',
      each(async ({ buildPath, openPage, character, planned }) => {
        const page = await openPage(buildPath)
        await page.locator('[data-sheet="planned"] [data-stat="hp"]').waitFor()
        await page.locator('.live-state[data-mode="push"]').waitFor()
        // The game sends a level 3 snapshot whose tomes and trees it has not read yet.
        ok(
          await character().live.put({
            document: {
              life: { name: 'Stonefist', race: 'Dwarf', alignment: 'Lawful Good', specialFeats: [] },
              build: {
                level: 3,
                classes: ['Fighter', null, null],
                abilitySpend: { available: 36, str: 16, dex: 4, con: 10, int: 0, wis: 0, cha: 0 },
                levels: [{ class: 'Fighter' }, { class: 'Fighter' }, { class: 'Rogue' }],
              },
            },
            incomplete: ['tomes', 'enhancements'],
          }),
        )
        await page.locator('[data-sheet="live"] [data-stat="hp"]').waitFor({ timeout: 5000 })
        expect(await cell(page, 'live', 'str', 'tome').textContent()).toBe('not read')
        expect(await page.locator('[data-sheet="live"] [data-unread]').getAttribute('data-unread')).toBe(
          'tomes enhancements',
        )
        const level = page.locator('tr[data-area="levels"][data-subject="Level"]')
        expect(await level.textContent()).toContain('take level 4 in Fighter')
        // Past lives are compared (not an unread area): the plan has two the snapshot lacks.
        expect(await page.locator('tr[data-area="pastLives"]').count()).toBe(2)
        expect(await page.locator('tr[data-area="tomes"]').count()).toBe(0)

        await page.getByRole('button', { name: 'Promote live to planned' }).click()
        await page.locator('[data-differences="0"]').waitFor()
        expect((await planned()).document?.build?.level).toBe(3)
        await page.locator('[data-sheet="planned"] [data-life="level"]', { hasText: '3' }).waitFor()
        await page.close()
      }),
      30_000,
    )

    test(
      'reincarnating asks first; a level-3 character may only take a lesser reincarnation; the timeline lists lives newest first',
      each(async ({ buildPath, openPage, character }) => {
        const page = await openPage(buildPath)
        await page.locator('.timeline li[data-life="1"]').waitFor()
        // The snapshot synced life 1 as Fighter 2 / Rogue 1: level 3, so no true or epic reincarnation yet.
        expect(await isDisabled(page.getByRole('radio', { name: /^Heroic/ }))).toBe(true)
        expect(await isDisabled(page.getByRole('button', { name: 'Reincarnate…', exact: true }))).toBe(true)
        await page.getByRole('radio', { name: /^Lesser/ }).check()
        await page.getByLabel('Name of the new life').fill('Stonefist Again')
        await page.getByRole('button', { name: 'Reincarnate…', exact: true }).click()
        // It asks first, saying what it keeps; "Not now" leaves everything as it was.
        const question = page.locator('[data-reincarnate-confirm] legend')
        expect(await question.textContent()).toBe(
          'Lesser reincarnation of Stonefist? Life 2 keeps the level, quests, favor and past lives; nothing is granted.',
        )
        await page.getByRole('button', { name: 'Not now' }).click()
        expect(ok(await character().lives.get()).lives).toHaveLength(1)
        await page.getByRole('button', { name: 'Reincarnate…', exact: true }).click()
        await page.getByRole('button', { name: 'Yes, reincarnate' }).click()
        await page.locator('.timeline li[data-life="2"][data-current="true"]').waitFor()
        expect(
          await page.locator('.timeline li').evaluateAll((items) => items.map((li) => li.getAttribute('data-life'))),
        ).toEqual(['2', '1'])
        expect(await page.locator('.timeline li[data-life="1"] .granted').textContent()).toBe('Granted no past life.')
        expect(await page.locator('.timeline li[data-life="2"]').textContent()).toContain('Stonefist Again')
        expect(await page.locator('.timeline li[data-life="2"]').textContent()).toContain('by a lesser reincarnation')
        const lives = ok(await character().lives.get())
        expect(lives.lives.map((l) => [l.lifeIndex, l.kind, l.isCurrent])).toEqual([
          [1, null, false],
          [2, 'lesser', true],
        ])
        await page.close()
      }),
      30_000,
    )

    test(
      'a route made in the editor, reordered by keyboard, then followed live in both match modes',
      each(async ({ site, token, openPage, character }) => {
        const page = await openPage('/routes')
        await page.getByRole('link', { name: 'New route' }).click()
        await page.getByLabel('Route name').fill('Evening run')
        const add = async (search: string, button: string) => {
          await page.getByLabel('Find a quest').fill(search)
          await page.getByRole('button', { name: button }).click()
        }
        await add('pit', 'Add The Pit (Heroic, level 5)')
        await add('tempest', "Add Tempest's Spine (Heroic, level 13)")
        await add('devil', 'Add Devil Assault (quest) (Heroic, level 17)')
        // Step 3 moves up with the keyboard; focus stays on that step's button, now step 2.
        await page.getByRole('button', { name: 'Move step 3, Devil Assault (quest), up' }).focus()
        await page.keyboard.press('Enter')
        await page.waitForFunction(
          () => document.activeElement?.getAttribute('aria-label') === 'Move step 2, Devil Assault (quest), up',
        )
        // Up again, to the top: its Up is disabled now, so focus moves to its Down.
        await page.keyboard.press('Enter')
        await page.waitForFunction(
          () => document.activeElement?.getAttribute('aria-label') === 'Move step 1, Devil Assault (quest), down',
        )
        // Down: back to step 2.
        await page.keyboard.press('Enter')
        await page.waitForFunction(
          () => document.activeElement?.getAttribute('aria-label') === 'Move step 2, Devil Assault (quest), down',
        )
        await page.getByLabel('Setting of step 1').selectOption('normal')
        await page.getByRole('button', { name: 'Create route' }).click()
        await page.waitForURL(/\/routes\/\d+\?/)
        const routeId = Number(new URL(page.url()).pathname.split('/')[2])
        const stored = ok(await site.plugin(token).routes({ id: routeId }).get())
        expect(stored.quests.map((q) => `${q.name}/${q.setting}`)).toEqual([
          'The Pit/normal',
          'Devil Assault (quest)/elite',
          "Tempest's Spine/elite",
        ])

        // Navigation for the only character, match=setting: nothing done, step 1 next.
        await page.locator('.nav-progress[data-completed="0"][data-total="3"]').waitFor()
        await page.locator('tr[data-step="1"][data-next="true"]').waitFor()
        await page.locator('.live-state[data-mode="push"]').waitFor()
        // The game logs The Pit on normal: step 1 ticks, step 2 is next.
        ok(await character().completions.post({ name: 'The Pit', difficulty: 'Heroic', setting: 'normal' }), 201)
        await page.locator('tr[data-step="1"][data-completed="true"]').waitFor({ timeout: 5000 })
        await page.locator('tr[data-step="2"][data-next="true"]').waitFor()
        expect(await page.locator('.nav-progress').getAttribute('data-completed')).toBe('1')
        // Devil Assault on hard: not the step's setting, so still next with match=setting ...
        ok(await character().completions.post({ name: 'Devil Assault', difficulty: 'Heroic', setting: 'hard' }), 201)
        await page.locator('tr[data-step="2"] td[data-label="Logged"]', { hasText: 'hard' }).waitFor({ timeout: 5000 })
        expect(await page.locator('tr[data-step="2"]').getAttribute('data-completed')).toBe('false')
        // ... and done with match=remake, which the address keeps.
        await page.getByLabel('Any setting').check()
        await page.locator('.nav-progress[data-completed="2"]').waitFor()
        await page.locator('tr[data-step="3"][data-next="true"]').waitFor()
        expect(new URL(page.url()).searchParams.get('match')).toBe('remake')
        await page.close()
      }),
      30_000,
    )

    test(
      "the routes list pages through the server's list, and takes the older answer without total",
      each(async ({ site, token, openPage }) => {
        const page = await openPage('/routes', 'block')
        // This server pages the list: a page of 50, and every route fits in it.
        await page.locator('.pager [data-range="1-1/1"]').waitFor()
        expect(await page.locator('tr[data-route]').textContent()).toContain('3')
        expect(await page.getByRole('link', { name: /page$/ }).count()).toBe(0)

        // An empty list says so, without a pager ("Routes 0–0 of 0").
        const routeList = (url: URL) => url.pathname === '/api/routes'
        await page.route(routeList, () => ({ json: { routes: [], total: 0, limit: 50, offset: 0 } }))
        await page.reload()
        await page.getByText('No routes yet.').waitFor()
        expect(await page.locator('.pager').count()).toBe(0)
        await page.unrouteAll()

        // A server from before pagination answers {routes} alone: every route, no pager.
        const real = ok(await site.plugin(token).routes.get({ query: { limit: 50, offset: 0 } }))
        await page.route(routeList, () => ({ json: { routes: real.routes } }))
        await page.reload()
        await page.locator('tr[data-route]').first().waitFor()
        expect(await page.locator('.pager').count()).toBe(0)

        // A longer list: the page asks with limit and offset and links the pages around it.
        let asked = ''
        await page.unrouteAll()
        await page.route(routeList, ({ url }) => {
          asked = url.search
          // The one real route stands in for the 51st of 120.
          return { json: { routes: real.routes, total: 120, limit: 50, offset: 50 } }
        })
        await page.goto(`${site.base}/routes?offset=50`)
        await page.locator('.pager [data-range="51-51/120"]').waitFor()
        expect(asked).toBe('?limit=50&offset=50')
        expect(await page.getByRole('link', { name: 'Next page' }).getAttribute('href')).toBe('/routes?offset=100')
        expect(await page.getByRole('link', { name: 'Previous page' }).getAttribute('href')).toBe('/routes?offset=0')
        await page.close()
      }),
      30_000,
    )

    test(
      'the stats page plots real completions, with the numbers in tables',
      each(async ({ site, token, openPage, character }) => {
        const fresh = ok(await site.plugin(token).characters.post({ givenName: 'Statsy' }), 201)
        const log = async (body: Parameters<ReturnType<typeof character>['completions']['post']>[0]) =>
          ok(await character(fresh.id).completions.post({ difficulty: 'Heroic', ...body }), 201)
        await log({ name: 'The Pit', setting: 'elite', durationSeconds: 600, xpEarned: 3000 })
        await log({ name: 'The Pit', setting: 'normal', durationSeconds: 300, xpEarned: 1500 })
        // No XP reported: the catalog's hard XP, 7400, over 13 minutes.
        await log({ name: "Tempest's Spine", setting: 'hard', durationSeconds: 780 })
        await log({ name: 'Devil Assault (quest)', setting: 'reaper', reaperXpEarned: 42 })

        const page = await openPage(`/characters/${fresh.id}/stats`)
        await page.locator('.chart[data-chart="xp-per-minute"][data-drawn="true"] canvas').first().waitFor()
        await page.waitForFunction(() => document.querySelectorAll('.chart:not([data-drawn])').length === 0)
        expect(await page.locator('.chart').count()).toBe(4)

        const rates = page.locator('table[data-table="xp-per-minute"]')
        await page.locator('details:has(table[data-table="xp-per-minute"]) > summary').click()
        expect(await rates.locator('caption').textContent()).toBe('XP per minute of play, by quest, best first')
        const rate = (quest: string) => rates.locator(`tr[data-quest="${quest}"] [data-value="xp-per-minute"]`)
        expect(await rate("Tempest's Spine").textContent()).toBe('569')
        expect(await rates.locator(`tr[data-quest="Tempest's Spine"]`).textContent()).toContain('estimated')
        expect(await rate('The Pit').textContent()).toBe('300')
        expect(
          await rates.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-quest'))),
        ).toEqual(["Tempest's Spine", 'The Pit'])
        // Favor of the Coin Lords: The Pit elite 6 x 3 + Devil Assault reaper 9 x 3 = 45, of 72
        // (The Pit 18, Devil Assault's best remake, the epic one, 18 x 3).
        const favor = page.locator('table[data-table="favor"] tr[data-patron="The Coin Lords"]')
        expect(await favor.locator('[data-value="earned"]').textContent()).toBe('45')
        expect(await favor.locator('[data-value="possible"]').textContent()).toBe('72')
        // One day: 4 completions; XP 3000 + 1500 + 7400 + Devil Assault's reaper estimate (elite 10000).
        const day = page.locator('table[data-table="activity"] tbody tr')
        expect(await day.count()).toBe(1)
        expect(await day.locator('[data-value="completions"]').textContent()).toBe('4')
        expect(await day.locator('[data-value="xp"]').textContent()).toStartWith('21,900')
        expect(await page.locator('table[data-table="reaper"] [data-value="reaper-xp"]').textContent()).toBe('42')
        expect(await page.locator('[data-total="reaper-xp"]').textContent()).toBe('42')
        await page.close()
      }),
      30_000,
    )

    test(
      'a chart whose script does not load says so, and its numbers stay in the tables',
      each(async ({ site, token, openPage, character }) => {
        const fresh = ok(await site.plugin(token).characters.post({ givenName: 'Chartless' }), 201)
        ok(
          await character(fresh.id).completions.post({
            ...{ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' },
            ...{ durationSeconds: 600, xpEarned: 3000 },
          }),
          201,
        )
        const page = await openPage('/', 'block')
        // The plotting library's chunk is refused: a dropped connection, or a server restarted
        // with a new build (Firefox also reported an import cut off by leaving the page).
        await page.route(
          (url) => url.pathname.startsWith('/assets/uPlot'),
          () => ({ abort: true }),
        )
        await page.goto(`${site.base}/characters/${fresh.id}/stats`)
        const failed = page.locator('.chart[data-drawn="failed"]')
        await failed.first().waitFor()
        await page.waitForFunction(() => document.querySelectorAll('.chart:not([data-drawn])').length === 0)
        expect(await failed.count()).toBe(await page.locator('.chart').count())
        expect(await failed.first().textContent()).toBe(
          'This chart could not load; its numbers are in the table below.',
        )
        expect(await page.locator('table[data-table="activity"] tbody tr').count()).toBe(1)
        // Nothing thrown (Chromium logs the refused load itself, as it does any).
        expect(page.problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
        await page.close()
      }),
      30_000,
    )

    test(
      'a token revoked on the account page is refused by the plugin API; a password change keeps this browser in',
      each(async (world) => {
        const { site, token, openPage } = world
        const login = await fetch(`${site.base}/api/plugin/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ identifier: 'alice', password: PASSWORD, label: 'old laptop' }),
        })
        const old = ((await login.json()) as { token: string }).token
        expect(
          (await fetch(`${site.base}/api/plugin/auth/me`, { headers: { authorization: `Bearer ${old}` } })).status,
        ).toBe(200)
        const page = await openPage('/account')
        await page.getByRole('heading', { name: 'Plugin tokens' }).waitFor()
        const row = page.locator('tr[data-token]', { hasText: 'old laptop' })
        await row.getByRole('button', { name: /^Revoke token old laptop/ }).click()
        await row.waitFor({ state: 'detached' })
        const me = await fetch(`${site.base}/api/plugin/auth/me`, { headers: { authorization: `Bearer ${old}` } })
        expect(me.status).toBe(401)
        // The other token still works.
        expect(
          (await fetch(`${site.base}/api/plugin/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status,
        ).toBe(200)

        // A wrong current password is said so, and nothing changes.
        await page.getByLabel('Current password').fill('not it at all')
        await page.getByLabel('New password', { exact: true }).fill('a brand new password')
        await page.getByLabel('Repeat the new password').fill('a brand new password')
        await page.getByRole('button', { name: 'Change password' }).click()
        await page.getByRole('alert').filter({ hasText: 'current password' }).waitFor()
        // The right one: every plugin token ends, this browser stays signed in.
        await page.getByLabel('Current password').fill(PASSWORD)
        await page.getByRole('button', { name: 'Change password' }).click()
        await page.locator('[data-tokens="0"]').waitFor()
        refused(await site.plugin(token).auth.me.get(), 401)
        await page.reload()
        await page.getByRole('heading', { name: 'Change password' }).waitFor()
        // Back to the harness password, so the plugin can log in again.
        await page.getByLabel('Current password').fill('a brand new password')
        await page.getByLabel('New password', { exact: true }).fill(PASSWORD)
        await page.getByLabel('Repeat the new password').fill(PASSWORD)
        await page.getByRole('button', { name: 'Change password' }).click()
        await page.locator('.ok-note', { hasText: 'Password changed' }).waitFor()
        world.token = await site.pluginToken('alice')
        await page.close()
      }),
      30_000,
    )

    test(
      'the header leads to every section, and no page asked another host or broke the CSP',
      each(async ({ site, heroId, openPage, requests, problems }) => {
        const page = await openPage('/')
        const nav = page.getByRole('navigation', { name: 'Site' })
        await nav.getByRole('link', { name: 'Account' }).waitFor()
        expect(await nav.getByRole('link').allTextContents()).toEqual([
          'Characters',
          'Past lives',
          'Groups',
          'Routes',
          'Account',
        ])
        expect(await nav.getByRole('link', { name: 'Characters' }).getAttribute('aria-current')).toBe('page')
        await page.getByRole('link', { name: 'Stats of Stonefist' }).click()
        await page.waitForURL(`${site.base}/characters/${heroId}/stats`)
        expect(await page.locator('.tabs a[aria-current="page"]').textContent()).toBe('Stats')
        await page.close()

        const base = new URL(site.base)
        expect(requests.filter((url) => url.host !== base.host).map((url) => url.href)).toEqual([])
        expect(problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
      }),
      30_000,
    )
  },
)
