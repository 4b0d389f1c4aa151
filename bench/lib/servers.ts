// Starts a server for the benchmarks and prints one JSON line {port, token} on stdout.
//   bun bench/lib/servers.ts app    -- Quest Tracker itself (createApp) on a temporary database
//   bun bench/lib/servers.ts bare   -- a bare Bun.serve answering the same paths with the same bytes
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { systemClock } from '../../src/clock'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { silentLogger } from '../../src/logger'
import { createLoginGuard } from '../../src/modules/auth/login-guard'
import { productionHasher } from '../../src/modules/auth/password'
import { createUser, login } from '../../src/modules/auth/service'

const kind = Bun.argv[2]
const config = loadConfig({ ...process.env, CATALOG_SYNC_CRON: 'off' })
const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'qt-bench-')), 'qt.sqlite'), {
  synchronous: config.databaseSynchronous,
})
const deps = { db, config, clock: systemClock, logger: silentLogger, passwordHasher: productionHasher }
// BENCH_USERS=n adds accounts bench2..benchN (same password) for benchmarks of many players.
const users = Math.max(1, Number(process.env.BENCH_USERS ?? 1))
const loginGuard = createLoginGuard(deps)
const tokens: string[] = []
for (let i = 1; i <= users; i++) {
  const username = i === 1 ? 'bench' : `bench${i}`
  await createUser(deps, { username, password: 'bench password' })
  tokens.push((await login(deps, loginGuard, username, 'bench password', 'b', undefined)).token)
}
const token = tokens[0] as string
const user = { id: 1, email: null, username: 'bench', displayName: 'bench' }

if (kind === 'app') {
  const app = createApp(deps).listen({
    port: 0,
    hostname: '127.0.0.1',
  })
  console.log(JSON.stringify({ port: app.server?.port, token, tokens }))
} else if (kind === 'bare') {
  const health = JSON.stringify({ ok: true })
  const me = JSON.stringify(user)
  const headers = { 'content-type': 'application/json;charset=utf-8', 'access-control-allow-origin': '*' }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname
      if (path === '/api/health') return new Response(health, { headers })
      if (path === '/api/plugin/auth/me') return new Response(me, { headers })
      return new Response('{"error":"not found"}', { status: 404, headers })
    },
  })
  console.log(JSON.stringify({ port: server.port, token }))
} else {
  console.error('usage: bun bench/lib/servers.ts app|bare')
  process.exit(2)
}
