// The website's live updates: time from a plugin POST of a completion to its event on every one
// of N open event streams (default 50), on a file database at the configured synchronous.
//   bun bench/events.bench.ts [streams] [posts]
// The server runs in its own process (bench/lib/servers.ts), as in production.
const STREAMS = Number(Bun.argv[2] ?? 50)
const POSTS = Number(Bun.argv[3] ?? 200)

async function readFirstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes('\n')) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value)
  }
  reader.releaseLock()
  return text.split('\n')[0] as string
}

const server = Bun.spawn(['bun', 'bench/lib/servers.ts', 'app'], { stdout: 'pipe', stderr: 'inherit' })
const { port, token } = JSON.parse(await readFirstLine(server.stdout)) as { port: number; token: string }
const base = `http://127.0.0.1:${port}`
const json = { 'content-type': 'application/json' }

const character = (await (
  await fetch(`${base}/api/plugin/characters`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ givenName: 'Bench' }),
  })
).json()) as { id: number }
const signIn = await fetch(`${base}/api/session`, {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ identifier: 'bench', password: 'bench password' }),
})
const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string

/** One open stream: resolves `waiters` in order as change events arrive. */
function openStream() {
  const waiters: ((at: number) => void)[] = []
  const ready = fetch(`${base}/api/characters/${character.id}/events`, { headers: { cookie } }).then(
    async (response) => {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader()
      const decoder = new TextDecoder()
      let buffer = ''
      const pump = async () => {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return
          buffer += decoder.decode(value)
          let end = buffer.indexOf('\n\n')
          while (end >= 0) {
            const event = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            if (event.startsWith('event: change')) waiters.shift()?.(performance.now())
            end = buffer.indexOf('\n\n')
          }
        }
      }
      void pump()
      return reader
    },
  )
  return { ready, next: () => new Promise<number>((resolve) => waiters.push(resolve)) }
}

const streams = Array.from({ length: STREAMS }, openStream)
await Promise.all(streams.map((s) => s.ready))
await Bun.sleep(200)

const firstMs: number[] = []
const lastMs: number[] = []
for (let i = 0; i < POSTS; i++) {
  const arrivals = Promise.all(streams.map((s) => s.next()))
  const start = performance.now()
  const response = await fetch(`${base}/api/plugin/characters/${character.id}/completions`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: `Quest ${i}`, setting: 'elite' }),
  })
  await response.arrayBuffer()
  const times = await arrivals
  firstMs.push(Math.min(...times) - start)
  lastMs.push(Math.max(...times) - start)
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number).toFixed(2)
}
console.log(`events: ${STREAMS} open streams, ${POSTS} plugin POSTs (time from POST sent to event received)`)
console.log('| to | p50 ms | p90 ms | p99 ms | max ms |')
console.log('|---|--:|--:|--:|--:|')
for (const [label, values] of [
  ['first stream', firstMs],
  [`all ${STREAMS} streams`, lastMs],
] as const) {
  console.log(`| ${label} | ${pct(values, 50)} | ${pct(values, 90)} | ${pct(values, 99)} | ${pct(values, 100)} |`)
}
server.kill()
process.exit(0)
export {}
