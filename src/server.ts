// The server's life: check the address, open the database, build the app with its scheduled
// jobs (catalog sync, backup, housekeeping), listen, fill an empty catalog from the snapshot and sync it in the background; and stop it all again. `serve`
// runs it until a signal; anything else that needs the real server holds the same handle.
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { createApp } from './app'
import { systemClock } from './clock'
import { type Config, configVariables } from './config'
import { BUSY_TIMEOUT_MS, leaveCleanStopMark, openDatabase, takeCleanStopMark } from './db/client'
import { asListenError, checkListen, listenerLimits } from './http/listen'
import {
  CERTIFICATE_CHECK_INTERVAL_MS,
  type Certificate,
  CertificateReloader,
  describeCertificate,
  expiryWarning,
  readCertificate,
  TlsError,
  tlsFiles,
} from './http/tls'
import type { Logger } from './logger'
import { backupFolder } from './maintenance/backup'
import { backupCron, maintenanceCron } from './maintenance/schedule'
import { type PasswordHasher, productionHasher } from './modules/auth/password'
import { fillFromSnapshot } from './modules/catalog/snapshot'
import { catalogCron, syncIfNeverSynced } from './modules/catalog/sync'
import { loadSite, SITE_NOT_BUILT } from './modules/web/site'
import { VERSION } from './version'

export interface ServerOptions {
  config: Config
  logger: Logger
  /** argon2id at the production cost unless given; in-process tests pass a cheap one. */
  passwordHasher?: PasswordHasher
}

export interface RunningServer {
  /** The port listened on (the one the system picked for PORT=0). */
  port: number
  /**
   * Logs why (`reason`, e.g. SIGTERM), aborts the first catalog sync and waits for it, stops
   * the scheduled jobs and the listener, and closes the database.
   */
  stop(reason?: string): Promise<void>
  /**
   * Over HTTPS: reads the certificate files again if they changed, and serves the new pair when
   * it is good (what the server does by itself every CERTIFICATE_CHECK_INTERVAL_MS). True when a
   * new certificate was put in service; always false over plain HTTP.
   */
  checkCertificate(): boolean
}

/**
 * Starts the server as `config` says. A problem with the address (ListenError) is found before
 * the database file is opened, so it leaves no new file behind; one with the file is a
 * DatabaseFileError.
 */
