// The server keeps what a credential or a character's owner looked like between requests
// (src/db/freshness.ts), so that an unchanged read costs no look-up. Whatever ends a credential
// or moves a character must still take effect at the very next request: each test below first
// answers a request (the look-up is then kept), then changes the database — through the app, by
// the clock, or through another connection as the CLI and another process do — and the next
// request must see the change.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { type CliIO, run } from '../../src/cli'
import { systemClock } from '../../src/clock'
import { openDatabase } from '../../src/db/client'
import { countOwnWrites, WriteWatch } from '../../src/db/freshness'
import { apiTokens } from '../../src/db/schema'
import { MAX_TOKENS_PER_ACCOUNT } from '../../src/modules/auth/limits'
import { DAY_MS } from '../../src/modules/auth/service'
import { deleteCharacter } from '../../src/modules/characters/service'
import { ChangeFeed } from '../../src/modules/events/feed'
import { SESSION_IDLE_MS } from '../../src/modules/session/service'
import { cheapHasher, nextTurn, ok, refused, type TestApp, testApp } from '../helpers'
import { scratchFolders } from '../scratch'

const scratch = scratchFolders('qt-fresh-')

/** An app on a file of its own (so other connections can write to it), with an account. */
async function onFile() {
  const path = join(scratch.next(), 'qt.sqlite')
  const t = testApp({}, { db: openDatabase(path) })
  return { path, ...(await signedUp(t)) }
}

/** Alice with a plugin token, a website session and a character. */
async function signedUp(t: TestApp = testApp()) {
  const token = await t.userWithToken('alice')
  const cookie = await t.signIn('alice')
  const character = ok(await t.plugin(token).characters.post({ givenName: 'Tordek' }), 201)
  return { t, token, cookie, character }
}

/** The CLI on the same file: its own connection, as when run from a shell beside the server. */
async function cli(path: string, ...argv: string[]) {
  const out: string[] = []
  const io: CliIO = {
    env: { DATABASE_PATH: path, LOG_LEVEL: 'error' },
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    readPassword: async () => 'a new long password',
    passwordHasher: cheapHasher,
  }
  expect({ argv, exit: await run(argv, io), out }).toEqual({ argv, exit: 0, out: expect.any(Array) })
  await nextTurn()
}

/** The status of a character's event stream (raw: a stream), closed at once. */
async function streamStatus(t: TestApp, cookie: string, characterId: number): Promise<number> {
  const response = await t.request('GET', `/api/characters/${characterId}/events`, { cookie })
  await response.body?.cancel()
  return response.status
}

/** Two answers in a row, so the look-ups are kept (the second one answered from what was kept). */
async function twice<T>(read: () => Promise<T>): Promise<T> {
  await read()
  return read()
}

