// Undoing a delete over HTTP: DELETE completions answers what it removed, whole (the count of runs
// and the runs kept, with the XP and durations the game reported), and POST completions/restore
// puts it back exactly, once however often it is sent, on the plugin API and the website's alike;
// another account's character is 404, and a full character 409. The server keeps what it removed
// for the undo window, under the id the DELETE answers, and puts back only that: a client's
// invented completions and runs are refused (issue 39, item 6). Checked in the stored rows.
import { describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { completions, keptDeletions, runs } from '../../../src/db/schema'
import { prune } from '../../../src/maintenance/housekeeping'
import {
  MAX_COMPLETIONS_PER_CHARACTER,
  MAX_KEPT_DELETIONS_PER_CHARACTER,
  MAX_RESTORED_COMPLETIONS,
  MAX_RUNS_PER_COMPLETION,
  UNDO_WINDOW_MS,
} from '../../../src/modules/completions/limits'
import { insertCharacter, ok, refused, testApp } from '../../helpers'

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice')
  const me = t.plugin(token).characters({ id: character.id })
  // Three runs of The Pit on elite as the game posts them, with what it reported; one on hard.
  const reported = [
    {
      completedAt: '2026-11-20T18:00:00.000Z',
      durationSeconds: 600,
      xpEarned: 3000,
      reaperXpEarned: null,
      reaperSkulls: null,
    },
    {
      completedAt: '2026-11-20T19:00:00.000Z',
      durationSeconds: 540,
      xpEarned: 3100,
      reaperXpEarned: null,
      reaperSkulls: null,
    },
    {
      completedAt: '2026-11-20T20:00:00.000Z',
      durationSeconds: 660,
      xpEarned: 2900,
      reaperXpEarned: 12,
      reaperSkulls: null,
    },
  ]
  for (const [i, run] of reported.entries()) {
    ok(
      await me.completions.post({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite', ...run }),
      i === 0 ? 201 : 200,
    )
  }
  ok(
    await me.completions.post({
      name: 'The Pit',
      difficulty: 'Heroic',
      setting: 'hard',
      completedAt: '2026-11-19T10:00:00Z',
    }),
    201,
  )
  /** The character's completions and their runs as stored (what a restore must bring back). */
  const stored = () =>
    t.db
      .select()
      .from(completions)
      .where(eq(completions.characterId, character.id))
      .orderBy(asc(completions.setting))
      .all()
      .map(({ id, updatedAt: _, ...row }) => ({
        ...row,
        runList: t.db
          .select({
            completedAt: runs.completedAt,
            durationSeconds: runs.durationSeconds,
            xpEarned: runs.xpEarned,
            reaperXpEarned: runs.reaperXpEarned,
            reaperSkulls: runs.reaperSkulls,
          })
          .from(runs)
          .where(eq(runs.completionId, id))
          .orderBy(asc(runs.completedAt))
          .all(),
      }))
  return { ...t, token, character, me, reported, stored }
}

describe('DELETE answers what it removed, whole', () => {
  test('each completion with its figures, its count of runs and the runs kept', async () => {
    const { me, reported, stored } = await setup()
    const answer = ok(await me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    expect(answer).toEqual({
      ok: true,
      deleted: 1,
      removed: [
        {
          name: 'The Pit',
          difficulty: 'Heroic',
          setting: 'elite',
          ...(reported[2] as (typeof reported)[number]),
          runs: 3,
          runList: reported,
        },
      ],
      undoId: expect.any(Number),
      undoUntil: '2026-11-21T13:00:00.000Z',
    })
    expect(stored().map((c) => c.setting)).toEqual(['hard'])
    // The runs went with it.
    expect(stored()[0]?.runList).toHaveLength(1)
  })
})

describe('POST completions/restore puts it back exactly', () => {
  test('its runs, times and XP; sent again it changes nothing', async () => {
    const { me, stored } = await setup()
    const before = stored()
    const { removed } = ok(await me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', allSettings: true }))
    expect(removed).toHaveLength(2)
    expect(stored()).toEqual([])

    const answer = ok(await me.completions.restore.post({ completions: removed }))
    expect(answer.restored).toBe(2)
    // In the order sent (the delete's), whatever that is.
    expect(answer.completions.map((c) => c.setting)).toEqual(removed.map((c) => c.setting))
    expect(answer.completions.map((c) => [c.setting, c.xpEarned, c.completedAt]).sort()).toEqual([
      ['elite', 2900, '2026-11-20T20:00:00.000Z'],
      ['hard', null, '2026-11-19T10:00:00.000Z'],
    ])
    expect(stored()).toEqual(before)

    // A retry (the answer was lost on the way): nothing more.
    expect(ok(await me.completions.restore.post({ completions: removed })).restored).toBe(0)
    expect(stored()).toEqual(before)
  })

  test('re-ticked in between: the new run stays, the old ones join it, the counts add', async () => {
    const { me, stored } = await setup()
    const { removed } = ok(await me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    ok(
      await me.completions.post({
        name: 'The Pit',
        difficulty: 'Heroic',
        setting: 'elite',
        completedAt: '2026-11-21T09:00:00Z',
      }),
      201,
    )
    expect(ok(await me.completions.restore.post({ completions: removed })).restored).toBe(1)
    const elite = stored().find((c) => c.setting === 'elite')
    expect(elite).toMatchObject({ runs: 4, completedAt: '2026-11-21T09:00:00.000Z', xpEarned: null })
    expect(elite?.runList.map((r) => r.xpEarned)).toEqual([3000, 3100, 2900, null])
    ok(await me.completions.restore.post({ completions: removed }))
    expect(stored().find((c) => c.setting === 'elite')?.runs).toBe(4)
  })

  test("on the website's cookie API the same", async () => {
    const t = await setup()
    const web = t.web(await t.signIn('alice')).characters({ id: t.character.id })
    const before = t.stored()
    const { removed } = ok(await web.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    ok(await web.completions.restore.post({ completions: removed }))
    expect(t.stored()).toEqual(before)
  })

  test("another account's character, or none: 404, and nothing written", async () => {
    const t = await setup()
    const { removed } = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    const after = t.stored()
    const bob = t.plugin(await t.userWithToken('bob'))
    const theirs = refused(
      await bob.characters({ id: t.character.id }).completions.restore.post({ completions: removed }),
      404,
    )
    const none = refused(await bob.characters({ id: 999 }).completions.restore.post({ completions: removed }), 404)
    expect(theirs).toEqual({ error: `No character ${t.character.id} on this account.` })
    expect(none).toEqual({ error: 'No character 999 on this account.' })
    // Into a character of their own: nothing of it was deleted there, so nothing to put back.
    const bobsOwn = insertCharacter(t.db, 'bob')
    refused(await bob.characters({ id: bobsOwn.id }).completions.restore.post({ completions: removed }), 409)
    expect(t.stored()).toEqual(after)
    expect(t.db.select().from(completions).where(eq(completions.characterId, bobsOwn.id)).all()).toEqual([])
  })

  test('what the types forbid or the limits refuse: 400, and nothing written', async () => {
    const { me, stored } = await setup()
    const { removed } = ok(await me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    const after = stored()
    const [gone] = removed
    if (!gone) throw new Error('nothing removed')
    refused(await me.completions.restore.post({ completions: [] }), 400)
    refused(
      await me.completions.restore.post({
        completions: Array.from({ length: MAX_RESTORED_COMPLETIONS + 1 }, (_, i) => ({ ...gone, name: `Q${i}` })),
      }),
      400,
    )
    expect(
      refused(
        await me.completions.restore.post({
          completions: [
            { ...gone, runList: [{ ...(gone.runList[0] as (typeof gone.runList)[number]), completedAt: 'yesterday' }] },
          ],
        }),
        400,
      ),
    ).toEqual({ error: 'Body field "completions[0].runList[0].completedAt" must be an ISO 8601 timestamp.' })
    refused(await me.completions.restore.post({ completions: [{ ...gone, runs: 0 }] }), 400)
    refused(await me.completions.restore.post({ completions: [{ ...gone, xpEarned: -1 }] }), 400)
    expect(stored()).toEqual(after)
  })

  test(`a character at ${MAX_COMPLETIONS_PER_CHARACTER} completions: a triple new again is 409`, async () => {
    const t = await setup()
    const { removed } = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    const now = '2026-11-21T12:00:00.000Z'
    const fill = Array.from({ length: MAX_COMPLETIONS_PER_CHARACTER - 1 }, (_, i) => ({
      characterId: t.character.id,
      name: `Quest ${i}`,
      difficulty: 'Heroic' as const,
      setting: 'elite' as const,
      completedAt: now,
      updatedAt: now,
    }))
    for (let i = 0; i < fill.length; i += 1000)
      t.db
        .insert(completions)
        .values(fill.slice(i, i + 1000))
        .run()
    expect(refused(await t.me.completions.restore.post({ completions: removed }), 409).error).toContain(
      `already has ${MAX_COMPLETIONS_PER_CHARACTER} completions`,
    )
    const pit = and(
      eq(completions.characterId, t.character.id),
      eq(completions.name, 'The Pit'),
      eq(completions.setting, 'elite'),
    )
    expect(t.db.select().from(completions).where(pit).all()).toEqual([])
  })
})

describe('restore puts back only what the server removed (issue 39, item 6)', () => {
  /** An invented completion of `n` runs, in the shape a DELETE answers. */
  const forged = (name: string, n: number) => {
    const runList = Array.from({ length: n }, (_, j) => ({
      completedAt: new Date(Date.UTC(2024, 0, 1) + j * 60_000).toISOString(),
      durationSeconds: 600,
      xpEarned: 5000,
      reaperXpEarned: null,
    }))
    return { name, difficulty: 'Heroic' as const, setting: 'elite' as const, ...runList.at(-1)!, runs: n, runList }
  }
  const runCount = (t: Awaited<ReturnType<typeof setup>>) => t.stored().reduce((sum, c) => sum + c.runList.length, 0)

  test(`a forged restore of ${MAX_RUNS_PER_COMPLETION} invented runs: 409, and none of them stored`, async () => {
    const t = await setup()
    const before = t.stored()
    const answer = refused(
      await t.me.completions.restore.post({ completions: [forged('Forged Quest', MAX_RUNS_PER_COMPLETION)] }),
      409,
    )
    expect(answer.error).toBe(
      `Nothing deleted from character ${t.character.id} in the last hour matches "Forged Quest" (Heroic, elite): a restore puts back only what a DELETE removed, for an hour after it.`,
    )
    expect(t.stored()).toEqual(before)
    expect(runCount(t)).toBe(4)
  })

  test('a removed completion sent back with invented runs and counts: only what was removed comes back', async () => {
    const t = await setup()
    const before = t.stored()
    const { removed } = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    const [pit] = removed
    if (!pit) throw new Error('nothing removed')
    const padded = forged('The Pit', MAX_RUNS_PER_COMPLETION - pit.runList.length)
    const sent = { ...pit, runs: 1_000_000, xpEarned: 99_999_999, runList: [...pit.runList, ...padded.runList] }
    const answer = ok(await t.me.completions.restore.post({ completions: [sent] }))
    expect(answer.restored).toBe(1)
    expect(answer.completions[0]?.xpEarned).toBe(2900)
    expect(t.stored()).toEqual(before)
  })

  test('DELETE answers undoId and undoUntil; restore by undoIds alone puts back that delete, again and again once', async () => {
    const t = await setup()
    const before = t.stored()
    const answer = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', allSettings: true }))
    expect(answer.undoId).toEqual(expect.any(Number))
    expect(answer.undoUntil).toBe(new Date(t.clock.now().getTime() + UNDO_WINDOW_MS).toISOString())
    const undoIds = [answer.undoId as number]
    const back = ok(await t.me.completions.restore.post({ undoIds }))
    expect(back.restored).toBe(2)
    expect(t.stored()).toEqual(before)
    expect(ok(await t.me.completions.restore.post({ undoIds })).restored).toBe(0)
    expect(t.stored()).toEqual(before)
    // Nothing removed: nothing kept, nothing to undo.
    const none = ok(await t.me.completions.delete({ name: 'Not Logged' }))
    expect(none).toMatchObject({ deleted: 0, undoId: null, undoUntil: null })
  })

  test('undoIds with completions: those completions, from those deletes only', async () => {
    const t = await setup()
    const first = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'hard' }))
    const second = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }))
    // The elite completion is not among what the first delete removed.
    const wrong = refused(
      await t.me.completions.restore.post({ undoIds: [first.undoId as number], completions: second.removed }),
      409,
    )
    expect(wrong.error).toContain('"The Pit" (Heroic, elite)')
    expect(t.stored()).toEqual([])
    ok(await t.me.completions.restore.post({ undoIds: [second.undoId as number], completions: second.removed }))
    expect(t.stored().map((c) => c.setting)).toEqual(['elite'])
  })

  test("an undoId that is not the character's, or not kept: 409, and nothing written", async () => {
    const t = await setup()
    const { undoId } = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', allSettings: true }))
    const bob = t.plugin(await t.userWithToken('bob'))
    const bobsOwn = insertCharacter(t.db, 'bob')
    const theirs = refused(
      await bob.characters({ id: bobsOwn.id }).completions.restore.post({ undoIds: [undoId as number] }),
      409,
    )
    expect(theirs.error).toBe(
      `Nothing deleted from character ${bobsOwn.id} in the last hour is kept under undoId ${undoId}: a restore puts back only what a DELETE removed, for an hour after it.`,
    )
    refused(await t.me.completions.restore.post({ undoIds: [(undoId as number) + 1] }), 409)
    refused(await t.me.completions.restore.post({}), 400)
    expect(t.stored()).toEqual([])
    expect(t.db.select().from(completions).where(eq(completions.characterId, bobsOwn.id)).all()).toEqual([])
  })

  test('after the undo window: 409, nothing written; housekeeping deletes what was kept', async () => {
    const t = await setup()
    const { removed, undoId } = ok(
      await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', allSettings: true }),
    )
    t.clock.advance(UNDO_WINDOW_MS)
    refused(await t.me.completions.restore.post({ completions: removed }), 409)
    refused(await t.me.completions.restore.post({ undoIds: [undoId as number] }), 409)
    expect(t.stored()).toEqual([])
    expect(prune(t.db, t.clock, { tokenIdleDays: 90 }).deletions).toBe(1)
    expect(t.db.select().from(keptDeletions).all()).toEqual([])
  })

  test(`a character keeps its last ${MAX_KEPT_DELETIONS_PER_CHARACTER} deletes: an older one's undo ends`, async () => {
    const t = await setup()
    const { removed } = ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', setting: 'hard' }))
    for (let i = 0; i < MAX_KEPT_DELETIONS_PER_CHARACTER; i++) {
      ok(await t.me.completions.post({ name: `Quest ${i}` }), 201)
      ok(await t.me.completions.delete({ name: `Quest ${i}` }))
    }
    expect(t.db.select().from(keptDeletions).all()).toHaveLength(MAX_KEPT_DELETIONS_PER_CHARACTER)
    refused(await t.me.completions.restore.post({ completions: removed }), 409)
    expect(t.stored().map((c) => c.setting)).toEqual(['elite'])
  })

  test('a deleted character takes what was kept of it', async () => {
    const t = await setup()
    ok(await t.me.completions.delete({ name: 'The Pit', difficulty: 'Heroic', allSettings: true }))
    expect(t.db.select().from(keptDeletions).all()).toHaveLength(1)
    ok(await t.me.delete())
    expect(t.db.select().from(keptDeletions).all()).toEqual([])
  })
})
