// Environment -> frozen, typed configuration. The only module that reads process.env.
// One TypeBox schema describes every variable (type, default, range, description); loading,
// the one-line error messages, --help's variable list and the table of docs/operations.md all
// come from it.
import { isIP } from 'node:net'
import { FormatRegistry, KindGuard, type Static, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { Cron } from 'croner'
import type { Synchronous } from './db/types'

/**
 * Where the catalog sync reads, in order: the DDO wiki's page (favor, duration words, the wiki's
 * names), then DDO Audit's public quest list, which a server can read when the wiki refuses it
 * with a bot challenge (docs/catalog.md).
 */
export const DEFAULT_CATALOG_SOURCES = [
  'https://ddowiki.com/page/Quests_by_level_and_XP',
  'https://api.ddoaudit.com/v1/quests',
] as const
/** Half a year: long enough that a player back from a break is not surprised, short enough to end forgotten ones. */
export const DEFAULT_TOKEN_IDLE_DAYS = 180
/** Once a day, at a quiet hour, off the top of the hour. */
export const DEFAULT_CATALOG_SYNC_CRON = '17 4 * * *'
/** Once a day at a quiet hour: a day's play is the most a bad day can cost. */
export const DEFAULT_BACKUP_CRON = '37 3 * * *'
/**
 * A week of daily copies: a mistake noticed days later (an account removed, a bad import) can
 * still be undone, while the copies take at most seven times a home server's few megabytes.
 */
export const DEFAULT_BACKUP_KEEP = 7
/** Half an hour before the backup, so the copies hold no ended sessions and tokens. */
export const DEFAULT_MAINTENANCE_CRON = '7 3 * * *'

/**
 * The string formats the variables use: TypeBox checks them through its FormatRegistry, and
 * their names ("a cron pattern") make the error messages.
 */
const FORMATS: Record<string, { one: string; many: string; check: (value: string) => boolean }> = {
  cron: { one: 'a cron pattern', many: 'cron patterns', check: isCronPattern },
  'ip-range': { one: 'an IP address or CIDR range', many: 'IP addresses or CIDR ranges', check: isAddressOrRange },
  source: { one: 'a URL or a file path', many: 'URLs or file paths', check: (value) => value.trim() !== '' },
}
for (const [name, format] of Object.entries(FORMATS)) FormatRegistry.Set(name, format.check)

function isCronPattern(value: string): boolean {
  try {
    new Cron(value, { paused: true }).stop()
    return true
  } catch {
    return false
  }
}

/** "10.0.0.1", "10.0.0.0/8", "fd00::/8". */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/')
  const family = isIP(address)
  const bits = family === 6 ? 128 : 32
  const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits)
  return family !== 0 && prefixOk && extra === undefined
}

