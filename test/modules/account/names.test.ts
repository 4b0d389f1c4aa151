// Names people choose (issue 39, item 10): a username or a group's name holding control, format
// (zero-width, bidi overrides), private-use or separator characters is refused after NFKC, a
// username is unique on its normalized form (a second "gwen" with a zero-width space, or in
// full-width letters, is the same name), names already stored keep working, and every chosen name
// is quoted in the log and in the commands' output.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { count } from 'drizzle-orm'
import { type CliIO, run } from '../../../src/cli'
import { openDatabase } from '../../../src/db/client'
import { users } from '../../../src/db/schema'
import type { Logger } from '../../../src/logger'
import { createInvite } from '../../../src/modules/invites/service'
import { cheapHasher, ok, refused, type TestApp, testApp } from '../../helpers'
import { scratchFolders } from '../../scratch'

const PASSWORD = 'correct horse battery'
const INVISIBLE =
  'A name may not hold control, invisible, private-use or separator characters (such as a zero-width space or a right-to-left mark).'

const accounts = (t: TestApp) => t.db.select({ n: count() }).from(users).get()?.n ?? 0

/** An account stored before the rule (a name it would now refuse), straight into the table. */
async function legacyAccount(t: TestApp, username: string) {
  const passwordHash = await cheapHasher.hash(PASSWORD)
  t.db.insert(users).values({ username, passwordHash, createdAt: t.clock.now().toISOString() }).run()
}

function signUp(t: TestApp, username: string) {
  const { code } = createInvite(t.db, t.clock, { groupId: null, createdBy: null })
  return t.api.signup.post({ code, username, password: PASSWORD })
}

describe('sign-up usernames', () => {
  test.each([
    ['ESC (a terminal escape)', 'gwen\x1b[2K'],
    ['NUL', 'gw\0en'],
    ['a zero-width space', 'gwen\u200b'],
    ['a right-to-left override', '\u202egwen'],
    ['a private-use character', 'gwen\ue000'],
    ['a line separator', 'gw\u2028en'],
    ['a DEL', 'gwen\x7f'],
    ['a C1 control (CSI)', 'gwen\x9b'],
    ['a soft hyphen', 'gw\u00aden'],
  ])('%s is refused with a sentence, nothing written, the code unused', async (_what, username) => {
    const t = testApp({ SIGNUP_INVITES: 'on' })
    expect(refused(await signUp(t, username), 400).error).toBe(INVISIBLE)
    expect(accounts(t)).toBe(0)
  })

  test('a name NFKC makes into one with a space (a no-break space) is refused like a space', async () => {
    const t = testApp({ SIGNUP_INVITES: 'on' })
    expect(refused(await signUp(t, 'gw\u00a0en'), 400).error).toBe(
      'A username is 1 to 64 characters without spaces or "@".',
    )
  })

  test('unique on the normalized name: "gwen" with a zero-width space, in full-width letters, in capitals', async () => {
    const t = testApp({ SIGNUP_INVITES: 'on' })
    ok(await signUp(t, 'gwen'), 201)
    refused(await signUp(t, 'gwen\u200b'), 400)
    expect(refused(await signUp(t, 'ｇｗｅｎ'), 400).error).toBe('An account "gwen" already exists.')
    expect(refused(await signUp(t, 'GWEN'), 400).error).toBe('An account "GWEN" already exists.')
    expect(accounts(t)).toBe(1)
  })

  test('stored in its NFKC form; signs in typed either way', async () => {
    const t = testApp({ SIGNUP_INVITES: 'on' })
    expect(ok(await signUp(t, 'Ｚｏｅ'), 201).user.username).toBe('Zoe')
    ok(await t.api.session.post({ identifier: 'Zoe', password: PASSWORD }))
    ok(await t.api.session.post({ identifier: 'Ｚｏｅ', password: PASSWORD }))
  })

  test('letters beyond ASCII compare without case too (SQLite lower() folds ASCII only)', async () => {
    const t = testApp({ SIGNUP_INVITES: 'on' })
    ok(await signUp(t, 'émile'), 201)
    expect(refused(await signUp(t, 'Émile'), 400).error).toBe('An account "Émile" already exists.')
    ok(await signUp(t, 'Zoë'), 201)
  })
})

