// Issue 41 section 3: the skull count of a reaper run, through both APIs. Sent under any of its
// names or in the setting (`R5`), kept per run; the completion keeps the most of its runs'. An
// older client that sends only `reaper` is answered and stored exactly as before; a count beside
// another setting is ignored (a completion is never refused for its setting); a count outside 1-10
// is 400 naming the field, and nothing is written.
import { describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { completions, runs } from '../../../src/db/schema'
import { insertCharacter, ok, refused, testApp } from '../../helpers'

const PIT = { name: 'The Pit', difficulty: 'Heroic' } as const

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice')
  const me = t.plugin(token).characters({ id: character.id })
  const cookie = await t.signIn('alice')
  const web = t.web(cookie).characters({ id: character.id })
  const rows = () =>
    t.db
      .select({ setting: completions.setting, reaperSkulls: completions.reaperSkulls, runs: completions.runs })
      .from(completions)
      .where(eq(completions.characterId, character.id))
      .orderBy(asc(completions.id))
      .all()
  const runSkulls = () =>
    t.db
      .select({ completedAt: runs.completedAt, reaperSkulls: runs.reaperSkulls })
      .from(runs)
      .orderBy(asc(runs.completedAt))
      .all()
  return { ...t, token, character, me, web, rows, runSkulls }
}

describe('POST completions: the skull count', () => {
  test('an older client that sends only reaper: stored and answered as before, with no count', async () => {
    const t = await setup()
    const posted = ok(await t.me.completions.post({ ...PIT, setting: 'reaper', reaperXpEarned: 40 }), 201)
    expect(posted.completion).toEqual({
      ...PIT,
      setting: 'reaper',
      completedAt: posted.completion.completedAt,
      durationSeconds: null,
      xpEarned: null,
      reaperXpEarned: 40,
      reaperSkulls: null,
    })
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: null, runs: 1 }])
  })

  test.each([
    ['reaperSkulls', { setting: 'reaper', reaperSkulls: 7 }, 7],
    ['skulls', { setting: 'reaper', skulls: 3 }, 3],
    ['reaper_skulls', { setting: 'Reaper', reaper_skulls: 10 }, 10],
    ['reaperLevel', { setting: 'reaper', reaperLevel: 1 }, 1],
    ['reaper_level', { setting: 'reaper', reaper_level: 4 }, 4],
    ['setting R5', { setting: 'R5' }, 5],
    ['setting "reaper 2"', { setting: 'reaper 2' }, 2],
    ['challengeSetting r9', { challengeSetting: 'r9' }, 9],
    ['R6 in difficulty (rule 4)', { difficulty: 'R6' }, 6],
  ] as const)('%s is stored on the completion and its run', async (_why, fields, skulls) => {
    const t = await setup()
    const posted = ok(await t.me.completions.post({ ...PIT, ...fields }), 201)
    expect(posted.completion).toMatchObject({ setting: 'reaper', reaperSkulls: skulls })
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: skulls, runs: 1 }])
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([skulls])
  })

  test('a count beside another setting is ignored, not refused', async () => {
    const t = await setup()
    const posted = ok(await t.me.completions.post({ ...PIT, setting: 'elite', skulls: 4 }), 201)
    expect(posted.completion).toMatchObject({ setting: 'elite', reaperSkulls: null })
    t.clock.advance(60_000)
    ok(await t.me.completions.post({ ...PIT, reaperSkulls: 6 }))
    expect(t.rows()).toEqual([{ setting: 'elite', reaperSkulls: null, runs: 2 }])
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([null, null])
  })

  test.each([
    [{ reaperSkulls: 11 }, 'Body field "reaperSkulls" must be an integer from 1 to 10 or null.'],
    [{ skulls: 0 }, 'Body field "skulls" must be an integer from 1 to 10 or null.'],
    [{ reaperLevel: 2.5 }, 'Body field "reaperLevel" must be an integer from 1 to 10 or null.'],
  ] as const)('%p is 400 naming the field; nothing is written', async (fields, message) => {
    const t = await setup()
    expect(refused(await t.me.completions.post({ ...PIT, setting: 'reaper', ...fields }), 400)).toEqual({
      error: message,
    })
    expect(t.rows()).toEqual([])
  })

  test('R11 is no setting of the game: unknown, like any word it does not know', async () => {
    const t = await setup()
    expect(ok(await t.me.completions.post({ ...PIT, setting: 'R11' }), 201).completion).toMatchObject({
      setting: 'unknown',
      reaperSkulls: null,
    })
  })

  test('each run keeps its own count; the completion keeps the most, whichever run came last', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ ...PIT, setting: 'R3' }), 201)
    t.clock.advance(60_000)
    ok(await t.me.completions.post({ ...PIT, setting: 'R7' }))
    t.clock.advance(60_000)
    const third = ok(await t.me.completions.post({ ...PIT, setting: 'reaper', skulls: 5 }))
    expect(third.completion.reaperSkulls).toBe(7)
    t.clock.advance(60_000)
    ok(await t.me.completions.post({ ...PIT, setting: 'reaper' }))
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: 7, runs: 4 }])
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([3, 7, 5, null])
  })

  test('a run sent again (the same completedAt) takes its count, and counts once', async () => {
    const t = await setup()
    const at = '2026-11-20T18:00:00.000Z'
    ok(await t.me.completions.post({ ...PIT, setting: 'reaper', completedAt: at }), 201)
    ok(await t.me.completions.post({ ...PIT, setting: 'reaper', completedAt: at, skulls: 4 }))
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: 4, runs: 1 }])
    // Omitted again: the run keeps its count.
    ok(await t.me.completions.post({ ...PIT, setting: 'reaper', completedAt: at }))
    expect(t.runSkulls()).toEqual([{ completedAt: at, reaperSkulls: 4 }])
  })

  test('the website (cookie API) takes the same fields', async () => {
    const t = await setup()
    ok(await t.web.completions.post({ ...PIT, setting: 'reaper', reaperSkulls: 8 }), 201)
    const progress = ok(await t.web.progress.get())
    expect(progress.completions).toEqual([expect.objectContaining({ setting: 'reaper', reaperSkulls: 8 })])
  })

  test('progress answers the count (plugin API)', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ ...PIT, setting: 'R2' }), 201)
    ok(await t.me.completions.post({ ...PIT, setting: 'hard' }), 201)
    const { completions: list } = ok(await t.me.progress.get())
    expect(list.map((c) => [c.setting, c.reaperSkulls])).toEqual([
      ['hard', null],
      ['reaper', 2],
    ])
  })
})

