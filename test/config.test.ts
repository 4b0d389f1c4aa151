import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import {
  type Config,
  ConfigError,
  ConfigSchema,
  configVariables,
  DEFAULT_BACKUP_CRON,
  DEFAULT_BACKUP_KEEP,
  DEFAULT_CATALOG_SOURCES,
  DEFAULT_CATALOG_SYNC_CRON,
  DEFAULT_MAINTENANCE_CRON,
  loadConfig,
  variableDocs,
} from '../src/config'

describe('loadConfig', () => {
  test('defaults match the configuration table of docs/operations.md', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databasePath: './data/quest-tracker.sqlite',
      databaseSynchronous: 'full',
      backupDir: 'backups',
      backupCron: DEFAULT_BACKUP_CRON,
      backupKeep: DEFAULT_BACKUP_KEEP,
      maintenanceCron: DEFAULT_MAINTENANCE_CRON,
      catalogSources: [...DEFAULT_CATALOG_SOURCES],
      catalogSourceUrl: null,
      catalogSyncCron: DEFAULT_CATALOG_SYNC_CRON,
      logLevel: 'info',
      trustedProxies: [],
      logFormat: 'text',
      tokenIdleDays: 180,
      tlsCertFile: null,
      tlsKeyFile: null,
      signupInvites: false,
    })
  })

  test('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATABASE_PATH: '/data/qt.sqlite',
      DATABASE_SYNCHRONOUS: 'NORMAL',
      CATALOG_SOURCE_URL: './quests.json',
      CATALOG_SYNC_CRON: '0 3 * * 1',
      LOG_LEVEL: 'debug',
      TRUSTED_PROXY: '10.0.0.1, 172.16.0.0/12,fd00::/8',
      LOG_FORMAT: 'JSON',
    })
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      databasePath: '/data/qt.sqlite',
      databaseSynchronous: 'normal',
      catalogSources: ['./quests.json'],
      catalogSourceUrl: './quests.json',
      catalogSyncCron: '0 3 * * 1',
      logLevel: 'debug',
      trustedProxies: ['10.0.0.1', '172.16.0.0/12', 'fd00::/8'],
      logFormat: 'json',
    })
  })

  test('TLS_CERT_FILE and TLS_KEY_FILE are read as a pair: both paths, or both off', () => {
    expect(loadConfig({ TLS_CERT_FILE: ' ./certs/qt.pem ', TLS_KEY_FILE: '/etc/qt/qt-key.pem' })).toMatchObject({
      tlsCertFile: './certs/qt.pem',
      tlsKeyFile: '/etc/qt/qt-key.pem',
    })
    expect(loadConfig({ TLS_CERT_FILE: 'none', TLS_KEY_FILE: '' })).toMatchObject({
      tlsCertFile: null,
      tlsKeyFile: null,
    })
  })

  test('TRUSTED_PROXY empty or "none" trusts no proxy', () => {
    expect(loadConfig({ TRUSTED_PROXY: '' }).trustedProxies).toEqual([])
    expect(loadConfig({ TRUSTED_PROXY: 'none' }).trustedProxies).toEqual([])
  })

  test('CATALOG_SYNC_CRON=off disables the scheduled sync', () => {
    expect(loadConfig({ CATALOG_SYNC_CRON: 'off' }).catalogSyncCron).toBeNull()
    expect(loadConfig({ CATALOG_SYNC_CRON: 'OFF' }).catalogSyncCron).toBeNull()
  })

  test('SIGNUP_INVITES is off unless turned on', () => {
    expect(loadConfig({}).signupInvites).toBe(false)
    expect(loadConfig({ SIGNUP_INVITES: 'On' }).signupInvites).toBe(true)
    expect(loadConfig({ SIGNUP_INVITES: 'off' }).signupInvites).toBe(false)
  })

  test('BACKUP_CRON=off disables the scheduled backup', () => {
    expect(loadConfig({ BACKUP_CRON: 'off' }).backupCron).toBeNull()
  })

  test('command-line overrides win over the environment', () => {
    expect(loadConfig({ PORT: '9000' }, { PORT: '9001' }).port).toBe(9001)
  })

  test('CATALOG_SOURCE_URL alone is the one source; with CATALOG_SOURCES too, one line says to keep one', () => {
    expect(loadConfig({ CATALOG_SOURCE_URL: './a.json' }).catalogSources).toEqual(['./a.json'])
    expect(loadConfig({ CATALOG_SOURCES: './a.json,./b.html' }).catalogSources).toEqual(['./a.json', './b.html'])
    expect(() => loadConfig({ CATALOG_SOURCE_URL: './a.json', CATALOG_SOURCES: './b.json' })).toThrow(
      'CATALOG_SOURCES and CATALOG_SOURCE_URL are both set: set CATALOG_SOURCES alone (CATALOG_SOURCE_URL is its older one-source form).',
    )
  })

  test('the result is frozen', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true)
  })

  test.each([
    ['PORT', 'abc', /PORT must be a whole number/],
    ['PORT', '70000', /PORT must be a whole number/],
    ['PORT', '-1', /PORT must be a whole number/],
    // Digits only: TypeBox's own conversion (parseInt) would take these as 1, 1 and 0.
    ['PORT', '1.5', /PORT must be a whole number/],
    ['PORT', '1e3', /PORT must be a whole number/],
    ['PORT', '0x10', /PORT must be a whole number/],
    ['DATABASE_SYNCHRONOUS', 'off', /DATABASE_SYNCHRONOUS must be one of full, normal/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of debug, info, warn, error/],
    ['LOG_FORMAT', 'xml', /LOG_FORMAT must be one of text, json/],
    ['SIGNUP_INVITES', 'yes', /SIGNUP_INVITES must be one of off, on \(got "yes"\)/],
    ['CATALOG_SYNC_CRON', 'every day', /CATALOG_SYNC_CRON must be a cron pattern/],
    ['CATALOG_SOURCES', 'none', /CATALOG_SOURCES must be URLs or file paths separated by commas/],
    ['DATABASE_PATH', '  ', /DATABASE_PATH must not be empty/],
    ['HOST', '', /HOST must not be empty/],
    ['TRUSTED_PROXY', 'proxy.lan', /TRUSTED_PROXY must be IP addresses or CIDR ranges .*"proxy.lan"/],
    ['TRUSTED_PROXY', '10.0.0.0/33', /TRUSTED_PROXY must be IP addresses or CIDR ranges .*"10.0.0.0\/33"/],
    ['TRUSTED_PROXY', '10.0.0.1,', /TRUSTED_PROXY must be IP addresses or CIDR ranges .*""/],
    ['TRUSTED_PROXY', '::1/129', /TRUSTED_PROXY must be IP addresses or CIDR ranges/],
  ])('%s=%p is refused with one clear line', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(message)
  })
})

