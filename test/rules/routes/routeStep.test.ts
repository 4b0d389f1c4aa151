// The route-step word rules as a table: defaults, canonical case, the challenge word in
// `difficulty`, and the words that are refused because they name nothing concrete.
import { expect, test } from 'bun:test'
import { normalizeStepWords, type StepWords } from '../../../src/rules/routes/routeStep'

const ok = (difficulty: string, setting: string): StepWords => ({ ok: true, difficulty, setting }) as StepWords
const bad = (field: 'difficulty' | 'setting', value: string): StepWords => ({ ok: false, field, value })

const cases: [string | null | undefined, string | null | undefined, StepWords][] = [
  [undefined, undefined, ok('Heroic', 'elite')],
  [null, null, ok('Heroic', 'elite')],
  ['', '  ', ok('Heroic', 'elite')],
  ['Epic', undefined, ok('Epic', 'elite')],
  [undefined, 'reaper', ok('Heroic', 'reaper')],
  ['legendary', 'HARD', ok('Legendary', 'hard')],
  [' Heroic ', ' casual ', ok('Heroic', 'casual')],
  ['Legendary', 'normal', ok('Legendary', 'normal')],
  // Completion rule 4, applied to steps: the challenge word moves to setting.
  ['reaper', undefined, ok('Heroic', 'reaper')],
  ['Elite', null, ok('Heroic', 'elite')],
  // ...but not when a setting is also given.
  ['elite', 'hard', bad('difficulty', 'elite')],
  ['Unknown', 'elite', bad('difficulty', 'Unknown')],
  ['Heroik', undefined, bad('difficulty', 'Heroik')],
  ['Heroic', 'unknown', bad('setting', 'unknown')],
  ['Heroic', 'any', bad('setting', 'any')],
  ['Heroic', 'solo', bad('setting', 'solo')],
  [undefined, 'eltie', bad('setting', 'eltie')],
]

for (const [difficulty, setting, expected] of cases) {
  test(`difficulty ${JSON.stringify(difficulty)}, setting ${JSON.stringify(setting)}`, () => {
    expect(normalizeStepWords(difficulty, setting)).toEqual(expected)
  })
}