describe('a kept credential never outlives the credential', () => {
  test('a token revoked by its own logout is 401 at the next request', async () => {
    const { t, token } = await signedUp()
    ok(await twice(() => t.plugin(token).auth.me.get()))
    ok(await t.plugin(token).auth.logout.post())
    refused(await t.plugin(token).auth.me.get(), 401)
  })

  test('a token revoked on the account page is 401 at the next request', async () => {
    const { t, token, cookie } = await signedUp()
    ok(await twice(() => t.plugin(token).characters.get()))
    const [listed] = ok(await t.web(cookie).account.tokens.get()).tokens
    ok(
      await t
        .web(cookie)
        .account.tokens({ id: listed?.id as number })
        .delete(),
    )
    refused(await t.plugin(token).characters.get(), 401)
  })

  test('signing out everywhere ends the token and the session at the next request', async () => {
    const { t, token, cookie } = await signedUp()
    ok(await twice(() => t.plugin(token).auth.me.get()))
    ok(await twice(() => t.web(cookie).session.get()))
    ok(await t.web(cookie).account.sessions.delete())
    refused(await t.plugin(token).auth.me.get(), 401)
    refused(await t.web(cookie).session.get(), 401)
  })

  test('a signed-out session is 401 at the next request', async () => {
    const { t, cookie } = await signedUp()
    ok(await twice(() => t.web(cookie).characters.get()))
    ok(await t.web(cookie).session.delete())
    refused(await t.web(cookie).characters.get(), 401)
  })

  test('a session past its end is 401 at the next request (the clock alone moved)', async () => {
    const { t, cookie } = await signedUp()
    ok(await twice(() => t.web(cookie).session.get()))
    t.clock.advance(SESSION_IDLE_MS + 1)
    refused(await t.web(cookie).session.get(), 401)
  })

  test('a token unused for TOKEN_IDLE_DAYS is 401 at the next request (the clock alone moved)', async () => {
    const { t, token } = await signedUp()
    ok(await twice(() => t.plugin(token).auth.me.get()))
    t.clock.advance(180 * DAY_MS + 60_000)
    refused(await t.plugin(token).auth.me.get(), 401)
  })

  test('a token pushed out by the cap on live tokens (logins of the same account) is 401 at the next request', async () => {
    const { t, token } = await signedUp()
    ok(await twice(() => t.plugin(token).auth.me.get()))
    t.clock.advance(60_000) // the first token is now the least recently used
    for (let i = 0; i < MAX_TOKENS_PER_ACCOUNT; i++) {
      ok(await t.api.plugin.auth.login.post({ identifier: 'alice', password: 'correct horse battery' }))
    }
    refused(await t.plugin(token).auth.me.get(), 401)
  })

  test('a new password ends every token and other session at the next request', async () => {
    const { t, token, cookie } = await signedUp()
    const otherBrowser = await t.signIn('alice')
    ok(await twice(() => t.plugin(token).auth.me.get()))
    ok(await twice(() => t.web(otherBrowser).session.get()))
    ok(
      await t
        .web(cookie)
        .account.password.put({ currentPassword: 'correct horse battery', newPassword: 'another long password' }),
    )
    refused(await t.plugin(token).auth.me.get(), 401)
    refused(await t.web(otherBrowser).session.get(), 401)
  })

  test('a token whose row is deleted outright is 401 at the next request', async () => {
    const { t, token } = await signedUp()
    ok(await twice(() => t.plugin(token).auth.me.get()))
    t.db.delete(apiTokens).run()
    refused(await t.plugin(token).auth.me.get(), 401)
  })
})

describe('a kept owner never outlives the character', () => {
  test('a deleted character is 404 at the next read, an unchanged (304) one included', async () => {
    const { t, token, character } = await signedUp()
    const progress = t.plugin(token).characters({ id: character.id }).progress
    const tag = (await progress.get()).response.headers.get('etag') as string
    expect((await twice(() => progress.get({ headers: { 'if-none-match': tag } }))).status).toBe(304)
    ok(await t.plugin(token).characters({ id: character.id }).delete())
    refused(await progress.get({ headers: { 'if-none-match': tag } }), 404)
    refused(await t.plugin(token).characters({ id: character.id }).completions.post({ name: 'The Pit' }), 404)
  })

  test('a deleted character has no event stream at the next request (404, not a stream)', async () => {
    const { t, token, cookie, character } = await signedUp()
    ok(await twice(() => t.web(cookie).characters({ id: character.id }).progress.get()))
    ok(await t.plugin(token).characters({ id: character.id }).delete())
    expect(await streamStatus(t, cookie, character.id)).toBe(404)
  })

  test("a character is never another account's: the kept owner is per account", async () => {
    const { t, token, character } = await signedUp()
    const bob = await t.userWithToken('bob')
    ok(await twice(() => t.plugin(token).characters({ id: character.id }).progress.get()))
    refused(await t.plugin(bob).characters({ id: character.id }).progress.get(), 404)
  })
})

