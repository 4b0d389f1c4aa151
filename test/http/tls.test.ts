// HTTPS on the server's own port (TLS_CERT_FILE, TLS_KEY_FILE): served on PORT and nothing in
// the clear there, the session cookie Secure and HSTS sent only over it, a renewed certificate
// taken without a restart (an open event stream lives on), a half-written renewal refused once,
// and every bad file a one-line refusal at start. Certificates are made here with openssl; a
// machine without it skips, saying so, except under CI=true.
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from 'node:tls'
import { type CliIO, run } from '../../src/cli'
import { systemClock } from '../../src/clock'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { HSTS_HEADER } from '../../src/http/security'
import { type Certificate, CertificateReloader, expiryWarning, readCertificate, tryListener } from '../../src/http/tls'
import { createLogger } from '../../src/logger'
import { createUser } from '../../src/modules/account/service'
import { type RunningServer, startServer } from '../../src/server'
import { cheapHasher } from '../helpers'

const PASSWORD = 'correct horse battery'
const openssl = Bun.which('openssl')
if (!openssl) {
  if (process.env.CI === 'true') throw new Error('CI=true and no openssl on PATH: the HTTPS tests need it')
  console.warn('skipped: no openssl on PATH (the HTTPS tests make their certificates with it)')
}

const scratch = mkdtempSync(join(tmpdir(), 'qt-tls-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A self-signed certificate for 127.0.0.1 and localhost, named `name` (its CN), and its key. */
function makeCertificate(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.pem`)
  const key = join(dir, `${name}-key.pem`)
  const made = Bun.spawnSync(
    [
      openssl ?? 'openssl',
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stderr: 'pipe' },
  )
  if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`)
  return { cert, key }
}

let dir: string
let count = 0
let logged: string[]
let running: RunningServer | null = null

beforeEach(() => {
  dir = join(scratch, `case-${++count}`)
  mkdirSync(dir)
  logged = []
  running = null
})

afterEach(async () => {
  await running?.stop('test')
})

const variables = (extra: Record<string, string>) => ({
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_PATH: join(dir, 'qt.sqlite'),
  CATALOG_SOURCE_URL: join(import.meta.dir, '..', 'fixtures', 'catalog-small.json'),
  CATALOG_SYNC_CRON: 'off',
  BACKUP_CRON: 'off',
  MAINTENANCE_CRON: 'off',
  ...extra,
})

/** The real server (startServer) with an account "alice" in its database. */
async function serve(extra: Record<string, string>): Promise<RunningServer> {
  const config = loadConfig(variables(extra))
  const db = openDatabase(config.databasePath)
  await createUser({ db, clock: systemClock, passwordHasher: cheapHasher }, { username: 'alice', password: PASSWORD })
  db.$client.close()
  const logger = createLogger('info', { write: (line) => logged.push(line) })
  running = await startServer({ config, logger, passwordHasher: cheapHasher })
  return running
}

/** The CN of the certificate a new TLS connection to `port` is shown. */
function servedName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
      const name = String(socket.getPeerCertificate().subject?.CN)
      socket.end()
      resolve(name)
    })
    socket.on('error', reject)
  })
}

/** Bun's fetch, trusting the self-signed certificate `certFile` as its own authority. */
const trusting = (certFile: string) => ({ tls: { ca: Bun.file(certFile) } })

