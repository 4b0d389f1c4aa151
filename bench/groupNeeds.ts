// What "Needed by others" costs the server (issue 39, item 7): a group whose shared characters hold
// `characters × completions` completions in their current lives, and the tracker's read of
// GET /api/groups/{id}/needs as each member's open tracker makes it. The app in process on an
// in-memory database (no HTTP); the rows written straight into SQLite, the reads and the writes
// through the app.
//   bun bench/groupNeeds.ts [characters] [completions each] [--app DIR]
// `--app DIR` measures another checkout (`git archive` unpacked with node_modules beside it), so
// before and after run the same script. Each figure is the median of ROUNDS.
import { join, resolve } from 'node:path'

const args = process.argv.slice(2)
const appIndex = args.indexOf('--app')
const appDir = appIndex >= 0 ? resolve(args[appIndex + 1] as string) : join(import.meta.dir, '..')
const numbers = args.filter((a, i) => !a.startsWith('--') && (appIndex < 0 || i !== appIndex + 1)).map(Number)
const CHARACTERS = numbers[0] ?? 200
const COMPLETIONS = numbers[1] ?? 1000
/** Members' trackers reading at once (one per member, each after the same event). */
const TRACKERS = 8
const ROUNDS = 7

const { createApp } = (await import(join(appDir, 'src/app.ts'))) as typeof import('../src/app')
const { openDatabase } = (await import(join(appDir, 'src/db/client.ts'))) as typeof import('../src/db/client')
const { createSession } = (await import(
  join(appDir, 'src/modules/session/service.ts')
)) as typeof import('../src/modules/session/service')
const { benchDeps, syncBenchCatalog, HAVE_FULL_CATALOG } = await import('./lib/catalog')
const { random } = await import('./lib/random')

const db = openDatabase(':memory:')
const deps = benchDeps(db)
await syncBenchCatalog(deps)
const sqlite = db.$client
const rows = sqlite.query<{ name: string; difficulty: string }, []>('select name, difficulty from quests').all()
const SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper']
const triples = rows.flatMap((row) => SETTINGS.map((setting) => [row.name, row.difficulty, setting] as const))
if (COMPLETIONS > triples.length) throw new Error(`at most ${triples.length} completions a character here`)

