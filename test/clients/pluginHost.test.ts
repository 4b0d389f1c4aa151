// The game plugin DungeonTracker has its server compiled in: https://ddotracker.zepsu.com/api/plugin
// (settoloki/DungeonTracker, DdoTrackerApiClient.DefaultBaseUrl; no setting). On a LAN, that name
// can lead to this server (the router's DNS or the game PC's hosts file), with a certificate for it
// from the home CA the game PC trusts, on port 443. Here: a test CA and a certificate for the name
// made with openssl as mkcert would; a client that resolves the name to this machine and trusts
// that CA, as the game PC would; and the plugin's own requests. Then the compiled executable,
// given cap_net_bind_service by setcap, serving that name on port 443 as an unprivileged user.
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { chownSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import { createServer, type LookupFunction } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../src/clock'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { silentLogger } from '../../src/logger'
import { createUser } from '../../src/modules/account/service'
import { type RunningServer, startServer } from '../../src/server'
import { AS_NOBODY, compiledBinary, NOBODY, whyNobodyCannotRun } from '../compiled'
import { cheapHasher } from '../helpers'

const PLUGIN_HOST = 'ddotracker.zepsu.com'
const PASSWORD = 'correct horse battery'
const openssl = Bun.which('openssl')
if (!openssl) {
  if (process.env.CI === 'true') throw new Error('CI=true and no openssl on PATH: the plugin host tests need it')
  console.warn('skipped: no openssl on PATH (the plugin host tests make their certificates with it)')
}

const scratch = mkdtempSync(join(tmpdir(), 'qt-plugin-host-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function ssl(args: string[]): void {
  const made = Bun.spawnSync([openssl ?? 'openssl', ...args], { stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`openssl ${args[0]}: ${made.stderr.toString()}`)
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

/** A home certificate authority, as `mkcert -install` makes one. */
function makeAuthority(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'rootCA.pem')
  const key = join(dir, 'rootCA-key.pem')
  ssl(['req', '-x509', ...EC, '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=Quest Tracker test CA'])
  return { cert, key }
}

/** A certificate for `names`, signed by the authority, as `mkcert NAME` makes one. */
function makeCertificate(dir: string, authority: { cert: string; key: string }, names: string[]) {
  const cert = join(dir, `${names[0]}.pem`)
  const key = join(dir, `${names[0]}-key.pem`)
  const request = join(dir, `${names[0]}.csr`)
  const extensions = join(dir, `${names[0]}.ext`)
  ssl(['req', ...EC, '-keyout', key, '-out', request, '-subj', `/CN=${names[0]}`])
  writeFileSync(
    extensions,
    `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}\nextendedKeyUsage=serverAuth\n`,
  )
  ssl([
    'x509',
    '-req',
    '-in',
    request,
    '-CA',
    authority.cert,
    '-CAkey',
    authority.key,
    '-CAcreateserial',
    '-out',
    cert,
    '-days',
    '2',
    '-extfile',
    extensions,
  ])
  return { cert, key }
}

/** What the game PC's hosts file (or the router's DNS) does: the plugin's host is this machine. */
const toThisMachine: LookupFunction = (_host, options, done) => {
  if (options.all) done(null, [{ address: '127.0.0.1', family: 4 }])
  else done(null, '127.0.0.1', 4)
}

interface Answer {
  status: number
  body: Record<string, unknown>
}

/**
 * The game PC: `ddotracker.zepsu.com` resolves to this machine (its hosts file, or the router's
 * DNS), the home CA is trusted (`mkcert -install`), and the plugin's HttpClient checks the name.
 */
function gamePc(port: number, trusted: string | null) {
  return (method: string, path: string, body?: unknown, token?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const request = https.request(
        {
          hostname: PLUGIN_HOST,
          port,
          method,
          path: `/api/plugin/${path}`,
          ...(trusted ? { ca: readFileSync(trusted, 'utf8') } : {}),
          lookup: toThisMachine,
          headers: {
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (response) => {
          let text = ''
          response.on('data', (chunk) => {
            text += chunk
          })
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : {} }))
        },
      )
      request.on('error', reject)
      request.end(body === undefined ? undefined : JSON.stringify(body))
    })
}

let running: RunningServer | null = null
afterEach(async () => {
  await running?.stop('test')
  running = null
})

/** The real server over HTTPS with `certificate`, an account "alice" in its database. */
async function serve(dir: string, certificate: { cert: string; key: string }): Promise<number> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: join(dir, 'qt.sqlite'),
    TLS_CERT_FILE: certificate.cert,
    TLS_KEY_FILE: certificate.key,
    CATALOG_SOURCE_URL: join(import.meta.dir, '..', 'fixtures', 'catalog-small.json'),
    CATALOG_SYNC_CRON: 'off',
    BACKUP_CRON: 'off',
    MAINTENANCE_CRON: 'off',
  })
  const db = openDatabase(config.databasePath)
  await createUser({ db, clock: systemClock, passwordHasher: cheapHasher }, { username: 'alice', password: PASSWORD })
  db.$client.close()
  running = await startServer({ config, logger: silentLogger, passwordHasher: cheapHasher })
  return running.port
}

