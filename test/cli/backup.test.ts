// `quest-tracker backup`: a copy of the database, its permissions and links.
import { describe, expect, test } from 'bun:test'
import { existsSync, lstatSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/client'
import { findUser } from '../../src/modules/auth/service'
import { cli, createDb, dbPath, err, passwords, useCli } from './cli'

useCli()

describe('quest-tracker backup', () => {
  test('writes a consistent copy that opens with the same accounts', async () => {
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Alice')
    const target = join(dbPath, '..', 'copy.sqlite')
    expect(await cli('backup', target)).toBe(0)
    const copy = openDatabase(target)
    expect(findUser(copy, 'Alice')?.username).toBe('Alice')
    copy.$client.close()
    expect(await cli('backup', target)).toBe(2)
    expect(err.pop()).toContain('already exists')
  })
})

describe('quest-tracker backup: permissions and links', () => {
  test('the copy is 0600 like the database (it holds the password hashes)', async () => {
    createDb()
    const target = join(dbPath, '..', 'copy.sqlite')
    const umask = process.umask(0o022)
    try {
      expect(await cli('backup', target)).toBe(0)
    } finally {
      process.umask(umask)
    }
    expect((statSync(target).mode & 0o777).toString(8)).toBe('600')
  })

  test('refuses a dangling symbolic link instead of writing the copy where it points', async () => {
    createDb()
    const elsewhere = join(dbPath, '..', 'elsewhere.sqlite')
    const link = join(dbPath, '..', 'link.sqlite')
    symlinkSync(elsewhere, link)
    expect(await cli('backup', link)).toBe(2)
    expect(err).toEqual([`quest-tracker: backup: ${link} is a symbolic link; give a new file's path`])
    expect(existsSync(elsewhere)).toBe(false)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
  })
})
