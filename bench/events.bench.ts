// The website's live updates: time from a plugin POST of a completion to its server-sent event,
// with 50 event streams open. Two shapes of load, on a file database at the configured
// synchronous (DATABASE_SYNCHRONOUS, default full), the server in its own process:
//   players: 50 accounts, each with one character and one open tracker; posts go round-robin
//   tabs:    one character watched by 25 streams (one account's tabs); every post reaches all 25
//   bun bench/events.bench.ts [posts]
import { readFirstLine } from './lib/servers'

const POSTS = Number(Bun.argv[2] ?? 200)
const PLAYERS = 50
const TABS = 25

const server = Bun.spawn(['bun', 'bench/lib/servers.ts', 'app'], {
  stdout: 'pipe',
  stderr: 'inherit',
  env: { ...process.env, BENCH_USERS: String(PLAYERS) },
})
const { port, tokens } = JSON.parse(await readFirstLine(server.stdout)) as { port: number; tokens: string[] }
const base = `http://127.0.0.1:${port}`
const json = { 'content-type': 'application/json' }

interface Player {
  token: string
  cookie: string
  characterId: number
}

async function player(token: string, index: number): Promise<Player> {
  const character = await fetch(`${base}/api/plugin/characters`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ givenName: `Bench${index}` }),
  })
  const signIn = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ identifier: index === 0 ? 'bench' : `bench${index + 1}`, password: 'bench password' }),
  })
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`)
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string
  return { token, cookie, characterId: ((await character.json()) as { id: number }).id }
}

/** One open stream: hands the arrival time of each change event to the next waiter. */
async function openStream(p: Player) {
  const waiters: ((at: number) => void)[] = []
  const response = await fetch(`${base}/api/characters/${p.characterId}/events`, { headers: { cookie: p.cookie } })
  if (response.status !== 200) throw new Error(`events answered ${response.status}`)
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      buffer += decoder.decode(value)
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        if (buffer.startsWith('event: change')) waiters.shift()?.(performance.now())
        buffer = buffer.slice(end + 2)
      }
    }
  })()
  return { next: () => new Promise<number>((resolve) => waiters.push(resolve)), close: () => reader.cancel() }
}

const post = (p: Player, i: number) =>
  fetch(`${base}/api/plugin/characters/${p.characterId}/completions`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${p.token}` },
    body: JSON.stringify({ name: `Quest ${i}`, setting: 'elite' }),
  }).then((response) => response.arrayBuffer())

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number).toFixed(2)
}
const row = (label: string, values: number[]) =>
  `| ${label} | ${pct(values, 50)} | ${pct(values, 90)} | ${pct(values, 99)} | ${pct(values, 100)} |`

// One sign-in at a time: the login guard answers 503 beyond 2 password checks in flight and 16
// waiting, so 50 at once were refused.
const players: Player[] = []
for (const [index, token] of tokens.entries()) players.push(await player(token, index))

// players: one stream per account, posts round-robin over the accounts.
const perPlayer = await Promise.all(players.map(openStream))
await Bun.sleep(200)
const playerMs: number[] = []
for (let i = 0; i < POSTS; i++) {
  const who = i % PLAYERS
  const arrival = (perPlayer[who] as Awaited<ReturnType<typeof openStream>>).next()
  const start = performance.now()
  await post(players[who] as Player, i)
  playerMs.push((await arrival) - start)
}
await Promise.all(perPlayer.map((s) => s.close()))

// tabs: 25 streams on the first player's character; each post must reach all of them.
const first = players[0] as Player
const tabs = await Promise.all(Array.from({ length: TABS }, () => openStream(first)))
await Bun.sleep(200)
const firstTabMs: number[] = []
const allTabsMs: number[] = []
for (let i = 0; i < POSTS; i++) {
  const arrivals = Promise.all(tabs.map((s) => s.next()))
  const start = performance.now()
  await post(first, POSTS + i)
  const times = await arrivals
  firstTabMs.push(Math.min(...times) - start)
  allTabsMs.push(Math.max(...times) - start)
}

console.log(`events: ${POSTS} plugin POSTs per shape; time from the POST sent to the event read, ms`)
console.log('| shape | p50 | p90 | p99 | max |')
console.log('|---|--:|--:|--:|--:|')
console.log(row(`${PLAYERS} players, one stream each`, playerMs))
console.log(row(`${TABS} tabs on one character: first tab`, firstTabMs))
console.log(row(`${TABS} tabs on one character: last tab`, allTabsMs))
server.kill()
process.exit(0)