/** Per variable: the Config field, a good text and what it reads as, a bad text and its exact line, the default. */
const VARIABLES: Record<
  keyof typeof ConfigSchema.properties,
  {
    field: keyof Config
    good: [string, Config[keyof Config]]
    /** null: no value of it alone is refused. */
    bad: [string, string] | null
    fallback: Config[keyof Config]
  }
> = {
  PORT: {
    field: 'port',
    good: [' 9000 ', 9000],
    bad: ['70000', 'PORT must be a whole number from 0 to 65535 (got "70000").'],
    fallback: 8080,
  },
  HOST: {
    field: 'host',
    good: [' 127.0.0.1 ', '127.0.0.1'],
    bad: ['  ', 'HOST must not be empty.'],
    fallback: '0.0.0.0',
  },
  DATABASE_PATH: {
    field: 'databasePath',
    good: ['/data/qt.sqlite', '/data/qt.sqlite'],
    bad: ['', 'DATABASE_PATH must not be empty.'],
    fallback: './data/quest-tracker.sqlite',
  },
  DATABASE_SYNCHRONOUS: {
    field: 'databaseSynchronous',
    good: ['NORMAL', 'normal'],
    bad: ['off', 'DATABASE_SYNCHRONOUS must be one of full, normal (got "off").'],
    fallback: 'full',
  },
  BACKUP_DIR: {
    field: 'backupDir',
    good: [' /srv/backups ', '/srv/backups'],
    bad: ['', 'BACKUP_DIR must not be empty.'],
    fallback: 'backups',
  },
  BACKUP_CRON: {
    field: 'backupCron',
    good: ['0 */6 * * *', '0 */6 * * *'],
    bad: ['nightly', 'BACKUP_CRON must be a cron pattern such as "37 3 * * *" or "off" (got "nightly").'],
    fallback: DEFAULT_BACKUP_CRON,
  },
  BACKUP_KEEP: {
    field: 'backupKeep',
    good: ['30', 30],
    bad: ['0', 'BACKUP_KEEP must be a whole number of backups from 1 to 1000 (got "0").'],
    fallback: DEFAULT_BACKUP_KEEP,
  },
  MAINTENANCE_CRON: {
    field: 'maintenanceCron',
    good: ['OFF', null],
    bad: ['weekly', 'MAINTENANCE_CRON must be a cron pattern such as "7 3 * * *" or "off" (got "weekly").'],
    fallback: DEFAULT_MAINTENANCE_CRON,
  },
  CATALOG_SOURCES: {
    field: 'catalogSources',
    good: [' ./quests.json , https://qt.lan:8080/api/catalog', ['./quests.json', 'https://qt.lan:8080/api/catalog']],
    bad: [
      './quests.json,',
      'CATALOG_SOURCES must be URLs or file paths separated by commas, such as "./quests.json" (got "").',
    ],
    fallback: [...DEFAULT_CATALOG_SOURCES],
  },
  // Empty is `none`; set with CATALOG_SOURCES too it is refused (the test of the pair above).
  CATALOG_SOURCE_URL: {
    field: 'catalogSourceUrl',
    good: ['./quests.json', './quests.json'],
    bad: null,
    fallback: null,
  },
  CATALOG_SYNC_CRON: {
    field: 'catalogSyncCron',
    good: ['0 3 * * 1', '0 3 * * 1'],
    bad: ['every day', 'CATALOG_SYNC_CRON must be a cron pattern such as "17 4 * * *" or "off" (got "every day").'],
    fallback: DEFAULT_CATALOG_SYNC_CRON,
  },
  LOG_LEVEL: {
    field: 'logLevel',
    good: ['Warn', 'warn'],
    bad: ['loud', 'LOG_LEVEL must be one of debug, info, warn, error (got "loud").'],
    fallback: 'info',
  },
  LOG_FORMAT: {
    field: 'logFormat',
    good: ['JSON', 'json'],
    bad: ['xml', 'LOG_FORMAT must be one of text, json (got "xml").'],
    fallback: 'text',
  },
  TRUSTED_PROXY: {
    field: 'trustedProxies',
    good: ['10.0.0.1, fd00::/8', ['10.0.0.1', 'fd00::/8']],
    bad: [
      '10.0.0.1, proxy.lan',
      'TRUSTED_PROXY must be IP addresses or CIDR ranges separated by commas, such as "10.0.0.1" or "172.16.0.0/12" (got "proxy.lan").',
    ],
    fallback: [],
  },
  // Each alone is refused (the pair goes together); alone, only "off" reads.
  TLS_CERT_FILE: {
    field: 'tlsCertFile',
    good: ['', null],
    bad: [
      '/etc/qt/cert.pem',
      'TLS_CERT_FILE and TLS_KEY_FILE go together (the certificate and its private key): TLS_KEY_FILE is not set.',
    ],
    fallback: null,
  },
  TLS_KEY_FILE: {
    field: 'tlsKeyFile',
    good: [' NONE ', null],
    bad: [
      '/etc/qt/key.pem',
      'TLS_CERT_FILE and TLS_KEY_FILE go together (the certificate and its private key): TLS_CERT_FILE is not set.',
    ],
    fallback: null,
  },
  TOKEN_IDLE_DAYS: {
    field: 'tokenIdleDays',
    good: ['30', 30],
    bad: ['0', 'TOKEN_IDLE_DAYS must be a whole number of days from 1 to 3650 (got "0").'],
    fallback: 180,
  },
  SIGNUP_INVITES: {
    field: 'signupInvites',
    good: [' ON ', true],
    bad: ['yes', 'SIGNUP_INVITES must be one of off, on (got "yes").'],
    fallback: false,
  },
}

