// Another account's character: 404 on every path of this scope, and nothing of it changes.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters, completions } from '../src/db/schema'
import { testApp } from './helpers'

test('every character path answers 404 for another account’s character and changes nothing', async () => {
  const t = testApp()
  const alice = await t.userWithToken('alice')
  const bob = await t.userWithToken('bob')
  const created = await t.json<{ id: number }>('POST', '/api/plugin/characters', {
    token: bob,
    body: { givenName: 'Bobs', surname: 'Hero', server: 'Thrane', classes: [{ name: 'Bard', levels: 9 }] },
  })
  const id = created.body.id
  const base = `/api/plugin/characters/${id}`
  await t.json('POST', `${base}/completions`, { token: bob, body: { name: 'The Pit', difficulty: 'Heroic', xp: 5 } })
  const snapshot = () => ({
    character: t.db.select().from(characters).where(eq(characters.id, id)).get(),
    completions: t.db.select().from(completions).where(eq(completions.characterId, id)).all(),
  })
  const before = snapshot()
  t.clock.advance(60_000)

  const attempts: [string, string, unknown][] = [
    ['GET', base, undefined],
    ['PATCH', base, { guild: 'Stolen', seen: true }],
    ['PUT', base, { givenName: 'Mine' }],
    ['POST', `${base}/login`, undefined],
    ['POST', `${base}/login`, { lastLoginAt: 'now' }],
    ['GET', `${base}/progress`, undefined],
    ['PUT', `${base}/progress`, { targetDifficulty: 'reaper', completions: [] }],
    ['POST', `${base}/completions`, { name: 'The Pit', difficulty: 'Heroic', xp: 999 }],
    ['POST', `${base}/completions`, { name: 'New One' }],
    ['DELETE', `${base}/completions`, { name: 'The Pit', difficulty: 'Heroic', allSettings: true }],
    ['DELETE', `${base}/completions?name=The%20Pit&difficulty=Heroic&setting=all`, undefined],
  ]
  for (const [method, path, body] of attempts) {
    const res = await t.json<{ error: string }>(method, path, { token: alice, body })
    expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 })
    expect(typeof res.body.error).toBe('string')
  }
  // The same answer as an id that does not exist: nothing leaks.
  const missing = await t.json<{ error: string }>('GET', '/api/plugin/characters/9999', { token: alice })
  expect(missing.status).toBe(404)

  expect(snapshot()).toEqual(before)
  const list = await t.json<{ characters: unknown[] }>('GET', '/api/plugin/characters', { token: alice })
  expect(list.body.characters).toEqual([])
  const found = await t.json<{ count: number }>('GET', '/api/plugin/characters/find?givenName=Bobs', { token: alice })
  expect(found.body.count).toBe(0)
  const info = await t.json<{ characterCount: number }>('GET', '/api/plugin/info', { token: alice })
  expect(info.body.characterCount).toBe(0)
})
