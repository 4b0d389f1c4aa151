// An invite link in Chromium and Firefox: a newcomer signed out makes an account on /join/{code}
// (the operator's invite, and a group's, which joins the group too), the used link then says it
// does not work, and with sign-ups off a group's invite sends the visitor to sign in and back to join.
// (Joining with an account one has is the group routes' and their tests'.)
import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { systemClock } from '../../src/clock'
import { groupMembers, groups, users } from '../../src/db/schema'
import { createInvite } from '../../src/modules/invites/service'
import { BROWSERS, IN_BROWSERS, inEachBrowser, keepOnClose } from './browsers'
import type { Page } from './driver'
import { FAILED_LOAD, PASSWORD, type Site, startSite } from './harness'

const NEW_PASSWORD = 'a newcomer password'

/** A group owned by `owner` (made in the database: the group routes are not this test's). */
function groupOf(site: Site, owner: string, name: string): number {
  const ownerId = site.db.select({ id: users.id }).from(users).where(eq(users.username, owner)).get()?.id as number
  const now = new Date().toISOString()
  const group = site.db.insert(groups).values({ name, ownerId, createdAt: now }).returning().get()
  site.db.insert(groupMembers).values({ groupId: group.id, userId: ownerId, joinedAt: now }).run()
  return group.id
}

// The world (two sites, olga and bob) is shared; each test makes its own invite, group and newcomer.
// The last test reads what every test's pages asked for and complained of (the shared log).
describe.skipIf(BROWSERS.length === 0)(`joining with an invite link, ${IN_BROWSERS}`, () => {
  /** The sites with sign-ups off (each browser's world has one beside its own): stopped here. */
  const closedSites: Site[] = []
  afterAll(async () => {
    await Promise.all(closedSites.map((site) => site.stop()))
  })

  const each = inEachBrowser(async (browser) => {
    const [open, closed] = await Promise.all([startSite(undefined, { SIGNUP_INVITES: 'on' }), startSite()])
    closedSites.push(closed)
    await open.addUser('olga')
    await closed.addUser('olga')
    await closed.addUser('bob')
    const problems: string[] = []
    const requests: URL[] = []
    return {
      site: open,
      open,
      closed,
      problems,
      requests,
      /** A new signed-out page; what it asked for and complained of is kept for the last test. */
      async openPage(): Promise<Page> {
        return keepOnClose(await browser.newPage(), { requests, problems })
      },
    }
  })

  async function signUp(page: Page, username: string) {
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByLabel('Repeat the password').fill(NEW_PASSWORD)
  }

  test(
    "the operator's invite: a newcomer makes an account, signed in at once; the link then does not work",
    each(async ({ open, openPage }) => {
      const { code } = createInvite(open.db, systemClock, { groupId: null, createdBy: null })
      const page = await openPage()
      await page.goto(`${open.base}/join/${code}`)
      await page.getByRole('heading', { name: 'Make your account' }).waitFor()
      expect(await page.locator('.join .hint').first().textContent()).toContain('The link works once, until')

      // Two different passwords: said in the page, nothing sent.
      await signUp(page, 'newbie')
      await page.getByLabel('Repeat the password').fill('something else')
      await page.getByRole('button', { name: 'Make my account' }).click()
      expect(await page.getByRole('alert').textContent()).toBe('The password and its repetition differ.')
      expect(open.db.select().from(users).where(eq(users.username, 'newbie')).get()).toBeUndefined()

      // A taken username: the server's sentence, and the code still works for the next try.
      await signUp(page, 'Olga')
      await page.getByRole('button', { name: 'Make my account' }).click()
      await page.getByText('An account "Olga" already exists.').waitFor()

      await signUp(page, 'newbie')
      await page.getByLabel('E-mail (optional)').fill('Newbie@Example.com')
      await page.getByRole('button', { name: 'Make my account' }).click()
      await page.waitForURL(`${open.base}/`)
      await page.getByRole('heading', { name: 'Your characters' }).waitFor()
      expect(await page.locator('.who').textContent()).toBe('Signed in as newbie')
      expect(await page.getByRole('link', { name: 'New character' }).count()).toBeGreaterThan(0)
      expect(open.db.select({ email: users.email }).from(users).where(eq(users.username, 'newbie')).get()).toEqual({
        email: 'newbie@example.com',
      })
      await page.close()

      // Used: the same link, in another browser, says so and offers no form.
      const again = await openPage()
      await again.goto(`${open.base}/join/${code}`)
      await again.getByRole('heading', { name: 'This invite does not work' }).waitFor()
      expect(await again.getByRole('alert').textContent()).toBe(
        'This invite is not valid: it was used already, it expired, or it never existed.',
      )
      expect(await again.getByLabel('Username').count()).toBe(0)
      await again.close()
    }),
    30_000,
  )

  test(
    "a group's invite: the newcomer's account is made in the group, and the group's page follows",
    each(async ({ open, openPage }) => {
      const groupId = groupOf(open, 'olga', 'The Silver Flame')
      const { code } = createInvite(open.db, systemClock, { groupId, createdBy: 1 })
      const page = await openPage()
      await page.goto(`${open.base}/join/${code}`)
      await page.getByRole('heading', { name: 'Join The Silver Flame' }).waitFor()
      await signUp(page, 'recruit')
      await page.getByRole('button', { name: 'Make my account and join The Silver Flame' }).click()
      await page.waitForURL(`${open.base}/groups/${groupId}`)
      const recruit = open.db.select({ id: users.id }).from(users).where(eq(users.username, 'recruit')).get()
      const members = open.db.select().from(groupMembers).where(eq(groupMembers.groupId, groupId)).all()
      expect(members.map((m) => m.userId)).toContain(recruit?.id as number)
      await page.close()
    }),
    30_000,
  )

  test(
    "sign-ups off: a group's invite asks to sign in, and comes back to join; an account invite says sign-ups are off",
    each(async ({ closed, openPage }) => {
      const groupId = groupOf(closed, 'olga', 'Night Watch')
      const group = createInvite(closed.db, systemClock, { groupId, createdBy: 1 }).code
      const account = createInvite(closed.db, systemClock, { groupId: null, createdBy: null }).code
      const page = await openPage()

      await page.goto(`${closed.base}/join/${account}`)
      await page.getByText('Signing up is turned off on this server').waitFor()
      expect(await page.getByLabel('Username').count()).toBe(0)

      await page.goto(`${closed.base}/join/${group}`)
      await page.getByRole('heading', { name: 'Join Night Watch' }).waitFor()
      expect(await page.getByLabel('Username').count()).toBe(0)
      await page.getByRole('link', { name: 'Sign in to join' }).click()
      await page.waitForURL(`${closed.base}/login?next=${encodeURIComponent(`/join/${group}`)}`)
      await page.getByLabel('Username or e-mail').fill('bob')
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${closed.base}/join/${group}`)
      await page.getByRole('button', { name: 'Join Night Watch' }).waitFor()
      await page.close()
    }),
    30_000,
  )

  test(
    'no page asked another host for anything, and none logged an error',
    each(async ({ requests, problems }) => {
      expect(requests.filter((url) => url.hostname !== '127.0.0.1')).toEqual([])
      // The refusals the pages read (401 signed out, 400 a taken name, 404 a used code) are logged as failed loads.
      expect(problems.filter((p) => !FAILED_LOAD.test(p))).toEqual([])
    }),
  )
})
