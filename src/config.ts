// Environment -> frozen, typed configuration. The only module that reads process.env.
import { isIP } from 'node:net'
import { Cron } from 'croner'
import type { Synchronous } from './db/client'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
export type LogFormat = 'text' | 'json'

export interface Config {
  readonly port: number
  readonly host: string
  readonly databasePath: string
  readonly databaseSynchronous: Synchronous
  readonly catalogSourceUrl: string
  /** null when the scheduled sync is switched off (`off`). */
  readonly catalogSyncCron: string | null
  readonly logLevel: LogLevel
  /**
   * Proxies whose X-Forwarded-For is believed for the per-address login limit: addresses or
   * CIDR ranges ("10.0.0.1", "10.0.0.0/8", "fd00::/8"). Empty: the header is ignored.
   */
  readonly trustedProxies: readonly string[]
  /** `json`: one JSON object a line, for journald, Loki and the like. */
  readonly logFormat: LogFormat
  /** A plugin token unused for this many days stops working (the plugin logs in again). */
  readonly tokenIdleDays: number
}

/** A bad configuration value; main prints the message as one line and exits 2. */
export class ConfigError extends Error {}

export const DEFAULT_CATALOG_SOURCE_URL = 'https://ddowiki.com/page/Quests_by_level_and_XP'
/** Half a year: long enough that a player back from a break is not surprised, short enough to end forgotten ones. */
export const DEFAULT_TOKEN_IDLE_DAYS = 180
/** Once a day, at a quiet hour, off the top of the hour. */
export const DEFAULT_CATALOG_SYNC_CRON = '17 4 * * *'

type Env = Record<string, string | undefined>

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error']
const SYNCHRONOUS: readonly Synchronous[] = ['full', 'normal']
const LOG_FORMATS: readonly LogFormat[] = ['text', 'json']

function oneOf<T extends string>(name: string, raw: string, allowed: readonly T[]): T {
  const value = raw.trim().toLowerCase()
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}").`)
}

function parsePort(name: string, raw: string): number {
  const port = Number(raw)
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a whole number from 0 to 65535 (got "${raw}").`)
  }
  return port
}

function parseCron(name: string, raw: string): string | null {
  const value = raw.trim()
  if (value.toLowerCase() === 'off') return null
  try {
    new Cron(value, { paused: true }).stop()
  } catch {
    throw new ConfigError(
      `${name} must be a cron pattern such as "${DEFAULT_CATALOG_SYNC_CRON}" or "off" (got "${raw}").`,
    )
  }
  return value
}

/** A comma-separated list of IP addresses and CIDR ranges; `none` or empty is no proxy. */
function parseProxies(name: string, raw: string): readonly string[] {
  if (raw.trim() === '' || raw.trim().toLowerCase() === 'none') return Object.freeze([])
  const entries = raw.split(',').map((part) => part.trim())
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/')
    const family = isIP(address)
    const bits = family === 6 ? 128 : 32
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits)
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        `${name} must be IP addresses or CIDR ranges separated by commas, such as "10.0.0.1" or "172.16.0.0/12" (got "${entry}").`,
      )
    }
  }
  return Object.freeze(entries)
}

/** Days a token may go unused: a whole number from 1 to 3650 (ten years). */
function parseDays(name: string, raw: string): number {
  const days = Number(raw.trim())
  if (!/^\d+$/.test(raw.trim()) || days < 1 || days > 3650) {
    throw new ConfigError(`${name} must be a whole number of days from 1 to 3650 (got "${raw}").`)
  }
  return days
}

function nonEmpty(name: string, raw: string): string {
  if (raw.trim() === '') throw new ConfigError(`${name} must not be empty.`)
  return raw.trim()
}

/**
 * Reads the variables documented in the README. `overrides` carries command-line flags,
 * which win over the environment.
 */
export function loadConfig(env: Env = process.env, overrides: Env = {}): Config {
  const pick = (name: string): string | undefined => overrides[name] ?? env[name]
  const read = <T>(name: string, fallback: T, parse: (name: string, raw: string) => T): T => {
    const raw = pick(name)
    return raw === undefined ? fallback : parse(name, raw)
  }
  return Object.freeze({
    port: read('PORT', 8080, parsePort),
    host: read('HOST', '0.0.0.0', nonEmpty),
    databasePath: read('DATABASE_PATH', './data/quest-tracker.sqlite', nonEmpty),
    databaseSynchronous: read<Synchronous>('DATABASE_SYNCHRONOUS', 'full', (n, r) => oneOf(n, r, SYNCHRONOUS)),
    catalogSourceUrl: read('CATALOG_SOURCE_URL', DEFAULT_CATALOG_SOURCE_URL, nonEmpty),
    catalogSyncCron: read<string | null>('CATALOG_SYNC_CRON', DEFAULT_CATALOG_SYNC_CRON, parseCron),
    logLevel: read<LogLevel>('LOG_LEVEL', 'info', (n, r) => oneOf(n, r, LOG_LEVELS)),
    trustedProxies: read<readonly string[]>('TRUSTED_PROXY', [], parseProxies),
    logFormat: read<LogFormat>('LOG_FORMAT', 'text', (n, r) => oneOf(n, r, LOG_FORMATS)),
    tokenIdleDays: read('TOKEN_IDLE_DAYS', DEFAULT_TOKEN_IDLE_DAYS, parseDays),
  })
}
