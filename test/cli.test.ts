import { beforeEach, describe, expect, test } from 'bun:test'
import { existsSync, lstatSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import packageJson from '../package.json'
import { type CliIO, run } from '../src/cli'
import { systemClock } from '../src/clock'
import { loadConfig, variableDocs } from '../src/config'
import { openDatabase } from '../src/db/client'
import { SCHEMA_VERSION } from '../src/db/migrate'
import { createLoginGuard } from '../src/modules/auth/loginGuard'
import { authenticate, findUser, login, revokeToken } from '../src/modules/auth/service'
import { createInvite, findLiveInvite, useInvite } from '../src/modules/invites/service'
import { cheapHasher, FakeClock } from './helpers'
import { scratchFolders } from './scratch'

let dbPath: string
let out: string[]
let err: string[]
let passwords: string[]

const io = (): CliIO => ({
  env: { DATABASE_PATH: dbPath, LOG_LEVEL: 'error' },
  out: (line) => out.push(line),
  err: (line) => err.push(line),
  readPassword: async () => passwords.shift() ?? '',
  passwordHasher: cheapHasher,
})

const scratch = scratchFolders('qt-cli-')
const cli = (...argv: string[]) => run(argv, io())

beforeEach(async () => {
  dbPath = join(scratch.next(), 'qt.sqlite')
  out = []
  err = []
  passwords = []
})

const withDb = <T>(fn: (db: ReturnType<typeof openDatabase>) => T): T => {
  const db = openDatabase(dbPath)
  try {
    return fn(db)
  } finally {
    db.$client.close()
  }
}

/** The database as the server's first start leaves it. */
const createDb = () => openDatabase(dbPath).$client.close()

const tryLogin = async (identifier: string, password: string) => {
  const db = openDatabase(dbPath)
  try {
    const deps = { db, clock: new FakeClock(), passwordHasher: cheapHasher, config: loadConfig({}) }
    return await login(deps, createLoginGuard(deps), identifier, password, 'test', undefined)
  } finally {
    db.$client.close()
  }
}

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
    out = []
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

describe('quest-tracker token', () => {
  beforeEach(createDb)

  test("list shows live tokens (all, or one account's) by id, owner, label and last use; never the token", async () => {
    passwords.push('a long password', 'a long password')
    await cli('user', 'add', '--username', 'Alice')
    await cli('user', 'add', '--username', 'Bob')
    const alice = await tryLogin('Alice', 'a long password')
    await tryLogin('Bob', 'a long password')
    out = []
    expect(await cli('token', 'list')).toBe(0)
    expect(out.map((line) => line.split('\t').slice(0, 3))).toEqual([
      ['1', '"Alice"', '"test"'],
      ['2', '"Bob"', '"test"'],
    ])
    expect(out[0]).toContain('last used never')
    expect(out.join('\n')).not.toContain(alice.token)
    out = []
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
    out = []
    expect(await cli('token', 'list')).toBe(0)
    expect(out).toEqual(['no live tokens'])
  })
})

describe('quest-tracker invite', () => {
  beforeEach(createDb)
  const DAY = 86_400_000
  /** The code in the link `invite create` printed last. */
  const printedCode = () => /\/join\/(qti_[\w-]+)$/.exec(out.at(-1) ?? '')?.[1] as string

  test('create prints the link once (path, or whole with --url); only its hash is stored; it works for 7 days', async () => {
    const before = Date.now()
    expect(await cli('invite', 'create')).toBe(0)
    const code = printedCode()
    expect(out).toEqual([
      expect.stringMatching(/^invite 1: makes one account, works once until \S+Z$/),
      `/join/${code}`,
    ])
    // Off by default: the operator is told the link is no use yet.
    expect(err.at(-1)).toBe(
      'quest-tracker: SIGNUP_INVITES is off: nobody can sign up with this link until the server runs with it on',
    )
    withDb((db) => {
      const invite = findLiveInvite(db, systemClock, code)
      expect(invite).toMatchObject({ id: 1, groupId: null, createdBy: null, usedAt: null })
      expect(Date.parse(invite?.expiresAt as string) - before).toBeWithin(7 * DAY, 7 * DAY + 60_000)
      expect(JSON.stringify(db.$client.query('SELECT * FROM invites').all())).not.toContain(code)
    })

    out = []
    err = []
    const on = { ...io(), env: { ...io().env, SIGNUP_INVITES: 'on' } }
    expect(await run(['invite', 'create', '--days', '30', '--url', 'https://quests.example.org/'], on)).toBe(0)
    expect(out.at(-1)).toBe(`https://quests.example.org/join/${printedCode()}`)
    expect(err).toEqual([expect.stringContaining('database')])
    withDb((db) => {
      const expiresAt = findLiveInvite(db, systemClock, printedCode())?.expiresAt as string
      expect(Date.parse(expiresAt) - before).toBeWithin(30 * DAY, 30 * DAY + 60_000)
    })
  })

  test.each([
    [['--days', '0'], 'invite create: --days is a whole number from 1 to 30'],
    [['--days', '31'], 'invite create: --days is a whole number from 1 to 30'],
    [['--days', '2.5'], 'invite create: --days is a whole number from 1 to 30'],
    [['--url', 'quests.lan:8080'], 'invite create: --url must start with http:// or https://'],
    [['--url', 'not a url'], "invite create: --url must be the site's address, such as http://192.168.1.10:8080"],
  ])('create %p is refused (exit 2) and makes nothing', async (flags, message) => {
    expect(await cli('invite', 'create', ...flags)).toBe(2)
    expect(err).toEqual([`quest-tracker: ${message}`])
    withDb((db) => expect(db.$client.query('SELECT count(*) AS n FROM invites').get()).toEqual({ n: 0 }))
  })

  test("list shows the pending invites, the operator's and a group's, by id; never a code, nor a used or expired one", async () => {
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Olga')
    const codes: string[] = []
    withDb((db) => {
      const now = new Date().toISOString()
      db.$client.run("INSERT INTO groups (name, owner_id, created_at) VALUES ('The Silver Flame', 1, ?)", [now])
      codes.push(createInvite(db, systemClock, { groupId: 1, createdBy: 1 }).code)
      codes.push(createInvite(db, systemClock, { groupId: null, createdBy: null }).code)
      const used = createInvite(db, systemClock, { groupId: null, createdBy: null })
      useInvite(db, systemClock, used.code, 1)
      const old = new FakeClock(Date.now() - 8 * DAY)
      createInvite(db, old, { groupId: null, createdBy: null })
    })
    out = []
    expect(await cli('invite', 'list')).toBe(0)
    expect(out.map((line) => line.split('\t').slice(0, 3))).toEqual([
      ['1', 'group "The Silver Flame"', 'by "Olga"'],
      ['2', 'account', 'by the operator'],
    ])
    for (const code of codes) expect(out.join('\n')).not.toContain(code)
  })

  test('revoke ends a pending invite: its link stops working; an unknown or ended one is refused', async () => {
    expect(await cli('invite', 'create')).toBe(0)
    const code = printedCode()
    out = []
    expect(await cli('invite', 'revoke', '1')).toBe(0)
    expect(out).toEqual(['revoked invite 1'])
    withDb((db) => expect(findLiveInvite(db, systemClock, code)).toBeUndefined())
    expect(await cli('invite', 'revoke', '1')).toBe(1)
    expect(err.at(-1)).toBe('quest-tracker: No pending invite 1.')
    expect(await cli('invite', 'revoke', 'x')).toBe(2)
    out = []
    expect(await cli('invite', 'list')).toBe(0)
    expect(out).toEqual(['no pending invites; make one with: quest-tracker invite create'])
  })
})

describe('quest-tracker catalog sync', () => {
  beforeEach(createDb)
  const fixture = (name: string) => join(import.meta.dir, 'fixtures', name)
  const questCount = () =>
    withDb((db) => (db.$client.query('SELECT count(*) AS n FROM quests').get() as { n: number }).n)

  test('--from a JSON file loads the catalog and prints one summary line (not 12 "added:" lines)', async () => {
    const code = await run(['catalog', 'sync', '--from', fixture('catalog-small.json')], {
      ...io(),
      env: { ...io().env, LOG_LEVEL: 'info' }, // the sync's own log line used to repeat the summary
    })
    expect(code).toBe(0)
    expect(out).toEqual([
      expect.stringMatching(
        /^Catalog synced from .*catalog-small\.json \(quest rows\): 12 rows \(12 added, 0 changed, 0 not listed there kept\)\.$/,
      ),
    ])
    expect(questCount()).toBe(12)
  })

  test('--verbose adds a line per quest added or changed', async () => {
    writeFileSync(
      join(dbPath, '..', 'two.json'),
      JSON.stringify((await Bun.file(fixture('catalog-small.json')).json()).slice(0, 2)),
    )
    expect(await cli('catalog', 'sync', '--from', join(dbPath, '..', 'two.json'), '--verbose')).toBe(0)
    expect(out).toHaveLength(3)
    expect(out.slice(1).every((line) => line.startsWith('  added: '))).toBe(true)
  })

  test('--from the HTML page layout gives the same rows', async () => {
    expect(await cli('catalog', 'sync', '--from', fixture('catalog-small.json'))).toBe(0)
    out = []
    expect(await cli('catalog', 'sync', '--from', fixture('catalog-small.html'))).toBe(0)
    expect(out).toHaveLength(1)
    expect(out[0]).toContain('12 rows (0 added, 0 changed, 0 not listed there kept)')
  })

  test('a source that cannot be read keeps the catalog and exits 1 with one line', async () => {
    await cli('catalog', 'sync', '--from', fixture('catalog-small.json'))
    err = []
    expect(await cli('catalog', 'sync', '--from', fixture('no-such-file.json'))).toBe(1)
    expect(err).toHaveLength(2)
    expect(err[0]).toBe(`quest-tracker: database ${dbPath}`)
    expect(err[1]).toContain('the current catalog (12 rows) is kept')
    expect(questCount()).toBe(12)
  })

  test('misuse exits 2', async () => {
    expect(await cli('catalog', 'fetch')).toBe(2)
    expect(await cli('catalog', 'sync', 'extra')).toBe(2)
    expect(await cli('catalog', 'status', 'extra')).toBe(2)
    expect(err).toHaveLength(3)
  })

  test('status says how many quests, from where, and how each source last went', async () => {
    expect(await cli('catalog', 'status')).toBe(0)
    expect(out[0]).toBe('quests: 0 (never filled: the server fills it when it starts)')
    out = []
    expect(await cli('catalog', 'sync', '--from', fixture('catalog-small.json'))).toBe(0)
    expect(await cli('catalog', 'sync', '--from', fixture('no-such-file.json'))).toBe(1)
    out = []
    expect(await cli('catalog', 'status')).toBe(0)
    expect(out[0]).toMatch(/^quests: 12, from catalog-small\.json, synced \d{4}-\d\d-\d\dT/)
    expect(out[1]).toBe(
      'sources: https://ddowiki.com/page/Quests_by_level_and_XP, then https://api.ddoaudit.com/v1/quests',
    )
    expect(out.slice(2)).toEqual([
      expect.stringMatching(/^ {2}\S+ {2}no-such-file\.json: failed \(does not exist\)$/),
      expect.stringMatching(/^ {2}\S+ {2}catalog-small\.json: ok \(12 quest rows read\)$/),
    ])
  })
})

describe('quest-tracker scorecards import', () => {
  beforeEach(createDb)
  test('loads the file, names those not in the catalog', async () => {
    expect(await cli('scorecards', 'import', join(import.meta.dir, 'fixtures', 'scorecards.json'))).toBe(0)
    expect(out[0]).toMatch(/^imported 3 scorecards from /)
    expect(out[1]).toContain('A Quest Not In The Catalog')
    const stored = withDb((db) => db.$client.query('SELECT quest_name FROM scorecards ORDER BY 1').all())
    expect(stored).toEqual([
      { quest_name: 'A Quest Not In The Catalog' },
      { quest_name: 'Crypt' },
      { quest_name: 'Shadow Gate' },
    ])
  })

  test('a missing file is one line and exit 1', async () => {
    expect(await cli('scorecards', 'import', '/nonexistent/scorecards.json')).toBe(1)
    expect(err.at(-1)).toContain('does not exist')
  })
})

describe('quest-tracker data export and completions export|import', () => {
  /** An account with a character and one completion, straight into the database file. */
  async function withCharacter() {
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Alice')
    withDb((db) => {
      const now = '2026-11-21T12:00:00.000Z'
      db.$client.run(
        "INSERT INTO characters (user_id, given_name, share_token, created_at, updated_at) VALUES (1, 'Tordek', 'tok', ?, ?)",
        [now, now],
      )
      db.$client.run(
        "INSERT INTO completions (character_id, name, difficulty, setting, completed_at, duration_seconds, xp_earned, updated_at) VALUES (1, 'The Pit', 'Heroic', 'elite', '2026-11-20T20:00:00.000Z', 600, 900, ?)",
        [now],
      )
    })
    out = []
  }

  test('data export prints the account as JSON; an unknown owner is exit 1', async () => {
    await withCharacter()
    expect(await cli('data', 'export', '--owner', 'alice')).toBe(0)
    const document = JSON.parse(out.join('\n'))
    expect(document).toMatchObject({ format: 'quest-tracker-export', version: 1, account: { username: 'Alice' } })
    expect(document.characters.map((c: { name: string }) => c.name)).toEqual(['Tordek'])
    expect(JSON.stringify(document)).not.toContain('tok')
    expect(await cli('data', 'export', '--owner', 'nobody')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No account "nobody".')
    expect(await cli('data', 'export')).toBe(2)
    expect(err.pop()).toBe('quest-tracker: data export: give --owner NAME (the account to export)')
  })

  test('completions export prints CSV; import previews, then writes with --confirm, and adds nothing twice', async () => {
    await withCharacter()
    expect(await cli('completions', 'export', '1')).toBe(0)
    expect(out).toEqual([
      'name,difficulty,setting,completedAt,durationSeconds,xpEarned,reaperSkulls\nThe Pit,Heroic,elite,2026-11-20T20:00:00.000Z,600,900,',
    ])
    const file = join(dbPath, '..', 'done.csv')
    await Bun.write(file, 'name,setting\nThe Pit,elite\nThe Pit,hard\nNo Such Quest,elite\nBad,x\n')
    const count = () =>
      withDb((db) => (db.$client.query('SELECT count(*) AS n FROM completions').get() as { n: number }).n)
    out = []
    expect(await cli('completions', 'import', file, '--character', '1')).toBe(0)
    expect(count()).toBe(1)
    expect(out[0]).toBe('would add 0 of 4; already stored 0; ambiguous 0; not in the catalog 4; unreadable 0')
    out = []
    expect(await cli('completions', 'import', file, '--character', '1', '--confirm', '--keep-unmatched')).toBe(0)
    expect(out[0]).toBe('added 3 of 4; already stored 1; ambiguous 0; not in the catalog 0; unreadable 0')
    expect(count()).toBe(4)
    out = []
    expect(await cli('completions', 'import', file, '--character', '1', '--confirm', '--keep-unmatched')).toBe(0)
    expect(out[0]).toBe('added 0 of 4; already stored 4; ambiguous 0; not in the catalog 0; unreadable 0')
    expect(count()).toBe(4)
  })

  test('misuse and bad files: one line, exit 2; an unknown character: exit 1', async () => {
    await withCharacter()
    const file = join(dbPath, '..', 'bad.csv')
    await Bun.write(file, '"name\n')
    expect(await cli('completions', 'import', file)).toBe(2)
    expect(err.pop()).toBe('quest-tracker: completions import: give --character ID')
    expect(await cli('completions', 'import', file, '--character', '1')).toBe(2)
    expect(err.pop()).toBe(
      'quest-tracker: completions import: The CSV file is not valid at line 2, column 1: a quoted field is not closed.',
    )
    expect(await cli('completions', 'export', '7')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No character 7.')
    expect(await cli('completions', 'export', 'x')).toBe(2)
    expect(err.pop()).toBe('quest-tracker: completions export: the character id is a whole number')
  })
})

describe('quest-tracker route', () => {
  test('export prints a file that import turns into a new route for another owner', async () => {
    passwords.push('a long password', 'a long password')
    await cli('user', 'add', '--username', 'Alice')
    await cli('user', 'add', '--username', 'Bob')
    const file = join(dbPath, '..', 'route.json')
    await Bun.write(
      file,
      JSON.stringify({
        format: 'quest-tracker-route',
        formatVersion: 1,
        name: 'Korthos run',
        quests: [{ name: 'The Collaborator' }, { name: "Misery's Peak", difficulty: 'Heroic', setting: 'hard' }],
      }),
    )
    expect(await cli('route', 'import', file, '--owner', 'alice')).toBe(0)
    expect(out.pop()).toBe('imported route 1 "Korthos run" (2 steps), owned by "alice"')
    expect(await cli('route', 'export', '1')).toBe(0)
    const exported = JSON.parse(out.pop() as string)
    expect(exported).toMatchObject({
      format: 'quest-tracker-route',
      formatVersion: 1,
      name: 'Korthos run',
      quests: [
        { name: 'The Collaborator', difficulty: 'Heroic', setting: 'elite' },
        { name: "Misery's Peak", difficulty: 'Heroic', setting: 'hard' },
      ],
    })
    await Bun.write(file, JSON.stringify(exported))
    expect(await cli('route', 'import', file, '--owner', 'Bob')).toBe(0)
    const owners = withDb((db) => db.$client.query('SELECT id, owner_id FROM routes ORDER BY id').all())
    expect(owners).toEqual([
      { id: 1, owner_id: 1 },
      { id: 2, owner_id: 2 },
    ])
  })

  test('errors: unknown route, unknown owner, bad file, missing --owner', async () => {
    createDb()
    expect(await cli('route', 'export', '9')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No route 9.')
    const file = join(dbPath, '..', 'bad.json')
    await Bun.write(file, '{"name": ')
    expect(await cli('route', 'import', file, '--owner', 'nobody')).toBe(1)
    expect(await cli('route', 'import', file)).toBe(2)
    expect(await cli('route', 'export', 'abc')).toBe(2)
    expect(withDb((db) => db.$client.query('SELECT count(*) AS n FROM routes').get())).toEqual({ n: 0 })
  })
})

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

describe('the database file', () => {
  const noDatabase = () =>
    `quest-tracker: no database at ${dbPath}; check DATABASE_PATH (or --database), or create it by starting the server or adding an account`

  test.each([
    [['user', 'list']],
    [['user', 'passwd', 'alice']],
    [['user', 'remove', 'alice']],
    [['catalog', 'sync', '--from', join(import.meta.dir, 'fixtures', 'catalog-small.json')]],
    [['scorecards', 'import', join(import.meta.dir, 'fixtures', 'scorecards.json')]],
    [['route', 'export', '1']],
    [['route', 'import', join(import.meta.dir, 'fixtures', 'scorecards.json'), '--owner', 'alice']],
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
    err = []
    expect(await cli('backup', join(dbPath, '..', 'copy.sqlite'))).toBe(0)
    expect(err).toEqual([`quest-tracker: database ${dbPath}`])
  })
})

describe('misuse', () => {
  test.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['user', 'add', '--password', 'x'], 'unknown option --password'],
    [['user', 'add', '--username'], '--username needs a value'],
    [['user', 'passwd'], 'give the username or e-mail'],
    [['user', 'fly'], 'unknown subcommand "fly"'],
    [['backup'], 'give the path'],
    [['serve', '--port', 'abc'], 'PORT must be a whole number'],
    [['serve', 'extra'], 'takes no arguments'],
  ])('%p exits 2 with one line on stderr', async (argv, message) => {
    expect(await run(argv as string[], io())).toBe(2)
    expect(err).toHaveLength(1)
    expect(err[0]).toContain(message)
    expect(err[0]).not.toContain('\n')
  })

  test('a bad environment variable exits 2 with one line', async () => {
    const code = await run(['user', 'list'], { ...io(), env: { DATABASE_PATH: dbPath, LOG_LEVEL: 'chatty' } })
    expect(code).toBe(2)
    expect(err).toEqual(['quest-tracker: LOG_LEVEL must be one of debug, info, warn, error (got "chatty").'])
  })
})

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
    out = []
    err = []
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
      out = []
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
      err = []
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
    expect(await cli('route', 'import', join(import.meta.dir, 'fixtures', 'scorecards.json'), '--owner=-bob')).toBe(1)
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

describe('--help', () => {
  test.each([
    [['--help'], 'Usage: quest-tracker [command]'],
    [['help'], 'Usage: quest-tracker [command]'],
    [['serve', '--help'], 'Usage: quest-tracker serve'],
    [['user', '--help'], 'quest-tracker user add'],
    [['user', 'add', '--help'], 'quest-tracker user add'],
    [['user', 'remove', '--help'], 'quest-tracker user remove'],
    [['backup', '--help'], 'quest-tracker backup verify FILE'],
    [['backup', 'now', '--help'], 'quest-tracker backup now'],
    [['restore', '--help'], 'Usage: quest-tracker restore FILE'],
    [['maintenance', '--help'], 'quest-tracker maintenance prune'],
    [['maintenance', 'optimize', '--help'], 'quest-tracker maintenance optimize'],
    [['catalog', '--help'], 'Usage: quest-tracker catalog sync'],
    [['catalog', 'sync', '--help'], 'Usage: quest-tracker catalog sync'],
    [['scorecards', 'import', '--help'], 'Usage: quest-tracker scorecards import'],
    [['route', '--help'], 'quest-tracker route export ID'],
    [['route', 'import', '--help'], 'quest-tracker route import FILE'],
    [['healthcheck', '--help'], 'Usage: quest-tracker healthcheck'],
  ])('%p prints usage and exits 0 without touching the database', async (argv, text) => {
    expect(await run(argv as string[], io())).toBe(0)
    expect(out.join('\n')).toContain(text)
    expect(existsSync(dbPath)).toBe(false)
  })
})

describe('--version and a --help that stands alone', () => {
  test.each([['--version'], ['-V'], ['version']])('%p prints the version of package.json', async (flag) => {
    expect(await cli(flag)).toBe(0)
    expect(out).toEqual([`quest-tracker ${packageJson.version} (schema ${SCHEMA_VERSION})`])
  })

  test('--help names every command and every variable with its default, without sending you to the documents', async () => {
    const operations = await Bun.file(join(import.meta.dir, '..', 'docs', 'operations.md')).text()
    const section = (title: string) => operations.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? ''
    const variables = [...section('Configuration').matchAll(/^\| `([A-Z_]+)` \| `([^`]+)`/gm)]
    const commands = [...section('Admin commands').matchAll(/^\| `([a-z]+(?: [a-z]+)?)/gm)].map((m) => m[1])
    expect(variables.length).toBeGreaterThanOrEqual(7)
    expect(commands.length).toBeGreaterThanOrEqual(10)
    expect(await cli('--help')).toBe(0)
    // A default list too long for a line goes on, an entry a line.
    const help = out.join('\n').replace(/,\n {28}/g, ', ')
    for (const [, name, fallback] of variables) {
      expect(help).toContain(`${name}=`)
      expect(help).toContain(fallback as string)
    }
    for (const command of commands) expect(help).toContain(`  ${command}`)
    expect(help).not.toContain('README')
    expect(help).not.toContain('operations.md')
  })

  test("--help's variables are the configuration schema's: name, default and meaning of each", async () => {
    expect(await cli('--help')).toBe(0)
    const help = out.join('\n')
    const section = help.split('Environment')[1]?.split('\n\n')[0] ?? ''
    const names = [...section.matchAll(/^ {2}([A-Z_]+)=/gm)].map((match) => match[1])
    expect(names).toEqual(variableDocs().map((variable) => variable.name))
    const unwrapped = section.replace(/\n {28}/g, ' ')
    for (const { name, fallback, description } of variableDocs()) {
      const shown = /\s/.test(fallback) ? `"${fallback}"` : fallback
      expect(unwrapped).toMatch(
        new RegExp(`^  ${name}=${RegExp.escape(shown)} +${RegExp.escape(description.replaceAll('`', ''))}$`, 'm'),
      )
    }
    expect(help.split('\n').every((line) => line.length <= 100)).toBe(true)
  })
})

