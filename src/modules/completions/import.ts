// Completions from another source (a spreadsheet's CSV, a DDO Builder file's completed quests):
// first a preview of what an import would do, with nothing written; then, when the player
// confirms, the same import written in one transaction. Names are matched to the catalog by the
// forgiving matcher (rules/quests/questMatch.ts); what it cannot decide the player chooses, and what it
// cannot find is listed by name. An import never overwrites a completion already stored (the
// game's own data is the better record) and never adds one twice: importing the same file
// again adds nothing, and a completion stored with tier Unknown stands for every tier.
import { and, eq, lt } from 'drizzle-orm'
import { isoNow } from '../../clock'
import { IMMEDIATE } from '../../db/client'
import { completions } from '../../db/schema'
import type { Writer } from '../../deps'
import { Conflict } from '../../http/errors'
import type { Difficulty, Setting } from '../../rules/quests/completion'
import { MAX_SUGGESTED_NAMES, matchQuest, suggestNames } from '../../rules/quests/questMatch'
import { catalogMatcher } from '../catalog/service'
import { ownedCharacter } from '../characters/access'
import type { ImportChoice, PlannedCompletion, QuestsPreview } from './importModel'
import { MAX_COMPLETIONS_PER_CHARACTER } from './limits'
import { boundCharacterRuns, countCompletions, currentQuestLife, upsertCompletion } from './service'

/** A completion as another source gives it; `source` says where (e.g. "line 4"), for the preview. */
export interface ForeignCompletion {
  source: string
  /** The quest's name as the source writes it. */
  name: string
  /**
   * The tier, when the source says; null or omitted when it does not (the catalog decides).
   * `Unknown` is a tier too: a completion logged without one, which counts for every tier.
   */
  difficulty?: Difficulty | null
  /** The quest's level, when the source says (DDO Builder does). */
  level?: number | null
  setting: Setting
  completedAt?: string | null
  durationSeconds?: number | null
  xpEarned?: number | null
  reaperXpEarned?: number | null
  /** How many times it was logged, when the source says (the CSV export does); else once. */
  runs?: number | null
  /** The skulls of a reaper run, when the source says (DDO Builder's `R1`…`R10`, a CSV's column). */
  reaperSkulls?: number | null
}

export interface ImportOptions {
  /** Answers for ambiguous names (by source); an ambiguous name without one is left out. */
  choices?: readonly ImportChoice[]
  /** Store names the catalog does not have as written (the catalog may lag the game); else left out. */
  keepUnmatched?: boolean
}

const triple = (c: { name: string; difficulty: string; setting: string }) =>
  `${c.name}\u0000${c.difficulty}\u0000${c.setting}`

/** What importing `items` into the character would do; nothing is written. */
export function previewImport(
  { db }: Pick<Writer, 'db'>,
  userId: number,
  characterId: number,
  items: readonly ForeignCompletion[],
  options: ImportOptions = {},
): QuestsPreview {
  ownedCharacter(db, userId, characterId)
  const index = catalogMatcher(db)
  const rows = db
    .select({ name: completions.name, difficulty: completions.difficulty, setting: completions.setting })
    .from(completions)
    .where(and(eq(completions.characterId, characterId), eq(completions.lifeIndex, currentQuestLife(db, characterId))))
    .all()
  const stored = new Set(rows.map(triple))
  // Any tier of a quest and setting: what a completion without a tier is already covered by.
  const anyTier = new Set(rows.map((c) => triple({ ...c, difficulty: 'Unknown' })))
  const chosen = new Map((options.choices ?? []).map((c) => [c.source, c]))
  const preview: QuestsPreview = { total: items.length, add: [], stored: [], ambiguous: [], unmatched: [] }
  const plan = (item: ForeignCompletion, name: string, difficulty: Difficulty, how: PlannedCompletion['how']) => {
    const planned = { source: item.source, given: item.name, name, difficulty, setting: item.setting, how }
    const key = triple(planned)
    // A completion with tier Unknown counts for every tier of the name (domain rule 2), both ways:
    // one stored without a tier covers the file's, and one stored with a tier covers the file's
    // without.
    const covered =
      stored.has(key) ||
      stored.has(triple({ ...planned, difficulty: 'Unknown' })) ||
      (planned.difficulty === 'Unknown' && anyTier.has(key))
    if (covered) preview.stored.push(planned)
    else {
      // A second line of the same completion is not added twice.
      stored.add(key)
      anyTier.add(triple({ ...planned, difficulty: 'Unknown' }))
      preview.add.push(planned)
    }
  }
  for (const item of items) {
    // A tier Unknown is kept: the name alone is matched, and the completion stands for every tier.
    const unknownTier = item.difficulty === 'Unknown'
    const match = matchQuest(index, item.name, { level: item.level, difficulty: unknownTier ? null : item.difficulty })
    const oneName = match.kind === 'ambiguous' && new Set(match.candidates.map((c) => c.name)).size === 1
    const choice = chosen.get(item.source)
    if (match.kind === 'matched') plan(item, match.row.name, unknownTier ? 'Unknown' : match.row.difficulty, match.how)
    else if (match.kind === 'ambiguous' && unknownTier && oneName) {
      const name = match.candidates[0]?.name ?? item.name
      plan(item, name, 'Unknown', name === item.name ? 'exact' : 'spelling')
    } else if (match.kind === 'ambiguous') {
      const picked =
        choice && match.candidates.find((c) => c.name === choice.name && c.difficulty === choice.difficulty)
      if (picked) plan(item, picked.name, picked.difficulty, 'chosen')
      else
        preview.ambiguous.push({
          source: item.source,
          name: item.name,
          setting: item.setting,
          candidates: match.candidates.map(({ name, difficulty, level }) => ({ name, difficulty, level })),
        })
    } else if (options.keepUnmatched) plan(item, item.name.trim(), item.difficulty ?? 'Unknown', 'kept')
    else preview.unmatched.push({ source: item.source, name: item.name, setting: item.setting, suggestions: [] })
  }
  // Did you mean: for the first MAX_SUGGESTED_NAMES names the catalog lacks (each a pass over it).
  const suggested = new Map<string, string[]>()
  for (const entry of preview.unmatched) {
    let names = suggested.get(entry.name)
    if (!names && suggested.size < MAX_SUGGESTED_NAMES) {
      names = suggestNames(index, entry.name)
      suggested.set(entry.name, names)
    }
    entry.suggestions = names ?? []
  }
  return preview
}

