// `quest-tracker token`: list and revoke plugin tokens.
import { beforeEach, describe, expect, test } from 'bun:test'
import { systemClock } from '../../src/clock'
import { authenticate } from '../../src/modules/auth/service'
import { cli, createDb, err, out, passwords, tryLogin, useCli, withDb } from './cli'

useCli()

describe('quest-tracker token', () => {
  beforeEach(createDb)

  test("list shows live tokens (all, or one account's) by id, owner, label and last use; never the token", async () => {
    passwords.push('a long password', 'a long password')
    await cli('user', 'add', '--username', 'Alice')
    await cli('user', 'add', '--username', 'Bob')
    const alice = await tryLogin('Alice', 'a long password')
    await tryLogin('Bob', 'a long password')
    out.length = 0
    expect(await cli('token', 'list')).toBe(0)
    expect(out.map((line) => line.split('\t').slice(0, 3))).toEqual([
      ['1', '"Alice"', '"test"'],
      ['2', '"Bob"', '"test"'],
    ])
    expect(out[0]).toContain('last used never')
    expect(out.join('\n')).not.toContain(alice.token)
    out.length = 0
    expect(await cli('token', 'list', 'bob')).toBe(0)
    expect(out.map((line) => line.split('\t')[1])).toEqual(['"Bob"'])
    expect(await cli('token', 'list', 'nobody')).toBe(1)
  })

  test('revoke ends one token; the plugin API then answers 401 for it', async () => {
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Alice')
    const first = await tryLogin('Alice', 'a long password')
    const second = await tryLogin('Alice', 'a long password')
    expect(await cli('token', 'revoke', String(first.tokenId))).toBe(0)
    withDb((db) => {
      expect(() => authenticate(db, systemClock, `Bearer ${first.token}`)).toThrow('Invalid or revoked token')
      expect(authenticate(db, systemClock, `Bearer ${second.token}`).tokenId).toBe(second.tokenId)
    })
    expect(await cli('token', 'revoke', String(first.tokenId))).toBe(1)
    expect(err.pop()).toContain(`No live token ${first.tokenId}`)
    expect(await cli('token', 'revoke', 'x')).toBe(2)
  })

  test('user passwd revokes every token of the account', async () => {
    passwords.push('a long password', 'another long one')
    await cli('user', 'add', '--username', 'Alice')
    const { token } = await tryLogin('Alice', 'a long password')
    expect(await cli('user', 'passwd', 'alice')).toBe(0)
    withDb((db) => expect(() => authenticate(db, systemClock, `Bearer ${token}`)).toThrow('Invalid or revoked token'))
    out.length = 0
    expect(await cli('token', 'list')).toBe(0)
    expect(out).toEqual(['no live tokens'])
  })
})
