// Issue 38 part 2: PUT progress with `completions` replaces the set of the current quest life
// without throwing its runs away. A sync that sends back what GET answered changes nothing; an
// item new to the set makes a completion with one run; an item dropped goes with its runs; an
// item of a stored completion adds a run only when it is newer, corrects the latest run only in
// the figures it sends differently, and never gives a run a time or XP nobody reported for it.
import { describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { completions, questTimesDirty, runs } from '../../../src/db/schema'
import { insertCharacter, ok, testApp } from '../../helpers'

const PIT = { name: 'The Pit', difficulty: 'Heroic', setting: 'elite' } as const

async function setup() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice', { givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 9 }] })
  const me = t.plugin(token).characters({ id: character.id })
  /** The three posts: 600 s and 3,000 XP, 900 s and 3,300 XP, then one with no duration. */
  const threeRuns = async () => {
    ok(await me.completions.post({ ...PIT, durationSeconds: 600, xpEarned: 3000 }), 201)
    t.clock.advance(3_600_000)
    ok(await me.completions.post({ ...PIT, durationSeconds: 900, xpEarned: 3300 }))
    t.clock.advance(3_600_000)
    ok(await me.completions.post({ ...PIT }))
    t.clock.advance(60_000)
  }
  const storedRuns = () =>
    t.db
      .select({
        completedAt: runs.completedAt,
        durationSeconds: runs.durationSeconds,
        xpEarned: runs.xpEarned,
        reaperXpEarned: runs.reaperXpEarned,
      })
      .from(runs)
      .orderBy(asc(runs.completedAt))
      .all()
  const storedCompletions = () =>
    t.db
      .select()
      .from(completions)
      .orderBy(asc(completions.name))
      .all()
      .map(({ updatedAt: _, ...row }) => row)
  const times = async () => ok(await me['quest-times'].get()).times
  return { ...t, token, character, me, threeRuns, storedRuns, storedCompletions, times }
}

describe('a sync that sends back what the server holds changes nothing (the issue)', () => {
  test('GET then PUT the same completions: every run, its time and XP, the count, the medians', async () => {
    const t = await setup()
    await t.threeRuns()
    expect(await t.times()).toEqual([{ ...PIT, runs: 2, medianDurationSeconds: 750, medianXpPerMinute: 260 }])
    const runsBefore = t.storedRuns()
    const rowsBefore = t.storedCompletions()
    t.db.delete(questTimesDirty).run()
    const { completions: sent } = ok(await t.me.progress.get())
    expect(sent).toEqual([
      {
        ...PIT,
        completedAt: '2026-11-21T14:00:00.000Z',
        durationSeconds: 900,
        xpEarned: 3300,
        reaperXpEarned: null,
        reaperSkulls: null,
      },
    ])
    const answer = ok(await t.me.progress.put({ completions: sent }))
    expect(answer.completions).toEqual(sent)
    expect(await t.times()).toEqual([{ ...PIT, runs: 2, medianDurationSeconds: 750, medianXpPerMinute: 260 }])
    expect(t.storedRuns()).toEqual(runsBefore)
    expect(runsBefore).toEqual([
      { completedAt: '2026-11-21T12:00:00.000Z', durationSeconds: 600, xpEarned: 3000, reaperXpEarned: null },
      { completedAt: '2026-11-21T13:00:00.000Z', durationSeconds: 900, xpEarned: 3300, reaperXpEarned: null },
      { completedAt: '2026-11-21T14:00:00.000Z', durationSeconds: null, xpEarned: null, reaperXpEarned: null },
    ])
    expect(t.storedCompletions()).toEqual(rowsBefore)
    expect(rowsBefore[0]).toMatchObject({ runs: 3 })
    // No run changed, so the server's quest times have nothing to recompute.
    expect(t.db.select().from(questTimesDirty).all()).toEqual([])
  })

  test('the same set with the fields a client does not know left out, or in another order: nothing changes', async () => {
    const t = await setup()
    await t.threeRuns()
    ok(await t.me.completions.post({ name: 'Crypt', setting: 'hard', durationSeconds: 1200 }), 201)
    const runsBefore = t.storedRuns()
    const rowsBefore = t.storedCompletions()
    // No completedAt and no figures: a client that keeps only which quests are done.
    ok(
      await t.me.progress.put({
        completions: [
          { name: 'Crypt', setting: 'hard' },
          { name: 'the pit', difficulty: 'heroic' },
        ],
      }),
    )
    expect(t.storedRuns()).toEqual(runsBefore)
    expect(t.storedCompletions()).toEqual(rowsBefore)
  })
})

