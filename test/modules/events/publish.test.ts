// Every write to a character's data, on both APIs, tells the change feed what it changed: the
// services publish it (deps.ts `Writer`), so this walks every write route under
// /characters/{id} of the app and reads the event its character's stream gets. A new write
// route without a row below fails the first test: no writer can be forgotten.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { ChangeDelta } from '../../../src/modules/events/feed'
import { ok, testApp } from '../../helpers'

const FIGHTER = join(import.meta.dir, '..', '..', 'fixtures', 'small-fighter.DDOBuild')

/**
 * Each write route (path relative to the API), a valid body, the change it publishes ('' for
 * none), and the delta its event carries (feed.ts ChangeDelta; null: the page re-reads).
 */
const WRITES: Record<string, { body?: unknown; what: string; delta?: ChangeDelta['kind'] | null; website?: true }> = {
  'PATCH /characters/:id': { body: { guild: 'Stone' }, what: 'character', delta: 'head' },
  'PUT /characters/:id': { body: { server: 'Thrane' }, what: 'character', delta: 'head' },
  'POST /characters/:id/login': { body: {}, what: 'character', delta: 'head' },
  'POST /characters/:id/share': { what: 'character', delta: 'head' },
  'DELETE /characters/:id/share': { what: 'character', delta: 'head' },
  'POST /characters/:id/completions': {
    body: { name: 'The Pit', setting: 'elite' },
    what: 'completions',
    delta: 'upsert',
  },
  'DELETE /characters/:id/completions': {
    body: { name: 'The Pit', setting: 'elite' },
    what: 'completions',
    delta: 'remove',
  },
  'POST /characters/:id/completions/restore': {
    body: {
      completions: [
        {
          // What the DELETE above removed (the server puts back only that).
          ...{ name: 'The Pit', difficulty: 'Unknown', setting: 'elite', completedAt: '2026-11-20T18:00:00.000Z' },
          ...{ durationSeconds: 600, xpEarned: 3000, reaperXpEarned: null, runs: 1, runList: [] },
        },
      ],
    },
    what: 'completions',
    delta: null,
  },
  'PUT /characters/:id/progress': { body: { levelBand: 0 }, what: 'progress', delta: 'head' },
  'PUT /characters/:id/live': { body: { life: { name: 'Tordek' } }, what: 'live', delta: 'head' },
  'PUT /characters/:id/live/partial': { body: { build: { notes: 'x' } }, what: 'live', delta: 'head' },
  'POST /characters/:id/live/promote-to-planned': { what: 'build', delta: 'head' },
  'PUT /characters/:id/build': { body: { build: { notes: 'plan' } }, what: 'build', delta: 'head' },
  'PUT /characters/:id/build/partial': { body: { build: { notes: 'more' } }, what: 'build', delta: 'head' },
  'POST /characters/:id/build/import': { what: 'build', delta: null, website: true },
  // A preview writes nothing, so it publishes nothing.
  'POST /characters/:id/build/import/preview': { what: '', website: true },
  'POST /characters/:id/completions/import': {
    body: { csv: 'name\nA Quest Not In The Catalog\n', confirm: true, keepUnmatched: true },
    what: 'completions',
    delta: null,
    website: true,
  },
  'POST /characters/:id/lives/reincarnate': { body: {}, what: 'lives', delta: null },
  // Last: the character is gone after it.
  'DELETE /characters/:id': { what: 'character', delta: null },
}

/** The first `event: change` of a stream, or '' when none comes within `ms`. */
async function firstChange(response: Response, ms = 1000): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + ms
  while (!text.includes('event: change') && Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      Bun.sleep(deadline - Date.now()).then(() => ({ done: true, value: undefined })),
    ])
    if (chunk.done) break
    text += decoder.decode(chunk.value)
  }
  await reader.cancel()
  return /event: change\ndata: (.*)\n/.exec(text)?.[1] ?? ''
}

describe('every write route publishes its change', () => {
  test('the table above names every write route under /characters/{id}, of both APIs', async () => {
    const t = testApp()
    const writes = t.app.routes
      .filter((r) => r.method !== 'GET' && /\/characters\/:id(\/|$)/.test(r.path))
      .map((r) => `${r.method} ${r.path.replace(/^\/api(\/plugin)?/, '')}`)
    expect([...new Set(writes)].sort()).toEqual(Object.keys(WRITES).sort())
  })

  for (const [prefix, website] of [
    ['/api/plugin', false],
    ['/api', true],
  ] as const) {
    test(`${prefix}: each write publishes exactly what it changed, for its character`, async () => {
      const t = testApp()
      const token = await t.userWithToken('alice')
      const cookie = await t.signIn('alice')
      const credential = website ? { cookie } : { token }
      const api = website ? t.web(cookie) : t.plugin(token)
      const character = ok(
        await api.characters.post({ givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 3 }] }),
        201,
      )
      // Raw from here: the writes are walked as the table names them, and the event stream read as text.
      for (const [route, { body, what, delta, website: websiteOnly }] of Object.entries(WRITES)) {
        if (websiteOnly && !website) continue
        const [method, path] = route.split(' ') as [string, string]
        const stream = await t.request('GET', `/api/characters/${character.id}/events`, { cookie })
        const event = firstChange(stream, what === '' ? 300 : 1000)
        const request = /\/build\/import(\/preview)?$/.test(route)
          ? { ...credential, body: { xml: await Bun.file(FIGHTER).text() } }
          : { ...credential, body }
        const answer = await t.request(method, `${prefix}${path.replace(':id', String(character.id))}`, request)
        expect({ route, status: answer.status }).toEqual({ route, status: answer.status < 300 ? answer.status : 200 })
        const data = await event
        const change =
          data === '' ? null : (JSON.parse(data) as { characterId: number; what: string; delta: ChangeDelta | null })
        expect({
          route,
          characterId: change?.characterId,
          what: change?.what ?? '',
          delta: change?.delta?.kind ?? null,
        }).toEqual({
          route,
          characterId: what === '' ? undefined : character.id,
          what,
          delta: delta ?? null,
        })
      }
    })
  }
})
