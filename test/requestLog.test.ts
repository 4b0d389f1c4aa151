// What a request line shows of the path: never a credential, never a share token.
import { expect, test } from 'bun:test'
import { loggedPath, pathOf } from '../src/http/requestLog'

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
