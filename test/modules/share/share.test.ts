// The public share view (the data behind /s/<shareToken>) and the /info flags of this scope.
import { expect, test } from 'bun:test'
import { ok, testApp } from '../../helpers'

test('GET /api/share/<token>: public, read-only view of a character and its progress', async () => {
  const t = testApp()
  const plugin = t.plugin(await t.userWithToken('alice'))
  const body = ok(
    await plugin.characters.post({ givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 12 }], server: 'Thrane' }),
    201,
  )
  for (const setting of ['elite', 'reaper']) {
    ok(await plugin.characters({ id: body.id }).completions.post({ name: 'The Pit', setting }), 201)
  }
  // A new character's link answers only once its player turns sharing on.
  expect(body.shared).toBe(false)
  expect((await t.api.share({ token: body.shareToken }).get()).status).toBe(404)
  const shared = ok(await plugin.characters({ id: body.id }).share.post())
  expect(shared.shared).toBe(true)
  const view = ok(await t.api.share({ token: shared.shareToken }).get())
  expect(view.character).toMatchObject({ name: 'Tordek', classSummary: 'Fighter 12', server: 'Thrane' })
  expect(view.progress.completedQuests).toEqual(['The Pit'])
  expect(view.progress.completions).toHaveLength(2)
  // Read-only: no write method answers on it (raw: the client has no such methods).
  expect((await t.request('POST', `/api/share/${shared.shareToken}`, { body: {} })).status).toBe(404)
  expect((await t.request('PUT', `/api/share/${shared.shareToken}`, { body: {} })).status).toBe(404)
})

test('/info: the flags of this scope are on and characterCount counts', async () => {
  const t = testApp()
  const plugin = t.plugin(await t.userWithToken('alice'))
  const info = async () => ok(await plugin.info.get())
  expect((await info()).characterCount).toBe(0)
  ok(await plugin.characters.post({ givenName: 'A' }), 201)
  ok(await plugin.characters.post({ name: 'B C' }), 201)
  const body = await info()
  expect(body.characterCount).toBe(2)
  for (const flag of [
    'playOnAny',
    'unknownDifficultyAccepted',
    'completionXp',
    'completionReaperXp',
    'characterProfiles',
    'progressPut',
    'clearAllSettings',
    'liveUpdatesWebsite',
  ] as const) {
    expect({ flag, on: body.features[flag] }).toEqual({ flag, on: true })
  }
})
