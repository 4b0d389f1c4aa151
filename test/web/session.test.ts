// Where sign in sends a visitor afterwards: only to a path on this site.
import { expect, test } from 'bun:test'
import { loginPath, safeNext } from '../../src/web/paths'

const cases: [string | null, string][] = [
  [null, '/'],
  ['', '/'],
  ['/characters/3', '/characters/3'],
  ['/s/abc?x=1#top', '/s/abc?x=1#top'],
  ['//evil.example/x', '/'], // protocol-relative: another host
  ['/\\evil.example', '/'], // browsers read a backslash as a slash
  ['/\t/evil.example', '/'], // URL parsing drops the tab, leaving //evil.example
  ['https://evil.example/', '/'],
  ['javascript:alert(1)', '/'],
  ['characters/3', '/'],
]
for (const [next, expected] of cases) {
  test(`safeNext(${JSON.stringify(next)}) -> ${expected}`, () => expect(safeNext(next)).toBe(expected))
}

test('loginPath carries where the visitor was going, except for the home page', () => {
  expect(loginPath('/')).toBe('/login')
  expect(loginPath('/characters/3?x=1')).toBe('/login?next=%2Fcharacters%2F3%3Fx%3D1')
})
