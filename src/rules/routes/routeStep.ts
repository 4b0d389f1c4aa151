// How a route step's remake and setting words become concrete values. A completion is never
// rejected for a bad word (it is stored as Unknown/unknown), but a route is authored by a person
// and every step must name one concrete remake and setting, so a word that names neither is an
// error the author gets to fix rather than a silent guess.

import { CHALLENGE_SETTINGS, type Difficulty, REMAKE_TIERS, type Setting } from '../quests/completion'

export type StepDifficulty = Exclude<Difficulty, 'Unknown'>
export type StepSetting = Exclude<Setting, 'unknown'>

// The completion enumerations without their "don't know" values: a step is always concrete.
export const STEP_DIFFICULTIES = REMAKE_TIERS.filter((d): d is StepDifficulty => d !== 'Unknown')
export const STEP_SETTINGS = CHALLENGE_SETTINGS.filter((s): s is StepSetting => s !== 'unknown')

/** Defaults from CONTRACT.md "Routes are user content". */
export const DEFAULT_STEP_DIFFICULTY: StepDifficulty = 'Heroic'
export const DEFAULT_STEP_SETTING: StepSetting = 'elite'

export type StepWords =
  | { ok: true; difficulty: StepDifficulty; setting: StepSetting }
  | { ok: false; field: 'difficulty' | 'setting'; value: string }

const blank = (word: string | null | undefined): word is null | undefined | '' =>
  word === undefined || word === null || word.trim() === ''

const findDifficulty = (word: string) => STEP_DIFFICULTIES.find((d) => d.toLowerCase() === word.trim().toLowerCase())

const findSetting = (word: string) => STEP_SETTINGS.find((s) => s === word.trim().toLowerCase())

/**
 * Omitted (or null, or blank) difficulty -> Heroic, setting -> elite. Known words match without
 * regard to case. As with completions (rule 4), a challenge word in `difficulty` while `setting`
 * is omitted moves to `setting`. Anything else — `Unknown`, `any`, a typo — is reported.
 */
export function normalizeStepWords(
  difficulty: string | null | undefined,
  setting: string | null | undefined,
): StepWords {
  let settingWord = setting
  let difficultyWord = difficulty
  if (!blank(difficultyWord) && blank(settingWord) && findSetting(difficultyWord)) {
    settingWord = difficultyWord
    difficultyWord = undefined
  }
  const d = blank(difficultyWord) ? DEFAULT_STEP_DIFFICULTY : findDifficulty(difficultyWord)
  if (!d) return { ok: false, field: 'difficulty', value: String(difficultyWord) }
  const s = blank(settingWord) ? DEFAULT_STEP_SETTING : findSetting(settingWord)
  if (!s) return { ok: false, field: 'setting', value: String(settingWord) }
  return { ok: true, difficulty: d, setting: s }
}
