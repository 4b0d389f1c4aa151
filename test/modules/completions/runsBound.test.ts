// The runs a character keeps are bounded (issue 39, item 6): every path that writes runs (a post,
// PUT progress, a CSV import, a restore) brings a character past MAX_RUNS_PER_CHARACTER back to
// RUNS_KEPT_AFTER_PRUNING by dropping its oldest runs, each completion keeping its count; and the
// count the bound reads (characters.kept_runs, kept by triggers) follows every write, deletes by
// cascade included. Checked in the stored rows.
import { describe, expect, test } from 'bun:test'
import { asc, eq, sql } from 'drizzle-orm'
import { characters, completions, runs } from '../../../src/db/schema'
import { MAX_RUNS_PER_CHARACTER, RUNS_KEPT_AFTER_PRUNING } from '../../../src/modules/completions/limits'
import { insertCharacter, ok, testApp } from '../../helpers'

const RUNS_EACH = 500

/** `n` runs of old completions (500 a completion, the oldest in 2024), straight into the database. */
function seedRuns(t: ReturnType<typeof testApp>, characterId: number, n: number, prefix = 'Old Quest') {
  const client = t.db.$client
  const completion = client.prepare<{ id: number }, [number, string, string, number]>(
    `INSERT INTO completions (character_id, name, difficulty, setting, completed_at, runs, updated_at)
     VALUES (?, ?, 'Heroic', 'elite', ?, ?, '2026-01-01T00:00:00.000Z') RETURNING id`,
  )
  const run = client.prepare('INSERT INTO runs (completion_id, completed_at, duration_seconds) VALUES (?, ?, 600)')
  const at = (k: number) => new Date(Date.UTC(2024, 0, 1) + k * 60_000).toISOString()
  client.transaction(() => {
    for (let i = 0, k = 0; k < n; i++) {
      const count = Math.min(RUNS_EACH, n - k)
      const { id } = completion.get(characterId, `${prefix} ${i}`, at(k + count - 1), count) as { id: number }
      for (let j = 0; j < count; j++, k++) run.run(id, at(k))
    }
  })()
}

const countedRuns = (t: ReturnType<typeof testApp>, characterId: number) =>
  t.db.select({ n: characters.keptRuns }).from(characters).where(eq(characters.id, characterId)).get()?.n

const storedRuns = (t: ReturnType<typeof testApp>, characterId: number) =>
  t.db
    .select({ n: sql<number>`count(*)` })
    .from(runs)
    .innerJoin(completions, eq(completions.id, runs.completionId))
    .where(eq(completions.characterId, characterId))
    .get()?.n

const logged = (t: ReturnType<typeof testApp>, characterId: number) =>
  t.db
    .select({ n: sql<number>`sum(${completions.runs})` })
    .from(completions)
    .where(eq(completions.characterId, characterId))
    .get()?.n

const oldestRun = (t: ReturnType<typeof testApp>, characterId: number) =>
  t.db
    .select({ at: runs.completedAt })
    .from(runs)
    .innerJoin(completions, eq(completions.id, runs.completionId))
    .where(eq(completions.characterId, characterId))
    .orderBy(asc(runs.completedAt))
    .limit(1)
    .get()?.at

async function full() {
  const t = testApp()
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice')
  seedRuns(t, character.id, MAX_RUNS_PER_CHARACTER)
  const me = t.plugin(token).characters({ id: character.id })
  return { ...t, token, character, me }
}

/** After a write that passed the bound: the newest kept, the oldest gone, every count kept. */
function expectPruned(t: Awaited<ReturnType<typeof full>>, loggedBefore: number, added: number) {
  const id = t.character.id
  expect(storedRuns(t, id)).toBe(RUNS_KEPT_AFTER_PRUNING)
  expect(countedRuns(t, id)).toBe(RUNS_KEPT_AFTER_PRUNING)
  expect(logged(t, id)).toBe(loggedBefore + added)
  // The oldest went: the first kept is the one after the runs dropped.
  const dropped = MAX_RUNS_PER_CHARACTER + added - RUNS_KEPT_AFTER_PRUNING
  expect(oldestRun(t, id)).toBe(new Date(Date.UTC(2024, 0, 1) + dropped * 60_000).toISOString())
}