/**
 * Every environment variable, in the order --help and docs/operations.md list them. `description`
 * is the short meaning (--help); `details`, when present, follows it in docs/operations.md's
 * table. A value is read from its text by its type: integers are digits only (each has a minimum
 * and a maximum, which its error message names), words of a union are matched without regard to
 * case, a list is split on commas (`none` or empty: no entries).
 */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 8080,
    description: 'listening port (`0` picks a free one)',
  }),
  HOST: Type.String({
    minLength: 1,
    default: '0.0.0.0',
    description: 'listening address; `0.0.0.0` lets the game PCs on the LAN in',
  }),
  DATABASE_PATH: Type.String({
    minLength: 1,
    default: './data/quest-tracker.sqlite',
    description: 'the SQLite file, relative to the working directory',
    details: '`serve` and `user add` create it (0600) and its folder (0700); migrations run at start',
  }),
  DATABASE_SYNCHRONOUS: Type.Union([Type.Literal('full'), Type.Literal('normal')], {
    default: 'full',
    description: '`full` survives a power loss, `normal` only a process crash (faster writes)',
    details: "SQLite's `synchronous` in WAL mode",
  }),
  BACKUP_DIR: Type.String({
    minLength: 1,
    default: 'backups',
    description: "the folder of the scheduled backups; a relative path is taken from the database's folder",
    details:
      'made 0700 when missing, each backup 0600; the default keeps them beside the database (`./data/backups`, or `/data/backups` in Docker): copy them off the machine too',
  }),
  BACKUP_CRON: Type.Union([Type.String({ format: 'cron', examples: [DEFAULT_BACKUP_CRON] }), Type.Literal('off')], {
    default: DEFAULT_BACKUP_CRON,
    description:
      'when the scheduled backup runs: a cron pattern (the default is daily at 03:37); `off` disables it (`backup now` still works)',
  }),
  BACKUP_KEEP: Type.Integer({
    minimum: 1,
    maximum: 1000,
    unit: 'backups',
    default: DEFAULT_BACKUP_KEEP,
    description: 'how many scheduled backups to keep (1–1000); the oldest beyond it is removed after each new one',
    details: 'the default is a week of daily copies',
  }),
  MAINTENANCE_CRON: Type.Union(
    [Type.String({ format: 'cron', examples: [DEFAULT_MAINTENANCE_CRON] }), Type.Literal('off')],
    {
      default: DEFAULT_MAINTENANCE_CRON,
      description:
        'when the housekeeping runs: a cron pattern (the default is daily at 03:07); `off` disables it (`maintenance prune` and `maintenance optimize` still work)',
      details:
        'it deletes ended sessions and tokens (revoked, or unused past their time), old invites and what deletes of completions removed once their hour of undo ended, then optimizes the database, and vacuums it when at least a quarter of the file, and 1 MiB, is free space',
    },
  ),
  CATALOG_SOURCES: Type.Array(Type.String({ minLength: 1, format: 'source', examples: ['./quests.json'] }), {
    minItems: 1,
    default: [...DEFAULT_CATALOG_SOURCES],
    description:
      "where the catalog sync reads, tried in order until one answers: URLs or local files, separated by commas; each the DDO wiki page's HTML, DDO Audit's quest list, another Quest Tracker's `/api/catalog`, or a JSON array of quest rows",
    details:
      'the catalog that ships with the program fills an empty database first, so the sources only bring it up to date; see "The quest catalog"',
  }),
  CATALOG_SOURCE_URL: Type.Union([Type.String({ minLength: 1 }), Type.Literal('none')], {
    default: 'none',
    description: 'the older one-source form of `CATALOG_SOURCES`: when set, the sync reads this source alone',
  }),
  CATALOG_SYNC_CRON: Type.Union(
    [Type.String({ format: 'cron', examples: [DEFAULT_CATALOG_SYNC_CRON] }), Type.Literal('off')],
    {
      default: DEFAULT_CATALOG_SYNC_CRON,
      description:
        'when the catalog sync runs: a cron pattern (the default is daily at 04:17); `off` disables the scheduled sync (a catalog never synced is still synced once at start)',
    },
  ),
  LOG_LEVEL: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')], {
    default: 'info',
    description: '`debug`, `info`, `warn` or `error`',
  }),
  LOG_FORMAT: Type.Union([Type.Literal('text'), Type.Literal('json')], {
    default: 'text',
    description: '`text` (time, level, message), or `json` for one JSON object a line',
    details:
      'each holds `time`, `level`, `msg` and the facts of the event, e.g. `method`, `path`, `status`, `ms` of a request',
  }),
  TRUSTED_PROXY: Type.Array(Type.String({ format: 'ip-range', examples: ['10.0.0.1', '172.16.0.0/12'] }), {
    default: [],
    description:
      'reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed: IP addresses or CIDR ranges, separated by commas',
    details:
      "e.g. `127.0.0.1` or `10.0.0.0/8, fd00::/8`; `none` or empty trusts no proxy. `X-Forwarded-For` counts for the per-address login limit, `X-Forwarded-Proto: https` makes the session cookie `Secure` and adds HSTS: set it only when the server is reached through that proxy, else every client counts as the proxy's address",
  }),
  TLS_CERT_FILE: Type.Union([Type.String({ minLength: 1 }), Type.Literal('none')], {
    default: 'none',
    description: 'the certificate to serve HTTPS with on PORT (PEM, its chain after it); `none` or empty: plain HTTP',
    details:
      'read with `TLS_KEY_FILE` at start (a missing, unreadable or mismatched file stops the start with one line), and again within 30 s when either file changes, without a restart; see "HTTPS on a home network"',
  }),
  TLS_KEY_FILE: Type.Union([Type.String({ minLength: 1 }), Type.Literal('none')], {
    default: 'none',
    description: "the certificate's private key (PEM, without a passphrase); set both or neither",
  }),
  TOKEN_IDLE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    unit: 'days',
    default: DEFAULT_TOKEN_IDLE_DAYS,
    description: 'a plugin token unused for this many days (1–3650) stops working',
    details: 'the plugin logs in again',
  }),
  SIGNUP_INVITES: Type.Union([Type.Literal('off'), Type.Literal('on')], {
    default: 'off',
    description:
      "`on` lets a newcomer make their own account with an invite link (`invite create`, or a group owner's invite); `off`: only `user add` makes accounts",
    details:
      'each invite works once and for a week (`--days`); a group\'s invite still lets an existing account join the group when `off`. See "Joining: invite links"',
  }),
})

