// End to end through the compiled executable: build it, add an account through its CLI,
// start it on a temporary database and log in over HTTP.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import packageJson from '../package.json'
import { SCHEMA_VERSION } from '../src/db/migrate'
import { verifyBackup } from '../src/maintenance/backup'
import { compiledBinary } from './compiled'
import { listeningPort } from './listening'

let dir: string
let binary: string
let server: ReturnType<typeof Bun.spawn> | undefined

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qt-bin-'))
  binary = await compiledBinary()
}, 120_000)

afterAll(async () => {
  server?.kill()
  await server?.exited
  await rm(dir, { recursive: true, force: true })
})

describe('dist/quest-tracker', () => {
  test('has the same CLI: --help exits 0, misuse exits 2 with one line', () => {
    const help = Bun.spawnSync([binary, '--help'], { cwd: tmpdir() })
    expect(help.exitCode).toBe(0)
    expect(help.stdout.toString()).toContain('Usage: quest-tracker [command]')
    // The version is embedded at build time: no package.json beside the binary.
    const version = Bun.spawnSync([binary, '--version'], { cwd: tmpdir() })
    expect(version.stdout.toString()).toBe(`quest-tracker ${packageJson.version} (schema ${SCHEMA_VERSION})\n`)
    const misuse = Bun.spawnSync([binary, 'frobnicate'], { cwd: tmpdir() })
    expect(misuse.exitCode).toBe(2)
    expect(misuse.stderr.toString()).toBe('quest-tracker: unknown command "frobnicate" (see quest-tracker --help)\n')
    const badConfig = Bun.spawnSync([binary, 'serve'], { cwd: tmpdir(), env: { ...process.env, PORT: 'eighty' } })
    expect(badConfig.exitCode).toBe(2)
    expect(badConfig.stderr.toString().trim().split('\n')).toHaveLength(1)
  })

  test('adds an account, serves, and logs in', async () => {
    // Run from another folder: the binary must not depend on where it was built. The first-start
    // sync reads our small fixture, not the wiki: no test reaches the network.
    const env = {
      ...process.env,
      DATABASE_PATH: join(dir, 'data', 'qt.sqlite'),
      CATALOG_SYNC_CRON: 'off',
      CATALOG_SOURCE_URL: join(import.meta.dir, 'fixtures', 'catalog-small.json'),
      // Every second: the scheduled backup's thread is an entry point of the build of its own.
      BACKUP_CRON: '* * * * * *',
    }
    const add = Bun.spawnSync([binary, 'user', 'add', '--username', 'gamer'], {
      cwd: tmpdir(),
      env,
      stdin: new TextEncoder().encode('binary password\n'),
    })
    expect(add.stderr.toString()).toBe(`quest-tracker: database ${env.DATABASE_PATH}\n`)
    expect(add.exitCode).toBe(0)

    server = Bun.spawn([binary, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: tmpdir(),
      env,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const base = `http://127.0.0.1:${await listeningPort(server.stdout as ReadableStream<Uint8Array>)}`
    expect(await (await fetch(`${base}/api/health`)).json()).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION })

    const login = await fetch(`${base}/api/plugin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'GAMER', password: 'binary password' }),
    })
    expect(login.status).toBe(200)
    const { token } = (await login.json()) as { token: string }
    const me = await fetch(`${base}/api/plugin/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect(await me.json()).toEqual({ id: 1, email: null, username: 'gamer', displayName: 'gamer' })

    // The docs page and its assets are embedded in the executable.
    const page = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)
    expect(page.status).toBe(200)
    expect((await page.text()).length).toBeGreaterThan(100_000)
    // So is the website: its page, and the hashed script the page loads.
    const site = await fetch(`${base}/login`)
    expect(site.headers.get('content-security-policy')).toContain("script-src 'self'")
    // The page's scripts: the small boot script that starts the first reads, and the app.
    const scripts = [...(await site.text()).matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
    expect(scripts.length).toBeGreaterThan(0)
    const sizes = []
    for (const script of scripts) {
      const bundle = await fetch(`${base}${script}`)
      expect(bundle.status).toBe(200)
      sizes.push((await bundle.text()).length)
    }
    expect(Math.max(...sizes)).toBeGreaterThan(10_000)
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { info: { version: string } }
    expect(doc.info.version).toBe('6.0.0')
    // The catalog that ships inside the executable filled the new database (718 quests) before
    // any source was read; the first-start sync then merged the fixture's 12 rows in.
    let count = 0
    for (let i = 0; i < 100 && count !== 730; i++, await Bun.sleep(20)) {
      count = ((await (await fetch(`${base}/api/quests`)).json()) as { count: number }).count
      expect(count === 718 || count === 730).toBe(true)
    }
    expect(count).toBe(730)
    // The drawing of the tracker's first screen is in the executable too: the owner's page has it.
    const made = await fetch(`${base}/api/plugin/characters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ givenName: 'Binarion' }),
    })
    const { id } = (await made.json()) as { id: number }
    const session = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'gamer', password: 'binary password' }),
    })
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string
    const tracker = await (await fetch(`${base}/characters/${id}`, { headers: { cookie } })).text()
    expect(tracker).toContain('<div id="app" data-first-screen inert>')
    expect(tracker).toContain('<h1>Binarion</h1>')
    // A scheduled backup was written by its thread, inside the executable too.
    const backups = join(dir, 'data', 'backups')
    let written: string[] = []
    for (let i = 0; i < 150 && written.length === 0; i++, await Bun.sleep(20)) {
      written = existsSync(backups) ? readdirSync(backups).filter((name) => name.endsWith('.sqlite')) : []
    }
    expect(written.length).toBeGreaterThan(0)
    expect(verifyBackup(join(backups, written[0] as string)).schemaVersion).toBe(SCHEMA_VERSION)
  }, 60_000)
})
