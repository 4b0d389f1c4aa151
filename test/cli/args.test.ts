// Each command's flags, through node:util parseArgs (strict; src/cli/args.ts).
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { run } from '../../src/cli'
import { cli, createDb, dbPath, err, io, out, passwords, useCli, withDb } from './cli'

useCli()

describe('flags, through node:util parseArgs (strict)', () => {
  /** Each command, the flags that take a value, and those that take none. */
  const commands: [string[], string[], string[]][] = [
    [['serve'], ['port', 'host', 'database'], []],
    [['healthcheck'], ['port'], []],
    [['backup'], ['database'], []],
    [['backup', 'now'], ['database'], []],
    [['backup', 'verify'], [], []],
    [['restore'], ['database'], []],
    [['maintenance', 'prune'], ['database'], []],
    [['maintenance', 'optimize'], ['database'], []],
    [['user', 'add'], ['username', 'email', 'database'], []],
    [['user', 'passwd'], ['database'], []],
    [['user', 'list'], ['database'], []],
    [['user', 'remove'], ['database'], []],
    [['token', 'list'], ['database'], []],
    [['token', 'revoke'], ['database'], []],
    [['invite', 'create'], ['days', 'url', 'database'], []],
    [['invite', 'list'], ['database'], []],
    [['invite', 'revoke'], ['database'], []],
    [['catalog', 'sync'], ['from', 'database'], ['verbose']],
    [['scorecards', 'import'], ['database'], []],
    [['route', 'export'], ['database'], []],
    [['route', 'import'], ['owner', 'database'], []],
  ]

  /** Runs argv, expecting misuse: exit 2, nothing on stdout, one line on stderr. */
  const misuse = async (argv: string[]) => {
    out.length = 0
    err.length = 0
    expect(await cli(...argv)).toBe(2)
    expect(out).toEqual([])
    expect(err).toHaveLength(1)
    return err[0]
  }

  test.each(commands)(
    '%p: an unknown flag, a flag without its value, a switch with one; -h is --help',
    async (command, valued, switches) => {
      const name = command.join(' ')
      expect(await misuse([...command, '--bogus'])).toBe(`quest-tracker: ${name}: unknown option --bogus (see --help)`)
      expect(await misuse([...command, '-x'])).toBe(`quest-tracker: ${name}: unknown option -x (see --help)`)
      for (const flag of valued) {
        expect(await misuse([...command, `--${flag}`])).toBe(`quest-tracker: ${name}: --${flag} needs a value`)
        expect(await misuse([...command, `--${flag}=`])).toBe(`quest-tracker: ${name}: --${flag} needs a value`)
        expect(await misuse([...command, `--${flag}`, '--help'])).toBe(
          `quest-tracker: ${name}: --${flag} needs a value; --help looks like a flag (write --${flag}=--help if it is the value)`,
        )
      }
      for (const flag of switches) {
        expect(await misuse([...command, `--${flag}=yes`])).toBe(`quest-tracker: ${name}: --${flag} takes no value`)
      }
      out.length = 0
      expect(await cli(...command, '-h')).toBe(0)
      expect(out.join('\n')).toContain(`quest-tracker ${command[0]}`)
      expect(existsSync(dbPath)).toBe(false)
    },
  )

  test.each([
    [['serve', 'extra'], 'serve: takes no arguments (see --help)'],
    [['healthcheck', 'extra'], 'healthcheck: takes no arguments (see --help)'],
    [['user', 'add', 'alice'], 'user add: takes --username and/or --email, no other arguments'],
    [['user', 'list', 'alice'], 'user list: takes no arguments'],
    [['user', 'passwd', 'alice', 'bob'], 'user passwd: give the username or e-mail of the account'],
    [['user', 'remove'], 'user remove: give the username or e-mail of the account'],
    [['token', 'list', 'alice', 'bob'], 'token list: give at most one account name'],
    [['token', 'revoke'], 'token revoke: give the id of the token (see token list)'],
    [['invite', 'create', 'extra'], 'invite create: takes --days N and --url BASE, no other arguments'],
    [['invite', 'list', 'extra'], 'invite list: takes no arguments'],
    [['invite', 'revoke'], 'invite revoke: give the id of the invite (see invite list)'],
    [['catalog', 'sync', 'file.json'], 'catalog sync: takes --from URL_OR_PATH and --verbose, no other arguments'],
    [['scorecards', 'import', 'a.json', 'b.json'], 'scorecards import: give the path of the JSON file'],
    [['route', 'export'], 'route export: give the id of the route'],
    [['route', 'import', '--owner', 'alice'], 'route import: give the path of the route file'],
    [['backup', 'a', 'b'], 'backup: give the path of the copy to write'],
    [['backup', 'now', 'a'], 'backup now: takes no arguments (see --help)'],
    [['backup', 'verify'], 'backup verify: give the path of the backup to check'],
    [['restore'], 'restore: give the path of the backup to restore'],
  ])('%p: a wrong number of arguments names what the command takes', async (argv, message) => {
    expect(await misuse(argv)).toBe(`quest-tracker: ${message}`)
  })

  test('--name=value and --name value both work; the last one wins', async () => {
    createDb()
    const elsewhere = join(dbPath, '..', 'nowhere.sqlite')
    for (const argv of [
      ['user', 'list', '--database', dbPath],
      ['user', 'list', `--database=${dbPath}`],
      ['user', 'list', `--database=${elsewhere}`, '--database', dbPath],
    ]) {
      err.length = 0
      expect(await run(argv, { ...io(), env: { DATABASE_PATH: elsewhere, LOG_LEVEL: 'error' } })).toBe(0)
      expect(err).toEqual([`quest-tracker: database ${dbPath}`])
    }
    passwords.push('a long password', 'a long password')
    expect(await cli('user', 'add', '--username=Alice', '--email', 'alice@example.com')).toBe(0)
    expect(await cli('user', 'add', '--email=bob@example.com', '--username', 'Bob=Bobby')).toBe(0)
    expect(withDb((db) => db.$client.query('SELECT username, email FROM users ORDER BY id').all())).toEqual([
      { username: 'Alice', email: 'alice@example.com' },
      { username: 'Bob=Bobby', email: 'bob@example.com' },
    ])
  })

  test('a value that starts with "-" is given with "=", an argument after "--"', async () => {
    createDb()
    expect(await cli('user', 'remove', '--', '-bob')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No account "-bob".')
    expect(
      await cli('route', 'import', join(import.meta.dir, '..', 'fixtures', 'scorecards.json'), '--owner=-bob'),
    ).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No account "-bob" to own the imported route.')
  })

  test('healthcheck exits 1 and says why when the server answers it is degraded', async () => {
    const error = 'The disk is full: reads work, writes are refused until space is freed.'
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => Response.json({ ok: false, error, schemaVersion: 5 }, { status: 503 }),
    })
    try {
      expect(await cli('healthcheck', '--port', String(server.port))).toBe(1)
      expect(err).toEqual([`quest-tracker: the server is degraded: ${error}`])
    } finally {
      server.stop(true)
    }
  })

  test('healthcheck --port N and --port=N ask that port', async () => {
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => Response.json({ ok: true }) })
    try {
      expect(await cli('healthcheck', '--port', String(server.port))).toBe(0)
      expect(await cli('healthcheck', `--port=${server.port}`)).toBe(0)
      expect(err).toEqual([])
    } finally {
      server.stop(true)
    }
  })
})
