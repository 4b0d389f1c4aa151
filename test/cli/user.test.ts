// `quest-tracker user`: add (the password read, never from argv), list, passwd, remove.
import { describe, expect, test } from 'bun:test'
import { systemClock } from '../../src/clock'
import { authenticate, findUser, revokeToken } from '../../src/modules/auth/service'
import { FakeClock } from '../helpers'
import { cli, createDb, err, out, passwords, tryLogin, useCli, withDb } from './cli'

useCli()

describe('quest-tracker user', () => {
  test('add reads the password (never argv) and the account can log in', async () => {
    passwords.push('a long password')
    expect(await cli('user', 'add', '--username', 'Alice', '--email', 'Alice@Example.com')).toBe(0)
    expect(out.join('\n')).toContain('created account 1 ("Alice")')
    const result = await tryLogin('alice@example.com', 'a long password')
    expect(result.user).toEqual({ id: 1, email: 'alice@example.com', username: 'Alice', displayName: 'Alice' })
  })

  test('add with only an e-mail makes an account whose displayName is Player', async () => {
    passwords.push('a long password')
    expect(await cli('user', 'add', '--email=solo@example.com')).toBe(0)
    expect((await tryLogin('solo@example.com', 'a long password')).user.displayName).toBe('Player')
  })

  test('add refuses a duplicate, a short password, and a missing name', async () => {
    passwords.push('a long password', 'a long password', 'short')
    expect(await cli('user', 'add', '--username', 'Alice')).toBe(0)
    expect(await cli('user', 'add', '--username', 'alice')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: An account "alice" already exists.')
    expect(await cli('user', 'add', '--username', 'Bob')).toBe(1)
    expect(err.pop()).toContain('at least 8 characters')
    expect(await cli('user', 'add')).toBe(2)
    expect(err.pop()).toContain('give --username NAME, --email ADDR, or both')
  })

  test('passwd changes the password', async () => {
    passwords.push('first password', 'second password')
    await cli('user', 'add', '--username', 'Alice')
    expect(await cli('user', 'passwd', 'Alice')).toBe(0)
    await expect(tryLogin('Alice', 'first password')).rejects.toThrow()
    expect((await tryLogin('Alice', 'second password')).user.username).toBe('Alice')
  })

  test('list shows accounts and their live tokens', async () => {
    createDb()
    expect(await cli('user', 'list')).toBe(0)
    expect(out.pop()).toContain('no accounts yet')
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Alice', '--email', 'a@example.com')
    await tryLogin('Alice', 'a long password')
    expect(await cli('user', 'list')).toBe(0)
    expect(out.pop()).toMatch(/^1\t"Alice"\t"a@example.com"\t1 token\tcreated /)
  })

  test('list counts each account its own live tokens, not revoked ones', async () => {
    passwords.push('a long password', 'a long password')
    await cli('user', 'add', '--username', 'Alice')
    await cli('user', 'add', '--username', 'Bob')
    // Bob holds tokens 1 to 3, and token 3 is revoked; Alice holds none.
    for (let i = 0; i < 3; i++) await tryLogin('Bob', 'a long password')
    withDb((db) => revokeToken(db, new FakeClock(), 3))
    out.length = 0
    expect(await cli('user', 'list')).toBe(0)
    expect(out.map((line) => line.split('\t').slice(1, 4))).toEqual([
      ['"Alice"', '-', '0 tokens'],
      ['"Bob"', '-', '2 tokens'],
    ])
  })

  test('remove deletes the account and revokes its tokens', async () => {
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Alice')
    const { token } = await tryLogin('Alice', 'a long password')
    expect(await cli('user', 'remove', 'alice')).toBe(0)
    expect(out.pop()).toContain('revoked its tokens')
    withDb((db) => {
      expect(findUser(db, 'Alice')).toBeUndefined()
      expect(() => authenticate(db, systemClock, `Bearer ${token}`)).toThrow('Invalid or revoked token')
    })
    expect(await cli('user', 'remove', 'alice')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No account "alice".')
  })
})
