// HTTPS on the server's own port (TLS_CERT_FILE, TLS_KEY_FILE): the certificate and its key read
// and checked as a pair, with one sentence for each way they can be wrong, and read again when
// the files change (a renewed mkcert or Let's Encrypt certificate), without a restart.
//
// Bun 1.4.5 keeps a listener's certificate for the listener's whole life: `server.reload({ tls })`
// changes its handlers only (tried: the old certificate is still presented). So a new
// certificate is put in service by a new listener on the same port (server.ts): the old one
// stops accepting, its requests and open event streams finish on it, and the new one binds in
// the same turn of the event loop. Before the serving listener is touched, the new pair is
// read as the listener will read it: every PEM block of the chain, then a trial listener on a
// loopback port; a new listener that still fails puts the old pair back at once.
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Config } from '../config'
import type { Logger } from '../logger'

/**
 * How often the two files are looked at (two `stat` calls). A renewal is done days before the
 * old certificate expires, so half a minute is soon enough, and costs nothing.
 */
export const CERTIFICATE_CHECK_INTERVAL_MS = 30_000

/** A certificate or key that cannot be served: one line on stderr and exit 2 at start. */
export class TlsError extends Error {}

export interface TlsFiles {
  certFile: string
  keyFile: string
}

/** The files of the configuration, or null for plain HTTP (loadConfig allows both or neither). */
export function tlsFiles(config: Pick<Config, 'tlsCertFile' | 'tlsKeyFile'>): TlsFiles | null {
  const { tlsCertFile: certFile, tlsKeyFile: keyFile } = config
  return certFile !== null && keyFile !== null ? { certFile, keyFile } : null
}

export interface Certificate {
  /** PEM, as Bun.serve's `tls` takes them. */
  cert: string
  key: string
  /** Whom it names: its subjectAltName entries ("quest.home.arpa, 192.168.1.10"), else its CN. */
  names: string
  validTo: Date
  /** The files as they were when read (fileState): another state means they changed. */
  state: string
}

/** Size, time and inode of both files (stat follows symlinks, as certbot's `live/` folder uses). */
export function fileState({ certFile, keyFile }: TlsFiles): string {
  return [certFile, keyFile]
    .map((path) => {
      try {
        const stats = statSync(path)
        return `${stats.ino}:${stats.size}:${stats.mtimeMs}`
      } catch (error) {
        return `unreadable:${(error as { code?: string }).code ?? ''}`
      }
    })
    .join('|')
}

function why(error: unknown): string {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'ENOENT':
      return 'there is no such file'
    case 'EACCES':
    case 'EPERM':
      return 'this user may not read it (the user the server runs as needs read access)'
    case 'EISDIR':
      return 'it is a folder, not a file'
    default:
      return error instanceof Error ? error.message : String(error)
  }
}

function readText(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new TlsError(`${variable} ${resolve(path)} cannot be read: ${why(error)}`)
  }
}

/**
 * Every PEM block of a certificate file, as the listener reads the chain: a block that begins and
 * never ends (a copy cut off), or a certificate block that does not parse, stops the listener
 * with "PEM routines: BAD_END_LINE" and the like, though the first certificate reads fine. Other
 * blocks (a key bundled in the same file) are skipped by the listener, and here. Returns the
 * 1-based number of the first bad block, or 0 when all are whole.
 */
export function badChainBlock(pem: string): number {
  const begin = /-----BEGIN ([A-Z0-9 ]+)-----/g
  let block = 0
  for (let match = begin.exec(pem); match; match = begin.exec(pem)) {
    block++
    const label = match[1] as string
    const endLine = `-----END ${label}-----`
    const end = pem.indexOf(endLine, match.index)
    // A block with no end of its own, or another block beginning inside it.
    const next = pem.indexOf('-----BEGIN ', match.index + match[0].length)
    if (end < 0 || (next >= 0 && next < end)) return block
    if (/CERTIFICATE$/.test(label)) {
      try {
        new X509Certificate(pem.slice(match.index, end + endLine.length))
      } catch {
        return block
      }
    }
    begin.lastIndex = end + endLine.length
  }
  return 0
}

/** "DNS:qt.home.arpa, IP Address:192.168.1.10" -> "qt.home.arpa, 192.168.1.10"; else the CN. */
function namesOf(certificate: X509Certificate): string {
  const alt = certificate.subjectAltName
  if (alt) return alt.replace(/(?:^|(?<=, ))(?:DNS|IP Address):/g, '')
  return /(?:^|\n)CN=([^\n]*)/.exec(certificate.subject)?.[1] ?? '(no name)'
}

/**
 * Reads and checks the pair: a PEM certificate (its chain may follow it) and the PEM private key
 * that belongs to it. Throws a TlsError naming the variable, the file and what is wrong.
 */
