// Another account's character: 404 on every path of this scope, and nothing of it changes.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { characters, completions } from '../../../src/db/schema'
import { ok, refused, testApp } from '../../helpers'

test('every character path answers 404 for another account’s character and changes nothing', async () => {
  const t = testApp()
  const alice = await t.userWithToken('alice')
  const bob = t.plugin(await t.userWithToken('bob'))
  const created = ok(
    await bob.characters.post({
      givenName: 'Bobs',
      surname: 'Hero',
      server: 'Thrane',
      classes: [{ name: 'Bard', levels: 9 }],
    }),
    201,
  )
  const id = created.id
  ok(await bob.characters({ id }).completions.post({ name: 'The Pit', difficulty: 'Heroic', xp: 5 }), 201)
  const snapshot = () => ({
    character: t.db.select().from(characters).where(eq(characters.id, id)).get(),
    completions: t.db.select().from(completions).where(eq(completions.characterId, id)).all(),
  })
  const before = snapshot()
  t.clock.advance(60_000)

  const theirs = t.plugin(alice).characters({ id })
  const attempts: [string, () => Promise<Parameters<typeof refused>[0]>][] = [
    ['GET', () => theirs.get()],
    ['PATCH', () => theirs.patch({ guild: 'Stolen', seen: true })],
    ['PUT', () => theirs.put({ givenName: 'Mine' })],
    ['POST login', () => theirs.login.post()],
    ['POST login now', () => theirs.login.post({ lastLoginAt: 'now' })],
    ['GET progress', () => theirs.progress.get()],
    ['GET past-lives', () => theirs['past-lives'].get()],
    ['GET timers', () => theirs.timers.get()],
    ['PUT progress', () => theirs.progress.put({ targetDifficulty: 'reaper', completions: [] })],
    ['POST completion', () => theirs.completions.post({ name: 'The Pit', difficulty: 'Heroic', xp: 999 })],
    ['POST new completion', () => theirs.completions.post({ name: 'New One' })],
    [
      'DELETE completions (body)',
      () => theirs.completions.delete({ name: 'The Pit', difficulty: 'Heroic', allSettings: true }),
    ],
    [
      'DELETE completions (query)',
      () => theirs.completions.delete(undefined, { query: { name: 'The Pit', difficulty: 'Heroic', setting: 'all' } }),
    ],
  ]
  for (const [attempt, call] of attempts) {
    const answer = await call()
    expect({ attempt, status: answer.status }).toEqual({ attempt, status: 404 })
    refused(answer, 404)
  }
  // The same answer as an id that does not exist: nothing leaks.
  refused(await t.plugin(alice).characters({ id: 9999 }).get(), 404)

  expect(snapshot()).toEqual(before)
  expect(ok(await t.plugin(alice).characters.get()).characters).toEqual([])
  expect(ok(await t.plugin(alice).characters.find.get({ query: { givenName: 'Bobs' } })).count).toBe(0)
  expect(ok(await t.plugin(alice).info.get()).characterCount).toBe(0)
  expect(ok(await t.plugin(alice).characters.timers.get()).characters).toEqual([])
})
