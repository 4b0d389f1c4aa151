// The site's paths: which page a location shows (one list for the server and the client), and
// where sign in sends a visitor afterwards (only to a path on this site).
import { expect, test } from 'bun:test'
import { matchPage, PAGE_PATHS } from '../../src/pages'
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

test.each([
  ['/', { page: '/', param: '' }],
  ['/characters/12', { page: '/characters/:id', param: '12' }],
  ['/characters/12/', { page: '/characters/:id', param: '12' }],
  ['/characters/12/build', { page: '/characters/:id/build', param: '12' }],
  ['/routes/new', { page: '/routes/new', param: '' }],
  ['/routes/3/edit', { page: '/routes/:id/edit', param: '3' }],
  ['/characters/new', { page: '/characters/new', param: '' }],
  ['/characters/12/edit', { page: '/characters/:id/edit', param: '12' }],
  ['/join/qti_abc-_1', { page: '/join/:code', param: 'qti_abc-_1' }],
  ['/s/a%20b', { page: '/s/:token', param: 'a b' }],
  ['/alts', { page: '/alts', param: '' }],
])('matchPage(%p)', (path, expected) => {
  expect(matchPage(path)).toEqual({ ...expected, params: expected.param ? [expected.param] : [] } as ReturnType<
    typeof matchPage
  >)
})

test('a page of two ids: both, in order', () => {
  expect(matchPage('/groups/4/characters/17')).toEqual({
    page: '/groups/:id/characters/:characterId',
    param: '4',
    params: ['4', '17'],
  })
  expect(matchPage('/groups/4/characters/abc')).toBeNull()
})

test.each(['/characters/abc', '/s/x/build', '/foo', '/routes/3/edit/more', '/characters/', '/join/', '/join/a/b'])(
  'matchPage(%p) is no page: the site says "not found"',
  (path) => {
    expect(matchPage(path)).toBeNull()
  },
)

test('every page path of the list is a page the matcher finds', () => {
  for (const path of PAGE_PATHS) {
    const sample = path
      .replace(':id', '7')
      .replace(':characterId', '8')
      .replace(':token', 'tok')
      .replace(':code', 'qti_code')
    expect(matchPage(sample)?.page).toBe(path)
  }
})
