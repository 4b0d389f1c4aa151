// Completion rules of plugin-api.md ("Completion rules", "Delete rules", domain rules 1–3):
// how whatever a game client sends becomes the stored (name, difficulty, setting) key.
// Nothing here rejects a difficulty or a setting: junk is stored as Unknown/unknown.

export const REMAKE_TIERS = ['Heroic', 'Epic', 'Legendary', 'Unknown'] as const
export type Difficulty = (typeof REMAKE_TIERS)[number]

export const CHALLENGE_SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown'] as const
export type Setting = (typeof CHALLENGE_SETTINGS)[number]

/** The settings a player can actually run; a challenge word in `difficulty` is one of these. */
const CHALLENGE_WORDS: readonly string[] = CHALLENGE_SETTINGS.filter((s) => s !== 'unknown')

/** Rule 1: a completion that names no setting was run on elite. */
export const DEFAULT_SETTING: Setting = 'elite'

/** Aliases, canonical name first; the first key holding a value wins (see firstPresent). */
export const SETTING_KEYS = ['setting', 'challengeSetting', 'challenge_setting'] as const
export const XP_KEYS = ['xpEarned', 'xp', 'xpReceived', 'xp_received', 'actualXp', 'actual_xp', 'xp_earned'] as const
export const REAPER_XP_KEYS = [
  'reaperXpEarned',
  'reaperXp',
  'reaper_xp',
  'reaper_xp_earned',
  'rxp',
  'rxpEarned',
  'rxp_earned',
] as const

/** What a client may send (after type validation); `difficulty` and `setting` may be anything. */
export interface CompletionInput {
  name: string
  difficulty?: unknown
  setting?: unknown
  challengeSetting?: unknown
  challenge_setting?: unknown
  completedAt?: string | null
  durationSeconds?: number | null
  xpEarned?: number | null
  xp?: number | null
  xpReceived?: number | null
  xp_received?: number | null
  actualXp?: number | null
  actual_xp?: number | null
  xp_earned?: number | null
  reaperXpEarned?: number | null
  reaperXp?: number | null
  reaper_xp?: number | null
  reaper_xp_earned?: number | null
  rxp?: number | null
  rxpEarned?: number | null
  rxp_earned?: number | null
}

/**
 * The stored key plus the optional values. For `durationSeconds`, `xpEarned` and
 * `reaperXpEarned`, `undefined` means "not sent: keep what is stored" and `null` means
 * "clear it". `completedAt` is passed through as sent (undefined/null: now).
 */
export interface NormalizedCompletion {
  name: string
  difficulty: Difficulty
  setting: Setting
  completedAt: string | null | undefined
  durationSeconds: number | null | undefined
  xpEarned: number | null | undefined
  reaperXpEarned: number | null | undefined
}

const word = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.trim().toLowerCase() : undefined

/** Rule 3: a tier word in any case is that tier; anything else (or nothing) is Unknown. */
export function normalizeDifficulty(value: unknown): Difficulty {
  const w = word(value)
  return REMAKE_TIERS.find((tier) => tier.toLowerCase() === w) ?? 'Unknown'
}

/**
 * Rules 1–2: omitted (undefined or null) is elite; a setting word in any case is that
 * setting; `Unknown`, `any` and anything unrecognised are unknown.
 */
export function normalizeSetting(value: unknown): Setting {
  if (value === undefined || value === null) return DEFAULT_SETTING
  const w = word(value)
  return CHALLENGE_SETTINGS.find((s) => s === w) ?? 'unknown'
}

/**
 * The value under the first of `keys` that holds one; `null` (clear it) only when every key sent
 * is null; `undefined` when none was sent. A client that sends its unused aliases as null must not
 * wipe the value it sent under another name.
 */
function firstPresent<T>(input: object, keys: readonly string[]): T | null | undefined {
  const record = input as Record<string, unknown>
  let sentNull = false
  for (const key of keys) {
    if (record[key] === null) sentNull = true
    else if (record[key] !== undefined) return record[key] as T
  }
  return sentNull ? null : undefined
}

/** Folds the aliases and applies completion rules 1–4. */
export function normalizeCompletion(input: CompletionInput): NormalizedCompletion {
  const rawSetting = firstPresent<unknown>(input, SETTING_KEYS)
  const settingOmitted = rawSetting === undefined || rawSetting === null
  const difficultyWord = word(input.difficulty)
  // Rule 4: clients that put the challenge in `difficulty` (older plugins) meant the setting.
  const moved = settingOmitted && difficultyWord !== undefined && CHALLENGE_WORDS.includes(difficultyWord)
  return {
    name: input.name.trim(),
    difficulty: moved ? 'Unknown' : normalizeDifficulty(input.difficulty),
    setting: moved ? (difficultyWord as Setting) : normalizeSetting(rawSetting),
    completedAt: input.completedAt,
    durationSeconds: input.durationSeconds,
    xpEarned: firstPresent<number | null>(input, XP_KEYS),
    reaperXpEarned: firstPresent<number | null>(input, REAPER_XP_KEYS),
  }
}

/** What a DELETE removes: one setting of a remake, or all of them. */
export interface DeleteScope {
  name: string
  difficulty: Difficulty
  /** null: every setting of the remake (delete rule 3). */
  setting: Setting | null
}

const ALL_SETTINGS_WORDS: readonly string[] = ['all', 'any', '*']

/**
 * Delete rules 1–3: no setting removes the elite row; a concrete setting removes that row;
 * `allSettings` true or a setting of `all`, `any` or `*` removes every setting. The name,
 * difficulty and the challenge-word move follow the same rules as posting.
 */
export function deleteScope(input: {
  name: string
  difficulty?: unknown
  setting?: unknown
  allSettings?: boolean
}): DeleteScope {
  const w = word(input.setting)
  if (input.allSettings === true || (w !== undefined && ALL_SETTINGS_WORDS.includes(w))) {
    return { name: input.name.trim(), difficulty: normalizeDifficulty(input.difficulty), setting: null }
  }
  const key = normalizeCompletion({ name: input.name, difficulty: input.difficulty, setting: input.setting })
  return { name: key.name, difficulty: key.difficulty, setting: key.setting }
}
