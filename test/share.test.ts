// The public share page /s/<shareToken> and the /info flags of this scope.
import { expect, test } from 'bun:test'
import { testApp } from './helpers'

test('GET /s/<token>: public read-only page with name, classes and completion count', async () => {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const { body } = await t.json<{ id: number; shareUrl: string }>('POST', '/api/plugin/characters', {
    token,
    body: {
      givenName: 'Tordek',
      surname: '<b>Stone</b>',
      classes: [{ name: 'Fighter', levels: 12 }],
      server: 'Thrane',
    },
  })
  for (const setting of ['elite', 'reaper']) {
    await t.json('POST', `/api/plugin/characters/${body.id}/completions`, { token, body: { name: 'The Pit', setting } })
  }
  const res = await t.request('GET', body.shareUrl)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/html')
  const html = await res.text()
  expect(html).toContain('Tordek &lt;b&gt;Stone&lt;/b&gt;')
  expect(html).not.toContain('<b>Stone</b>')
  expect(html).toContain('Fighter 12')
  expect(html).toContain('Thrane')
  expect(html).toContain('Completions logged: 2 (1 distinct quests)')
  // Read-only: no write method answers on it.
  expect((await t.request('POST', body.shareUrl, { body: {} })).status).toBe(404)
  const unknown = await t.json<{ error: string }>('GET', '/s/not-a-token')
  expect(unknown.status).toBe(404)
  expect(unknown.body.error).toBeString()
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
  ]) {
    expect({ flag, on: body.features[flag] }).toEqual({ flag, on: true })
  }
})