describe('names stored before the rule', () => {
  test('keep signing in; a new name equal to one of them once normalized is taken', async () => {
    const t = testApp({ SIGNUP_INVITES: 'on' })
    await legacyAccount(t, 'ｇｗｅｎ')
    await legacyAccount(t, 'kai\u200b')
    ok(await t.api.session.post({ identifier: 'ｇｗｅｎ', password: PASSWORD }))
    ok(await t.api.session.post({ identifier: 'kai\u200b', password: PASSWORD }))
    expect(refused(await signUp(t, 'gwen'), 400).error).toBe('An account "gwen" already exists.')
    ok(await signUp(t, 'kai'), 201)
  })
})

describe("groups' names", () => {
  test('refused with control or invisible characters, when made and when renamed; NFKC applied', async () => {
    const t = testApp()
    await t.userWithToken('ann')
    const cookie = await t.signIn('ann')
    const api = t.web(cookie)
    expect(refused(await api.groups.post({ name: 'Irregulars\u202e' }), 400).error).toBe(INVISIBLE)
    expect(refused(await api.groups.post({ name: 'Irr\tegulars' }), 400).error).toBe(INVISIBLE)
    const group = ok(await api.groups.post({ name: 'Stormreach\u00a0Irregulars' }), 201)
    expect(group.name).toBe('Stormreach Irregulars')
    expect(refused(await api.groups({ id: group.id }).patch({ name: 'x\u200by' }), 400).error).toBe(INVISIBLE)
    expect(ok(await api.groups({ id: group.id }).patch({ name: 'Ｉｒｒｅｇｕｌａｒｓ' })).name).toBe('Irregulars')
  })
})

describe('the log quotes every chosen name', () => {
  function recording() {
    const lines: string[] = []
    const keep = (message: string) => lines.push(message)
    const logger: Logger = { debug() {}, info: keep, warn: keep, error: keep }
    return { lines, logger }
  }

  test("a failed login with an ESC name, and an account's own name, cannot move the operator's cursor", async () => {
    const { lines, logger } = recording()
    const t = testApp({}, { logger })
    await legacyAccount(t, 'mal\x1b[1A\x1b[2K')
    refused(await t.api.session.post({ identifier: 'mal\x1b[1A\x1b[2K', password: 'wrong password' }), 401)
    refused(await t.api.session.post({ identifier: 'nobody\x1b[2K\u202e', password: 'wrong password' }), 401)
    const failed = lines.filter((line) => line.startsWith('failed login'))
    expect(failed).toEqual([
      'failed login: account "mal\\u001b[1A\\u001b[2K" from an unknown address',
      'failed login: unknown name "nobody\\u001b[2K\\u202e" from an unknown address',
    ])
  })

  test('a sign-up is logged with the name quoted', async () => {
    const { lines, logger } = recording()
    const t = testApp({ SIGNUP_INVITES: 'on' }, { logger })
    ok(await signUp(t, 'gwen'), 201)
    expect(lines.find((line) => line.startsWith('signed up'))).toStartWith('signed up: account "gwen" with invite ')
  })
})

describe('the commands', () => {
  const scratch = scratchFolders('qt-names-')

  function cli(dbPath: string) {
    const out: string[] = []
    const err: string[] = []
    const io: CliIO = {
      env: { DATABASE_PATH: dbPath, CATALOG_SYNC_CRON: 'off', BACKUP_CRON: 'off' },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      readPassword: async () => PASSWORD,
      passwordHasher: cheapHasher,
    }
    return { out, err, run: (...argv: string[]) => run(argv, io) }
  }

  test('user add refuses the same characters; user list quotes every name', async () => {
    const dbPath = join(scratch.next(), 'qt.sqlite')
    const c = cli(dbPath)
    expect(await c.run('user', 'add', '--username', 'gwen\u200b')).toBe(1)
    expect(c.err.pop()).toBe(`quest-tracker: ${INVISIBLE}`)
    expect(await c.run('user', 'add', '--username', 'gwen')).toBe(0)
    expect(c.out.pop()).toBe('created account 1 ("gwen")')
    expect(await c.run('user', 'add', '--username', 'ＧＷＥＮ')).toBe(1)
    expect(c.err.pop()).toBe('quest-tracker: An account "GWEN" already exists.')
    // One stored before the rule, with terminal escapes in it: listed escaped.
    const db = openDatabase(dbPath)
    db.$client.run(
      "INSERT INTO users (username, password_hash, created_at) VALUES ('mal' || char(27) || '[2K', 'x', 'then')",
    )
    db.$client.close()
    expect(await c.run('user', 'list')).toBe(0)
    expect(c.out.slice(-2).map((line) => line.split('\t').slice(0, 3))).toEqual([
      ['1', '"gwen"', '-'],
      ['2', '"mal\\u001b[2K"', '-'],
    ])
  })
})