describe('another connection to the file (the CLI, another process) takes effect at the next request', () => {
  test('`token revoke`', async () => {
    const { path, t, token } = await onFile()
    ok(await twice(() => t.plugin(token).auth.me.get()))
    const [row] = t.db.select({ id: apiTokens.id }).from(apiTokens).all()
    await cli(path, 'token', 'revoke', String(row?.id))
    refused(await t.plugin(token).auth.me.get(), 401)
    t.db.$client.close()
  })

  test('`user remove`: the token, the session and the character', async () => {
    const { path, t, token, cookie, character } = await onFile()
    const progress = t.plugin(token).characters({ id: character.id }).progress
    const tag = (await progress.get()).response.headers.get('etag') as string
    expect((await twice(() => progress.get({ headers: { 'if-none-match': tag } }))).status).toBe(304)
    ok(await twice(() => t.web(cookie).session.get()))
    await cli(path, 'user', 'remove', 'alice')
    refused(await progress.get({ headers: { 'if-none-match': tag } }), 401)
    refused(await t.plugin(token).auth.me.get(), 401)
    refused(await t.web(cookie).session.get(), 401)
    t.db.$client.close()
  })

  test('`user passwd`: every token and session ends', async () => {
    const { path, t, token, cookie } = await onFile()
    ok(await twice(() => t.plugin(token).auth.me.get()))
    ok(await twice(() => t.web(cookie).session.get()))
    await cli(path, 'user', 'passwd', 'alice')
    refused(await t.plugin(token).auth.me.get(), 401)
    refused(await t.web(cookie).session.get(), 401)
    t.db.$client.close()
  })

  test('a character deleted by another connection is 404 at the next read, an unchanged (304) one included', async () => {
    const { path, t, token, character } = await onFile()
    const progress = t.plugin(token).characters({ id: character.id }).progress
    const tag = (await progress.get()).response.headers.get('etag') as string
    expect((await twice(() => progress.get({ headers: { 'if-none-match': tag } }))).status).toBe(304)
    const other = openDatabase(path)
    const owner = ok(await t.plugin(token).auth.me.get()).id
    deleteCharacter({ db: other, clock: systemClock, changes: new ChangeFeed() }, owner, character.id)
    other.$client.close()
    await nextTurn()
    refused(await progress.get({ headers: { 'if-none-match': tag } }), 404)
    t.db.$client.close()
  })

  test('a character deleted by another connection has no event stream at the next request', async () => {
    const { path, t, token, cookie, character } = await onFile()
    ok(await twice(() => t.web(cookie).characters({ id: character.id }).progress.get()))
    const other = openDatabase(path)
    const owner = ok(await t.plugin(token).auth.me.get()).id
    deleteCharacter({ db: other, clock: systemClock, changes: new ChangeFeed() }, owner, character.id)
    other.$client.close()
    await nextTurn()
    expect(await streamStatus(t, cookie, character.id)).toBe(404)
    t.db.$client.close()
  })

  test('a token revoked by another process (the real CLI) is 401 at the next request over HTTP', async () => {
    // Over a socket, as the game's client asks: nothing here lets the loop turn by hand.
    const { path, t, token } = await onFile()
    t.app.listen({ port: 0, hostname: '127.0.0.1' })
    const me = () =>
      fetch(`http://127.0.0.1:${t.app.server?.port}/api/plugin/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      })
    expect((await twice(me)).status).toBe(200)
    const [row] = t.db.select({ id: apiTokens.id }).from(apiTokens).all()
    const child = Bun.spawnSync(
      [process.execPath, 'src/main.ts', 'token', 'revoke', String(row?.id), '--database', path],
      { cwd: join(import.meta.dir, '..', '..'), env: { ...process.env, LOG_LEVEL: 'error' } },
    )
    expect({ exit: child.exitCode, out: child.stdout.toString().trim() }).toEqual({
      exit: 0,
      out: `revoked token ${row?.id}`,
    })
    const after = await me()
    expect({ status: after.status, body: await after.json() }).toEqual({
      status: 401,
      body: { error: expect.any(String) },
    })
    await t.app.stop(true)
    t.db.$client.close()
  })
})

describe("the count of a connection's own writes", () => {
  test('counts every watched write, a rolled-back one too; is never set up inside a transaction', () => {
    const db = openDatabase(':memory:')
    const sqlite = db.$client
    const watch = new WriteWatch(sqlite)
    sqlite.run("INSERT INTO users (username, password_hash, created_at) VALUES ('ann', 'x', '2026-01-01')")
    // An insert cannot change who a credential is: not counted.
    expect(watch.ownWrites()).toBe(0)
    sqlite.run("UPDATE users SET username = 'anne'")
    expect(watch.ownWrites()).toBe(1)
    expect(() =>
      sqlite.transaction(() => {
        sqlite.run("UPDATE users SET username = 'annie'")
        throw new Error('rolled back')
      })(),
    ).toThrow('rolled back')
    // Rolled back, and still counted: kept look-ups are then forgotten once more than needed.
    expect(watch.ownWrites()).toBe(2)
    sqlite.run('BEGIN')
    expect(() => countOwnWrites(sqlite)).toThrow('inside a transaction')
    sqlite.run('ROLLBACK')
    sqlite.close()
  })
})
