// The public share view (the data behind /s/<shareToken>) and the /info flags of this scope.
import { expect, test } from 'bun:test'
import { testApp } from './helpers'

test('GET /api/share/<token>: public, read-only view of a character and its progress', async () => {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const { body } = await t.json<{ id: number; shareToken: string }>('POST', '/api/plugin/characters', {
    token,
    body: { givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 12 }], server: 'Thrane' },
  })
  for (const setting of ['elite', 'reaper']) {
    await t.json('POST', `/api/plugin/characters/${body.id}/completions`, { token, body: { name: 'The Pit', setting } })
  }
  const view = await t.json<{
    character: { name: string; classSummary: string; server: string }
    progress: { completedQuests: string[]; completions: unknown[] }
  }>('GET', `/api/share/${body.shareToken}`)
  expect(view.status).toBe(200)
  expect(view.body.character).toMatchObject({ name: 'Tordek', classSummary: 'Fighter 12', server: 'Thrane' })
  expect(view.body.progress.completedQuests).toEqual(['The Pit'])
  expect(view.body.progress.completions).toHaveLength(2)
  // Read-only: no write method answers on it.
  expect((await t.request('POST', `/api/share/${body.shareToken}`, { body: {} })).status).toBe(404)
  expect((await t.request('PUT', `/api/share/${body.shareToken}`, { body: {} })).status).toBe(404)
})

test('/info: the flags of this scope are on and characterCount counts', async () => {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const info = async () =>
    (await t.json<{ characterCount: number; features: Record<string, unknown> }>('GET', '/api/plugin/info', { token }))
      .body
  expect((await info()).characterCount).toBe(0)
  await t.json('POST', '/api/plugin/characters', { token, body: { givenName: 'A' } })
  await t.json('POST', '/api/plugin/characters', { token, body: { name: 'B C' } })
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
  ]) {
    expect({ flag, on: body.features[flag] }).toEqual({ flag, on: true })
  }
})
