// What a request line shows of the path: never a credential, never a share token.
import { expect, test } from 'bun:test'
import { loggedPath } from '../src/http/requestLog'

test.each([
  ['http://h/api/plugin/quests?token=abc&name=Crypt', '/api/plugin/quests?token=***&name=Crypt'],
  ['http://h/s/Zq9sSecretShareToken', '/s/***'],
  ['http://h/api/share/Zq9sSecretShareToken', '/api/share/***'],
  ['http://h/api/share/Zq9sSecretShareToken?x=1', '/api/share/***?x=1'],
  ['http://h/api/characters/5/progress', '/api/characters/5/progress'],
  ['http://h/settings/s/keep', '/settings/s/keep'],
])('%s is logged as %s', (url, logged) => {
  expect(loggedPath(url)).toBe(logged)
})