describe('DELETE, restore, PUT progress keep the count', () => {
  test('an untick and its undo give back the count and every run with its own', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ ...PIT, setting: 'R8' }), 201)
    t.clock.advance(60_000)
    ok(await t.me.completions.post({ ...PIT, setting: 'R4' }))
    const deleted = ok(await t.me.completions.delete({ ...PIT, setting: 'reaper' }))
    expect(deleted.removed[0]).toMatchObject({ reaperSkulls: 8, runs: 2 })
    expect(deleted.removed[0]?.runList.map((r) => r.reaperSkulls)).toEqual([8, 4])
    expect(t.rows()).toEqual([])
    const back = ok(await t.me.completions.restore.post({ completions: deleted.removed }))
    expect(back.completions[0]).toMatchObject({ setting: 'reaper', reaperSkulls: 8 })
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: 8, runs: 2 }])
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([8, 4])
  })

  test('an undo a browser kept from before skulls were kept (no count at all) still works: the server puts back its own copy', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ ...PIT, setting: 'R5' }), 201)
    ok(await t.me.completions.delete({ ...PIT, setting: 'reaper' }))
    // What a browser of the version before kept of that delete: no reaperSkulls anywhere.
    const at = t.clock.now().toISOString()
    const old = {
      ...PIT,
      setting: 'reaper' as const,
      completedAt: at,
      durationSeconds: null,
      xpEarned: null,
      reaperXpEarned: null,
      runs: 1,
      runList: [{ completedAt: at, durationSeconds: null, xpEarned: null, reaperXpEarned: null }],
    }
    ok(await t.me.completions.restore.post({ completions: [old] }))
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: 5, runs: 1 }])
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([5])
  })

  test('PUT progress: what GET answered sent back changes nothing; a different count corrects the latest run', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ ...PIT, setting: 'R9' }), 201)
    t.clock.advance(60_000)
    ok(await t.me.completions.post({ ...PIT, setting: 'R3' }))
    const { completions: read } = ok(await t.me.progress.get())
    ok(await t.me.progress.put({ completions: read }))
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: 9, runs: 2 }])
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([9, 3])
    // The latest run was a 2 (the player's fix): its run says so; the completion's most is still the 9.
    const latest = read[0]
    if (!latest) throw new Error('no completion read')
    ok(await t.me.progress.put({ completions: [{ ...latest, reaperSkulls: 2 }] }))
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([9, 2])
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: 9, runs: 2 }])
  })

  test('PUT progress: correcting the run that held the most lowers the completion to its runs’ most', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ ...PIT, setting: 'R2' }), 201)
    t.clock.advance(60_000)
    ok(await t.me.completions.post({ ...PIT, setting: 'R10' }))
    const { completions: read } = ok(await t.me.progress.get())
    const latest = read[0]
    if (!latest) throw new Error('no completion read')
    ok(await t.me.progress.put({ completions: [{ ...latest, reaperSkulls: 1 }] }))
    expect(t.runSkulls().map((r) => r.reaperSkulls)).toEqual([2, 1])
    expect(t.rows()).toEqual([{ setting: 'reaper', reaperSkulls: 2, runs: 2 }])
  })
})

describe('the reference documents the count', () => {
  test('its aliases (from the schema) and its bounds', async () => {
    const t = testApp()
    const markdown = await (await t.request('GET', '/api/plugin/docs')).text()
    expect(markdown).toContain('| `reaperSkulls` | `skulls`, `reaper_skulls`, `reaperLevel`, `reaper_level` |')
    expect(markdown).toContain('| `reaperSkulls` (and aliases) | integer from 1 to 10 | 400 |')
    expect(markdown).toContain('a setting `R5` or `reaper 5`')
  })
})
