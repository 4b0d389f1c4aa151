import { describe, expect, test } from 'bun:test'
import { ConfigError, DEFAULT_CATALOG_SOURCE_URL, DEFAULT_CATALOG_SYNC_CRON, loadConfig } from '../src/config'

describe('loadConfig', () => {
  test('defaults match the README table', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databasePath: './data/quest-tracker.sqlite',
      databaseSynchronous: 'full',
      catalogSourceUrl: DEFAULT_CATALOG_SOURCE_URL,
      catalogSyncCron: DEFAULT_CATALOG_SYNC_CRON,
      logLevel: 'info',
      trustedProxies: [],
      logFormat: 'text',
      tokenIdleDays: 180,
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
      catalogSourceUrl: './quests.json',
      catalogSyncCron: '0 3 * * 1',
      logLevel: 'debug',
      trustedProxies: ['10.0.0.1', '172.16.0.0/12', 'fd00::/8'],
      logFormat: 'json',
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

  test('command-line overrides win over the environment', () => {
    expect(loadConfig({ PORT: '9000' }, { PORT: '9001' }).port).toBe(9001)
  })

  test('the result is frozen', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true)
  })

  test.each([
    ['PORT', 'abc', /PORT must be a whole number/],
    ['PORT', '70000', /PORT must be a whole number/],
    ['PORT', '-1', /PORT must be a whole number/],
    ['DATABASE_SYNCHRONOUS', 'off', /DATABASE_SYNCHRONOUS must be one of full, normal/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of debug, info, warn, error/],
    ['LOG_FORMAT', 'xml', /LOG_FORMAT must be one of text, json/],
    ['CATALOG_SYNC_CRON', 'every day', /CATALOG_SYNC_CRON must be a cron pattern/],
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
