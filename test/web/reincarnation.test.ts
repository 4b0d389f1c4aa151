// Reincarnating as the game does (issue 42 section 5, issue 38 part 1), in Chromium and Firefox: the
// build page's form offers the kinds with what each resets and the level each needs, one grant per
// kind and the epic past lives still below 3 as a picklist; an epic reincarnation keeps the quests
// and takes the character from level 30 to 20, a heroic one starts over with no class levels, and
// the page's header follows. The past-lives page offers only what the level allows.
import { describe, expect, test } from 'bun:test'
import { ok } from '../helpers'
import { BROWSERS, IN_BROWSERS, inEachBrowser, keepOnClose } from './browsers'
import type { Locator, Page } from './driver'
import { FAILED_LOAD, openSignedIn, startSite } from './harness'

/** Whether a control is disabled (the driver reads attributes, not states). */
const isDisabled = async (control: Locator) => (await control.getAttribute('disabled')) !== null

// The world (a site, alice) is shared; each test makes the character it reincarnates. The last one also
// checks the complaints of every test's pages (the shared `problems`).
describe.skipIf(BROWSERS.length === 0)(`reincarnation on the website, ${IN_BROWSERS}`, () => {
  const each = inEachBrowser(async (browser) => {
    const site = await startSite()
    await site.addUser('alice')
    const plugin = site.plugin(await site.pluginToken('alice'))
    const problems: string[] = []
    /** A page signed in as alice on `path`; its complaints are kept. */
    const open = async (path: string): Promise<Page> => {
      return keepOnClose(await openSignedIn(browser, site, 'alice', path), { problems })
    }
    return { site, browser, plugin, problems, open }
  })

  test(
    'a level-7 character: the kinds it cannot take yet say the level they need; only a lesser one is offered',
    each(async ({ plugin, open }) => {
      const lidda = ok(
        await plugin.characters.post({ givenName: 'Lidda', race: 'Halfling', classes: [{ name: 'Rogue', levels: 7 }] }),
        201,
      )
      const page = await open(`/characters/${lidda.id}/build`)
      await page.locator('.kinds label[data-kind="lesser"]').waitFor()
      const kinds = await page
        .locator('.kinds label')
        .evaluateAll((labels) => labels.map((l) => [l.getAttribute('data-kind'), l.getAttribute('data-allowed')]))
      expect(kinds).toEqual([
        ['heroic', 'false'],
        ['racial', 'false'],
        ['epic', 'false'],
        ['lesser', 'true'],
      ])
      expect(await isDisabled(page.getByRole('radio', { name: /^Heroic/ }))).toBe(true)
      expect(await isDisabled(page.getByRole('radio', { name: /^Epic/ }))).toBe(true)
      expect(await page.locator('.kinds label[data-kind="epic"]').textContent()).toContain(
        'Needs level 30; Lidda is level 7.',
      )
      expect(await page.locator('.kinds label[data-kind="heroic"]').textContent()).toContain(
        'quests, favor and first-time bonuses start over',
      )
      await page.close()

      const glance = await open(`/past-lives/${lidda.id}`)
      await glance.getByRole('heading', { name: 'Next reincarnation' }).waitFor()
      expect(await glance.locator('.pl-next [data-option]').count()).toBe(0)
      expect(await glance.locator('.pl-next [data-no-option]').textContent()).toContain(
        'At level 7, no reincarnation grants a past life yet',
      )
      expect(await glance.locator('.pl-next [data-later]').textContent()).toBe(
        'Heroic and racial reincarnation need level 20, epic reincarnation level 30; this character is level 7.',
      )
      await glance.close()
    }),
    30_000,
  )

  test(
    'level 30: one kind at a time, the epic past life from a picklist; epic keeps the quests, heroic starts over, the header follows',
    each(async ({ plugin, open }) => {
      const mordo = ok(
        await plugin.characters.post({
          givenName: 'Mordo',
          race: 'Human',
          classes: [{ name: 'Wizard', levels: 20 }],
          epicLevels: 10,
        }),
        201,
      )
      const me = plugin.characters({ id: mordo.id })
      ok(await me.completions.post({ name: 'Crypt', difficulty: 'Heroic', setting: 'elite' }), 201)
      ok(await me.completions.post({ name: 'Sewer Run', setting: 'hard' }), 201)
      // Doublestrike at 3 already: no longer offered. Arcane Alacrity at 1.
      ok(
        await me.live.partial.put({
          pastLives: [
            { name: 'Past Life: Martial Sphere: Doublestrike', type: 'EpicPastLife', stacks: 3 },
            { name: 'Past Life: Arcane Sphere: Arcane Alacrity', type: 'EpicPastLife', stacks: 1 },
          ],
        }),
      )
      const page = await open(`/characters/${mordo.id}/build`)
      const facts = page.locator('.character-head .facts')
      await facts.filter({ hasText: 'Level 30 · Wizard 20' }).waitFor()
      // One kind at a time: picking racial unpicks heroic.
      await page.getByRole('radio', { name: /^Heroic/ }).check()
      await page.getByRole('radio', { name: /^Racial/ }).check()
      expect(await page.getByRole('radio', { name: /^Heroic/ }).isChecked()).toBe(false)
      expect(await page.locator('.kinds label[data-kind="racial"]').textContent()).toContain(
        'This life: Past Life: Human (0 → 1).',
      )
      await page.getByRole('radio', { name: /^Epic/ }).check()
      const picklist = page.getByLabel('Epic past life to grant')
      const offered = await picklist.locator('option').allTextContents()
      expect(offered).toHaveLength(17)
      expect(offered).toContain('Arcane: Arcane Alacrity (1 → 2)')
      expect(offered.some((o) => o.includes('Doublestrike'))).toBe(false)
      await picklist.selectOption('Past Life: Arcane Sphere: Arcane Alacrity')
      // Epic and lesser keep the race: no race or alignment to change.
      expect(await page.locator('.reincarnate input[name="race"]').count()).toBe(0)
      await page.getByRole('button', { name: 'Reincarnate…', exact: true }).click()
      expect(await page.locator('[data-reincarnate-confirm] legend').textContent()).toBe(
        'Epic reincarnation of Mordo? Level 30 back to 20 in life 2; the quests, favor and class levels are kept, and Past Life: Arcane Sphere: Arcane Alacrity is granted.',
      )
      await page.getByRole('button', { name: 'Yes, reincarnate' }).click()
      await page.locator('.timeline li[data-life="2"][data-current="true"]').waitFor()
      await facts.filter({ hasText: 'Level 20 · Wizard 20' }).waitFor()
      expect(await page.locator('.timeline li[data-life="2"] [data-kind]').textContent()).toContain(
        'by an epic reincarnation (quests of life 1 on)',
      )
      expect(await page.locator('.timeline li[data-life="1"] .granted').getAttribute('data-granted')).toBe(
        'Past Life: Arcane Sphere: Arcane Alacrity',
      )
      const kept = ok(await me.progress.get())
      expect(kept.completions.map((c) => c.name).sort()).toEqual(['Crypt', 'Sewer Run'])

      // Level 20 now: heroic is offered, epic is not.
      expect(await isDisabled(page.getByRole('radio', { name: /^Epic/ }))).toBe(true)
      await page.getByRole('radio', { name: /^Heroic/ }).check()
      await page.locator('.reincarnate input[name="race"]').fill('Elf')
      await page.getByRole('button', { name: 'Reincarnate…', exact: true }).click()
      expect(await page.locator('[data-reincarnate-confirm] legend').textContent()).toContain(
        'the tracker, favor (and its rewards) and first-time XP bonuses start over in life 3',
      )
      await page.getByRole('button', { name: 'Yes, reincarnate' }).click()
      await page.locator('.timeline li[data-life="3"][data-current="true"]').waitFor()
      // The profile follows the new life: no class levels yet, its race.
      await facts.filter({ hasText: 'No class levels yet · Elf' }).waitFor()
      expect(await facts.textContent()).not.toContain('Wizard')
      expect(ok(await me.progress.get()).completions).toEqual([])
      expect(ok(await me.lives.get()).lives.map((l) => [l.lifeIndex, l.kind, l.questLife])).toEqual([
        [1, null, 1],
        [2, 'epic', 1],
        [3, 'heroic', 3],
      ])
      await page.close()
    }),
    30_000,
  )

  test(
    'the tracker after an epic reincarnation shows the quests it kept, and earlier quest lives by their lives',
    each(async ({ plugin, open, problems }) => {
      const vex = ok(
        await plugin.characters.post({ givenName: 'Vex', race: 'Elf', classes: [{ name: 'Ranger', levels: 20 }] }),
        201,
      )
      const me = plugin.characters({ id: vex.id })
      ok(await me.completions.post({ name: 'Crypt', difficulty: 'Heroic', setting: 'elite' }), 201)
      ok(await me.lives.reincarnate.post({ kind: 'heroic' }))
      ok(await me.completions.post({ name: 'Sewer Run', setting: 'hard' }), 201)
      ok(await me.lives.reincarnate.post({ kind: 'lesser' }))
      const page = await open(`/characters/${vex.id}`)
      await page.locator('#lives-history-title').waitFor()
      expect(await page.locator('#lives-history-title').textContent()).toBe(
        'Life 3 of 3: the tracker shows lives 2–3 (epic and lesser reincarnations keep the quests). Earlier lives:',
      )
      await page.locator('details.earlier-life[data-life="1"] summary', { hasText: 'Life 1' }).click()
      await page.locator('details.earlier-life[data-life="1"] li', { hasText: 'Crypt' }).waitFor()
      expect(await page.locator('details.earlier-life').count()).toBe(1)
      await page.close()
      // A character without a live snapshot: the build page's read of it is a 404 the page expects.
      expect(problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
    }),
    30_000,
  )
})