export async function startServer({
  config,
  logger,
  passwordHasher = productionHasher,
}: ServerOptions): Promise<RunningServer> {
  const file = resolve(config.databasePath)
  logger.debug(`configuration: ${describeConfig(config)}`)
  // The certificate and the address first: a server that cannot listen leaves no new database behind.
  const files = tlsFiles(config)
  const certificate = files ? readCertificate(files) : null
  const port = checkListen(config.host, config.port)
  // A file as the last clean stop left it is not read through again (seconds for a large one).
  const cleanStop = takeCleanStopMark(file)
  const db = openDatabase(config.databasePath, {
    synchronous: config.databaseSynchronous,
    requireWritable: true,
    quickCheck: !cleanStop,
  })
  const checked = cleanStop ? 'as the last clean stop left it (no quick_check)' : 'quick_check ok'
  logger.debug(`database ${file}: ${statSync(file).size} bytes, ${checked}, writable, migrations applied`)
  const deps = { db, config, clock: systemClock, logger, passwordHasher }
  // Never an empty tracker: the catalog that ships with the program fills an empty one at once,
  // before any network call (the sources only bring it up to date, in the background below).
  fillFromSnapshot(deps)
  // The cron plugin starts its job at .use(), so the jobs are added here and never in createApp.
  const app = createApp(deps)
    .use(catalogCron(deps, config.catalogSyncCron, config.catalogSources))
    .use(backupCron(deps, config))
    .use(maintenanceCron(deps, config))
  // The app enforces each route's body limit and time as the body arrives (src/http/body.ts);
  // the listener's limits are the outer bound. Elysia turns reusePort on.
  const listening = { port, hostname: config.host, reusePort: false, ...listenerLimits(app) }
  const listen = (served: Certificate | null) =>
    app.listen(served ? { ...listening, tls: { cert: served.cert, key: served.key } } : listening)
  try {
    listen(certificate)
  } catch (error) {
    // The schedule started at .use(): stop it too, so a caller that goes on has no timer left.
    for (const job of Object.values(scheduledJobs(app))) job.stop()
    db.$client.close()
    const listenError = asListenError(error, config.host, port)
    if (listenError !== error || !files) throw listenError
    throw new TlsError(`HTTPS cannot start with TLS_CERT_FILE ${resolve(files.certFile)}: ${String(error)}`)
  }
  const https = certificate ? ', HTTPS' : ''
  logger.info(`Quest Tracker ${VERSION} listening on port ${port} (HOST ${config.host}${https}), database ${file}`, {
    version: VERSION,
    port,
    host: config.host,
    https: certificate !== null,
    database: file,
  })
  // Listeners a new certificate replaced: they stop accepting at once, finish what they hold
  // (requests, open event streams), and leave this set when they have.
  const retired = new Set<NonNullable<typeof app.server>>()
  const reloader =
    files && certificate
      ? new CertificateReloader({
          files,
          current: certificate,
          logger,
          now: () => systemClock.now(),
          install(next) {
            const old = app.server
            if (old) {
              retired.add(old)
              void old.stop().then(() => retired.delete(old))
            }
            listen(next)
          },
        })
      : null
  const certificateTimer = reloader ? setInterval(() => reloader.check(), CERTIFICATE_CHECK_INTERVAL_MS) : null
  if (certificate) {
    logger.info(`HTTPS certificate ${describeCertificate(certificate)}`, {
      certificateValidTo: certificate.validTo.toISOString(),
    })
    const expired = expiryWarning(certificate, systemClock.now())
    if (expired) logger.warn(expired)
  }
  // From a checkout whose website was never built: the API serves, the pages say how to build them.
  if (!(await loadSite())) logger.warn(SITE_NOT_BUILT)
  const jobs = scheduledJobs(app)
  const next = jobs.catalogSync?.nextRun()
  logger.debug(next ? `next scheduled catalog sync: ${next.toISOString()}` : 'scheduled catalog sync: off')
  const nextBackup = jobs.backup?.nextRun()
  logger.debug(
    nextBackup
      ? `next scheduled backup: ${nextBackup.toISOString()}, into ${backupFolder(config)}, keeping ${config.backupKeep}`
      : 'scheduled backup: off',
  )
  const nextHousekeeping = jobs.maintenance?.nextRun()
  logger.debug(
    nextHousekeeping ? `next scheduled housekeeping: ${nextHousekeeping.toISOString()}` : 'scheduled housekeeping: off',
  )
  // A catalog never synced (the snapshot alone): synced in the background; the server answers meanwhile.
  const shutdown = new AbortController()
  const firstSync = syncIfNeverSynced(deps, config.catalogSources, {
    signal: shutdown.signal,
    scheduleOff: config.catalogSyncCron === null,
  })
  const stop = async (reason = 'asked to stop') => {
    logger.info(`Quest Tracker shutting down (${reason})`, { reason })
    shutdown.abort()
    await firstSync
    for (const job of Object.values(jobs)) job.stop()
    if (certificateTimer) clearInterval(certificateTimer)
    for (const old of retired) void old.stop(true)
    await app.stop()
    try {
      // The stopped server leaves one whole file (the WAL emptied into it) for a copy or a restore.
      db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // Another process reads or writes it: SQLite checkpoints at the next open.
    }
    db.$client.close()
    leaveCleanStopMark(file)
  }
  return { port, stop, checkCertificate: () => reloader?.check() ?? false }
}

/** The cron jobs of the app, by name (the cron plugin keeps them in the store). */
function scheduledJobs(app: { store: unknown }): Record<string, { stop(): void; nextRun(): Date | null }> {
  return (app.store as { cron?: Record<string, { stop(): void; nextRun(): Date | null }> }).cron ?? {}
}

/** A catalog source for the debug log: a password in a URL is masked. */
function maskedSource(source: string): string {
  try {
    const url = new URL(source)
    if (url.password) url.password = '***'
    return url.href
  } catch {
    return source // a file path
  }
}

/** The configuration as variables, for the debug log; passwords in the catalog URLs are masked. */
function describeConfig(config: Config): string {
  const shown = configVariables(config).map(([name, value]) => {
    if (name === 'CATALOG_SOURCE_URL') return `${name}=${maskedSource(value)}`
    if (name === 'CATALOG_SOURCES') return `${name}=${config.catalogSources.map(maskedSource).join(',')}`
    return `${name}=${value}`
  })
  return [...shown, `busy_timeout=${BUSY_TIMEOUT_MS}ms`].join(' ')
}