type Variables = Static<typeof ConfigSchema>
export type LogLevel = Variables['LOG_LEVEL']
export type LogFormat = Variables['LOG_FORMAT']

export interface Config {
  readonly port: number
  readonly host: string
  readonly databasePath: string
  readonly databaseSynchronous: Synchronous
  /** As given: a relative folder is taken from the database's folder (backupFolder). */
  readonly backupDir: string
  /** null when the scheduled backup is switched off (`off`). */
  readonly backupCron: string | null
  readonly backupKeep: number
  /** null when the scheduled housekeeping is switched off (`off`). */
  readonly maintenanceCron: string | null
  /** The sources the sync tries, in order (CATALOG_SOURCES, or CATALOG_SOURCE_URL alone). */
  readonly catalogSources: readonly string[]
  /** As given; null when not set (`none`). */
  readonly catalogSourceUrl: string | null
  /** null when the scheduled sync is switched off (`off`). */
  readonly catalogSyncCron: string | null
  readonly logLevel: LogLevel
  /**
   * Proxies whose X-Forwarded-For (the per-address login limit) and X-Forwarded-Proto (the
   * Secure cookie, HSTS) are believed: addresses or CIDR ranges ("10.0.0.1", "10.0.0.0/8",
   * "fd00::/8"). Empty: the headers are ignored.
   */
  readonly trustedProxies: readonly string[]
  /** `json`: one JSON object a line, for journald, Loki and the like. */
  readonly logFormat: LogFormat
  /** A plugin token unused for this many days stops working (the plugin logs in again). */
  readonly tokenIdleDays: number
  /** HTTPS on PORT with this certificate (PEM) and key; both null: plain HTTP. Never one alone. */
  readonly tlsCertFile: string | null
  readonly tlsKeyFile: string | null
  /** Whether an invite link lets a newcomer make an account (SIGNUP_INVITES=on); off by default. */
  readonly signupInvites: boolean
}

