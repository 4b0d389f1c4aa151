// Issue 24 on the website, in Chromium and Firefox: a group made by two accounts end to end. Ann makes
// the group and an invite link; Bea opens the link, joins, and shares her character; Ann's open pages follow
// (the group page, the party planner, the tracker's "needed by" mark) when Bea's game client logs a
// quest; Ann removes Bea, and Bea's open page stops showing the group at once.
import { describe, expect, test } from 'bun:test'
import { SMALL_JSON } from '../catalogFixtures'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import type { Page } from './driver'
import { FAILED_LOAD, openSignedIn, startSite } from './harness'

// The world (a site, ann, bea and cid, Brom and Mira) is shared: each test makes its own group, and only
// the first logs a quest (Mira's Bell Tower, which no other test reads).
describe.skipIf(BROWSERS.length === 0)(`a group of two accounts, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite(SMALL_JSON)
    await site.addUser('ann')
    await site.addUser('bea')
    await site.addUser('cid')
    const annToken = await site.pluginToken('ann')
    const beaToken = await site.pluginToken('bea')
    const brom = ok(
      await site.plugin(annToken).characters.post({ givenName: 'Brom', classes: [{ name: 'Fighter', levels: 9 }] }),
      201,
    ).id
    const mira = ok(
      await site.plugin(beaToken).characters.post({ givenName: 'Mira', classes: [{ name: 'Wizard', levels: 8 }] }),
      201,
    ).id
    // Every level on Brom's tracker, on elite.
    ok(await site.plugin(annToken).characters({ id: brom }).progress.put({ targetDifficulty: 'elite', levelBand: 255 }))
    async function pageOf(username: string, path: string): Promise<Page> {
      const page = await openSignedIn(browser, site, username, path)
      page.setDefaultTimeout(15_000)
      return page
    }
    return { site, beaToken, brom, mira, pageOf }
  })

  test(
    'made, joined, shared, planned, followed live, and a removed member shut out',
    each(async ({ site, beaToken, brom, mira, pageOf }) => {
      // Ann makes the group on /groups and lands on its page.
      const held = ok(await site.web(await site.session('ann')).groups.get()).groups.length
      const ann = await pageOf('ann', '/groups')
      // The page has loaded her groups (none, unless another test made one) before the form is used.
      await ann.locator(`[data-groups="${held}"]`).waitFor()
      await ann.getByLabel('Name').fill('Stormreach Irregulars')
      await ann.getByRole('button', { name: 'Make the group' }).click()
      await ann.waitForURL(/\/groups\/\d+$/)
      const groupPath = new URL(ann.url()).pathname
      await ann.locator('[data-share="Brom"]').check()
      await ann.locator('.group-characters [data-character="Brom"]').waitFor()
      // An invite link, shown once: for one player here.
      await ann.getByLabel('Players it lets in').fill('1')
      await ann.getByRole('button', { name: 'New link', exact: true }).click()
      const link = await ann.locator('.invite-link input').inputValue()
      expect(link).toMatch(new RegExp(`^${site.base}/join/qti_`))

      // Bea opens the link signed in, and joins on the invite's page; she lands on the group's page.
      const bea = await pageOf('bea', new URL(link).pathname)
      await bea.getByRole('button', { name: 'Join Stormreach Irregulars' }).click()
      await bea.waitForURL(`${site.base}${groupPath}`)
      await bea.locator('[data-share="Mira"]').check()
      // Ann's open page shows Mira without a reload (the group's stream).
      await ann.locator('.group-characters [data-character="Mira"]').waitFor()
      expect(
        await ann.locator('[data-member]').evaluateAll((li) => li.map((m) => m.getAttribute('data-member'))),
      ).toEqual(['ann', 'bea'])

      // The party planner: both, elite. Bell Tower (6) and Delera's Rest (7) give both full XP.
      const planner = await pageOf('ann', `${groupPath}/party?c=${brom},${mira}&s=elite`)
      await planner.locator('table.party-quests').waitFor()
      const rows = () =>
        planner
          .locator('table.party-quests tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-quest'), tr.getAttribute('data-needed')]))
      expect(await rows()).toEqual([
        ["Delera's Rest", '2'],
        ['Bell Tower', '2'],
      ])
      // The address is the link to send the party.
      expect(await planner.locator('.party a[href*="/party?c="]').textContent()).toContain(`c=${brom}%2C${mira}`)

      // Ann's tracker marks what the group still needs, once she picks the group.
      const tracker = await pageOf('ann', `/characters/${brom}`)
      await tracker.getByLabel('Needed by others in').selectOption({ label: 'Stormreach Irregulars' })
      const bellMark = tracker.locator('[data-quest="Bell Tower"][data-difficulty="Heroic"] .needed-by')
      await bellMark.waitFor()
      expect(await bellMark.getAttribute('title')).toBe('Still needed by Mira')

      // Bea's game client logs Bell Tower on elite for Mira: the planner and the tracker follow.
      ok(
        await site
          .plugin(beaToken)
          .characters({ id: mira })
          .completions.post({ name: 'Bell Tower', difficulty: 'Heroic', setting: 'elite' }),
        201,
      )
      await planner.locator('table.party-quests tr[data-quest="Bell Tower"][data-needed="1"]').waitFor()
      expect((await rows())[0]).toEqual(["Delera's Rest", '2'])
      await bellMark.waitFor({ state: 'detached' })

      // Ann removes Bea; Bea's open group page says so and shows no character.
      await bea.goto(`${site.base}${groupPath}`)
      await bea.locator('.group-characters [data-character="Brom"]').waitFor()
      await ann.locator('[data-member="bea"]').getByRole('button', { name: 'Remove' }).click()
      await ann.getByRole('button', { name: 'Yes, remove bea' }).click()
      await bea.locator('[data-removed="true"]').waitFor()
      expect(await bea.locator('[data-character]').count()).toBe(0)
      // Mira left with her player: Ann's page no longer shows her.
      await ann.locator('.group-characters [data-character="Mira"]').waitFor({ state: 'detached' })
      for (const page of [ann, bea, planner, tracker]) await page.close()
    }),
    60_000,
  )

  test(
    "one link in the guild's chat lets in several players; an officer the owner names removes a member",
    each(async ({ site, pageOf }) => {
      const ann = await pageOf('ann', '/groups')
      // The page has loaded her groups (another test's too) before the form is used.
      await ann.locator('[data-groups]').waitFor()
      await ann.getByLabel('Name').fill('The Twelve Lanterns')
      await ann.getByRole('button', { name: 'Make the group' }).click()
      await ann.waitForURL(/\/groups\/\d+$/)
      const groupPath = new URL(ann.url()).pathname
      // The guild's link: 25 players by default, shown once, and said so.
      expect(await ann.getByLabel('Players it lets in').inputValue()).toBe('25')
      await ann.getByRole('button', { name: 'New link', exact: true }).click()
      await ann.getByRole('status').filter({ hasText: 'A new link for up to 25 players is shown.' }).waitFor()
      const link = new URL(await ann.locator('.invite-link input').inputValue()).pathname
      // Two players use the same link.
      for (const name of ['bea', 'cid']) {
        const page = await pageOf(name, link)
        await page.getByRole('button', { name: 'Join The Twelve Lanterns' }).click()
        await page.waitForURL(`${site.base}${groupPath}`)
        await page.close()
      }
      await ann.reload()
      await ann.locator('[data-invite-uses="2/25"]').waitFor()
      expect(await ann.locator('[data-invite-uses]').textContent()).toContain('2 of 25 places taken')
      // Ann names Bea an officer; Bea sees the links and may remove Cid, not Ann.
      await ann.locator('[data-member="bea"]').getByRole('button', { name: 'Make officer' }).click()
      await ann.locator('[data-member="bea"] .badge').filter({ hasText: 'officer' }).waitFor()
      const bea = await pageOf('bea', groupPath)
      await bea.getByRole('heading', { name: 'Invite players' }).waitFor()
      expect(await bea.locator('[data-member="ann"]').getByRole('button', { name: 'Remove' }).count()).toBe(0)
      await bea.locator('[data-member="cid"]').getByRole('button', { name: 'Remove' }).click()
      await bea.getByRole('button', { name: 'Yes, remove cid' }).click()
      await bea.locator('[data-member="cid"]').waitFor({ state: 'detached' })
      await ann.locator('[data-member="cid"]').waitFor({ state: 'detached' })
      for (const page of [ann, bea]) await page.close()
    }),
    60_000,
  )

  test(
    "a member removed before her open pages' stream began is told so, on the group page and the planner",
    each(async ({ site, brom, pageOf }) => {
      const annWeb = site.web(await site.session('ann'))
      const beaWeb = site.web(await site.session('bea'))
      const group = ok(await annWeb.groups.post({ name: 'The Late Stream' }), 201)
      ok(await annWeb.groups({ id: group.id }).characters({ characterId: brom }).put())
      const { code } = ok(await annWeb.groups({ id: group.id }).invites.post({}, { query: {} }), 201)
      ok(await beaWeb.groups.join.post({ code }))
      const beaId = ok(await beaWeb.groups({ id: group.id }).get()).you

      // Bea's pages have read the group, but their stream is held (a slow network, a busy
      // server): Ann removes her meanwhile, so no stream will ever tell them.
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      const open = async (path: string) => {
        const page = await pageOf('bea', '/groups')
        await page.route(
          (url) => url.pathname === `/api/groups/${group.id}/events`,
          async () => {
            await held
            return { continue: true }
          },
        )
        await page.goto(`${site.base}${path}`)
        return page
      }
      const groupPage = await open(`/groups/${group.id}`)
      await groupPage.locator('.group-characters [data-character="Brom"]').waitFor()
      const planner = await open(`/groups/${group.id}/party?c=${brom}&s=elite`)
      await planner.locator('table.party-quests').waitFor()
      ok(await annWeb.groups({ id: group.id }).members({ userId: beaId }).delete())
      release()

      for (const page of [groupPage, planner]) {
        await page.locator('[data-removed="true"]').waitFor()
        expect(await page.locator('[data-character]').count()).toBe(0)
        expect(page.problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
        await page.close()
      }
    }),
    60_000,
  )

  test(
    "a read that fails on the party planner and on the tracker's needed-by mark says why on the page",
    each(async ({ site, brom, pageOf }) => {
      const web = site.web(await site.session('ann'))
      const group = ok(await web.groups.post({ name: 'The Unreachables' }), 201)
      ok(await web.groups({ id: group.id }).characters({ characterId: brom }).put())
      const unreachable = 'The server cannot be reached. Check that it is running and that you are on its network.'

      // The plan's read is cut off (a dropped connection): the planner says so, in its alert.
      const planner = await pageOf('ann', '/groups')
      await planner.route(
        (url) => url.pathname === `/api/groups/${group.id}/party`,
        () => ({ abort: true }),
      )
      await planner.goto(`${site.base}/groups/${group.id}/party?c=${brom}&s=elite`)
      await planner.locator('.party [role="alert"]').filter({ hasText: unreachable }).waitFor()
      expect(await planner.locator('table.party-quests').count()).toBe(0)

      // The tracker's "needed by" read of the group is cut off: the field says so.
      const tracker = await pageOf('ann', '/groups')
      await tracker.route(
        (url) => url.pathname === `/api/groups/${group.id}/needs`,
        () => ({ abort: true }),
      )
      await tracker.goto(`${site.base}/characters/${brom}`)
      await tracker.getByLabel('Needed by others in').selectOption({ label: 'The Unreachables' })
      await tracker.locator('.needed-in .error').filter({ hasText: unreachable }).waitFor()
      for (const page of [planner, tracker]) {
        expect(page.problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
        await page.close()
      }
    }),
    60_000,
  )
})
