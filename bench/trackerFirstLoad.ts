// The tracker's first load (issue 42, section 4): from navigation to the first quest rows on the
// screen, against a plain HTML page carrying the same rows, in one run. The app as shipped
// (`src/main.ts serve`) on a fresh database with one account and one level-7 character with a few
// hundred completions (its default filters: the Full XP band, about 650 rows), in Debian's Chromium:
//   cold      a new browser context (empty cache, no service worker) to the first rows;
//   reload    the same page loaded again (the HTTP cache and the service worker it installed);
// each unthrottled (a desk) and with the CPU throttled 4× (CDP Emulation.setCPUThrottlingRate);
// and the same for the plain page: the same rows in the same order (the tracker's own model over
// the same catalog and progress), a static table with no script and no style, served by a tiny
// Bun.serve in this process. "First rows" is the frame after the first `tr[data-quest]` is in the
// document (a requestAnimationFrame, then a task), timed in the page from its navigation start;
// "every row" the same for the last row. The tracker's first rows are those the server drew into
// the page (src/modules/web/firstScreen.ts, inert until the page's script takes over); "live" is
// the same for the first row the page's own script drew, when it can be used (the plain page has
// no script: its rows are live as they come). Medians of --runs, the pages taking turns run by run.
// The requests of each load to /progress and /next are counted too (each once on a first load).
// --detail: then one more cold load and reload of each app at desk speed, printed as a timeline
// (the page's requests from its Resource Timing, its long tasks, its first paint and rows).
// --before DIR: another checkout of the app (`git archive` of an older commit unpacked beside
// `node_modules`, its website built) measured in the same run, on a copy of the same database.
//   bun bench/trackerFirstLoad.ts [--runs 7] [--before DIR] [--detail]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { signal } from '@preact/signals'
import type { BrowserContext, Page } from 'playwright-core'
import { openDatabase } from '../src/db/client'
import { createUser } from '../src/modules/account/service'
import type { PlayOn } from '../src/rules/character/levels'
import { rowXp } from '../src/rules/quests/xp'
import type { Progress, QuestRow } from '../src/web/api'
import { TICK_SETTINGS, toRows, trackerModel } from '../src/web/tracker/model'
import { browserPath, launchChromium } from '../test/web/driver'
import { benchDeps, syncBenchCatalog } from './lib/catalog'
import { random } from './lib/random'
import { spawnServer } from './lib/servers'

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { runs: { type: 'string', default: '7' }, before: { type: 'string' }, detail: { type: 'boolean' } },
})
const RUNS = Number(values.runs)
const executable = browserPath('chromium')
if (!executable) process.exit(1)
const work = mkdtempSync(join(tmpdir(), 'qt-first-load-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))

const PASSWORD = 'bench password'
const LEVEL = 7
const VIEWPORT = { width: 1280, height: 900 }

// ---------------------------------------------------------------------------------------------
// The data: a fresh database, one account, one level-7 character with a few hundred completions.

const database = join(work, 'qt.sqlite')
{
  const db = openDatabase(database)
  const deps = benchDeps(db)
  await syncBenchCatalog(deps)
  await createUser(deps, { username: 'bench', password: PASSWORD })
  db.$client.close()
}
// The data goes in through the app's own API (a server that is stopped again before the copy).
const seeding = await spawnServer('app', database, 'full')
const base = `http://127.0.0.1:${seeding.port}`

async function call<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (init.token) headers.authorization = `Bearer ${init.token}`
  const response = await fetch(`${base}${path}`, { ...init, headers })
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

const { token } = await call<{ token: string }>('/api/plugin/auth/login', {
  method: 'POST',
  body: JSON.stringify({ identifier: 'bench', password: PASSWORD }),
})
const character = await call<{ id: number }>('/api/plugin/characters', {
  method: 'POST',
  token,
  body: JSON.stringify({
    givenName: 'Firstload',
    race: 'Human',
    server: 'Thrane',
    classes: [{ name: 'Fighter', levels: LEVEL }],
  }),
})
const { quests } = await call<{ quests: QuestRow[] }>('/api/quests')

/**
 * What a level-7 player has done: most heroic quests up to level 8, on one to three settings
 * each, a few run again (the plugin's posts, with the time, XP and length the game reports).
 */
const next = random(42)
const SETTINGS = ['normal', 'hard', 'elite', 'casual', 'reaper'] as const
let posted = 0
for (const quest of quests.filter((q) => q.difficulty === 'Heroic' && q.level <= LEVEL + 1)) {
  if (next() < 0.15) continue
  const settings = 1 + Math.floor(next() * 3)
  for (const setting of SETTINGS.slice(0, settings)) {
    const runs = next() < 0.2 ? 2 : 1
    for (let run = 0; run < runs; run++) {
      const at = new Date(Date.UTC(2026, 9, 1) + Math.floor(next() * 60 * 86_400_000)).toISOString()
      await call(`/api/plugin/characters/${character.id}/completions`, {
        method: 'POST',
        token,
        body: JSON.stringify({
          name: quest.name,
          difficulty: quest.difficulty,
          setting,
          completedAt: at,
          durationSeconds: 300 + Math.floor(next() * 1500),
          xpEarned: 500 + Math.floor(next() * 3000),
        }),
      })
      posted++
    }
  }
}
const progress = await call<Progress>(`/api/plugin/characters/${character.id}/progress`, { token })

// The website's session, as signing in sets it.
const signedIn = await fetch(`${base}/api/session`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ identifier: 'bench', password: PASSWORD }),
})
const sessionCookie = /qt_session=([^;]*)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1]
if (!sessionCookie) throw new Error(`sign in: ${signedIn.status}`)