/** A bad configuration value; main prints the message as one line and exits 2. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>

/** The field of Config each variable sets: every variable of the schema has one (checked by the type). */
const FIELDS = {
  PORT: 'port',
  HOST: 'host',
  DATABASE_PATH: 'databasePath',
  DATABASE_SYNCHRONOUS: 'databaseSynchronous',
  BACKUP_DIR: 'backupDir',
  BACKUP_CRON: 'backupCron',
  BACKUP_KEEP: 'backupKeep',
  MAINTENANCE_CRON: 'maintenanceCron',
  CATALOG_SOURCES: 'catalogSources',
  CATALOG_SOURCE_URL: 'catalogSourceUrl',
  CATALOG_SYNC_CRON: 'catalogSyncCron',
  LOG_LEVEL: 'logLevel',
  LOG_FORMAT: 'logFormat',
  TRUSTED_PROXY: 'trustedProxies',
  TLS_CERT_FILE: 'tlsCertFile',
  TLS_KEY_FILE: 'tlsKeyFile',
  TOKEN_IDLE_DAYS: 'tokenIdleDays',
  SIGNUP_INVITES: 'signupInvites',
} as const satisfies { [Name in keyof Variables]: keyof Config }

/** The configuration written back as its variables, in the schema's order (the debug log). */
export function configVariables(config: Config): [name: string, value: string][] {
  return Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const value = config[FIELDS[name as keyof Variables]]
    return [name, variableText(value, schema)]
  })
}

function variableText(value: Config[keyof Config], schema: TSchema): string {
  if (value === null) return offWord(schema)
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  return Array.isArray(value) ? value.join(',') || 'none' : String(value)
}

/** The word that switches a variable off (`off` for a schedule, `none` for a file): its union's literal. */
function offWord(schema: TSchema): string {
  const word = KindGuard.IsUnion(schema) ? schema.anyOf.find((member) => KindGuard.IsLiteral(member)) : undefined
  return word ? String(word.const) : 'off'
}

/**
 * Reads the variables of ConfigSchema. `overrides` carries command-line flags, which win over
 * the environment.
 */
export function loadConfig(env: Env = process.env, overrides: Env = {}): Config {
  const raw: Env = {}
  const values: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    raw[name] = overrides[name] ?? env[name]
    if (raw[name] !== undefined) values[name] = fromText(schema, raw[name])
  }
  const checked = Value.Default(ConfigSchema, values)
  if (!Value.Check(ConfigSchema, checked)) throw configError(checked, raw)
  const tlsCertFile = checked.TLS_CERT_FILE === 'none' ? null : checked.TLS_CERT_FILE
  const tlsKeyFile = checked.TLS_KEY_FILE === 'none' ? null : checked.TLS_KEY_FILE
  if ((tlsCertFile === null) !== (tlsKeyFile === null)) {
    const missing = tlsCertFile === null ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'
    throw new ConfigError(
      `TLS_CERT_FILE and TLS_KEY_FILE go together (the certificate and its private key): ${missing} is not set.`,
    )
  }
  const catalogSourceUrl = checked.CATALOG_SOURCE_URL === 'none' ? null : checked.CATALOG_SOURCE_URL
  if (catalogSourceUrl !== null && raw.CATALOG_SOURCES !== undefined) {
    throw new ConfigError(
      'CATALOG_SOURCES and CATALOG_SOURCE_URL are both set: set CATALOG_SOURCES alone (CATALOG_SOURCE_URL is its older one-source form).',
    )
  }
  return Object.freeze({
    port: checked.PORT,
    host: checked.HOST,
    databasePath: checked.DATABASE_PATH,
    databaseSynchronous: checked.DATABASE_SYNCHRONOUS,
    backupDir: checked.BACKUP_DIR,
    backupCron: checked.BACKUP_CRON === 'off' ? null : checked.BACKUP_CRON,
    backupKeep: checked.BACKUP_KEEP,
    maintenanceCron: checked.MAINTENANCE_CRON === 'off' ? null : checked.MAINTENANCE_CRON,
    catalogSources: Object.freeze(catalogSourceUrl === null ? checked.CATALOG_SOURCES : [catalogSourceUrl]),
    catalogSourceUrl,
    catalogSyncCron: checked.CATALOG_SYNC_CRON === 'off' ? null : checked.CATALOG_SYNC_CRON,
    logLevel: checked.LOG_LEVEL,
    trustedProxies: Object.freeze(checked.TRUSTED_PROXY),
    logFormat: checked.LOG_FORMAT,
    tokenIdleDays: checked.TOKEN_IDLE_DAYS,
    tlsCertFile,
    tlsKeyFile,
    signupInvites: checked.SIGNUP_INVITES === 'on',
  })
}

