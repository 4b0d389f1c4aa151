// `quest-tracker serve`: the server from the command line, its log, and stopping it.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import packageJson from '../../package.json'
import { run } from '../../src/cli'
import { SCHEMA_VERSION } from '../../src/db/migrate'
import { dbPath, err, io, out, useCli, withDb } from './cli'

useCli()

describe('quest-tracker serve', () => {
  const source = join(import.meta.dir, '..', 'fixtures', 'catalog-small.json')

  /** Serves on a free port with `env`, runs `whileUp` against it, then stops. */
  const serveWith = (env: Record<string, string>, whileUp: (base: string) => Promise<void>) =>
    run(['serve', '--port', '0', '--host', '127.0.0.1'], {
      ...io(),
      // info: the listening line names the port
      env: { ...io().env, CATALOG_SOURCE_URL: source, CATALOG_SYNC_CRON: 'off', LOG_LEVEL: 'info', ...env },
      untilStopped: async (stop) => {
        const port = /port (\d+)/.exec(out.join('\n'))?.[1]
        try {
          await whileUp(`http://127.0.0.1:${port}`)
        } finally {
          await stop('test')
        }
      },
    })

  /** Waits for a log line matching `pattern` (request lines are written just after the answer). */
  const logged = async (pattern: RegExp) => {
    for (let i = 0; i < 50 && !out.some((line) => pattern.test(line)); i++) await Bun.sleep(10)
    return out.find((line) => pattern.test(line))
  }

  test('listens, answers at once with the catalog that ships with it, syncs in the background, and stops cleanly', async () => {
    let stopped = false
    const code = await serveWith({ CATALOG_SYNC_CRON: '0 3 * * *' }, async (base) => {
      const response = await fetch(`${base}/api/health`)
      const health = (await response.json()) as { ok: boolean; schemaVersion: number; catalog: { rows: number } }
      expect(health).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION })
      // The shipped catalog's 718 at once, or 730 once the file (read in a moment) is merged in.
      expect([718, 730]).toContain(health.catalog.rows)
      // The small list's 12 quests, named otherwise than the wiki's, are merged in.
      let rows = 0
      for (let i = 0; i < 50 && rows < 730; i++) {
        await Bun.sleep(20)
        rows = withDb((db) => (db.$client.query('SELECT count(*) AS n FROM quests').get() as { n: number }).n)
      }
      expect(rows).toBe(730)
      stopped = true
    })
    expect(code).toBe(0)
    expect(stopped).toBe(true)
    expect(existsSync(dbPath)).toBe(true)
  })

  test('CATALOG_SYNC_CRON=off: the first sync of a catalog never synced runs all the same, and one line says why', async () => {
    await serveWith({}, async () => {
      for (let i = 0; i < 50 && !out.some((line) => line.includes('never synced')); i++) await Bun.sleep(10)
    })
    const lines = out.filter((line) => line.includes('never synced'))
    expect(lines).toEqual([
      expect.stringContaining(
        'The quest catalog was never synced; syncing it once from ' +
          source +
          ' in the background. CATALOG_SYNC_CRON=off stops only the daily sync. To stay offline, load a file with: quest-tracker catalog sync --from FILE',
      ),
    ])
  })

  test('logs one listening line, one line per request (query secrets masked), and the shutdown', async () => {
    await serveWith({}, async (base) => {
      await fetch(`${base}/api/plugin/quests?token=abc123&name=Crypt`)
      expect(await logged(/GET \/api\/plugin\/quests/)).toMatch(
        / info {2}GET \/api\/plugin\/quests\?token=\*\*\*&name=Crypt 401 [\d.]+ ms$/,
      )
      await fetch(`${base}/api/plugin/nope`, { method: 'POST', body: '{}' })
      expect(await logged(/nope/)).toMatch(/ info {2}POST \/api\/plugin\/nope 404 [\d.]+ ms$/)
      // A refused login stands out (warn, on stderr) with the name tried and the address; the
      // request line itself stays at info.
      await fetch(`${base}/api/plugin/auth/login`, { method: 'POST', body: '{"identifier":"x","password":"y"}' })
      for (let i = 0; i < 50 && !err.some((line) => line.includes('failed login')); i++) await Bun.sleep(10)
      expect(err.find((line) => line.includes('failed login'))).toMatch(
        / warn {2}failed login: unknown name "x" from 127\.0\.0\.1$/,
      )
      expect(await logged(/auth\/login/)).toMatch(/ info {2}POST \/api\/plugin\/auth\/login 401 [\d.]+ ms$/)
    })
    const listening = out.filter((line) => line.includes('listening'))
    expect(listening).toEqual([
      expect.stringMatching(
        new RegExp(
          ` info  Quest Tracker ${packageJson.version} listening on port \\d+ \\(HOST 127\\.0\\.0\\.1\\), database ${dbPath}$`,
        ),
      ),
    ])
    expect(out.join('\n')).not.toContain('abc123')
    expect(out.at(-1)).toEndWith(' info  Quest Tracker shutting down (test)')
  })

  test('LOG_FORMAT=json: every line is one JSON object; a request line carries its facts as fields', async () => {
    await serveWith({ LOG_FORMAT: 'json' }, async (base) => {
      await fetch(`${base}/api/plugin/info`)
      await logged(/plugin\/info/)
    })
    const lines = out.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => [typeof line.time, line.level, typeof line.msg])).toEqual(
      lines.map(() => ['string', 'info', 'string']),
    )
    const request = lines.find((line) => line.path === '/api/plugin/info') ?? {}
    expect(String(request.msg)).toMatch(/^GET \/api\/plugin\/info 401 [\d.]+ ms$/)
    expect([request.method, request.status, typeof request.ms]).toEqual(['GET', 401, 'number'])
    expect(typeof lines.find((line) => String(line.msg).includes('listening'))?.port).toBe('number')
  })

  test('offline first start: names the way out (catalog sync --from FILE), retries, and stops at once', async () => {
    let stopping = 0
    const offline = join(dbPath, '..', 'not-downloaded.html') // fails like a fetch without network
    await serveWith({ CATALOG_SOURCE_URL: offline }, async () => {
      for (let i = 0; i < 100 && !err.some((line) => line.includes('trying the sources again')); i++)
        await Bun.sleep(10)
      stopping = performance.now()
    })
    expect(performance.now() - stopping).toBeLessThan(500) // no waiting for the next try
    expect(err).toEqual([
      expect.stringContaining(
        `Catalog sync from ${offline} failed; the current catalog (718 rows) is kept: it does not exist.`,
      ),
      expect.stringContaining(
        'The quest catalog keeps its 718 rows meanwhile; trying the sources again in 1 min. Without internet access, or when every source refuses this server, load a saved copy of the wiki page or a JSON file of quests: quest-tracker catalog sync --from FILE',
      ),
    ])
  })

  test('LOG_LEVEL=debug adds the configuration, the database check, the schedule and health checks', async () => {
    await serveWith({ LOG_LEVEL: 'debug' }, async (base) => {
      await fetch(`${base}/api/health`)
      await logged(/api\/health/)
    })
    const debug = out.filter((line) => line.includes(' debug '))
    expect(debug).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`configuration: PORT=0 HOST=127.0.0.1 DATABASE_PATH=${dbPath}`),
        // Every variable of the schema, the last ones too.
        expect.stringMatching(
          /LOG_FORMAT=text TRUSTED_PROXY=none TLS_CERT_FILE=none TLS_KEY_FILE=none TOKEN_IDLE_DAYS=180 SIGNUP_INVITES=off busy_timeout=\d+ms$/,
        ),
        expect.stringContaining(`database ${dbPath}: `),
        expect.stringContaining('scheduled catalog sync: off'),
        expect.stringMatching(/GET \/api\/health 200 [\d.]+ ms$/),
      ]),
    )
  })
})
