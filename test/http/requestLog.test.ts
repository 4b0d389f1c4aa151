// What a request line shows of the path: never a credential, never a share token, never an
// invite code.
import { expect, test } from 'bun:test'
import { loggedPath, pathOf } from '../../src/http/requestLog'
import type { Logger } from '../../src/logger'
import { createInvite } from '../../src/modules/invites/service'
import { testApp } from '../helpers'

test.each([
  ['http://h/api/plugin/quests?token=abc&name=Crypt', '/api/plugin/quests?token=***&name=Crypt'],
  ['http://h/s/Zq9sSecretShareToken', '/s/***'],
  ['http://h/api/share/Zq9sSecretShareToken', '/api/share/***'],
  ['http://h/api/share/Zq9sSecretShareToken?x=1', '/api/share/***?x=1'],
  ['http://h/api/characters/5/progress', '/api/characters/5/progress'],
  ['http://h/settings/s/keep', '/settings/s/keep'],
  ['http://h/join/qti_Zq9sSecretInviteCode0', '/join/***'],
  ['http://h/api/invites/qti_Zq9sSecretInviteCode0', '/api/invites/***'],
  ['http://h/api/invites/qti_Zq9sSecretInviteCode0?x=1', '/api/invites/***?x=1'],
  ['http://h/join/qti_Zq9sSecretInviteCode0/', '/join/***/'],
  // Anywhere else a code turns up (a path the router does not know, a query value): masked too.
  ['http://h/JOIN/qti_Zq9sSecretInviteCode0', '/JOIN/qti_***'],
  ['http://h/api/plugin/x?c=qti_Zq9sSecretInviteCode0', '/api/plugin/x?c=qti_***'],
  ['http://h/joined/keep', '/joined/keep'],
])('%s is logged as %s', (url, logged) => {
  expect(loggedPath(url)).toBe(logged)
})

test('the path of a request is the one URL parsing gives, plain or not', () => {
  for (const url of [
    'http://localhost/api/health',
    'http://127.0.0.1:8080/api/plugin/characters/1/progress?life=2',
    'http://localhost:80/s/abc#top',
    'http://localhost/api/plugin/../characters',
    'http://localhost/api/plugin/%2e%2e/characters',
    'http://localhost/api/./x',
    'http://localhost/a%20b',
    'http://localhost',
    'http://localhost?x=1',
    'http://localhost/api\\plugin',
  ]) {
    expect({ url, path: pathOf(url) }).toEqual({ url, path: new URL(url).pathname })
  }
})

test('GET /join/CODE and GET /api/invites/CODE are logged without the code, at info, on a running app', async () => {
  const lines: string[] = []
  const keep = (message: string) => lines.push(message)
  const logger: Logger = { debug: keep, info: keep, warn: keep, error: keep }
  const t = testApp({ SIGNUP_INVITES: 'on' }, { logger })
  const { code } = createInvite(t.db, t.clock, { groupId: null, createdBy: null })
  expect((await t.app.handle(new Request(`http://localhost/api/invites/${code}`))).status).toBe(200)
  await t.app.handle(new Request(`http://localhost/join/${code}`))
  // The line is written after the answer (onAfterResponse).
  for (let wait = 0; lines.length < 2 && wait < 100; wait++) await Bun.sleep(10)
  expect(lines.some((line) => line.startsWith('GET /api/invites/*** 200'))).toBe(true)
  expect(lines.some((line) => line.startsWith('GET /join/*** '))).toBe(true)
  expect(lines.filter((line) => line.includes(code.slice(4)))).toEqual([])
})
