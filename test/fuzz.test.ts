// Wrong types on every route of this scope: always a 4xx with {"error": "..."}, never a 500,
// and never a partial write. Sent raw: the bodies, paths and queries are what the types forbid.
import { expect, test } from 'bun:test'
import { completions } from '../src/db/schema'
import { insertCharacter, testApp } from './helpers'

const WRONG_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  'x',
  '',
  true,
  [],
  [1, 'a'],
  {},
  { a: { b: [null] } },
  'x'.repeat(5000),
]

/** Each field of the route's body set to each wrong value in turn, plus whole-body junk. */
function bodies(fields: string[]): unknown[] {
  const out: unknown[] = [null, 5, 'text', [], [{}], true]
  for (const field of fields) for (const value of WRONG_VALUES) out.push({ name: 'Q', givenName: 'G', [field]: value })
  return out
}

const CHARACTER_FIELDS = [
  'givenName',
  'firstName',
  'surname',
  'lastName',
  'name',
  'race',
  'server',
  'classes',
  'classLevels',
  'epicLevels',
  'epic_levels',
  'lastLoginAt',
  'last_login_at',
  'touchLastLogin',
  'seen',
]
const COMPLETION_FIELDS = [
  'name',
  'difficulty',
  'setting',
  'completedAt',
  'durationSeconds',
  'xpEarned',
  'xp',
  'rxp',
  'reaperXpEarned',
]
const PROGRESS_FIELDS = [
  'targetDifficulty',
  'levelBand',
  'characterLevel',
  'excludedPatrons',
  'versionFilter',
  'xpBoosts',
  'optionalPursuit',
  'packState',
  'questNotes',
  'completions',
]

test('no request in this scope answers 500', async () => {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice')
  const base = `/api/plugin/characters/${character.id}`
  const routes: [string, string, string[]][] = [
    ['POST', '/api/plugin/characters', CHARACTER_FIELDS],
    ['PATCH', base, CHARACTER_FIELDS],
    ['PUT', base, CHARACTER_FIELDS],
    ['POST', `${base}/login`, ['lastLoginAt', 'last_login_at']],
    ['POST', `${base}/completions`, COMPLETION_FIELDS],
    ['DELETE', `${base}/completions`, ['name', 'difficulty', 'setting', 'allSettings']],
    ['PUT', `${base}/progress`, PROGRESS_FIELDS],
  ]
  const seen = new Set<number>()
  for (const [method, path, fields] of routes) {
    for (const body of bodies(fields)) {
      const res = await t.request(method, path, { token, body })
      seen.add(res.status)
      const text = await res.text()
      expect({ method, path, body, status: res.status < 500 }).toEqual({ method, path, body, status: true })
      if (res.status >= 400) {
        const answer: unknown = JSON.parse(text)
        expect(answer).toMatchObject({ error: expect.any(String) })
      }
    }
  }
  const paths = [
    '/api/plugin/characters/abc',
    '/api/plugin/characters/-1',
    '/api/plugin/characters/1.5',
    '/api/plugin/characters/99999999999999999999',
    '/api/plugin/characters/0/progress',
    '/api/plugin/characters/find?givenName=a&givenName=b',
    `${base}/completions?name=a&name=b`,
    `${base}/completions?allSettings=maybe&name=x`,
  ]
  for (const path of paths) {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await t.request(method, path, { token, body: method === 'GET' ? undefined : {} })
      expect({ method, path, ok: res.status < 500 }).toEqual({ method, path, ok: true })
    }
  }
  // Raw bodies that are not JSON at all.
  for (const raw of ['{', 'name=x', '\u0000', '[]]']) {
    const res = await t.request('POST', `${base}/completions`, {
      token,
      raw,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
  }
  expect(seen.has(400)).toBe(true)
  // The junk that was accepted (unknown difficulty/setting) was stored whole, one row per triple.
  for (const row of t.db.select().from(completions).all()) {
    expect(['Heroic', 'Epic', 'Legendary', 'Unknown']).toContain(row.difficulty)
    expect(['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown']).toContain(row.setting)
  }
})
