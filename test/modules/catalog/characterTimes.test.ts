// A character's own quest times (GET …/quest-times, and the minutes GET …/next ranks by) come from
// aggregates kept per quest, difficulty and setting, not from every run (issue 39, item 6: at
// 450,000 runs each read took 0.6-0.8 s): a read with nothing changed runs no statement on the
// runs, and one after a write reads the runs of the changed keys alone; the figures stay those of
// every run, whatever wrote or removed it. Statements are recorded as SQLite runs them.
import type { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { median } from '../../../src/rules/quests/runs'
import { loadCatalog } from '../../catalogFixture'
import { readRows, SMALL_JSON } from '../../catalogFixtures'
import { insertCharacter, ok, testApp } from '../../helpers'

/**
 * Records the SQL of every statement `client` runs from now on while `on` is true (the statements
 * prepared before, kept between requests, included: their methods are wrapped as they are made).
 */
function recordRuns(client: Database) {
  const ran: string[] = []
  const recorder = { on: false, ran }
  for (const method of ['prepare', 'query'] as const) {
    const original = client[method].bind(client) as unknown as (...args: unknown[]) => Record<string, unknown>
    client[method] = ((sql: string, ...rest: unknown[]) => {
      const statement = original(sql, ...rest)
      for (const run of ['all', 'get', 'values', 'run', 'iterate']) {
        const call = statement[run] as ((...args: unknown[]) => unknown) | undefined
        if (typeof call !== 'function') continue
        statement[run] = (...args: unknown[]) => {
          if (recorder.on) ran.push(sql)
          return call.apply(statement, args)
        }
      }
      return statement
    }) as unknown as (typeof client)[typeof method]
  }
  return recorder
}

/** Whether a statement reads the table of runs. */
const readsRuns = (sql: string) => /\b(from|join) "?runs"?(\s|$)/i.test(sql)

const KEYS = 40
const RUNS_EACH = 500

/** Brom with KEYS completions of RUNS_EACH timed runs (most with XP), straight into the database. */
async function setup() {
  const t = testApp()
  const recorder = recordRuns(t.db.$client)
  loadCatalog(t.db, await readRows(SMALL_JSON))
  const alice = await t.userWithToken('alice')
  const brom = insertCharacter(t.db, 'alice', {
    givenName: 'Brom',
    classes: [{ name: 'Fighter', levels: 9 }],
    targetDifficulty: 'elite',
  })
  const client = t.db.$client
  const completion = client.prepare<{ id: number }, [number, string, string]>(
    `INSERT INTO completions (character_id, name, difficulty, setting, completed_at, runs, updated_at)
     VALUES (?, ?, 'Heroic', 'elite', ?, ${RUNS_EACH}, '2026-01-01T00:00:00.000Z') RETURNING id`,
  )
  const run = client.prepare(
    'INSERT INTO runs (completion_id, completed_at, duration_seconds, xp_earned) VALUES (?, ?, ?, ?)',
  )
  const expected = new Map<string, { seconds: number[]; rates: number[] }>()
  client.transaction(() => {
    for (let i = 0; i < KEYS; i++) {
      const name = i === 0 ? 'Bell Tower' : `Quest ${String(i).padStart(2, '0')}`
      const { id } = completion.get(brom.id, name, '2025-01-01T00:00:00.000Z') as { id: number }
      const figures = { seconds: [] as number[], rates: [] as number[] }
      for (let j = 0; j < RUNS_EACH; j++) {
        const seconds = 200 + ((i * 37 + j * 11) % 700)
        const xp = j % 5 === 0 ? null : 1000 + ((i + j * 7) % 900)
        run.run(id, new Date(Date.UTC(2024, 0, 1) + (i * RUNS_EACH + j) * 60_000).toISOString(), seconds, xp)
        figures.seconds.push(seconds)
        if (xp !== null) figures.rates.push(xp / (seconds / 60))
      }
      expected.set(name, figures)
    }
  })()
  const me = t.plugin(alice).characters({ id: brom.id })
  const times = async () => ok(await me['quest-times'].get()).times
  return { ...t, recorder, alice, brom, me, expected, times }
}

const figuresOf = (seconds: number[], rates: number[]) => ({
  runs: seconds.length,
  medianDurationSeconds: median(seconds) as number,
  medianXpPerMinute: rates.length === 0 ? null : Math.round((median(rates) as number) * 10) / 10,
})

describe("a character's own quest times", () => {
  test(`at ${KEYS * RUNS_EACH} runs: the same figures, and a read with nothing changed runs no statement on the runs`, async () => {
    const t = await setup()
    const first = await times(t)
    expect(first).toHaveLength(KEYS)
    for (const time of first) {
      const { seconds, rates } = t.expected.get(time.name) as { seconds: number[]; rates: number[] }
      expect(time).toEqual({ name: time.name, difficulty: 'Heroic', setting: 'elite', ...figuresOf(seconds, rates) })
    }
    const next = ok(await t.me.next.get())

    t.recorder.on = true
    expect(await times(t)).toEqual(first)
    expect(ok(await t.me.next.get())).toEqual(next)
    t.recorder.on = false
    expect(t.recorder.ran.length).toBeGreaterThan(0)
    expect(t.recorder.ran.filter(readsRuns)).toEqual([])
  })

  test('a write reads the runs of what it changed alone, and the figures follow it', async () => {
    const t = await setup()
    await times(t)
    // One run more of Bell Tower (a post), and Quest 01 deleted with its runs.
    ok(
      await t.me.completions.post({
        name: 'Bell Tower',
        difficulty: 'Heroic',
        setting: 'elite',
        completedAt: '2026-11-21T10:00:00Z',
        durationSeconds: 100,
        xpEarned: 5000,
      }),
    )
    ok(await t.me.completions.delete({ name: 'Quest 01', difficulty: 'Heroic' }))
    t.recorder.on = true
    const after = await times(t)
    t.recorder.on = false
    const bell = t.expected.get('Bell Tower') as { seconds: number[]; rates: number[] }
    // The completion keeps its latest 500 runs: the oldest of Bell Tower went for the new one (a
    // run without XP: every fifth has none, from the first).
    const seconds = [...bell.seconds.slice(1), 100]
    const rates = [...bell.rates, 5000 / (100 / 60)]
    expect(after.find((time) => time.name === 'Bell Tower')).toMatchObject(figuresOf(seconds, rates))
    expect(after.map((time) => time.name)).not.toContain('Quest 01')
    expect(after).toHaveLength(KEYS - 1)
    // The read that recomputed them went through the runs of those two keys, through their index.
    const onRuns = t.recorder.ran.filter(readsRuns)
    expect(onRuns).toHaveLength(1)
    const plan = t.db.$client
      .query<{ detail: string }, []>(`explain query plan ${onRuns[0]}`)
      .all()
      .map((row) => row.detail)
    expect(plan.filter((step) => /^SCAN (runs|completions|character_quest_times)/.test(step))).toEqual([])
  })

  test('a deleted character takes its times with it', async () => {
    const t = await setup()
    await times(t)
    ok(await t.me.delete())
    const left = (table: string) => t.db.$client.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n
    expect(left('character_quest_times')).toBe(0)
    expect(left('character_quest_times_dirty')).toBe(0)
  })
})

async function times(t: Awaited<ReturnType<typeof setup>>) {
  return t.times()
}
