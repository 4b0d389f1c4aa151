// The navigation rule as tables: which completions make a step setting-/remake-completed, which
// completion is "best", nextQuest and progress.
import { describe, expect, test } from 'bun:test'
import { type NavCompletion, type NavStep, navigate } from '../../../src/rules/routes/navigation'

const step: NavStep = { position: 1, name: 'The Pit', difficulty: 'Heroic', setting: 'elite' }
let nextId = 1
const run = (
  difficulty: string,
  setting: string,
  completedAt = '2026-11-01T00:00:00.000Z',
  durationSeconds: number | null = null,
  name = 'The Pit',
): NavCompletion => ({
  id: nextId++,
  name,
  difficulty,
  setting,
  completedAt,
  durationSeconds,
})

describe('one step, per completion', () => {
  // [label, completions, settingCompleted, remakeCompleted, settingsLogged]
  const cases: [string, NavCompletion[], boolean, boolean, string[]][] = [
    ['nothing logged', [], false, false, []],
    ['exact', [run('Heroic', 'elite')], true, true, ['elite']],
    ['other setting', [run('Heroic', 'hard')], false, true, ['hard']],
    ['Unknown remake, exact setting', [run('Unknown', 'elite')], true, true, ['elite']],
    ['Unknown remake, other setting', [run('Unknown', 'casual')], false, true, ['casual']],
    ['unknown setting', [run('Heroic', 'unknown')], false, true, ['unknown']],
    ['other remake only', [run('Epic', 'elite')], false, false, []],
    ['other quest only', [run('Heroic', 'elite', undefined, null, 'The Pit II')], false, false, []],
    ['name in another case', [run('Heroic', 'elite', undefined, null, 'THE PIT')], true, true, ['elite']],
    [
      'settings listed in game order',
      [run('Heroic', 'unknown'), run('Unknown', 'reaper'), run('Heroic', 'casual'), run('Heroic', 'hard')],
      false,
      true,
      ['casual', 'hard', 'reaper', 'unknown'],
    ],
  ]
  for (const [label, logged, settingCompleted, remakeCompleted, settingsLogged] of cases) {
    test(label, () => {
      for (const match of ['setting', 'remake'] as const) {
        const [state] = navigate([step], logged, match).steps
        expect(state).toMatchObject({ settingCompleted, remakeCompleted, settingsLogged })
        expect(state?.completed).toBe(match === 'setting' ? settingCompleted : remakeCompleted)
      }
    })
  }
})

describe('best matching completion', () => {
  // [label, match, completions, expected durationSeconds of the winner]
  const cases: [string, 'setting' | 'remake', NavCompletion[], number | null][] = [
    [
      'exact remake beats a later Unknown remake',
      'setting',
      [run('Heroic', 'elite', '2026-01-01T00:00:00Z', 1), run('Unknown', 'elite', '2026-02-01T00:00:00Z', 2)],
      1,
    ],
    [
      'latest of two exact runs',
      'setting',
      [run('Unknown', 'elite', '2026-01-01T00:00:00Z', 1), run('Unknown', 'elite', '2026-03-01T00:00:00Z', 3)],
      3,
    ],
    [
      'remake mode: exact setting beats a known remake at another setting',
      'remake',
      [run('Heroic', 'reaper', '2026-05-01T00:00:00Z', 5), run('Unknown', 'elite', '2026-01-01T00:00:00Z', 1)],
      1,
    ],
    [
      'remake mode: known remake beats Unknown at other settings',
      'remake',
      [run('Unknown', 'reaper', '2026-05-01T00:00:00Z', 5), run('Heroic', 'hard', '2026-01-01T00:00:00Z', 1)],
      1,
    ],
    [
      'remake mode: latest among equals',
      'remake',
      [run('Heroic', 'hard', '2026-01-01T00:00:00Z', 1), run('Heroic', 'casual', '2026-04-01T00:00:00Z', 4)],
      4,
    ],
    [
      'setting mode ignores other settings entirely',
      'setting',
      [run('Heroic', 'hard', '2026-01-01T00:00:00Z', 1)],
      null,
    ],
  ]
  for (const [label, match, logged, duration] of cases) {
    test(label, () => {
      const [state] = navigate([step], logged, match).steps
      expect(state?.durationSeconds).toBe(duration)
      if (duration === null) expect(state?.completedAt).toBeNull()
      else expect(state?.completedAt).toBe(logged.find((c) => c.durationSeconds === duration)?.completedAt ?? null)
    })
  }
})

describe('nextQuest and progress', () => {
  const steps: NavStep[] = [
    { position: 3, name: 'C', difficulty: 'Heroic', setting: 'elite' },
    { position: 1, name: 'A', difficulty: 'Heroic', setting: 'elite' },
    { position: 2, name: 'B', difficulty: 'Heroic', setting: 'elite' },
  ]
  test('steps come out in position order; nextQuest is the first not completed, even after a later completed one', () => {
    const result = navigate(
      steps,
      [run('Heroic', 'elite', undefined, null, 'A'), run('Heroic', 'elite', undefined, null, 'C')],
      'setting',
    )
    expect(result.steps.map((s) => s.position)).toEqual([1, 2, 3])
    expect(result.nextQuest).toEqual({
      position: 2,
      name: 'B',
      difficulty: 'Heroic',
      setting: 'elite',
      completed: false,
    })
    expect(result.progress).toEqual({ completed: 2, total: 3, remaining: 1, finished: false })
  })
  test('all completed: nextQuest is the last step, completed; finished', () => {
    const all = ['A', 'B', 'C'].map((name) => run('Unknown', 'elite', undefined, null, name))
    const result = navigate(steps, all, 'setting')
    expect(result.nextQuest).toEqual({
      position: 3,
      name: 'C',
      difficulty: 'Heroic',
      setting: 'elite',
      completed: true,
    })
    expect(result.progress).toEqual({ completed: 3, total: 3, remaining: 0, finished: true })
  })
  test('nothing completed', () => {
    const result = navigate(steps, [], 'remake')
    expect(result.nextQuest?.position).toBe(1)
    expect(result.progress).toEqual({ completed: 0, total: 3, remaining: 3, finished: false })
  })
})