// ---------------------------------------------------------------------------------------------
// The plain page: the rows the tracker shows by default, by the tracker's own model.

const model = trackerModel({
  rows: signal(toRows(quests)),
  progress: signal(progress),
  search: signal(''),
  hideCompleted: signal(false),
  sort: signal({ key: 'level', descending: false }),
})
const shownRows = model.visible.value
const escapeHtml = (text: unknown) =>
  String(text ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string)
const playOn = progress.targetDifficulty as PlayOn
const plainRows = shownRows.map((row) => {
  const log = model.logOf(row)
  const boxes = TICK_SETTINGS.map(
    (setting) =>
      `<td><input type="checkbox" aria-label="${setting}"${log.own.has(setting) || log.viaUnknown.has(setting) ? ' checked' : ''}></td>`,
  ).join('')
  const cells = [row.difficulty, row.level, row.pack, row.patron, row.favor ?? '—', rowXp(row, playOn) ?? '—']
  return `<tr data-quest="${escapeHtml(row.name)}" data-difficulty="${row.difficulty}"><th>${escapeHtml(row.name)}</th>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}<td>${escapeHtml(row.duration || '—')}</td><td>—</td>${boxes}</tr>`
})
const PLAIN_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Quest tracker</title></head><body><h1>Firstload</h1><table><thead><tr><th>Quest</th><th>Tier</th><th>Level</th><th>Pack</th><th>Patron</th><th>Favor</th><th>XP</th><th>Length</th><th>Time</th>${TICK_SETTINGS.map((s) => `<th>${s}</th>`).join('')}</tr></thead><tbody>${plainRows.join('')}</tbody></table></body></html>`
const plainServer = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: () => new Response(PLAIN_HTML, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
})
const plainUrl = `http://127.0.0.1:${plainServer.port}/plain`

// The app as shipped, and the one before it when asked, each on its own copy of the data.
await seeding.stop()
type Kind = 'after' | 'before' | 'plain'
const servers = new Map<Kind, Awaited<ReturnType<typeof spawnServer>>>()
for (const kind of values.before ? (['before', 'after'] as const) : (['after'] as const)) {
  const copy = join(work, `${kind}.sqlite`)
  copyFileSync(database, copy)
  servers.set(kind, await spawnServer('app', copy, 'full', kind === 'before' ? values.before : undefined))
}
const urlOf = (kind: Kind) =>
  kind === 'plain' ? plainUrl : `http://127.0.0.1:${servers.get(kind)?.port}/characters/${character.id}`
const KINDS: Kind[] = [...servers.keys(), 'plain']

// ---------------------------------------------------------------------------------------------
// The measure, in the page: the frame after the first and after the last row is in the document.