describe.skipIf(!openssl)('HTTPS on PORT', () => {
  test('the same port answers HTTPS, with the configured certificate, and nothing over plain HTTP', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const { port } = await serve({ TLS_CERT_FILE: a.cert, TLS_KEY_FILE: a.key })
    const health = await fetch(`https://127.0.0.1:${port}/api/health`, trusting(a.cert))
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ ok: true })
    expect(await servedName(port)).toBe('qt-a')
    // One port, TLS only: plain HTTP on it gets no answer (no page, no token in the clear).
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow()
    expect(logged.join('\n')).toContain(`listening on port ${port} (HOST 127.0.0.1, HTTPS)`)
    expect(logged.join('\n')).toMatch(/HTTPS certificate for localhost, 127\.0\.0\.1, valid until \d{4}-\d\d-\d\d/)
  })

  test('over HTTPS the session cookie is Secure and every answer carries HSTS', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const { port } = await serve({ TLS_CERT_FILE: a.cert, TLS_KEY_FILE: a.key })
    const signIn = await fetch(`https://127.0.0.1:${port}/api/session`, {
      ...trusting(a.cert),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'alice', password: PASSWORD }),
    })
    expect(signIn.status).toBe(200)
    expect(signIn.headers.get('set-cookie')).toMatch(/; Secure(;|$)/)
    expect(signIn.headers.get('strict-transport-security')).toBe(HSTS_HEADER)
    for (const path of ['/login', '/manifest.webmanifest', '/api/health', '/api/plugin/info']) {
      const answer = await fetch(`https://127.0.0.1:${port}${path}`, trusting(a.cert))
      expect(answer.headers.get('strict-transport-security')).toBe(HSTS_HEADER)
    }
  })

  test('over plain HTTP (no certificate configured) the cookie is not Secure and no HSTS is sent', async () => {
    const { port } = await serve({})
    const signIn = await fetch(`http://127.0.0.1:${port}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'alice', password: PASSWORD }),
    })
    expect(signIn.status).toBe(200)
    expect(signIn.headers.get('set-cookie')).toContain('HttpOnly')
    expect(signIn.headers.get('set-cookie')).not.toContain('Secure')
    expect(signIn.headers.get('strict-transport-security')).toBeNull()
    expect((await fetch(`http://127.0.0.1:${port}/login`)).headers.get('strict-transport-security')).toBeNull()
    expect(running?.checkCertificate()).toBe(false)
  })

  test('a renewed certificate is served without a restart; an event stream opened before goes on', async () => {
    // certbot's layout: the configured paths are links into an archive, moved to the new files.
    const archive = join(dir, 'archive')
    const live = join(dir, 'live')
    mkdirSync(archive)
    mkdirSync(live)
    const a = makeCertificate(archive, 'qt-a')
    symlinkSync(a.cert, join(live, 'cert.pem'))
    symlinkSync(a.key, join(live, 'key.pem'))
    const server = await serve({ TLS_CERT_FILE: join(live, 'cert.pem'), TLS_KEY_FILE: join(live, 'key.pem') })
    const base = `https://127.0.0.1:${server.port}`
    const insecure = { tls: { rejectUnauthorized: false } }
    const json = (body: unknown, headers: Record<string, string> = {}) => ({
      ...insecure,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    const login = await fetch(`${base}/api/plugin/auth/login`, json({ identifier: 'alice', password: PASSWORD }))
    const { token } = (await login.json()) as { token: string }
    const bearer = { authorization: `Bearer ${token}` }
    const made = await fetch(`${base}/api/plugin/characters`, json({ givenName: 'Tordek' }, bearer))
    expect(made.status).toBe(201)
    const { id } = (await made.json()) as { id: number }
    const session = await fetch(`${base}/api/session`, json({ identifier: 'alice', password: PASSWORD }))
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string
    const stream = await fetch(`${base}/api/characters/${id}/events`, { ...insecure, headers: { cookie } })
    expect(stream.status).toBe(200)
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()

    expect(server.checkCertificate()).toBe(false) // nothing changed yet
    const b = makeCertificate(archive, 'qt-b')
    for (const [target, name] of [
      [b.cert, 'cert.pem'],
      [b.key, 'key.pem'],
    ] as const) {
      symlinkSync(target, join(live, `${name}.new`))
      renameSync(join(live, `${name}.new`), join(live, name))
    }
    expect(server.checkCertificate()).toBe(true)
    expect(await servedName(server.port)).toBe('qt-b')
    expect(logged.join('\n')).toContain('HTTPS certificate reloaded, for localhost, 127.0.0.1')

    // A completion posted through the new listener reaches the stream the old one holds.
    const posted = await fetch(`${base}/api/plugin/characters/${id}/completions`, json({ name: 'Tangleroot' }, bearer))
    expect(posted.status).toBe(201)
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('event: change')) {
      const chunk = await reader.read()
      if (chunk.done) throw new Error(`the stream ended: ${text}`)
      text += decoder.decode(chunk.value)
    }
    await reader.cancel()
  })

  test('a renewal caught halfway (a new certificate beside the old key) is refused once, then taken', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const b = makeCertificate(dir, 'qt-b')
    const certFile = join(dir, 'cert.pem')
    const keyFile = join(dir, 'key.pem')
    writeFileSync(certFile, await Bun.file(a.cert).text())
    writeFileSync(keyFile, await Bun.file(a.key).text())
    const server = await serve({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile })

    writeFileSync(certFile, await Bun.file(b.cert).text())
    expect(server.checkCertificate()).toBe(false)
    expect(server.checkCertificate()).toBe(false)
    const warnings = logged.filter((line) => line.includes(' warn '))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(
      `the changed HTTPS certificate files were not loaded: TLS_KEY_FILE ${keyFile} is not the private key of the certificate in TLS_CERT_FILE ${certFile}; HTTPS goes on with the certificate for localhost, 127.0.0.1`,
    )
    expect(await servedName(server.port)).toBe('qt-a')

    writeFileSync(keyFile, await Bun.file(b.key).text())
    expect(server.checkCertificate()).toBe(true)
    expect(await servedName(server.port)).toBe('qt-b')
    const health = await fetch(`https://127.0.0.1:${server.port}/api/health`, trusting(b.cert))
    expect(health.status).toBe(200)
  })

  test('a chain whose second certificate is cut off is refused once; the port keeps answering with the old one', async () => {
    // Issue 39 item 3: the check read only the first certificate, the old listener was stopped,
    // the new one failed (PEM routines: BAD_END_LINE) and nothing listened until the file was fixed.
    const a = makeCertificate(dir, 'qt-a')
    const b = makeCertificate(dir, 'qt-b')
    const certFile = join(dir, 'fullchain.pem')
    const keyFile = join(dir, 'privkey.pem')
    writeFileSync(certFile, await Bun.file(a.cert).text())
    writeFileSync(keyFile, await Bun.file(a.key).text())
    const server = await serve({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile })

    // b's certificate, then a's cut halfway: the first block is whole and matches b's key.
    const second = await Bun.file(a.cert).text()
    writeFileSync(certFile, (await Bun.file(b.cert).text()) + second.slice(0, Math.floor(second.length / 2)))
    writeFileSync(keyFile, await Bun.file(b.key).text())
    expect(server.checkCertificate()).toBe(false)
    expect(server.checkCertificate()).toBe(false)
    expect(await servedName(server.port)).toBe('qt-a')
    const health = await fetch(`https://127.0.0.1:${server.port}/api/health`, trusting(a.cert))
    expect(health.status).toBe(200)
    const warnings = logged.filter((line) => line.includes(' warn ') || line.includes(' error '))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(
      `the changed HTTPS certificate files were not loaded: TLS_CERT_FILE ${certFile} holds a certificate that is cut off or damaged (block 2 of its chain)`,
    )
    expect(warnings[0]).toContain('HTTPS goes on with the certificate for localhost, 127.0.0.1')

    // Fixed: taken at the next check.
    writeFileSync(certFile, await Bun.file(b.cert).text())
    expect(server.checkCertificate()).toBe(true)
    expect(await servedName(server.port)).toBe('qt-b')
  })

  test('a trial listener refuses what the listener would (the cut-off chain, read past the PEM check)', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const b = makeCertificate(dir, 'qt-b')
    const key = await Bun.file(b.key).text()
    const whole = await Bun.file(b.cert).text()
    expect(() => tryListener({ cert: whole, key })).not.toThrow()
    const second = await Bun.file(a.cert).text()
    const cut = whole + second.slice(0, Math.floor(second.length / 2))
    expect(() => tryListener({ cert: cut, key })).toThrow(/^a listener refuses the pair \(.*BAD_END_LINE/)
  })

  test('a new listener that fails all the same puts the old pair back at once, with one error', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const b = makeCertificate(dir, 'qt-b')
    const files = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') }
    writeFileSync(files.certFile, await Bun.file(a.cert).text())
    writeFileSync(files.keyFile, await Bun.file(a.key).text())
    const current = readCertificate(files)
    const served: string[] = []
    const reloader = new CertificateReloader({
      files,
      current,
      logger: createLogger('info', { write: (line) => logged.push(line) }),
      now: () => new Date(),
      tryOut: () => {},
      install(certificate) {
        if (certificate.cert !== current.cert) throw new Error('the port would not take it')
        served.push('old')
      },
    })
    writeFileSync(files.certFile, await Bun.file(b.cert).text())
    writeFileSync(files.keyFile, await Bun.file(b.key).text())
    expect(reloader.check()).toBe(false)
    expect(reloader.check()).toBe(false)
    expect(served).toEqual(['old'])
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain(
      'error the new HTTPS certificate could not be put in service (the port would not take it); HTTPS goes on with the certificate for localhost, 127.0.0.1',
    )
  })

  test('`healthcheck` asks over HTTPS when a certificate is configured (Docker would call it unhealthy)', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const env = { TLS_CERT_FILE: a.cert, TLS_KEY_FILE: a.key }
    const { port } = await serve(env)
    const err: string[] = []
    const code = await run(['healthcheck', '--port', String(port)], {
      env: variables(env),
      out: () => {},
      err: (line) => err.push(line),
      readPassword: async () => '',
    })
    expect(err).toEqual([])
    expect(code).toBe(0)
  })
})