// Two characters a member, as a guild shares its mains and an alt.
const members = Math.ceil(CHARACTERS / 2)
const now = new Date().toISOString()
const started = performance.now()
sqlite.transaction(() => {
  const next = random(39)
  for (let m = 1; m <= members; m++) {
    sqlite.run("insert into users (id, username, password_hash, created_at) values (?, ?, 'x', ?)", [m, `m${m}`, now])
  }
  sqlite.run("insert into groups (id, name, owner_id, created_at) values (1, 'Guild', 1, ?)", [now])
  for (let m = 1; m <= members; m++) sqlite.run('insert into group_members values (1, ?, ?)', [m, now])
  const completion = sqlite.prepare(
    `insert into completions (character_id, life_index, name, difficulty, setting, completed_at, runs, updated_at)
     values (?, 1, ?, ?, ?, ?, 1, ?)`,
  )
  for (let c = 1; c <= CHARACTERS; c++) {
    const level = 1 + Math.floor(next() * 30)
    sqlite.run(
      `insert into characters (id, user_id, given_name, classes, epic_levels, share_token, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        c,
        ((c - 1) % members) + 1,
        `C${c}`,
        JSON.stringify([{ name: 'Fighter', levels: Math.min(20, level) }]),
        Math.max(0, level - 20),
        `share-${c}`,
        now,
        now,
      ],
    )
    sqlite.run('insert into group_shares values (1, ?, ?)', [c, new Date(Date.parse(now) + c).toISOString()])
    // A seeded partial shuffle: COMPLETIONS distinct triples.
    const order = Array.from({ length: triples.length }, (_, i) => i)
    for (let k = 0; k < COMPLETIONS; k++) {
      const pick = k + Math.floor(next() * (order.length - k))
      ;[order[k], order[pick]] = [order[pick] as number, order[k] as number]
      const [name, difficulty, setting] = triples[order[k] as number] as readonly [string, string, string]
      completion.run(c, name, difficulty, setting, now, now)
    }
  }
})()
const written = performance.now() - started

const app = createApp(deps)
const cookies = Array.from(
  { length: TRACKERS },
  (_, i) => `qt_session=${createSession(db, deps.clock, Math.min(members, i + 1))}`,
)
const needs = (cookie: string, etag?: string) =>
  app.handle(
    new Request('http://localhost/api/groups/1/needs?setting=elite', {
      headers: { cookie, ...(etag ? { 'if-none-match': etag } : {}) },
    }),
  )
const read = async (cookie: string, etag?: string) => {
  const response = await needs(cookie, etag)
  const body = await response.text()
  if (response.status !== 200 && response.status !== 304) throw new Error(`${response.status} ${body}`)
  return { status: response.status, etag: response.headers.get('etag') ?? undefined, bytes: body.length }
}
const [owner] = cookies as [string]
const timed = async (run: () => Promise<unknown>) => {
  const start = performance.now()
  await run()
  return performance.now() - start
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

let completionAt = Date.parse('2027-01-01T00:00:00Z')
/** A member's game client logs a quest on character 1: every open tracker is told and reads again. */
const postCompletion = async () => {
  const response = await app.handle(
    new Request('http://localhost/api/characters/1/completions', {
      method: 'POST',
      headers: { cookie: owner, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: rows[completionAt % rows.length]?.name,
        setting: 'elite',
        completedAt: new Date(completionAt++).toISOString(),
      }),
    }),
  )
  if (response.status >= 300) throw new Error(`post: ${response.status} ${await response.text()}`)
}

const first = await timed(() => read(owner))
const figures: Record<string, number[]> = {
  'the same read again, nothing changed (no If-None-Match)': [],
  'the same read with its ETag (If-None-Match)': [],
  [`${TRACKERS} members' trackers at once, nothing changed`]: [],
  'the first read after a completion': [],
  [`${TRACKERS} members' trackers at once after a completion`]: [],
}
let bytes = 0
let notModified = 0
for (let round = 0; round < ROUNDS; round++) {
  const { etag, bytes: size } = await read(owner)
  bytes = size
  figures['the same read again, nothing changed (no If-None-Match)']?.push(await timed(() => read(owner)))
  figures['the same read with its ETag (If-None-Match)']?.push(
    await timed(async () => {
      if ((await read(owner, etag)).status === 304) notModified++
    }),
  )
  figures[`${TRACKERS} members' trackers at once, nothing changed`]?.push(
    await timed(() => Promise.all(cookies.map((cookie) => read(cookie)))),
  )
  await postCompletion()
  figures['the first read after a completion']?.push(await timed(() => read(owner)))
  await postCompletion()
  figures[`${TRACKERS} members' trackers at once after a completion`]?.push(
    await timed(() => Promise.all(cookies.map((cookie) => read(cookie)))),
  )
}

const shared = sqlite.query<{ n: number }, []>('select count(*) as n from completions').get()?.n ?? 0
console.log(
  `${CHARACTERS} shared characters of ${members} members, ${shared.toLocaleString('en-US')} completions ` +
    `(${HAVE_FULL_CATALOG ? '718' : '12'}-row catalog; written in ${(written / 1000).toFixed(1)} s); app ${appDir}`,
)
console.log(`answer ${Math.round(bytes / 1024)} KiB; 304s ${notModified}/${ROUNDS}`)
console.log('| read | ms (median of 7) |')
console.log('|---|---|')
console.log(`| the first read (cold) | ${first.toFixed(1)} |`)
for (const [what, values] of Object.entries(figures)) console.log(`| ${what} | ${median(values).toFixed(1)} |`)
sqlite.close()