const ROW_PROBE = `(() => {
  const times = { first: 0, live: 0, all: 0 }
  window.__rows = times
  const after = (key) => requestAnimationFrame(() => setTimeout(() => { times[key] = performance.now() }, 0))
  window.__longTasks = []
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)])
    }).observe({ type: 'longtask', buffered: true })
  } catch {}
  const observer = new MutationObserver(() => {
    const rows = document.querySelectorAll('tr[data-quest]').length
    if (rows > 0 && !times.firstSeen) { times.firstSeen = true; after('first') }
    if (!times.liveSeen && document.querySelector('tr[data-quest]:not([data-first-screen] *)')) { times.liveSeen = true; after('live') }
    if (rows >= ${shownRows.length} && !times.allSeen) { times.allSeen = true; after('all') }
    if (times.liveSeen && times.allSeen) observer.disconnect()
  })
  observer.observe(document, { childList: true, subtree: true })
})()`

type Load = 'cold' | 'reload'
type Rate = 1 | 4
interface Figures {
  first: number[]
  live: number[]
  all: number[]
  progress: number[]
  next: number[]
}
const figures = new Map<string, Figures>()
const keyOf = (kind: Kind, load: Load, rate: Rate) => `${kind} ${load} ${rate}`
type Times = { first: number; live: number; all: number }
function note(kind: Kind, load: Load, rate: Rate, value: Times, requests: URL[]) {
  const key = keyOf(kind, load, rate)
  const entry = figures.get(key) ?? { first: [], live: [], all: [], progress: [], next: [] }
  entry.first.push(value.first)
  entry.live.push(value.live)
  entry.all.push(value.all)
  entry.progress.push(requests.filter((u) => u.pathname.endsWith('/progress')).length)
  entry.next.push(requests.filter((u) => u.pathname.endsWith('/next')).length)
  figures.set(key, entry)
}

async function rowsOf(page: Page, what: string): Promise<Times> {
  try {
    await page.waitForFunction(
      () => {
        const t = (window as unknown as { __rows?: { first: number; live: number; all: number } }).__rows
        return t !== undefined && t.first > 0 && t.live > 0 && t.all > 0
        // A machine other work keeps busy can take long: the figures say so; a page that never shows fails.
      },
      null,
      { timeout: 120_000 },
    )
  } catch (e) {
    const rows = await page.evaluate(() => document.querySelectorAll('tr[data-quest]').length).catch(() => -1)
    throw new Error(`${what}: ${rows} rows of ${shownRows.length} (${e instanceof Error ? e.message : e})`)
  }
  return page.evaluate(() => (window as unknown as { __rows: Times }).__rows)
}

type Browser = import('playwright-core').Browser

/** The timeline of the load the page holds (--detail): its requests, long tasks, first paint and rows. */
async function timeline(page: Page, what: string): Promise<void> {
  const lines = await page.evaluate(() => {
    const at = (n: number) => Math.round(n)
    const out: string[] = []
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    out.push(
      `page: request ${at(nav.requestStart)}, first byte ${at(nav.responseStart)}, end ${at(nav.responseEnd)}, DOMContentLoaded ${at(nav.domContentLoadedEventEnd)}, load ${at(nav.loadEventEnd)}`,
    )
    for (const e of performance.getEntriesByType('paint')) out.push(`${e.name} ${at(e.startTime)}`)
    for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const name = new URL(e.name).pathname + new URL(e.name).search
      out.push(
        `  ${at(e.startTime)}..${at(e.responseEnd)} (first byte ${at(e.responseStart)}${e.workerStart ? `, worker ${at(e.workerStart)}` : ''}) ${e.initiatorType} ${name} ${e.encodedBodySize} B`,
      )
    }
    const w = window as unknown as { __longTasks: number[][]; __rows: { first: number; live: number; all: number } }
    out.push(`long tasks: ${w.__longTasks.map(([s, d]) => `${s}+${d}`).join(' ')}`)
    out.push(`rows: first ${at(w.__rows.first)}, live ${at(w.__rows.live)}, every ${at(w.__rows.all)}`)
    return out
  })
  console.log(`\n${what}\n${lines.join('\n')}`)
}