describe.skipIf(!openssl)(`this server, as ${PLUGIN_HOST}`, () => {
  test("answers the plugin's own requests over HTTPS with a certificate for that name from the home CA", async () => {
    const dir = join(scratch, 'served')
    mkdirSync(dir)
    const authority = makeAuthority(dir)
    const port = await serve(dir, makeCertificate(dir, authority, [PLUGIN_HOST]))
    const call = gamePc(port, authority.cert)
    // LoginAsync, GetMeAsync, CreateCharacterAsync, FindCharactersAsync, PostCompletionAsync, GetQuestsJsonAsync.
    const login = await call('POST', 'auth/login', { email: 'alice', password: PASSWORD, label: 'dungeonhelper' })
    expect(login.status).toBe(200)
    const token = String(login.body.token)
    expect((await call('GET', 'auth/me', undefined, token)).body).toMatchObject({ username: 'alice' })
    const made = await call('POST', 'characters', { name: 'Tordek', givenName: 'Tordek', server: 'Thrane' }, token)
    expect(made.status).toBe(201)
    const found = await call('GET', 'characters/find?givenName=Tordek&name=Tordek', undefined, token)
    expect((found.body.characters as { id: number }[])[0]?.id).toBe(made.body.id as number)
    const completion = {
      name: 'Misery\u2019s Peak',
      difficulty: 'Heroic',
      setting: 'elite',
      durationSeconds: 900,
      completedAt: '2026-11-28T21:00:00.0000000Z',
    }
    expect((await call('POST', `characters/${made.body.id}/completions`, completion, token)).status).toBe(201)
    const quests = await call('GET', 'quests', undefined, token)
    expect(quests.body.count as number).toBeGreaterThanOrEqual(718)
  })

  test('a game PC that does not trust the home CA, or a certificate for another name, is refused', async () => {
    const dir = join(scratch, 'refused')
    mkdirSync(dir)
    const authority = makeAuthority(dir)
    const port = await serve(dir, makeCertificate(dir, authority, ['qt.home.arpa']))
    // Trusted CA, but the certificate names another host: the name check refuses it.
    await expect(gamePc(port, authority.cert)('GET', '')).rejects.toThrow(/altnames|hostname|Hostname/i)
    await running?.stop('test')
    running = null
    const dir2 = join(scratch, 'untrusted')
    mkdirSync(dir2)
    const other = makeAuthority(dir2)
    const port2 = await serve(dir2, makeCertificate(dir2, other, [PLUGIN_HOST]))
    // The right name, an authority the game PC was never told to trust.
    await expect(gamePc(port2, null)('GET', '')).rejects.toThrow(/verify|self.signed|certificate/i)
  })
})

/** Whether nothing listens on 127.0.0.1:`port` yet. */
const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })

/** Why the setcap test cannot run here, or null. */
async function whySetcapCannotRun(): Promise<string | null> {
  if (!openssl) return 'no openssl'
  if (process.getuid?.() !== 0) return 'setcap and the switch to another user need root'
  if (!Bun.which('setcap')) return 'no setcap on PATH (Debian: libcap2-bin)'
  if (!(await free(443))) return 'port 443 is in use on this machine'
  return null
}
const setcapSkip = await whySetcapCannotRun()
if (setcapSkip) console.warn(`skipped: ${setcapSkip} (port 443 without root, through setcap)`)

describe.skipIf(setcapSkip !== null)('port 443 without root', () => {
  test('the executable given cap_net_bind_service serves HTTPS on 443 as an unprivileged user', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qt-setcap-'))
    try {
      Bun.spawnSync(['chmod', '755', dir])
      const binary = join(dir, 'quest-tracker')
      copyFileSync(await compiledBinary(), binary)
      Bun.spawnSync(['chmod', '755', binary])
      const why = whyNobodyCannotRun(binary, dir)
      if (why) return console.warn(`skipped: ${why}`)
      const granted = Bun.spawnSync(['setcap', 'cap_net_bind_service=+ep', binary], { stderr: 'pipe' })
      if (granted.exitCode !== 0) {
        return console.warn(`skipped: setcap refused here (${granted.stderr.toString().trim()})`)
      }
      const authority = makeAuthority(dir)
      const certificate = makeCertificate(dir, authority, [PLUGIN_HOST])
      Bun.spawnSync(['chmod', '644', certificate.cert, certificate.key])
      // The database's folder belongs to the user the server runs as.
      const data = join(dir, 'data')
      mkdirSync(data)
      chownSync(data, NOBODY, NOBODY)
      const server = Bun.spawn(
        [...AS_NOBODY, binary, 'serve', '--port', '443', '--host', '127.0.0.1', '--database', join(data, 'qt.sqlite')],
        {
          env: {
            PATH: process.env.PATH ?? '',
            TLS_CERT_FILE: certificate.cert,
            TLS_KEY_FILE: certificate.key,
            CATALOG_SOURCE_URL: join(dir, 'none.json'),
            CATALOG_SYNC_CRON: 'off',
            BACKUP_CRON: 'off',
            MAINTENANCE_CRON: 'off',
          },
          stdout: 'pipe',
          stderr: 'pipe',
        },
      )
      try {
        const { listeningPort } = await import('../listening')
        expect(await listeningPort(server.stdout)).toBe(443)
        const health = await new Promise<number>((resolve, reject) => {
          https
            .get(
              {
                hostname: PLUGIN_HOST,
                port: 443,
                path: '/api/health',
                ca: readFileSync(authority.cert, 'utf8'),
                lookup: toThisMachine,
              },
              (response) => {
                response.resume()
                resolve(response.statusCode ?? 0)
              },
            )
            .on('error', reject)
        })
        expect(health).toBe(200)
      } finally {
        server.kill()
        await server.exited
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
