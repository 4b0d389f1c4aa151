// Records an evening of a game client against the real server (`src/main.ts serve` on a fresh
// database, over HTTP on 127.0.0.1) into test/fixtures/openapi-traffic.json: every request and
// its answer, bearer and share tokens redacted. test/apiDocs/openapiTraffic.test.ts replays it against
// the OpenAPI document. Some calls are wrong on purpose (a bad password, a search without text,
// an unknown quest or path): their answers must be documented too.
// Usage: bun scripts/recordOpenapiTraffic.ts [outfile]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dwarfFighter } from '../test/fixtures/builds'
import { listeningPort } from '../test/listening'
import type { Exchange } from '../test/openapiValidator'

const root = join(import.meta.dir, '..')
const outfile = process.argv[2] ?? join(root, 'test', 'fixtures', 'openapi-traffic.json')
const PASSWORD = 'an evening of questing'
const dir = await mkdtemp(join(tmpdir(), 'qt-traffic-'))
const env = {
  ...process.env,
  DATABASE_PATH: join(dir, 'qt.sqlite'),
  CATALOG_SYNC_CRON: 'off',
  CATALOG_SOURCE_URL: join(root, 'test', 'fixtures', 'catalog-small.json'),
  LOG_LEVEL: 'info',
}
const main = join(root, 'src', 'main.ts')

const add = Bun.spawnSync([process.execPath, main, 'user', 'add', '--username', 'evening'], {
  env,
  stdin: new TextEncoder().encode(`${PASSWORD}\n`),
  stderr: 'pipe',
})
if (add.exitCode !== 0) throw new Error(`user add failed: ${add.stderr.toString()}`)

const server = Bun.spawn([process.execPath, main, 'serve', '--port', '0', '--host', '127.0.0.1'], {
  env,
  stdout: 'pipe',
  stderr: 'pipe',
})

/** Secrets in a recorded body: bearer tokens and share links. */
const redact = (text: string) =>
  text
    .replace(/"token":"[^"]*"/g, '"token":"<redacted>"')
    .replace(/"shareToken":"[^"]*"/g, '"shareToken":"<redacted>"')
    .replace(/"shareUrl":"\/s\/[^"]*"/g, '"shareUrl":"/s/<redacted>"')

