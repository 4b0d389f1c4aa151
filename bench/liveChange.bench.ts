// What an event costs an open tracker on a character at the 10,000-completion cap: the bytes of
// the event a completion post sends, against the progress answer a re-read would fetch, and the
// time to apply its change to the progress held (src/web/tracker/changes.ts), against parsing
// that answer. The app in process on an in-memory database; no HTTP.
//   bun bench/liveChange.bench.ts
import { bench, run, summary } from 'mitata'
import { createApp } from '../src/app'
import { systemClock } from '../src/clock'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { silentLogger } from '../src/logger'
import { createUser } from '../src/modules/account/service'
import { argon2idHasher } from '../src/modules/auth/password'
import { normalizePosted, upsertCompletion } from '../src/modules/completions/service'
import type { ChangeDelta } from '../src/modules/events/feed'
import type { Progress } from '../src/web/api'
import { applyChange } from '../src/web/tracker/changes'

const db = openDatabase(':memory:')
const passwordHasher = argon2idHasher({ memoryCost: 8, timeCost: 1 })
const deps = {
  db,
  config: loadConfig({ CATALOG_SYNC_CRON: 'off' }),
  clock: systemClock,
  logger: silentLogger,
  passwordHasher,
}
const app = createApp(deps)
await createUser(deps, { username: 'bench', password: 'bench password' })
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
const { token } = (await (
  await call('POST', '/api/plugin/auth/login', { identifier: 'bench', password: 'bench password' })
).json()) as {
  token: string
}
const auth = { authorization: `Bearer ${token}` }
const { id } = (await (await call('POST', '/api/plugin/characters', { givenName: 'Bench' }, auth)).json()) as {
  id: number
}
// 10,000 completions (distinct quests, remakes and settings) through the service's own upsert, in
// one transaction: a PUT of the whole set would pass the 1 MiB body limit.
const settings = ['casual', 'normal', 'hard', 'elite', 'reaper']
db.transaction(() => {
  for (let i = 0; i < 10_000; i++) {
    const completion = normalizePosted(
      {
        name: `Quest ${Math.floor(i / 10)}`,
        difficulty: ['Heroic', 'Epic'][i % 2],
        setting: settings[Math.floor(i / 2) % 5],
        completedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        durationSeconds: 600,
        xpEarned: 5000,
      },
      new Date().toISOString(),
    )
    upsertCompletion(db, id, completion, new Date().toISOString(), { lifeIndex: 1, run: true })
  }
})
const answer = await (await call('GET', `/api/plugin/characters/${id}/progress`, undefined, auth)).text()
const held = JSON.parse(answer) as Progress

// The event a post sends, as a stream writes it.
const cookie = await call('POST', '/api/session', { identifier: 'bench', password: 'bench password' })
const session = (cookie.headers.get('set-cookie') ?? '').split(';')[0] as string
const stream = await app.handle(
  new Request(`http://localhost/api/characters/${id}/events`, { headers: { cookie: session } }),
)
const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
await reader.read() // ": connected"
await call(
  'POST',
  `/api/plugin/characters/${id}/completions`,
  { name: 'Quest 5', difficulty: 'Heroic', setting: 'reaper' },
  auth,
)
const eventText = new TextDecoder().decode((await reader.read()).value)
await reader.cancel()
const event = JSON.parse(/data: (.*)/.exec(eventText)?.[1] as string) as { delta: ChangeDelta }

console.log(`progress answer at 10,000 completions: ${answer.length.toLocaleString('en-US')} bytes`)
console.log(`the event of a completion posted:      ${eventText.length.toLocaleString('en-US')} bytes`)
summary(() => {
  bench('apply the event to the progress held (10,000 completions)', () => applyChange(held, event.delta))
  bench('parse the progress answer a re-read fetches', () => JSON.parse(answer))
})
await run()
process.exit(0)