export function readCertificate(files: TlsFiles): Certificate {
  const state = fileState(files)
  const certPath = resolve(files.certFile)
  const keyPath = resolve(files.keyFile)
  const cert = readText('TLS_CERT_FILE', files.certFile)
  const key = readText('TLS_KEY_FILE', files.keyFile)
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(cert)
  } catch {
    throw new TlsError(
      `TLS_CERT_FILE ${certPath} holds no PEM certificate (a block "-----BEGIN CERTIFICATE-----"); is it the key?`,
    )
  }
  const bad = badChainBlock(cert)
  if (bad > 0) {
    throw new TlsError(
      `TLS_CERT_FILE ${certPath} holds a certificate that is cut off or damaged (block ${bad} of its chain); copy the whole file again`,
    )
  }
  let privateKey: ReturnType<typeof createPrivateKey>
  try {
    privateKey = createPrivateKey(key)
  } catch {
    throw new TlsError(
      `TLS_KEY_FILE ${keyPath} holds no PEM private key, or one locked with a passphrase (give the key without one)`,
    )
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TlsError(`TLS_KEY_FILE ${keyPath} is not the private key of the certificate in TLS_CERT_FILE ${certPath}`)
  }
  return { cert, key, names: namesOf(certificate), validTo: certificate.validToDate, state }
}

/** "for qt.home.arpa, 192.168.1.10, valid until 2027-02-24": the log's words for a certificate. */
export const describeCertificate = (certificate: Certificate): string =>
  `for ${certificate.names}, valid until ${certificate.validTo.toISOString().slice(0, 10)}`

/** A warning for a certificate browsers will refuse as expired, or null. */
export function expiryWarning(certificate: Certificate, now: Date): string | null {
  if (certificate.validTo > now) return null
  return `the HTTPS certificate (${certificate.names}) expired on ${certificate.validTo.toISOString().slice(0, 10)}: browsers and game clients refuse it; renew it (the new files are read within ${CERTIFICATE_CHECK_INTERVAL_MS / 1000} s)`
}

/** Whether an error is the TLS library's refusal of a certificate or key ("PEM routines", ERR_OSSL_...). */
function refusedByTls(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (typeof code === 'string' && code.startsWith('ERR_OSSL')) || /routines/i.test(String(error))
}

/**
 * Serves `certificate` for a moment on a loopback port the system picks, exactly as the new
 * listener would: what reading the files cannot see (a chain or a key the TLS library refuses)
 * fails here, before the serving listener is touched. A TlsError when the TLS library refuses
 * the pair; a loopback port that cannot be had at all is not the certificate's fault and lets it
 * through (a failure of the new listener then puts the old pair back: CertificateReloader).
 */
export function tryListener(certificate: Pick<Certificate, 'cert' | 'key'>): void {
  let trial: ReturnType<typeof Bun.serve> | undefined
  try {
    trial = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      tls: { cert: certificate.cert, key: certificate.key },
      fetch: () => new Response(null, { status: 204 }),
    })
  } catch (error) {
    if (refusedByTls(error)) throw new TlsError(`a listener refuses the pair (${why(error)})`)
  } finally {
    trial?.stop(true)
  }
}

export interface ReloaderOptions {
  files: TlsFiles
  /** The certificate in service. */
  current: Certificate
  logger: Logger
  now: () => Date
  /** Puts a certificate in service (a new listener); throws when it cannot. */
  install(certificate: Certificate): void
  /** Throws a TlsError when a listener would refuse the pair; tryListener unless given. */
  tryOut?(certificate: Certificate): void
}

/**
 * Looks at the files (`check`, every CERTIFICATE_CHECK_INTERVAL_MS) and puts a changed pair in
 * service once it reads as a good pair and a trial listener takes it. A pair caught halfway
 * through a renewal (a new certificate beside the old key, a chain cut off) is refused with one
 * warning, and taken as soon as the files change again; HTTPS goes on with the certificate in
 * service meanwhile. Should the new listener still fail, the pair in service is served again at
 * once, with one error in the log.
 */
export class CertificateReloader {
  private current: Certificate
  /** The state of the files last refused, so that a bad pair is warned about once, not every check. */
  private refused: string | null = null

  constructor(private readonly options: ReloaderOptions) {
    this.current = options.current
  }

  /** True when a new certificate was put in service. */
  check(): boolean {
    const { files, logger } = this.options
    const state = fileState(files)
    if (state === this.current.state || state === this.refused) return false
    let next: Certificate
    try {
      next = readCertificate(files)
      ;(this.options.tryOut ?? tryListener)(next)
    } catch (error) {
      if (!(error instanceof TlsError)) throw error
      this.refused = state
      logger.warn(
        `the changed HTTPS certificate files were not loaded: ${error.message}; HTTPS goes on with the certificate ${describeCertificate(this.current)}`,
      )
      return false
    }
    try {
      this.options.install(next)
    } catch (error) {
      this.refused = state
      const failure = why(error)
      try {
        this.options.install(this.current)
      } catch (again) {
        // Nothing listens: the next check tries the files again (and warns again) rather than wait for a change.
        this.refused = null
        logger.error(
          `the new HTTPS certificate could not be put in service (${failure}), nor the one before it again (${why(again)}): nothing answers HTTPS on the port; tried again within ${CERTIFICATE_CHECK_INTERVAL_MS / 1000} s`,
        )
        return false
      }
      logger.error(
        `the new HTTPS certificate could not be put in service (${failure}); HTTPS goes on with the certificate ${describeCertificate(this.current)}`,
      )
      return false
    }
    this.current = next
    this.refused = null
    logger.info(`HTTPS certificate reloaded, ${describeCertificate(next)}`)
    const expired = expiryWarning(next, this.options.now())
    if (expired) logger.warn(expired)
    return true
  }
}
