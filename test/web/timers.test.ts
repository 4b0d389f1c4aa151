// Issue 41 section 2 on the website, in Chromium and Firefox: the tracker marks a raid on lockout
// with when it is ready, and each quest's runs this week (ransack likely from the eighth), and
// follows a tick; the party planner says who of the party is locked out of a raid tonight.
import { describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readRows, SMALL_JSON } from '../catalogFixtures'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser } from './browsers'
import { openSignedIn, startSite } from './harness'

const H = 3_600_000
const hoursAgo = (hours: number) => new Date(Date.now() - hours * H).toISOString()

/** The small catalog with two of the wiki's raids, which carry no group size (as the shipped catalog). */
async function catalogWithRaids(): Promise<{ path: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'qt-raids-'))
  const raid = (name: string, level: number) => ({
    name,
    difficulty: 'Heroic',
    level,
    soloXP: null,
    normalXP: 5000,
    hardXP: 5200,
    eliteXP: 5400,
    duration: 'Long',
    pack: 'Raids',
    patron: 'The Coin Lords',
    favor: 6,
  })
  const rows = [...(await readRows(SMALL_JSON)), raid('The Chronoscope', 6), raid('The Shroud', 17)]
  const path = join(dir, 'catalog.json')
  await Bun.write(path, JSON.stringify(rows))
  return { path, dir }
}

