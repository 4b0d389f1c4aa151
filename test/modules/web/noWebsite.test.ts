// A fresh checkout after `npm ci`, before the website was ever built: every admin command works,
// and `serve` starts, logs one line on how to build the website, and its pages say the same;
// the API answers meanwhile. Run from a copy of src/ without src/web/dist/ (the tests' own
// checkout has the build, which other test files use).
import { afterAll, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCHEMA_VERSION } from '../../../src/db/migrate'
import { SITE_NOT_BUILT } from '../../../src/modules/web/site'
import { listeningPort } from '../../listening'

const root = join(import.meta.dir, '..', '..', '..')
const copy = mkdtempSync(join(tmpdir(), 'qt-unbuilt-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))
cpSync(join(root, 'src'), join(copy, 'src'), {
  recursive: true,
  filter: (path) => !path.startsWith(join(root, 'src', 'web', 'dist')),
})
for (const file of ['package.json', 'tsconfig.json']) cpSync(join(root, file), join(copy, file))
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'))

const env = {
  PATH: process.env.PATH ?? '',
  HOME: copy,
  DATABASE_PATH: join(copy, 'data', 'qt.sqlite'),
  CATALOG_SOURCE_URL: join(import.meta.dir, '..', '..', 'fixtures', 'catalog-small.json'),
  CATALOG_SYNC_CRON: 'off',
}
const main = join(copy, 'src', 'main.ts')

test('`npm run cli -- user add` works before the website is built (it crashed on the missing build)', () => {
  const add = Bun.spawnSync([process.execPath, main, 'user', 'add', '--username', 'alice'], {
    cwd: copy,
    env,
    stdin: new TextEncoder().encode('first password\n'),
  })
  expect(add.stderr.toString()).toBe(`quest-tracker: database ${env.DATABASE_PATH}\n`)
  expect(add.stdout.toString()).toBe('created account 1 ("alice")\n')
  expect(add.exitCode).toBe(0)
  const list = Bun.spawnSync([process.execPath, main, 'user', 'list'], { cwd: copy, env })
  expect(list.exitCode).toBe(0)
  expect(list.stdout.toString()).toContain('alice')
})

test('`serve` before the build: one line says how to build the website; pages say it, the API answers', async () => {
  const server = Bun.spawn([process.execPath, main, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: copy,
    env,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    const base = `http://127.0.0.1:${await listeningPort(server.stdout)}`
    expect(await (await fetch(`${base}/api/health`)).json()).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION })
    const page = await fetch(`${base}/login`, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(503)
    expect(await page.json()).toEqual({ error: SITE_NOT_BUILT })
    expect((await fetch(`${base}/assets/index-abcdef12.js`)).status).toBe(503)
  } finally {
    server.kill()
    await server.exited
  }
  const warnings = (await new Response(server.stderr).text()).split('\n').filter((line) => line.includes('website'))
  expect(warnings).toEqual([expect.stringMatching(new RegExp(` warn {2}${SITE_NOT_BUILT.replace(/[.()]/g, '\\$&')}$`))])
})