/**
 * Writes what `plan` (a preview of `items`) adds, inside the caller's immediate transaction: 409,
 * which rolls the caller's transaction back, when the character would pass its completion limit.
 */
export function writeImport(
  db: Writer['db'],
  characterId: number,
  plan: QuestsPreview,
  items: readonly ForeignCompletion[],
  now: string,
): void {
  const count = countCompletions(db, characterId)
  if (count + plan.add.length > MAX_COMPLETIONS_PER_CHARACTER) {
    throw new Conflict(
      `This import would add ${plan.add.length} completions to the ${count} stored; a character may have at most ${MAX_COMPLETIONS_PER_CHARACTER}.`,
    )
  }
  const bySource = new Map(items.map((item) => [item.source, item]))
  // Into the current life (the preview compared with it).
  const lifeIndex = currentQuestLife(db, characterId)
  for (const planned of plan.add) {
    const item = bySource.get(planned.source) as ForeignCompletion
    const { id } = upsertCompletion(
      db,
      characterId,
      {
        name: planned.name,
        difficulty: planned.difficulty,
        setting: planned.setting,
        completedAt: item.completedAt ?? now,
        durationSeconds: item.durationSeconds ?? null,
        xpEarned: item.xpEarned ?? null,
        reaperXpEarned: item.reaperXpEarned ?? null,
        reaperSkulls: planned.setting === 'reaper' ? (item.reaperSkulls ?? null) : null,
      },
      now,
      // A run only where the source timed it: a list of completed quests says what was done, not how.
      { lifeIndex, run: item.durationSeconds != null && item.durationSeconds > 0 },
    )
    // The source's count of runs (the older ones count there only, as beyond the kept runs).
    if (item.runs != null && item.runs > 1) {
      db.update(completions)
        .set({ runs: item.runs })
        .where(and(eq(completions.id, id), lt(completions.runs, item.runs)))
        .run()
    }
  }
  boundCharacterRuns(db, characterId)
}

/**
 * Writes what the preview of the same items and options adds, in one transaction: 409 and
 * nothing written when the character would pass its completion limit. Answers that preview.
 */
export function applyImport(
  { db, clock, changes }: Writer,
  userId: number,
  characterId: number,
  items: readonly ForeignCompletion[],
  options: ImportOptions = {},
): QuestsPreview {
  const preview = db.transaction(() => {
    // Previewed inside the write transaction: what it says is exactly what is written.
    const plan = previewImport({ db }, userId, characterId, items, options)
    writeImport(db, characterId, plan, items, isoNow(clock))
    return plan
  }, IMMEDIATE)
  if (preview.add.length > 0) changes.publish(characterId, 'completions')
  return preview
}
