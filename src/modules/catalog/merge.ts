// How a source's rows update the catalog: merged, never swapped. Rows are keyed by (name, tier);
// a source's row finds its catalog row in the same tier by the name as the catalog spells it, by
// a known difference between the game's and the wiki's names (questAliases.ts), or by the
// forgiving name key (questMatch.ts: case, apostrophes, spacing around ":", "the", "(quest)" and
// " (R)"), so that one quest never becomes two rows. A matched row takes what the source says
// (level, XP, pack, patron, favor, duration, the extra facts) and keeps what it does not say (a
// null or empty value: DDO Audit carries no favor and no duration words); it keeps its own name,
// which completions, routes and notes refer to. A row the source does not list stays. Pure.
import { wikiNameOf } from '../../rules/quests/questAliases'
import { questNameKey } from '../../rules/quests/questMatch'
import type { QuestTier } from '../../rules/quests/questTiers'
import type { QuestRow } from './parse'

export interface QuestKey {
  name: string
  difficulty: string
}

export interface MergedCatalog {
  /** The catalog after the merge: its rows in their order (updated in place), then the new ones. */
  rows: QuestRow[]
  added: QuestKey[]
  changed: QuestKey[]
  /** Rows of the catalog that the source does not list (kept as they were). */
  kept: number
  /** Source rows left out: one sentence each. */
  skipped: string[]
}

/** The fields a source may update, compared to tell a changed row. */
const FIELDS = [
  'level',
  'soloXP',
  'normalXP',
  'hardXP',
  'eliteXP',
  'duration',
  'pack',
  'patron',
  'favor',
  'questId',
  'groupSize',
  'freeToVip',
] as const satisfies (keyof QuestRow)[]

const lower = (name: string) => name.trim().toLowerCase()
const keyOf = (name: string, tier: string) => `${tier}\u0000${lower(name)}`

/** What the source says, over what the row holds: a null or empty value says nothing. */
function updated(row: QuestRow, source: QuestRow): QuestRow {
  const next: QuestRow = { ...row }
  for (const field of FIELDS) {
    const value = source[field]
    if (value === null || value === '') continue
    ;(next as unknown as Record<string, unknown>)[field] = value
  }
  return next
}

/** A name's letters and digits, its disambiguator's included: how two spellings of one page compare. */
const spelling = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')

const differs = (a: QuestRow, b: QuestRow) => FIELDS.some((field) => a[field] !== b[field])

/**
 * `updateOnly`: source rows that may update a catalog row but are not added as new ones (DDO
 * Audit's entries named as their adventure area, which may be wilderness areas: parse.ts).
 */
export function mergeCatalog(
  current: readonly QuestRow[],
  incoming: readonly QuestRow[],
  updateOnly: ReadonlySet<QuestRow> = new Set(),
): MergedCatalog {
  const byName = new Map<string, number>()
  const byKey = new Map<string, number[]>()
  current.forEach((row, at) => {
    byName.set(keyOf(row.name, row.difficulty), at)
    const key = keyOf(questNameKey(row.name), row.difficulty)
    byKey.set(key, [...(byKey.get(key) ?? []), at])
  })
  /** The catalog row each source row is (its position), null for a new quest, or why it is left out. */
  const matches: (number | string | null)[] = incoming.map(() => null)
  /** Catalog rows a source row has already claimed, by position. */
  const taken = new Set<number>()
  const claim = (i: number, at: number) => {
    const row = incoming[i] as QuestRow
    if (taken.has(at)) matches[i] = `("${row.name}", ${row.difficulty}) repeats "${current[at]?.name}"; left out`
    else {
      taken.add(at)
      matches[i] = at
    }
  }
  // First every name the catalog spells as the source does, so that a forgiven spelling never
  // takes a row that another source row names exactly ("Tangled Depths (raid)" and "(quest)").
  const unmatched: number[] = []
  incoming.forEach((row, i) => {
    const exact = byName.get(keyOf(row.name, row.difficulty))
    if (exact === undefined) unmatched.push(i)
    else claim(i, exact)
  })
  // Then the game's other names, and forgiven spellings, among the rows still unclaimed.
  for (const i of unmatched) {
    const row = incoming[i] as QuestRow
    const tier: QuestTier = row.difficulty
    const alias = wikiNameOf(row.name, tier)
    const aliased = alias === null ? undefined : byName.get(keyOf(alias, tier))
    if (aliased !== undefined) {
      claim(i, aliased)
      continue
    }
    const all = byKey.get(keyOf(questNameKey(row.name), tier)) ?? []
    const similar = all.filter((at) => !taken.has(at))
    const atLevel = similar.length > 1 ? similar.filter((at) => current[at]?.level === row.level) : similar
    // The row another source row already took, spelt otherwise but with the same words: a repeat.
    const same = all.find((at) => taken.has(at) && spelling(current[at]?.name ?? '') === spelling(row.name))
    if (atLevel.length === 1) claim(i, atLevel[0] as number)
    else if (same !== undefined) claim(i, same)
    else if (similar.length > 1) {
      const names = similar.map((at) => `"${current[at]?.name}"`).join(' or ')
      matches[i] = `("${row.name}", ${tier}) could be ${names}; left out`
    } else if (updateOnly.has(row)) {
      matches[i] = `("${row.name}", ${tier}) is named as its adventure area and is no quest of the catalog; left out`
    }
  }

  const rows = [...current]
  const added: QuestKey[] = []
  const changed: QuestKey[] = []
  const skipped: string[] = []
  incoming.forEach((row, i) => {
    const at = matches[i] as number | string | null
    if (typeof at === 'string') skipped.push(at)
    else if (at === null) {
      rows.push(row)
      added.push({ name: row.name, difficulty: row.difficulty })
    } else {
      const before = current[at] as QuestRow
      const after = updated(before, row)
      if (differs(before, after)) {
        rows[at] = after
        changed.push({ name: before.name, difficulty: before.difficulty })
      }
    }
  })
  const kept = current.filter((_, at) => !taken.has(at)).length
  return { rows, added, changed, kept, skipped }
}