/** One page's cold load and reload, at one CPU rate, in a new context. */
async function measure(browser: Browser, kind: Kind, rate: Rate, detail = false): Promise<void> {
  const context: BrowserContext = await browser.newContext({ viewport: VIEWPORT })
  await context.addCookies([{ name: 'qt_session', value: sessionCookie as string, domain: '127.0.0.1', path: '/' }])
  await context.addInitScript(ROW_PROBE)
  const requests: URL[] = []
  // The page's own requests (one the service worker answers is counted once, not again as the worker's).
  context.on('request', (request) => {
    if (request.serviceWorker() === null) requests.push(new URL(request.url()))
  })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate })
  await page.goto(urlOf(kind), { waitUntil: 'commit' })
  const cold = await rowsOf(page, `${kind} cold at ${rate}x`)
  if (detail) await timeline(page, `${kind}, cold`)
  // The stream open, the service worker installed (it registers once the first reads are done
  // and the page is idle: a player's next visit finds it), the late reads done: then the reload.
  if (kind !== 'plain') {
    await page.evaluate(() =>
      Promise.race([navigator.serviceWorker.ready, new Promise((resolve) => setTimeout(resolve, 10_000))]),
    )
  }
  await page.waitForTimeout(1500)
  if (!detail) note(kind, 'cold', rate, cold, requests)
  requests.length = 0
  await page.reload({ waitUntil: 'commit' })
  const reload = await rowsOf(page, `${kind} reload at ${rate}x`)
  if (detail) await timeline(page, `${kind}, reload`)
  await page.waitForTimeout(1500)
  if (!detail) note(kind, 'reload', rate, reload, requests)
  await context.close()
}

const before = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')
const started = new Date().toISOString()
const browser = await launchChromium(executable as string)
try {
  // A first load of each, not counted: the server's and the browser's JIT warmed.
  for (const kind of KINDS) await measure(browser, kind, 1)
  figures.clear()
  // Run by run, every case in turn: a change of the machine's load falls on all of them.
  for (let run = 0; run < RUNS; run++) {
    for (const rate of [1, 4] as const) for (const kind of KINDS) await measure(browser, kind, rate)
  }
  if (values.detail) for (const kind of KINDS) await measure(browser, kind, 1, true)
} finally {
  await browser.close()
  for (const server of servers.values()) await server.stop()
  plainServer.stop(true)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const get = (kind: Kind, load: Load, rate: Rate) => figures.get(keyOf(kind, load, rate)) as Figures
const ms = (n: number) => `${n.toFixed(0)} ms`
console.log(
  `\ntracker first load, Chromium headless ${VIEWPORT.width}×${VIEWPORT.height}, median of ${RUNS}; ${started}; ` +
    `load average before ${before}, after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${values.before ? `; before: ${values.before}` : ''}`,
)
console.log(
  `a level-${LEVEL} character, ${posted} completions posted (${progress.completions.length} in the progress), ${shownRows.length} rows shown\n`,
)
const apps = KINDS.filter((kind): kind is Exclude<Kind, 'plain'> => kind !== 'plain')
const name = (kind: Kind) => (kind === 'after' ? (values.before ? 'after' : 'tracker') : kind)
console.log(
  `| load | plain page: first rows | ${apps.map((k) => `${name(k)}: first rows | ${name(k)} / plain | ${name(k)}: live`).join(' | ')} | plain page: every row | ${apps.map((k) => `${name(k)}: every row`).join(' | ')} |`,
)
console.log(`|---|--:|${apps.map(() => '--:|--:|--:|').join('')}--:|${apps.map(() => '--:|').join('')}`)
for (const rate of [1, 4] as const) {
  for (const load of ['cold', 'reload'] as const) {
    const plain = get('plain', load, rate)
    const cells = apps.map((kind) => {
      const { first, live } = get(kind, load, rate)
      return `${ms(median(first))} | ${(median(first) / median(plain.first)).toFixed(2)} | ${ms(median(live))}`
    })
    const all = apps.map((kind) => ms(median(get(kind, load, rate).all)))
    console.log(
      `| ${load}, ${rate === 4 ? 'CPU 4× slower' : 'desk'} | ${ms(median(plain.first))} | ${cells.join(' | ')} | ${ms(median(plain.all))} | ${all.join(' | ')} |`,
    )
  }
}
for (const kind of apps) {
  const counts = (load: Load) => {
    const f = [get(kind, load, 1), get(kind, load, 4)]
    const seen = (key: 'progress' | 'next') => [...new Set(f.flatMap((x) => x[key]))].sort().join(' or ')
    return `${load}: /progress ${seen('progress')}, /next ${seen('next')}`
  }
  console.log(`${name(kind)}, requests of a load (within 1.5 s of its rows): ${counts('cold')}; ${counts('reload')}`)
}
process.exit(0)
