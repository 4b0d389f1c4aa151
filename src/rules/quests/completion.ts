// Completion rules of plugin-api.md ("Completion rules", "Delete rules", domain rules 1–3):
// how whatever a game client sends becomes the stored (name, difficulty, setting) key.
// Nothing here rejects a difficulty or a setting: junk is stored as Unknown/unknown.

export const REMAKE_TIERS = ['Heroic', 'Epic', 'Legendary', 'Unknown'] as const
export type Difficulty = (typeof REMAKE_TIERS)[number]

export const CHALLENGE_SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown'] as const
export type Setting = (typeof CHALLENGE_SETTINGS)[number]

/**
 * The settings from the least to the most challenging, `unknown` below them all: "Higher settings
 * are more challenging and more rewarding" (DDO wiki, "Solo": https://ddowiki.com/page/Solo, whose
 * list runs Solo, Casual, Normal, Hard, Elite, Reaper). The best setting a quest was done on is
 * the last of these it was logged on.
 */
export const SETTINGS_BY_CHALLENGE: readonly Setting[] = ['unknown', 'casual', 'normal', 'hard', 'elite', 'reaper']

/** The settings a player can actually run; a challenge word in `difficulty` is one of these. */
const CHALLENGE_WORDS: readonly string[] = CHALLENGE_SETTINGS.filter((s) => s !== 'unknown')

/** Rule 1: a completion that names no setting was run on elite. */
export const DEFAULT_SETTING: Setting = 'elite'

/** Aliases, canonical name first; the first key holding a value wins (see firstPresent). */
export const SETTING_KEYS = ['setting', 'challengeSetting', 'challenge_setting'] as const
export const XP_KEYS = ['xpEarned', 'xp', 'xpReceived', 'xp_received', 'actualXp', 'actual_xp', 'xp_earned'] as const
/**
 * The skull count of a reaper run. DDO's reaper difficulty has ten sub-difficulties, "skulls", 1 to
 * 10, chosen with the setting in the quest portal (DDO wiki, "Reaper difficulty":
 * https://ddowiki.com/page/Reaper_difficulty).
 */
export const MIN_REAPER_SKULLS = 1
export const MAX_REAPER_SKULLS = 10
/**
 * Aliases of the skull count, canonical name first: the names a client is likely to send it under
 * (the game's own word is "skulls"; a "reaper level" is what some tools call it).
 */
export const REAPER_SKULLS_KEYS = ['reaperSkulls', 'skulls', 'reaper_skulls', 'reaperLevel', 'reaper_level'] as const
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
  reaperSkulls?: number | null
  skulls?: number | null
  reaper_skulls?: number | null
  reaperLevel?: number | null
  reaper_level?: number | null
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
  /**
   * The skull count of a reaper run (1 to 10): from a count field, else from a setting word that
   * names one (`R5`, `reaper 5`). `undefined` when none was sent and on any other setting (a count
   * beside a setting that is not reaper is ignored: a completion is never refused for its setting);
   * `null` when the count was sent as null.
   */
  reaperSkulls: number | null | undefined
}

const word = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.trim().toLowerCase() : undefined

/** Rule 3: a tier word in any case is that tier; anything else (or nothing) is Unknown. */
export function normalizeDifficulty(value: unknown): Difficulty {
  const w = word(value)
  return REMAKE_TIERS.find((tier) => tier.toLowerCase() === w) ?? 'Unknown'
}

/**
 * A setting word that names reaper with its skulls, as DDO Builder writes them (`R1` to `R10`, its
 * QuestDifficultyTypes.h) and as players type them (`reaper 5`, `Reaper5`): the count, or null.
 */
const REAPER_WITH_SKULLS = /^(?:r|reaper)\s*(10|[1-9])$/

/** The skull count a setting word names (`R7`: 7), or null for any other value. */
export function reaperSkullsOf(value: unknown): number | null {
  const match = REAPER_WITH_SKULLS.exec(word(value) ?? '')
  return match ? Number(match[1]) : null
}

/** The most of some skull counts (null and undefined: no count); null when none has one. */
export function mostSkulls(...counts: readonly (number | null | undefined)[]): number | null {
  const known = counts.filter((n): n is number => typeof n === 'number')
  return known.length === 0 ? null : Math.max(...known)
}

/**
 * Rules 1–2: omitted (undefined or null) is elite; a setting word in any case is that
 * setting (reaper with its skulls, `R5` or `reaper 5`, is reaper); `Unknown`, `any` and anything
 * unrecognised are unknown.
 */
export function normalizeSetting(value: unknown): Setting {
  if (value === undefined || value === null) return DEFAULT_SETTING
  if (reaperSkullsOf(value) !== null) return 'reaper'
  const w = word(value)
  return CHALLENGE_SETTINGS.find((s) => s === w) ?? 'unknown'
}

/** A challenge word (rule 4): a setting a player can run, reaper with its skulls included. */
const isChallengeWord = (w: string | undefined): w is string =>
  w !== undefined && (CHALLENGE_WORDS.includes(w) || reaperSkullsOf(w) !== null)

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
  const moved = settingOmitted && isChallengeWord(difficultyWord)
  const settingWord = moved ? difficultyWord : rawSetting
  const setting = normalizeSetting(settingWord)
  // The count field first; a null one gives way to the count the setting word names.
  const count = firstPresent<number | null>(input, REAPER_SKULLS_KEYS)
  const reaperSkulls = count ?? reaperSkullsOf(settingWord) ?? (count === null ? null : undefined)
  return {
    name: input.name.trim(),
    difficulty: moved ? 'Unknown' : normalizeDifficulty(input.difficulty),
    setting,
    completedAt: input.completedAt,
    durationSeconds: input.durationSeconds,
    xpEarned: firstPresent<number | null>(input, XP_KEYS),
    reaperXpEarned: firstPresent<number | null>(input, REAPER_XP_KEYS),
    reaperSkulls: setting === 'reaper' ? reaperSkulls : undefined,
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
