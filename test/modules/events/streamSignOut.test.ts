// An open live-update stream ends with the session it was opened with: sign-out, sign out
// everywhere, a new password (on the account page, or by the CLI in another process).
import { afterEach, beforeEach, describe, expect, jest, test } from 'bun:test'
import { setPassword } from '../../../src/modules/account/service'
import { PING_MS } from '../../../src/modules/events'
import { ok, type TestApp, testApp } from '../../helpers'

const PASSWORD = 'correct horse battery'

let t: TestApp
let aliceToken: string
let characterId: number

beforeEach(async () => {
  t = testApp()
  aliceToken = await t.userWithToken('alice')
  await t.userWithToken('bob')
  characterId = ok(await t.plugin(aliceToken).characters.post({ givenName: 'Tordek' }), 201).id
})

afterEach(() => {
  jest.useRealTimers()
})

// Raw: the test reads the event stream's bytes as they come, and when it ends.
const openStream = async (cookie: string, id = characterId) => {
  const response = await t.request('GET', `/api/characters/${id}/events`, { cookie })
  expect(response.status).toBe(200)
  return (response.body as ReadableStream<Uint8Array>).getReader()
}

/**
 * Reads the stream to its end: true when the server closed it, false when it was still open
 * after `ms` (a bound on the wait, not a measured duration).
 */
async function ends(reader: ReadableStreamDefaultReader<Uint8Array>, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)])
    if (chunk === null) break
    if (chunk.done) return true
  }
  await reader.cancel()
  return false
}

/** Whether a change posted now (with `cookie`) reaches the stream: it is still open and listening. */
async function stillListening(reader: ReadableStreamDefaultReader<Uint8Array>, cookie: string): Promise<boolean> {
  const decoder = new TextDecoder()
  ok(await t.web(cookie).characters({ id: characterId }).completions.post({ name: 'Tangleroot' }), 201)
  let text = ''
  while (!text.includes('event: change')) {
    const chunk = await reader.read()
    if (chunk.done) return false
    text += decoder.decode(chunk.value)
  }
  await reader.cancel()
  return true
}

describe('an open event stream ends with its session', () => {
  test('DELETE /api/session ends the streams of that session, not those of another', async () => {
    const signedOut = await t.signIn('alice')
    const otherBrowser = await t.signIn('alice')
    const closing = await openStream(signedOut)
    const staying = await openStream(otherBrowser)
    ok(await t.web(signedOut).session.delete())
    expect(await ends(closing)).toBe(true)
    expect(await stillListening(staying, otherBrowser)).toBe(true)
  })

  test("signing out everywhere ends every stream of the account; another account's stays", async () => {
    const first = await openStream(await t.signIn('alice'))
    const cookie = await t.signIn('alice')
    const second = await openStream(cookie)
    const bobCharacter = ok(await t.web(await t.signIn('bob')).characters.post({ givenName: 'Bob' }), 201)
    const bob = await openStream(await t.signIn('bob'), bobCharacter.id)
    ok(await t.web(cookie).account.sessions.delete())
    expect(await ends(first)).toBe(true)
    expect(await ends(second)).toBe(true)
    expect(await ends(bob, 200)).toBe(false)
  })

  test('a new password on the account page ends the streams of the old sessions', async () => {
    const cookie = await t.signIn('alice')
    const stream = await openStream(cookie)
    const changed = await t.web(cookie).account.password.put({
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    })
    ok(changed)
    expect(await ends(stream)).toBe(true)
    // The browser that changed it keeps a new session, and its new stream works.
    const renewed = /^(qt_session=[^;]+)/.exec(changed.response.headers.get('set-cookie') ?? '')?.[1] as string
    expect(await stillListening(await openStream(renewed), renewed)).toBe(true)
  })

  test('a new password set by another process (the CLI) ends the stream at its next ping', async () => {
    jest.useFakeTimers()
    const stream = await openStream(await t.signIn('alice'))
    // `user passwd` writes the same database from its own process: nothing is published here.
    await setPassword(t, 'alice', 'a brand new password')
    jest.advanceTimersByTime(PING_MS)
    jest.useRealTimers()
    expect(await ends(stream)).toBe(true)
  })
})
