// Every command and its database file: none made in the wrong folder, the one opened named.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { cli, createDb, dbPath, err, out, passwords, useCli } from './cli'

useCli()

describe('the database file', () => {
  const noDatabase = () =>
    `quest-tracker: no database at ${dbPath}; check DATABASE_PATH (or --database), or create it by starting the server or adding an account`

  test.each([
    [['user', 'list']],
    [['user', 'passwd', 'alice']],
    [['user', 'remove', 'alice']],
    [['catalog', 'sync', '--from', join(import.meta.dir, '..', 'fixtures', 'catalog-small.json')]],
    [['scorecards', 'import', join(import.meta.dir, '..', 'fixtures', 'scorecards.json')]],
    [['route', 'export', '1']],
    [['route', 'import', join(import.meta.dir, '..', 'fixtures', 'scorecards.json'), '--owner', 'alice']],
    [['backup', 'COPY']],
    [['backup', 'now']],
    [['maintenance', 'prune']],
    [['maintenance', 'optimize']],
  ])('%p in the wrong folder refuses to make a new empty database', async (argv) => {
    passwords.push('a long password')
    const copy = join(dbPath, '..', 'copy.sqlite')
    expect(await cli(...argv.map((arg) => (arg === 'COPY' ? copy : arg)))).toBe(2)
    expect(err).toEqual([noDatabase()])
    expect(out).toEqual([])
    expect(passwords).toHaveLength(1) // nobody was asked for a password
    expect(existsSync(dbPath)).toBe(false)
    expect(existsSync(copy)).toBe(false)
  })

  test('every command names the file it opened', async () => {
    createDb()
    expect(await cli('user', 'list')).toBe(0)
    expect(err).toEqual([`quest-tracker: database ${dbPath}`])
    err.length = 0
    expect(await cli('backup', join(dbPath, '..', 'copy.sqlite'))).toBe(0)
    expect(err).toEqual([`quest-tracker: database ${dbPath}`])
  })
})
