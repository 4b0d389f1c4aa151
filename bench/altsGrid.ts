// What "Every alt at a glance" costs (issue 41): an account of 20 characters, each with 10,000
// completions in its current life (the per-character cap), the server's GET /api/account/grid
// (cold, kept, with its ETag, after a tick) and the page /alts in Chromium (to the first rows, to
// every row drawn, a tick to its cell turning done). The catalog holds at most 718 × 5 distinct
// triples of a current life (3,590): the rest of each character's 10,000 are quests the catalog
// lacks, as a game client may send (the grid reads them and shows nothing for them), less 20 of
// room for the bench's ticks (at the cap a new completion is refused). The site runs
// as the browser tests' (test/web/harness.ts: the app on 127.0.0.1, a file database).
//   bun bench/altsGrid.ts [characters] [completions each]
import { BROWSER_NAMES, browserPath, launchBrowser } from '../test/web/driver'
import { FULL_CATALOG, SMALL_CATALOG, startSite } from '../test/web/harness'
import { random } from './lib/random'

const numbers = process.argv.slice(2).map(Number)
const CHARACTERS = numbers[0] ?? 20
const COMPLETIONS = numbers[1] ?? 10_000
const ROUNDS = 7
const SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper']
/** Room left under the cap (a new completion at 10,000 is 409) for the bench's own ticks. */
const ROOM = 20

const { existsSync } = await import('node:fs')
const full = existsSync(FULL_CATALOG)
const site = await startSite(full ? FULL_CATALOG : SMALL_CATALOG)
await site.addUser('alice')
const sqlite = site.db.$client
const userId = sqlite.query<{ id: number }, []>("select id from users where username = 'alice'").get()?.id
const rows = sqlite.query<{ name: string; difficulty: string }, []>('select name, difficulty from quests').all()
const triples = rows.flatMap((row) => SETTINGS.map((setting) => [row.name, row.difficulty, setting] as const))

const now = new Date().toISOString()
const started = performance.now()
sqlite.transaction(() => {
  const next = random(41)
  const completion = sqlite.prepare(
    `insert into completions (character_id, life_index, name, difficulty, setting, completed_at, runs, updated_at)
     values (?, 1, ?, ?, ?, ?, 1, ?)`,
  )
  for (let c = 1; c <= CHARACTERS; c++) {
    const level = 1 + Math.floor(next() * 30)
    const made = sqlite
      .query<{ id: number }, [number, string, string, number, string, string, string]>(
        `insert into characters (user_id, given_name, classes, epic_levels, share_token, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?) returning id`,
      )
      .get(
        userId as number,
        `Alt${c}`,
        JSON.stringify([{ name: 'Fighter', levels: Math.min(20, level) }]),
        Math.max(0, level - 20),
        `share-${c}`,
        now,
        now,
      )
    const id = made?.id as number
    // Most of the catalog's triples (a seeded pick of each), then the quests the catalog lacks.
    let written = 0
    for (const [name, difficulty, setting] of triples) {
      if (written >= COMPLETIONS) break
      if (next() < 0.6) {
        completion.run(id, name, difficulty, setting, now, now)
        written++
      }
    }
    for (let k = 0; written < COMPLETIONS - ROOM; k++, written++) {
      completion.run(id, `Not in the catalog ${k}`, 'Heroic', SETTINGS[k % 5] as string, now, now)
    }
  }
})()
const seeded = performance.now() - started

const cookies = await site.session('alice')
const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ')
const get = async (etag?: string) => {
  const response = await fetch(`${site.base}/api/account/grid`, {
    headers: { cookie, ...(etag ? { 'if-none-match': etag } : {}) },
  })
  const body = await response.text()
  if (response.status !== 200 && response.status !== 304) throw new Error(`${response.status} ${body}`)
  return { status: response.status, etag: response.headers.get('etag') ?? undefined, bytes: body.length }
}
const timed = async (run: () => Promise<unknown>) => {
  const start = performance.now()
  await run()
  return performance.now() - start
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
let tickAt = 0
const tick = async () => {
  const row = rows[tickAt++ % rows.length] as { name: string; difficulty: string }
  const response = await fetch(`${site.base}/api/characters/1/completions`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', origin: site.base },
    body: JSON.stringify({ name: row.name, difficulty: row.difficulty, setting: 'reaper' }),
  })
  if (response.status >= 300) throw new Error(`tick: ${response.status} ${await response.text()}`)
}

const cold = await timed(() => get())
const server: Record<string, number[]> = {
  'the same read again, nothing changed': [],
  'the same read with its ETag (304)': [],
  'the first read after a tick (one character read again)': [],
}
let bytes = 0
for (let round = 0; round < ROUNDS; round++) {
  const { etag, bytes: size } = await get()
  bytes = size
  server['the same read again, nothing changed']?.push(await timed(() => get()))
  server['the same read with its ETag (304)']?.push(await timed(() => get(etag)))
  await tick()
  server['the first read after a tick (one character read again)']?.push(await timed(() => get()))
}

const page: Record<string, number[]> = {
  '/alts: to the first rows': [],
  '/alts: to every row drawn': [],
  'a tick: to its cell done': [],
}
let drawnRows = 0
const chromium = browserPath(BROWSER_NAMES[0])
if (chromium) {
  const browser = await launchBrowser('chromium', chromium)
  for (let round = 0; round < ROUNDS; round++) {
    const tab = await browser.newPage({ cookies })
    tab.setDefaultTimeout(60_000)
    const start = performance.now()
    await tab.goto(`${site.base}/alts`)
    await tab.locator('.quest-grid tbody tr').first().waitFor()
    page['/alts: to the first rows']?.push(performance.now() - start)
    await tab.locator('.grid-count[data-drawn="true"]').waitFor()
    page['/alts: to every row drawn']?.push(performance.now() - start)
    drawnRows = Number(await tab.locator('.grid-count').getAttribute('data-rows'))
    const target = await tab
      .locator('td.grid-cell[data-done="false"]')
      .first()
      .evaluate((td) => [
        td.closest('tr')?.getAttribute('data-quest'),
        td.closest('tr')?.getAttribute('data-difficulty'),
        td.getAttribute('data-character'),
      ])
    const cell = `tr[data-quest="${target[0]}"][data-difficulty="${target[1]}"] td[data-character="${target[2]}"]`
    const at = performance.now()
    await tab.locator(`${cell} button`).click()
    await tab.locator(`${cell}[data-done="true"]`).waitFor()
    page['a tick: to its cell done']?.push(performance.now() - at)
    await tab.close()
  }
  await browser.close()
}

const total = sqlite.query<{ n: number }, []>('select count(*) as n from completions').get()?.n ?? 0
console.log(
  `${CHARACTERS} characters, ${total.toLocaleString('en-US')} completions (${full ? '718' : '12'}-row catalog; ` +
    `seeded in ${(seeded / 1000).toFixed(1)} s); answer ${Math.round(bytes / 1024)} KiB; ${drawnRows} rows shown`,
)
console.log(`| what | ms (median of ${ROUNDS}) |`)
console.log('|---|--:|')
console.log(`| GET /api/account/grid, the first read after a start (cold) | ${cold.toFixed(1)} |`)
for (const [what, values] of [...Object.entries(server), ...Object.entries(page)]) {
  if (values.length > 0) console.log(`| ${what} | ${median(values).toFixed(1)} |`)
}
await site.stop()
process.exit(0)