try {
  const base = `http://127.0.0.1:${await listeningPort(server.stdout as ReadableStream<Uint8Array>)}`
  const recorded: Exchange[] = []
  let token = ''

  interface Call {
    body?: unknown
    /** A body sent as is, with this Content-Type (a careless client). */
    raw?: { text: string; type: string }
    auth?: boolean
  }
  const call = async (method: string, url: string, { body, raw, auth = true }: Call = {}) => {
    const headers: Record<string, string> = {}
    let text: string | undefined
    if (body !== undefined) {
      text = JSON.stringify(body)
      headers['content-type'] = 'application/json'
    }
    if (raw) {
      text = raw.text
      headers['content-type'] = raw.type
    }
    if (auth) headers.authorization = `Bearer ${token}`
    const response = await fetch(`${base}${url}`, { method, headers, body: text })
    const answer = await response.text()
    recorded.push({
      method,
      url,
      request: {
        headers: { ...headers, ...(auth ? { authorization: 'Bearer <redacted>' } : {}) },
        ...(text === undefined ? {} : { body: text.replace(PASSWORD, '<redacted>') }),
      },
      response: {
        status: response.status,
        headers: { 'content-type': response.headers.get('content-type') ?? '' },
        body: redact(answer),
      },
    })
    return answer
  }
  const idOf = (answer: string) => (JSON.parse(answer) as { id: number }).id

  // The first start syncs the catalog in the background: wait for its rows.
  for (let i = 0; i < 100; i++, await Bun.sleep(20)) {
    const count = ((await (await fetch(`${base}/api/quests`)).json()) as { count: number }).count
    if (count > 0) break
  }

  await call('GET', '/api/health', { auth: false })
  await call('POST', '/api/plugin/auth/login', {
    auth: false,
    body: { username: 'evening', password: 'not the password' },
  })
  const login = await call('POST', '/api/plugin/auth/login', {
    auth: false,
    body: { username: 'EVENING', password: PASSWORD, label: 'game client' },
  })
  token = (JSON.parse(login) as { token: string }).token
  await call('GET', '/api/plugin/auth/me')
  await call('GET', '/api/plugin/info')
  await call('GET', '/api/plugin/characters/meta')
  await call('GET', '/api/plugin/characters/find?firstName=Tharn')
  await call('POST', '/api/plugin/characters', { body: { race: 'Dwarf' } })
  const created = await call('POST', '/api/plugin/characters', {
    body: {
      name: 'Tharn Ironfist',
      race: 'dwarf',
      server: 'Cormyr',
      classLevels: [{ name: 'Fighter', levels: 9 }],
      lastLoginAt: 'now',
    },
  })
  const id = idOf(created)
  await call('GET', '/api/plugin/characters')
  await call('GET', `/api/plugin/characters/${id}`)
  await call('GET', '/api/plugin/characters/9999')
  await call('PATCH', `/api/plugin/characters/${id}`, { body: { guild: 'Iron Wardens', seen: true } })
  await call('POST', `/api/plugin/characters/${id}/login`)
  await call('POST', `/api/plugin/characters/${id}/login`, { body: { lastLoginAt: '2026-11-21T19:30:00+01:00' } })

  await call('GET', '/api/plugin/quests')
  await call('GET', '/api/plugin/quests/search?q=crypt&cl=9&limit=5')
  await call('GET', '/api/plugin/quests/search?query=tower&difficulty=Heroic')
  await call('GET', '/api/plugin/quests/search?limit=5')
  await call('GET', '/api/plugin/quests/search?q=crypt&limit=500')
  await call('GET', '/api/plugin/quests/lookup?name=crypt')
  await call('GET', '/api/plugin/quests/lookup?name=Nowhere')
  await call('GET', '/api/plugin/scorecards')

  const completions = `/api/plugin/characters/${id}/completions`
  await call('POST', completions, {
    body: { name: 'crypt', difficulty: 'Heroic', setting: 'elite', xp: 3190, durationSeconds: 1260 },
  })
  await call('POST', completions, { body: { name: 'Crypt', difficulty: 'heroic', setting: 'Elite', rxp: 12 } })
  await call('POST', completions, { body: { name: 'Sewer Run', difficulty: 'reaper' } })
  // A newer client: the skulls of a reaper run, in the setting and in a count field.
  await call('POST', completions, { body: { name: 'Crypt', difficulty: 'Heroic', setting: 'R3', rxp: 30 } })
  await call('POST', completions, { body: { name: 'Crypt', difficulty: 'Heroic', setting: 'reaper', skulls: 5 } })
  await call('POST', completions, {
    raw: { text: JSON.stringify({ name: 'Bell Tower', setting: 'hard' }), type: 'text/plain;charset=UTF-8' },
  })
  await call('POST', completions, { body: { difficulty: 'Heroic' } })
  const unticked = await call('DELETE', `${completions}?name=Bell%20Tower&setting=hard`)
  // The undo: what the delete answered, put back (twice: the second restores nothing).
  const { removed } = JSON.parse(unticked) as { removed: unknown[] }
  await call('POST', `${completions}/restore`, { body: { completions: removed } })
  await call('POST', `${completions}/restore`, { body: { completions: removed } })
  await call('DELETE', `${completions}?name=Bell%20Tower&setting=hard`)
  await call('DELETE', completions, { body: { name: 'Sewer Run', allSettings: true } })
  await call('GET', `/api/plugin/characters/${id}/progress`)
  await call('GET', `/api/plugin/characters/${id}/sagas`)
  await call('GET', `/api/plugin/characters/${id}/timers`)
  await call('GET', '/api/plugin/characters/timers')
  await call('PUT', `/api/plugin/characters/${id}/progress`, {
    body: { targetDifficulty: 'elite', levelBand: 0, versionFilter: { epic: 'no' } },
  })

  const route = await call('POST', '/api/plugin/routes', {
    body: {
      name: 'Harbor evening',
      quests: [{ name: 'Crypt' }, { name: 'Bell Tower', setting: 'hard' }, { name: 'Sewer Run', difficulty: 'Epic' }],
    },
  })
  const routeId = idOf(route)
  await call('GET', '/api/plugin/routes?limit=10')
  await call('GET', `/api/plugin/routes/${routeId}`)
  await call('GET', `/api/plugin/navigation?characterId=${id}&routeId=${routeId}&match=remake`)
  await call('GET', `/api/plugin/navigation?characterId=${id}`)

  await call('GET', `/api/plugin/characters/${id}/live`)
  await call('PUT', `/api/plugin/characters/${id}/live`, {
    body: { document: dwarfFighter, source: 'game client', incomplete: ['spells'] },
  })
  await call('GET', `/api/plugin/characters/${id}/live`)
  await call('PUT', `/api/plugin/characters/${id}/live/partial`, {
    body: { reaperPoints: 3, build: { notes: 'tank' } },
  })
  await call('GET', `/api/plugin/characters/${id}/build`)
  await call('POST', `/api/plugin/characters/${id}/live/promote-to-planned`)
  await call('PUT', `/api/plugin/characters/${id}/build/partial`, { body: { tomes: { str: 3 } } })
  await call('GET', `/api/plugin/characters/${id}/lives`)
  await call('POST', `/api/plugin/characters/${id}/lives/reincarnate`, { body: { grantHeroic: true } })

  await call('GET', '/api/plugin/nope')
  await call('POST', '/api/plugin/auth/logout')
  await call('GET', '/api/plugin/auth/me')

  await Bun.write(outfile, `${JSON.stringify(recorded, null, 2)}\n`)
  console.log(`${recorded.length} exchanges written to ${outfile}`)
} finally {
  server.kill()
  await server.exited
  await rm(dir, { recursive: true, force: true })
}