describe(`a character keeps at most ${MAX_RUNS_PER_CHARACTER} runs`, () => {
  test('the migration and the triggers count them', async () => {
    const t = await full()
    expect(countedRuns(t, t.character.id)).toBe(MAX_RUNS_PER_CHARACTER)
    expect(storedRuns(t, t.character.id)).toBe(MAX_RUNS_PER_CHARACTER)
  })

  test('a post past it drops the oldest runs; the new run stays, the counts stay', async () => {
    const t = await full()
    const before = logged(t, t.character.id) as number
    ok(await t.me.completions.post({ name: 'The Pit', durationSeconds: 700, completedAt: '2026-11-21T10:00:00Z' }), 201)
    expectPruned(t, before, 1)
    const pit = t.db.select().from(completions).where(eq(completions.name, 'The Pit')).get()
    expect(
      t.db
        .select()
        .from(runs)
        .where(eq(runs.completionId, pit?.id as number))
        .all(),
    ).toHaveLength(1)
    // Below the bound now: the next post drops nothing.
    ok(await t.me.completions.post({ name: 'The Pit', completedAt: '2026-11-21T11:00:00Z' }))
    expect(storedRuns(t, t.character.id)).toBe(RUNS_KEPT_AFTER_PRUNING + 1)
  })

  test('PUT progress past it: the same', async () => {
    const t = await full()
    const before = logged(t, t.character.id) as number
    // The set names every stored completion (none is deleted) and one new.
    const stored = t.db
      .select({ name: completions.name, difficulty: completions.difficulty, setting: completions.setting })
      .from(completions)
      .all()
    const items = [...stored, { name: 'The Pit', setting: 'elite', completedAt: '2026-11-21T10:00:00Z' }]
    ok(await t.me.progress.put({ completions: items }))
    expectPruned(t, before, 1)
  })

  test('a CSV import past it: the same', async () => {
    const t = await full()
    const before = logged(t, t.character.id) as number
    const web = t.web(await t.signIn('alice'))
    const csv = 'name,setting,completedAt,durationSeconds\nThe Pit,elite,2026-11-21T10:00:00Z,600\n'
    const answer = ok(
      await web.characters({ id: t.character.id }).completions.import.post({ csv, confirm: true, keepUnmatched: true }),
    )
    expect(answer.add).toHaveLength(1)
    expectPruned(t, before, 1)
  })

  test('a restore past it: the same', async () => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const character = insertCharacter(t.db, 'alice')
    const me = t.plugin(token).characters({ id: character.id })
    for (const hour of [18, 19, 20]) {
      const run = { name: 'The Pit', completedAt: `2026-11-20T${hour}:00:00Z`, durationSeconds: 600 }
      ok(await me.completions.post(run), hour === 18 ? 201 : 200)
    }
    const { undoId } = ok(await me.completions.delete({ name: 'The Pit' }))
    seedRuns(t, character.id, MAX_RUNS_PER_CHARACTER)
    const before = logged(t, character.id) as number
    ok(await me.completions.restore.post({ undoIds: [undoId as number] }))
    expectPruned({ ...t, token, character, me }, before, 3)
  })

  test('the count follows deletes: a completion, a character, runs dropped by a completion full of them', async () => {
    const t = testApp()
    const token = await t.userWithToken('alice')
    const one = insertCharacter(t.db, 'alice')
    const two = insertCharacter(t.db, 'alice', { givenName: 'Two' })
    seedRuns(t, one.id, 1200)
    seedRuns(t, two.id, 700)
    const me = t.plugin(token).characters({ id: one.id })
    ok(await me.completions.delete({ name: 'Old Quest 0', difficulty: 'Heroic' }))
    expect(countedRuns(t, one.id)).toBe(700)
    expect(storedRuns(t, one.id)).toBe(700)
    // A completion at its 500 runs drops its oldest for a new one: the count stays.
    ok(await me.completions.post({ name: 'Old Quest 1', difficulty: 'Heroic', completedAt: '2026-11-21T10:00:00Z' }))
    expect(countedRuns(t, one.id)).toBe(700)
    expect(storedRuns(t, one.id)).toBe(700)
    ok(await t.plugin(token).characters({ id: two.id }).delete())
    expect(countedRuns(t, one.id)).toBe(700)
    // Another character's runs are not its own.
    expect(countedRuns(t, two.id)).toBeUndefined()
  })
})
