// The tracker's first screen drawn into the page (issue 42, section 4; src/modules/web/firstScreen.ts):
// for the character's owner signed in, the page comes with the tracker drawn in, inert until the
// page's script takes over; for anyone else (no session, an ended one, another account, no such
// character) the page is exactly the built one, so nothing of a character leaks; a name a player
// chose is text, never markup; and the drawing has nothing the page's CSP would refuse.
import { describe, expect, test } from 'bun:test'
import { inlineCodeIn } from '../../../scripts/buildWeb'
import { createLogger } from '../../../src/logger'
import { APP_ROOT, APP_SCRIPT, withTrackerFirstScreen } from '../../../src/modules/web/firstScreen'
import { INDEX_HTML } from '../../../src/web/dist/assets'
import { APP_MODULE_ATTRIBUTE, FIRST_SCREEN_ATTRIBUTE } from '../../../src/web/firstScreen'
import { FIRST_ROWS } from '../../../src/web/tracker/rowsDrawn'
import { generatedHeroics, loadCatalog, type QuestRow, withFacts } from '../../catalogFixture'
import { insertCharacter, ok, testApp } from '../../helpers'

const BUILT = await Bun.file(INDEX_HTML).text()
const ACCEPT_HTML = { accept: 'text/html,application/xhtml+xml,*/*' }

/** Heroic quests of levels 1 to 20 (more than the first draw holds), two of them done by the character. */
const QUESTS: QuestRow[] = generatedHeroics(40, (i) => `Quest ${String(i).padStart(2, '0')}`).map(withFacts)

async function setup(name = 'Erin') {
  const t = testApp()
  loadCatalog(t.db, QUESTS)
  const token = await t.userWithToken('erin')
  await t.userWithToken('bob')
  const cookie = await t.signIn('erin')
  // No class levels: every quest is in the Full XP band.
  const hero = insertCharacter(t.db, 'erin', { givenName: name })
  const theirs = insertCharacter(t.db, 'bob', { givenName: 'Bobs' })
  for (const quest of ['Quest 00', 'Quest 20'])
    ok(await t.plugin(token).characters({ id: hero.id }).completions.post({ name: quest, setting: 'elite' }), 201)
  /** The page at `path`, with erin's session cookie unless another `Cookie` (or none: null) is given. */
  const page = async (path: string, cookieHeader: string | null = cookie) => {
    const response = await t.request('GET', path, { cookie: cookieHeader ?? undefined, headers: ACCEPT_HTML })
    return { status: response.status, headers: response.headers, html: await response.text() }
  }
  return { ...t, cookie, hero, theirs, page }
}

const rowsIn = (html: string) => [...html.matchAll(/<tr [^>]*data-quest="([^"]*)"/g)].map((m) => m[1])

describe("the tracker's page, for the character's owner", () => {
  test('comes with the tracker drawn in: its name, the first rows in the order of the list, inert', async () => {
    const t = await setup()
    const { status, headers, html } = await t.page(`/characters/${t.hero.id}`)
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('no-store')
    // Drawing the page slides no session (the reads after it do, and send the cookie again).
    expect(headers.get('set-cookie')).toBeNull()
    expect(html).toContain(`<div id="app" ${FIRST_SCREEN_ATTRIBUTE} inert>`)
    expect(html).not.toContain(APP_ROOT)
    expect(html).toContain('<title>Erin — Quest Tracker</title>')
    expect(html).toContain('<h1>Erin</h1>')
    // Level first, then name: Quest 00 and Quest 20 (level 1), Quest 01 and Quest 21 (level 2), …
    expect(rowsIn(html)).toEqual(
      ['00', '20', '01', '21', '02', '22', '03', '23', '04', '24', '05', '25', '06', '26', '07']
        .map((n) => `Quest ${n}`)
        .slice(0, FIRST_ROWS),
    )
    // Its log: the two quests done on elite are ticked there, and counted in the totals.
    expect(html).toMatch(/data-quest="Quest 00"[^>]*data-completed="true"/)
    expect(html).toMatch(/data-quest="Quest 01"[^>]*data-completed="false"/)
    expect(html).toContain('data-total="done"')
    // The bundle is preloaded, not run as the page's module script: the boot script runs it once
    // the drawn screen is painted (which it held back).
    const bundle = APP_SCRIPT.exec(BUILT)?.[1] as string
    expect(html).not.toContain('<script type="module"')
    expect(html).toContain(`<link rel="modulepreload" crossorigin href="${bundle}" ${APP_MODULE_ATTRIBUTE}>`)
    // The rest of the head is the built page's (the style, the boot script).
    const [head] = BUILT.split('<title>')
    expect(html.startsWith(head as string)).toBe(true)
  })

  test("draws nothing the page's CSP would refuse (no inline style, script or handler)", async () => {
    const t = await setup()
    const { html } = await t.page(`/characters/${t.hero.id}`)
    expect(inlineCodeIn(html)).toEqual([])
  })

  test('a name the player chose is text in the page and its title, never markup', async () => {
    const t = await setup('<img src=x onerror=alert(1)>&</title>')
    const { html } = await t.page(`/characters/${t.hero.id}`)
    expect(html).toContain(`<div id="app" ${FIRST_SCREEN_ATTRIBUTE} inert>`)
    expect(html).not.toContain('<img src=x')
    expect(html).not.toContain('&</title>')
    expect(html).toContain('&lt;img src=x onerror=alert(1)>&amp;&lt;/title>')
  })
})

describe('anyone else gets the built page as it is', () => {
  test('no session, an ended one, a made-up cookie', async () => {
    const t = await setup()
    const path = `/characters/${t.hero.id}`
    expect((await t.page(path, null)).html).toBe(BUILT)
    expect((await t.page(path, 'qt_session=not-a-session')).html).toBe(BUILT)
    ok(await t.web(t.cookie).session.delete())
    expect((await t.page(path)).html).toBe(BUILT)
  })

  test("another account's character, one that does not exist, an id that is no id", async () => {
    const t = await setup()
    for (const path of [`/characters/${t.theirs.id}`, '/characters/999', '/characters/0']) {
      const { status, html } = await t.page(path)
      expect({ path, status, drawn: html.includes(FIRST_SCREEN_ATTRIBUTE) }).toEqual({
        path,
        status: 200,
        drawn: false,
      })
      expect(html).not.toContain('Bobs')
    }
  })

  test('the built page holds the root the drawing goes into and the bundle (a change of index.html fails here)', () => {
    expect(BUILT).toContain(APP_ROOT)
    expect(APP_SCRIPT.exec(BUILT)?.[1]).toMatch(/^\/assets\/index-\w+\.js$/)
  })

  test('a drawing that fails: the built page as it is, and a warning naming the character', async () => {
    const t = await setup('Erin "the Bold"')
    const lines: string[] = []
    const logger = createLogger('info', { write: (line) => lines.push(line) })
    const failing = {
      drawTracker(): never {
        throw new Error('the drawing broke')
      },
    }
    const request = new Request(`http://localhost/characters/${t.hero.id}`, { headers: { cookie: t.cookie } })
    expect(withTrackerFirstScreen({ db: t.db, clock: t.clock, logger }, failing, request, t.hero.id, BUILT)).toBeNull()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      `The first screen of character ${t.hero.id} ("Erin \\"the Bold\\"") could not be drawn: the drawing broke`,
    )
  })
})