/**
 * A variable's text as the value its schema checks. What does not read as the type stays text,
 * so that the check refuses it.
 */
function fromText(schema: TSchema, text: string): unknown {
  const value = text.trim()
  if (KindGuard.IsInteger(schema)) return /^\d+$/.test(value) ? Number(value) : text
  if (KindGuard.IsUnion(schema)) {
    // Empty is `none` where `none` is a word of the variable, as for a list.
    const wanted = value === '' ? 'none' : value.toLowerCase()
    const word = schema.anyOf.find((member) => KindGuard.IsLiteral(member) && member.const === wanted)
    return word ? word.const : value
  }
  if (KindGuard.IsArray(schema)) {
    return value === '' || value.toLowerCase() === 'none' ? [] : value.split(',').map((entry) => entry.trim())
  }
  return value
}

/** The first refused variable, in one line: what it must be, from its schema, and what it got. */
function configError(values: unknown, raw: Env): ConfigError {
  // Errors come in the schema's order; the path is "/PORT", or "/TRUSTED_PROXY/1" in a list.
  const error = Value.Errors(ConfigSchema, values).First()
  const [, name = '', ...inner] = error?.path.split('/') ?? []
  const schema: TSchema = ConfigSchema.properties[name as keyof Variables]
  // In a list, the entry that is wrong; otherwise the text as given.
  const got = inner.length > 0 ? error?.value : raw[name]
  if (error?.value === '' && schema.minLength) return new ConfigError(`${name} must not be empty.`)
  return new ConfigError(`${name} must be ${expected(schema)} (got "${got}").`)
}

/** What a schema accepts, in words: "a whole number from 0 to 65535", "one of text, json". */
function expected(schema: TSchema): string {
  if (KindGuard.IsInteger(schema)) {
    const unit = schema.unit ? ` of ${schema.unit}` : ''
    return `a whole number${unit} from ${schema.minimum} to ${schema.maximum}`
  }
  if (KindGuard.IsUnion(schema)) {
    const words = schema.anyOf.flatMap((member) => (KindGuard.IsLiteral(member) ? [String(member.const)] : []))
    const others = schema.anyOf.filter((member) => !KindGuard.IsLiteral(member))
    if (others.length === 0) return `one of ${words.join(', ')}`
    return [...others.map(expected), ...words.map((word) => `"${word}"`)].join(' or ')
  }
  if (KindGuard.IsArray(schema)) {
    const format = FORMATS[schema.items.format]?.many ?? 'values'
    return `${format} separated by commas${suchAs(schema.items, ', such as')}`
  }
  const format = FORMATS[schema.format]?.one ?? 'a text'
  return `${format}${suchAs(schema, ' such as')}`
}

const suchAs = (schema: TSchema, lead: string): string =>
  Array.isArray(schema.examples) ? `${lead} ${schema.examples.map((example) => `"${example}"`).join(' or ')}` : ''

/** A variable as --help and docs/operations.md show it. */
export interface VariableDoc {
  name: string
  /** The default as one would write it: `8080`, `none` for an empty list. */
  fallback: string
  description: string
  details?: string
}

export function variableDocs(): VariableDoc[] {
  return Object.entries(ConfigSchema.properties).map(([name, schema]) => ({
    name,
    fallback: Array.isArray(schema.default) ? schema.default.join(', ') || 'none' : String(schema.default),
    description: schema.description ?? '',
    ...(schema.details ? { details: String(schema.details) } : {}),
  }))
}