// The world (a site, ann's Brom and bea's Mira in a group) is shared and only read: the tests that
// log a run make a Fighter of their own with Brom's runs.
describe.skipIf(BROWSERS.length === 0)(`raid lockouts and runs this week, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const catalog = await catalogWithRaids()
    const site = await startSite(catalog.path)
    await rm(catalog.dir, { recursive: true, force: true })
    await site.addUser('ann')
    await site.addUser('bea')
    const annToken = await site.pluginToken('ann')
    const beaToken = await site.pluginToken('bea')
    const ann = site.plugin(annToken)
    const bea = site.plugin(beaToken)
    const log = (token: string, id: number, name: string, setting: string, completedAt: string) =>
      site.plugin(token).characters({ id }).completions.post({ name, difficulty: 'Heroic', setting, completedAt })
    /**
     * A Fighter 9 of ann's, every level on elite: The Shroud 2 hours ago (locked 64 hours more);
     * Bell Tower eight times this week; Delera's Rest twice.
     */
    const fighterWithRuns = async (givenName: string) => {
      const id = ok(await ann.characters.post({ givenName, classes: [{ name: 'Fighter', levels: 9 }] }), 201).id
      ok(await ann.characters({ id }).progress.put({ targetDifficulty: 'elite', levelBand: 255 }))
      const shroudAt = hoursAgo(2)
      ok(await log(annToken, id, 'The Shroud', 'elite', shroudAt), 201)
      for (let i = 0; i < 8; i++) await log(annToken, id, 'Bell Tower', i % 2 ? 'hard' : 'elite', hoursAgo(30 - i))
      for (const hours of [5, 4]) await log(annToken, id, "Delera's Rest", 'elite', hoursAgo(hours))
      return { id, shroudAt }
    }
    const brom = (await fighterWithRuns('Brom')).id
    const mira = ok(await bea.characters.post({ givenName: 'Mira', classes: [{ name: 'Wizard', levels: 8 }] }), 201).id
    // Mira ran The Chronoscope an hour ago: locked out of it tonight.
    ok(await log(beaToken, mira, 'The Chronoscope', 'elite', hoursAgo(1)), 201)
    // A group of both, each sharing their character.
    const groupId = ok(await ann.groups.post({ name: 'Stormreach Irregulars' }), 201).id
    const code = ok(await ann.groups({ id: groupId }).invites.post({}, { query: {} }), 201).code
    ok(await bea.groups.join.post({ code }))
    ok(await ann.groups({ id: groupId }).characters({ characterId: brom }).put())
    ok(await bea.groups({ id: groupId }).characters({ characterId: mira }).put())
    return { site, browser, brom, mira, groupId, fighterWithRuns }
  })

  test(
    "the tracker: a raid's lockout and when it is ready, runs this week, ransack likely; a tick counts",
    each(async ({ site, browser, fighterWithRuns }) => {
      // A Fighter of its own with Brom's runs: the tick below is on no other test's character.
      const { id: tor, shroudAt } = await fighterWithRuns('Tor')
      const page = await openSignedIn(browser, site, 'ann', `/characters/${tor}`)
      page.setDefaultTimeout(15_000)
      const row = (name: string) => page.locator(`tr[data-quest="${name}"][data-difficulty="Heroic"]`)
      const lockout = row('The Shroud').locator('.timer-mark.lockout')
      await lockout.waitFor()
      // Ready exactly 66 hours after the run (compared with the run's time, not the clock: a
      // loaded machine may take a minute between the post and this read).
      expect(Date.parse((await lockout.getAttribute('data-lockout')) ?? '')).toBe(Date.parse(shroudAt) + 66 * H)
      expect(await lockout.textContent()).toMatch(/^Raid timer: ready at \S+/)
      // A quest that is no raid has no lockout; its runs this week are counted, the eighth warns.
      expect(await row('Bell Tower').locator('.timer-mark.lockout').count()).toBe(0)
      const bell = row('Bell Tower').locator('.timer-mark.week')
      expect(await bell.textContent()).toBe('runs this week: 8 · ransack likely')
      expect(await bell.getAttribute('data-ransack')).toBe('true')
      const delera = row("Delera's Rest").locator('.timer-mark.week')
      expect(await delera.textContent()).toBe('runs this week: 2')
      expect(await row('Crypt').locator('.timer-mark').count()).toBe(0)
      // A tick here is a run: Delera's Rest on hard makes three.
      await row("Delera's Rest").locator('input[aria-label="hard"]').check()
      await row("Delera's Rest").locator('.timer-mark.week[data-runs-this-week="3"]').waitFor()
      await page.close()
    }),
  )

  test(
    'the party planner: who is locked out of a raid tonight, in the list and on the raid',
    each(async ({ site, browser, brom, mira, groupId }) => {
      const page = await openSignedIn(browser, site, 'ann', `/groups/${groupId}/party?c=${brom},${mira}&s=elite`)
      page.setDefaultTimeout(15_000)
      await page.locator('table.party-quests').waitFor()
      const lockouts = page.locator('section.party-lockouts')
      await lockouts.waitFor()
      expect(
        await lockouts
          .locator('[data-locked-character]')
          .evaluateAll((items) => items.map((li) => li.getAttribute('data-locked-character'))),
      ).toEqual(['Brom', 'Mira'])
      expect(await lockouts.locator('[data-locked-character="Mira"]').textContent()).toMatch(
        /^Mira: The Chronoscope \(ready at .+\)$/,
      )
      expect(
        await lockouts.locator('[data-locked-character="Brom"] [data-locked-raid]').getAttribute('data-locked-raid'),
      ).toBe('The Shroud')
      // The Chronoscope (level 6) is in the party's band: its row says who is locked out.
      const chronoscope = page.locator('table.party-quests tr[data-quest="The Chronoscope"]')
      expect(await chronoscope.getAttribute('data-raid')).toBe('true')
      expect(await chronoscope.getAttribute('data-locked-out')).toBe('1')
      expect(await chronoscope.locator('.timer-mark.lockout').textContent()).toBe('locked: Mira')
      expect(await page.locator('table.party-quests tr[data-quest="Bell Tower"]').getAttribute('data-raid')).toBeNull()
      await page.close()
    }),
  )

  test(
    'the alts grid: a raid on lockout says in its character’s cell when it is ready',
    each(async ({ site, browser, fighterWithRuns }) => {
      // A Fighter of its own with Brom's runs, given a lockout of The Chronoscope that Brom (in the
      // party planner's test) has not.
      const cole = (await fighterWithRuns('Cole')).id
      const ranAt = hoursAgo(1)
      const runs = site.plugin(await site.pluginToken('ann')).characters({ id: cole }).completions
      ok(await runs.post({ name: 'The Chronoscope', difficulty: 'Heroic', setting: 'elite', completedAt: ranAt }), 201)
      const page = await openSignedIn(browser, site, 'ann', '/alts')
      page.setDefaultTimeout(15_000)
      const cell = (name: string) =>
        page.locator(`.quest-grid tr[data-quest="${name}"][data-difficulty="Heroic"] td[data-character="Cole"]`)
      const locked = cell('The Chronoscope')
      await page.locator('.quest-grid td[data-lockout]').first().waitFor()
      expect(Date.parse((await locked.getAttribute('data-lockout')) ?? '')).toBe(Date.parse(ranAt) + 66 * H)
      expect(await locked.locator('.grid-lock').textContent()).not.toBe('')
      expect(await locked.getByRole('button').getAttribute('aria-label')).toContain('raid timer: ready at')
      // Not a raid, or no run in the last 66 hours: no mark.
      expect(await cell('Bell Tower').getAttribute('data-lockout')).toBeNull()
      await page.close()
    }),
  )
})