describe('what a set changes', () => {
  test('an item that is new: a completion with one run of what was sent', async () => {
    const t = await setup()
    await t.threeRuns()
    const sent = ok(await t.me.progress.get()).completions
    ok(
      await t.me.progress.put({
        completions: [
          ...sent,
          { name: 'Crypt', setting: 'hard', completedAt: '2026-11-20T10:00:00Z', durationSeconds: 1200 },
        ],
      }),
    )
    const crypt = t.storedCompletions().find((c) => c.name === 'Crypt')
    expect(crypt).toMatchObject({ runs: 1, completedAt: '2026-11-20T10:00:00.000Z', durationSeconds: 1200 })
    expect(t.db.select().from(runs).where(eq(runs.completionId, crypt!.id)).all()).toHaveLength(1)
    expect(t.storedRuns()).toHaveLength(4)
  })

  test('an item dropped: the completion goes, with its runs', async () => {
    const t = await setup()
    await t.threeRuns()
    ok(await t.me.completions.post({ name: 'Crypt', setting: 'hard', durationSeconds: 1200 }), 201)
    ok(await t.me.progress.put({ completions: [{ name: 'Crypt', setting: 'hard' }] }))
    expect(t.storedCompletions().map((c) => c.name)).toEqual(['Crypt'])
    expect(t.storedRuns()).toHaveLength(1)
    expect(await t.times()).toEqual([
      {
        name: 'Crypt',
        difficulty: 'Unknown',
        setting: 'hard',
        runs: 1,
        medianDurationSeconds: 1200,
        medianXpPerMinute: null,
      },
    ])
  })

  test('a newer completedAt: one run more, with what was sent; the earlier runs kept', async () => {
    const t = await setup()
    await t.threeRuns()
    ok(
      await t.me.progress.put({ completions: [{ ...PIT, completedAt: '2026-11-21T16:00:00Z', durationSeconds: 800 }] }),
    )
    expect(t.storedRuns().map((r) => [r.completedAt, r.durationSeconds, r.xpEarned])).toEqual([
      ['2026-11-21T12:00:00.000Z', 600, 3000],
      ['2026-11-21T13:00:00.000Z', 900, 3300],
      ['2026-11-21T14:00:00.000Z', null, null],
      ['2026-11-21T16:00:00.000Z', 800, null],
    ])
    expect(t.storedCompletions()[0]).toMatchObject({
      runs: 4,
      completedAt: '2026-11-21T16:00:00.000Z',
      durationSeconds: 800,
    })
  })

  test('the latest run with a figure sent differently: that figure corrected on it, nothing copied onto it', async () => {
    const t = await setup()
    await t.threeRuns()
    const [pit] = ok(await t.me.progress.get()).completions
    // The answer's 900 s are the second run's (an omitted duration keeps the stored one): sent back
    // they say nothing new. The XP is a correction of the latest run.
    ok(await t.me.progress.put({ completions: [{ ...pit!, xpEarned: 3400 }] }))
    expect(t.storedRuns().at(-1)).toEqual({
      completedAt: '2026-11-21T14:00:00.000Z',
      durationSeconds: null,
      xpEarned: 3400,
      reaperXpEarned: null,
    })
    expect(t.storedCompletions()[0]).toMatchObject({ runs: 3, durationSeconds: 900, xpEarned: 3400 })
    expect(await t.times()).toEqual([{ ...PIT, runs: 2, medianDurationSeconds: 750, medianXpPerMinute: 260 }])
  })

  test('a newer run sent with the name in another case goes to the stored completion', async () => {
    const t = await setup()
    await t.threeRuns()
    ok(await t.me.progress.put({ completions: [{ ...PIT, name: 'THE PIT', completedAt: '2026-11-21T16:00:00Z' }] }))
    expect(t.storedCompletions().map((c) => [c.name, c.runs])).toEqual([['The Pit', 4]])
    expect(t.storedRuns()).toHaveLength(4)
  })

  test('an item older than the stored completion (a stale client): unchanged', async () => {
    const t = await setup()
    await t.threeRuns()
    const runsBefore = t.storedRuns()
    const rowsBefore = t.storedCompletions()
    ok(
      await t.me.progress.put({
        completions: [{ ...PIT, completedAt: '2026-11-21T13:00:00Z', durationSeconds: 100, xpEarned: 1 }],
      }),
    )
    expect(t.storedRuns()).toEqual(runsBefore)
    expect(t.storedCompletions()).toEqual(rowsBefore)
  })
})
