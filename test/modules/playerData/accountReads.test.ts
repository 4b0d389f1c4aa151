// The reads of a whole account go a piece at a time (issue 39, item 6): the account export of a
// character with tens of thousands of runs is streamed in pieces of bounded size, with other
// requests answered between them (at 450,000 runs it was one 47-93 MB string, built in 3-9 s
// while /api/health waited), and GET /past-lives reads one character at a time, answering other
// requests in between. Both answers stay what they were.
import { describe, expect, test } from 'bun:test'
import { EXPORT_PIECE_CHARS } from '../../../src/modules/playerData/limits'
import { insertCharacter, testApp } from '../../helpers'

const RUNS_EACH = 500

/** `n` timed runs of `n / 500` completions of a character, straight into the database. */
function seedRuns(t: ReturnType<typeof testApp>, characterId: number, n: number) {
  const client = t.db.$client
  const completion = client.prepare<{ id: number }, [number, string]>(
    `INSERT INTO completions (character_id, name, difficulty, setting, completed_at, runs, updated_at)
     VALUES (?, ?, 'Heroic', 'elite', '2025-01-01T00:00:00.000Z', ${RUNS_EACH}, '2026-01-01T00:00:00.000Z') RETURNING id`,
  )
  const run = client.prepare(
    'INSERT INTO runs (completion_id, completed_at, duration_seconds, xp_earned) VALUES (?, ?, 600, 1234)',
  )
  client.transaction(() => {
    for (let i = 0; i < n / RUNS_EACH; i++) {
      const { id } = completion.get(characterId, `Quest ${i}`) as { id: number }
      for (let j = 0; j < RUNS_EACH; j++)
        run.run(id, new Date(Date.UTC(2024, 0, 1) + (i * RUNS_EACH + j) * 60_000).toISOString())
    }
  })()
}

/** Reads a streamed answer piece by piece; `between` runs once, after the second piece. */
async function pieces(response: Response, between: () => Promise<void>) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const sizes: number[] = []
  const decoder = new TextDecoder()
  let text = ''
  let pending: Promise<void> | undefined
  let answeredAfter = -1
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    sizes.push(value.byteLength)
    text += decoder.decode(value, { stream: true })
    if (sizes.length === 2)
      pending = between().then(() => {
        answeredAfter = sizes.length
      })
  }
  await pending
  return { sizes, text, answeredAfter }
}

describe('the account export', () => {
  test('of 40,000 runs: pieces of bounded size, and /api/health answered while it is sent', async () => {
    const t = testApp()
    await t.userWithToken('alice')
    const cookie = await t.signIn('alice')
    const one = insertCharacter(t.db, 'alice', { givenName: 'One' })
    const two = insertCharacter(t.db, 'alice', { givenName: 'Two' })
    seedRuns(t, one.id, 30_000)
    seedRuns(t, two.id, 10_000)
    const response = await t.request('GET', '/api/account/export', { cookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="alice 2026-11-21.json"')
    let health = 0
    const { sizes, text, answeredAfter } = await pieces(response, async () => {
      health = (await t.request('GET', '/api/health')).status
    })
    const total = sizes.reduce((sum, n) => sum + n, 0)
    expect(total).toBeGreaterThan(3_000_000)
    // No piece is the whole: each is about EXPORT_PIECE_CHARS, one completion's runs at most more.
    expect(sizes.length).toBeGreaterThan(total / (2 * EXPORT_PIECE_CHARS))
    expect(Math.max(...sizes)).toBeLessThan(EXPORT_PIECE_CHARS + 64 * 1024)
    // Health was answered between two pieces, long before the last.
    expect(health).toBe(200)
    expect(answeredAfter).toBeGreaterThan(0)
    expect(answeredAfter).toBeLessThan(sizes.length / 2)
    // And it is the export it was: every character, completion and run, in order.
    const data = JSON.parse(text)
    expect(data).toMatchObject({ format: 'quest-tracker-export', version: 1, account: { username: 'alice' } })
    expect(data.characters.map((c: { name: string }) => c.name)).toEqual(['One', 'Two'])
    const runs = data.characters.map((c: { completions: { runList: unknown[] }[] }) =>
      c.completions.reduce((sum, completion) => sum + completion.runList.length, 0),
    )
    expect(runs).toEqual([30_000, 10_000])
    expect(data.characters[0].completions[1]).toMatchObject({
      name: 'Quest 1',
      lifeIndex: 1,
      runs: RUNS_EACH,
      runList: expect.arrayContaining([
        {
          completedAt: '2024-01-01T08:20:00.000Z',
          durationSeconds: 600,
          xpEarned: 1234,
          reaperXpEarned: null,
          reaperSkulls: null,
        },
      ]),
    })
    expect(data.routes).toEqual([])
  })

  test('over a real socket: the same document, sent chunked', async () => {
    const t = testApp()
    await t.userWithToken('alice')
    const cookie = await t.signIn('alice')
    const one = insertCharacter(t.db, 'alice', { givenName: 'One' })
    seedRuns(t, one.id, 10_000)
    t.app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const response = await fetch(`http://127.0.0.1:${t.app.server?.port}/api/account/export`, {
        headers: { cookie },
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-length')).toBeNull()
      const data = await response.json()
      expect(data.characters[0].completions).toHaveLength(10_000 / RUNS_EACH)
      expect(data.characters[0].completions.every((c: { runList: unknown[] }) => c.runList.length === RUNS_EACH)).toBe(
        true,
      )
    } finally {
      await t.app.stop()
    }
  })
})

describe('GET /past-lives', () => {
  test('reads a character at a time: /api/health sent after it is answered before it', async () => {
    const t = testApp()
    await t.userWithToken('alice')
    const cookie = await t.signIn('alice')
    const feats = JSON.stringify(
      Array.from({ length: 200 }, (_, i) => ({ name: `Feat ${i}`, type: 'Special', stacks: 1 })),
    )
    const life = t.db.$client.prepare(
      `INSERT INTO lives (character_id, life_index, is_current, special_feats, quest_life, created_at, archived_at)
       VALUES (?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z', NULL)`,
    )
    for (let c = 0; c < 40; c++) {
      const { id } = insertCharacter(t.db, 'alice', { givenName: `Hero${c}` })
      for (let i = 1; i <= 30; i++) life.run(id, i, i === 30 ? 1 : 0, feats, i)
    }
    const order: string[] = []
    const glance = t.request('GET', '/api/past-lives', { cookie }).then(async (response) => {
      order.push('past lives')
      return response
    })
    const health = t.request('GET', '/api/health').then((response) => {
      order.push('health')
      return response
    })
    const [answer, healthAnswer] = await Promise.all([glance, health])
    expect(healthAnswer.status).toBe(200)
    expect(order).toEqual(['health', 'past lives'])
    const body = (await answer.json()) as { characters: { name: string; lives: number }[] }
    expect(body.characters).toHaveLength(40)
    expect(body.characters.every((c) => c.lives === 30)).toBe(true)
  })
})