describe.skipIf(!openssl)('a certificate or key that cannot be served stops the start with one line', () => {
  /** `serve` through the command line, in-process: its exit code, stderr lines, and whether a database was made. */
  async function start(extra: Record<string, string>) {
    const err: string[] = []
    const io: CliIO = {
      env: variables({ LOG_LEVEL: 'error', ...extra }),
      out: () => {},
      err: (line) => err.push(line),
      readPassword: async () => '',
      untilStopped: (stop) => stop(),
    }
    const code = await run(['serve'], io)
    return { code, err, database: existsSync(join(dir, 'qt.sqlite')) }
  }

  test('a missing file', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const missing = join(dir, 'nope.pem')
    expect(await start({ TLS_CERT_FILE: missing, TLS_KEY_FILE: a.key })).toEqual({
      code: 2,
      err: [`quest-tracker: TLS_CERT_FILE ${missing} cannot be read: there is no such file`],
      database: false,
    })
  })

  test('a folder', async () => {
    const a = makeCertificate(dir, 'qt-a')
    expect(await start({ TLS_CERT_FILE: a.cert, TLS_KEY_FILE: dir })).toEqual({
      code: 2,
      err: [`quest-tracker: TLS_KEY_FILE ${dir} cannot be read: it is a folder, not a file`],
      database: false,
    })
  })

  test.skipIf(process.getuid?.() === 0)('a key this user may not read', async () => {
    const a = makeCertificate(dir, 'qt-a')
    chmodSync(a.key, 0o000)
    expect(await start({ TLS_CERT_FILE: a.cert, TLS_KEY_FILE: a.key })).toEqual({
      code: 2,
      err: [
        `quest-tracker: TLS_KEY_FILE ${a.key} cannot be read: this user may not read it (the user the server runs as needs read access)`,
      ],
      database: false,
    })
  })

  test('the two files swapped', async () => {
    const a = makeCertificate(dir, 'qt-a')
    expect(await start({ TLS_CERT_FILE: a.key, TLS_KEY_FILE: a.cert })).toEqual({
      code: 2,
      err: [
        `quest-tracker: TLS_CERT_FILE ${a.key} holds no PEM certificate (a block "-----BEGIN CERTIFICATE-----"); is it the key?`,
      ],
      database: false,
    })
  })

  test('a key locked with a passphrase', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const locked = join(dir, 'locked-key.pem')
    const made = Bun.spawnSync([openssl ?? 'openssl', 'pkey', '-in', a.key, '-aes256', '-passout', 'pass:secret'])
    writeFileSync(locked, made.stdout)
    expect(await start({ TLS_CERT_FILE: a.cert, TLS_KEY_FILE: locked })).toEqual({
      code: 2,
      err: [
        `quest-tracker: TLS_KEY_FILE ${locked} holds no PEM private key, or one locked with a passphrase (give the key without one)`,
      ],
      database: false,
    })
  })

  test("another certificate's key", async () => {
    const a = makeCertificate(dir, 'qt-a')
    const b = makeCertificate(dir, 'qt-b')
    expect(await start({ TLS_CERT_FILE: a.cert, TLS_KEY_FILE: b.key })).toEqual({
      code: 2,
      err: [
        `quest-tracker: TLS_KEY_FILE ${b.key} is not the private key of the certificate in TLS_CERT_FILE ${a.cert}`,
      ],
      database: false,
    })
  })

  test('a chain with a certificate cut off', async () => {
    const a = makeCertificate(dir, 'qt-a')
    const cert = (await Bun.file(a.cert).text()).repeat(2).slice(0, -80)
    writeFileSync(a.cert, cert)
    expect(await start({ TLS_CERT_FILE: a.cert, TLS_KEY_FILE: a.key })).toEqual({
      code: 2,
      err: [
        `quest-tracker: TLS_CERT_FILE ${a.cert} holds a certificate that is cut off or damaged (block 2 of its chain); copy the whole file again`,
      ],
      database: false,
    })
  })

  test('one variable without the other', async () => {
    const a = makeCertificate(dir, 'qt-a')
    expect(await start({ TLS_CERT_FILE: a.cert })).toEqual({
      code: 2,
      err: [
        'quest-tracker: TLS_CERT_FILE and TLS_KEY_FILE go together (the certificate and its private key): TLS_KEY_FILE is not set.',
      ],
      database: false,
    })
  })

  test('the real entry point: one line on stderr and exit 2, not a stack trace', async () => {
    const missing = join(dir, 'nope.pem')
    const child = Bun.spawn([process.execPath, join(import.meta.dir, '..', '..', 'src', 'main.ts'), 'serve'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...variables({ TLS_CERT_FILE: missing, TLS_KEY_FILE: missing }) },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(await child.exited).toBe(2)
    expect(await new Response(child.stderr).text()).toBe(
      `quest-tracker: TLS_CERT_FILE ${missing} cannot be read: there is no such file\n`,
    )
  })
})

test('an expired certificate is warned about; a valid one is not', () => {
  const certificate: Certificate = {
    cert: '',
    key: '',
    names: 'qt.home.arpa',
    validTo: new Date('2026-03-01T00:00:00Z'),
    state: '',
  }
  expect(expiryWarning(certificate, new Date('2026-02-28T00:00:00Z'))).toBeNull()
  expect(expiryWarning(certificate, new Date('2026-03-02T00:00:00Z'))).toBe(
    'the HTTPS certificate (qt.home.arpa) expired on 2026-03-01: browsers and game clients refuse it; renew it (the new files are read within 30 s)',
  )
})