describe('every variable of the schema', () => {
  const cases = Object.entries(VARIABLES)

  test('has a case here (a new variable needs one)', () => {
    expect(Object.keys(VARIABLES).sort()).toEqual(Object.keys(ConfigSchema.properties).sort())
  })

  test.each(cases)(
    '%s: a good value, its default, and a bad value in one exact line',
    (name, { field, good, bad, fallback }) => {
      expect(loadConfig({ [name]: good[0] })[field]).toEqual(good[1])
      expect(loadConfig({})[field]).toEqual(fallback)
      // The flag of the same meaning is an override, read the same way.
      expect(loadConfig({}, { [name]: good[0] })[field]).toEqual(good[1])
      if (bad === null) return
      let error: unknown
      try {
        loadConfig({ [name]: bad[0] })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toBe(bad[1])
    },
  )

  test("the first bad variable in the schema's order is the one reported", () => {
    expect(() => loadConfig({ TOKEN_IDLE_DAYS: 'x', PORT: 'x' })).toThrow(/^PORT must/)
  })

  test("docs/operations.md's configuration table is the schema's: names, defaults and meanings in order", async () => {
    const operations = await Bun.file(join(import.meta.dir, '..', 'docs', 'operations.md')).text()
    const section = operations.split('## Configuration\n')[1]?.split('\n## ')[0] ?? ''
    const rows = section.split('\n').filter((line) => /^\| `[A-Z_]+` \|/.test(line))
    expect(rows).toEqual(
      variableDocs().map(
        ({ name, fallback, description, details }) =>
          `| \`${name}\` | \`${fallback}\` | ${details ? `${description}; ${details}` : description} |`,
      ),
    )
  })
})

test('the configuration written back as variables names every variable and loads to the same configuration', () => {
  const config = loadConfig({
    PORT: '9000',
    TRUSTED_PROXY: '10.0.0.1, 172.16.0.0/12',
    CATALOG_SYNC_CRON: 'off',
    TOKEN_IDLE_DAYS: '30',
    LOG_FORMAT: 'json',
    TLS_CERT_FILE: '/etc/qt/cert.pem',
    TLS_KEY_FILE: '/etc/qt/key.pem',
    SIGNUP_INVITES: 'on',
  })
  const variables = configVariables(config)
  expect(variables.map(([name]) => name)).toEqual(Object.keys(ConfigSchema.properties))
  expect(Object.fromEntries(variables)).toMatchObject({
    TRUSTED_PROXY: '10.0.0.1,172.16.0.0/12',
    CATALOG_SYNC_CRON: 'off',
    TOKEN_IDLE_DAYS: '30',
    SIGNUP_INVITES: 'on',
  })
  expect(loadConfig(Object.fromEntries(variables))).toEqual(config)
  expect(Object.fromEntries(configVariables(loadConfig({})))).toMatchObject({
    TRUSTED_PROXY: 'none',
    TLS_CERT_FILE: 'none',
    CATALOG_SYNC_CRON: '17 4 * * *',
    SIGNUP_INVITES: 'off',
  })
  expect(loadConfig(Object.fromEntries(configVariables(loadConfig({}))))).toEqual(loadConfig({}))
})