describe('quest-tracker serve', () => {
  const source = join(import.meta.dir, 'fixtures', 'catalog-small.json')

  /** Serves on a free port with `env`, runs `whileUp` against it, then stops. */
  const serveWith = (env: Record<string, string>, whileUp: (base: string) => Promise<void>) =>
    run(['serve', '--port', '0', '--host', '127.0.0.1'], {
      ...io(),
      // info: the listening line names the port
      env: { ...io().env, CATALOG_SOURCE_URL: source, CATALOG_SYNC_CRON: 'off', LOG_LEVEL: 'info', ...env },
      untilStopped: async (stop) => {
        const port = /port (\d+)/.exec(out.join('\n'))?.[1]
        try {
          await whileUp(`http://127.0.0.1:${port}`)
        } finally {
          await stop('test')
        }
      },
    })

  /** Waits for a log line matching `pattern` (request lines are written just after the answer). */
  const logged = async (pattern: RegExp) => {
    for (let i = 0; i < 50 && !out.some((line) => pattern.test(line)); i++) await Bun.sleep(10)
    return out.find((line) => pattern.test(line))
  }

  test('listens, answers at once with the catalog that ships with it, syncs in the background, and stops cleanly', async () => {
    let stopped = false
    const code = await serveWith({ CATALOG_SYNC_CRON: '0 3 * * *' }, async (base) => {
      const response = await fetch(`${base}/api/health`)
      const health = (await response.json()) as { ok: boolean; schemaVersion: number; catalog: { rows: number } }
      expect(health).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION })
      // The shipped catalog's 718 at once, or 730 once the file (read in a moment) is merged in.
      expect([718, 730]).toContain(health.catalog.rows)
      // The small list's 12 quests, named otherwise than the wiki's, are merged in.
      let rows = 0
      for (let i = 0; i < 50 && rows < 730; i++) {
        await Bun.sleep(20)
        rows = withDb((db) => (db.$client.query('SELECT count(*) AS n FROM quests').get() as { n: number }).n)
      }
      expect(rows).toBe(730)
      stopped = true
    })
    expect(code).toBe(0)
    expect(stopped).toBe(true)
    expect(existsSync(dbPath)).toBe(true)
  })

  test('CATALOG_SYNC_CRON=off: the first sync of a catalog never synced runs all the same, and one line says why', async () => {
    await serveWith({}, async () => {
      for (let i = 0; i < 50 && !out.some((line) => line.includes('never synced')); i++) await Bun.sleep(10)
    })
    const lines = out.filter((line) => line.includes('never synced'))
    expect(lines).toEqual([
      expect.stringContaining(
        'The quest catalog was never synced; syncing it once from ' +
          source +
          ' in the background. CATALOG_SYNC_CRON=off stops only the daily sync. To stay offline, load a file with: quest-tracker catalog sync --from FILE',
      ),
    ])
  })

  test('logs one listening line, one line per request (query secrets masked), and the shutdown', async () => {
    await serveWith({}, async (base) => {
      await fetch(`${base}/api/plugin/quests?token=abc123&name=Crypt`)
      expect(await logged(/GET \/api\/plugin\/quests/)).toMatch(
        / info {2}GET \/api\/plugin\/quests\?token=\*\*\*&name=Crypt 401 [\d.]+ ms$/,
      )
      await fetch(`${base}/api/plugin/nope`, { method: 'POST', body: '{}' })
      expect(await logged(/nope/)).toMatch(/ info {2}POST \/api\/plugin\/nope 404 [\d.]+ ms$/)
      // A refused login stands out (warn, on stderr) with the name tried and the address; the
      // request line itself stays at info.
      await fetch(`${base}/api/plugin/auth/login`, { method: 'POST', body: '{"identifier":"x","password":"y"}' })
      for (let i = 0; i < 50 && !err.some((line) => line.includes('failed login')); i++) await Bun.sleep(10)
      expect(err.find((line) => line.includes('failed login'))).toMatch(
        / warn {2}failed login: unknown name "x" from 127\.0\.0\.1$/,
      )
      expect(await logged(/auth\/login/)).toMatch(/ info {2}POST \/api\/plugin\/auth\/login 401 [\d.]+ ms$/)
    })
    const listening = out.filter((line) => line.includes('listening'))
    expect(listening).toEqual([
      expect.stringMatching(
        new RegExp(
          ` info  Quest Tracker ${packageJson.version} listening on port \\d+ \\(HOST 127\\.0\\.0\\.1\\), database ${dbPath}$`,
        ),
      ),
    ])
    expect(out.join('\n')).not.toContain('abc123')
    expect(out.at(-1)).toEndWith(' info  Quest Tracker shutting down (test)')
  })

  test('LOG_FORMAT=json: every line is one JSON object; a request line carries its facts as fields', async () => {
    await serveWith({ LOG_FORMAT: 'json' }, async (base) => {
      await fetch(`${base}/api/plugin/info`)
      await logged(/plugin\/info/)
    })
    const lines = out.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => [typeof line.time, line.level, typeof line.msg])).toEqual(
      lines.map(() => ['string', 'info', 'string']),
    )
    const request = lines.find((line) => line.path === '/api/plugin/info') ?? {}
    expect(String(request.msg)).toMatch(/^GET \/api\/plugin\/info 401 [\d.]+ ms$/)
    expect([request.method, request.status, typeof request.ms]).toEqual(['GET', 401, 'number'])
    expect(typeof lines.find((line) => String(line.msg).includes('listening'))?.port).toBe('number')
  })

  test('offline first start: names the way out (catalog sync --from FILE), retries, and stops at once', async () => {
    let stopping = 0
    const offline = join(dbPath, '..', 'not-downloaded.html') // fails like a fetch without network
    await serveWith({ CATALOG_SOURCE_URL: offline }, async () => {
      for (let i = 0; i < 100 && !err.some((line) => line.includes('trying the sources again')); i++)
        await Bun.sleep(10)
      stopping = performance.now()
    })
    expect(performance.now() - stopping).toBeLessThan(500) // no waiting for the next try
    expect(err).toEqual([
      expect.stringContaining(
        `Catalog sync from ${offline} failed; the current catalog (718 rows) is kept: it does not exist.`,
      ),
      expect.stringContaining(
        'The quest catalog keeps its 718 rows meanwhile; trying the sources again in 1 min. Without internet access, or when every source refuses this server, load a saved copy of the wiki page or a JSON file of quests: quest-tracker catalog sync --from FILE',
      ),
    ])
  })

  test('LOG_LEVEL=debug adds the configuration, the database check, the schedule and health checks', async () => {
    await serveWith({ LOG_LEVEL: 'debug' }, async (base) => {
      await fetch(`${base}/api/health`)
      await logged(/api\/health/)
    })
    const debug = out.filter((line) => line.includes(' debug '))
    expect(debug).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`configuration: PORT=0 HOST=127.0.0.1 DATABASE_PATH=${dbPath}`),
        // Every variable of the schema, the last ones too.
        expect.stringMatching(
          /LOG_FORMAT=text TRUSTED_PROXY=none TLS_CERT_FILE=none TLS_KEY_FILE=none TOKEN_IDLE_DAYS=180 SIGNUP_INVITES=off busy_timeout=\d+ms$/,
        ),
        expect.stringContaining(`database ${dbPath}: `),
        expect.stringContaining('scheduled catalog sync: off'),
        expect.stringMatching(/GET \/api\/health 200 [\d.]+ ms$/),
      ]),
    )
  })
})
