// What the tracker counts from the completions of the life it shows: the completions by name,
// each remake's logged settings, favor and XP. A change (a tick, an event's upsert or removal)
// is followed by the edits that made the new list (changes.ts): only the names it touched are
// counted again, so a tick costs the same at 100 completions and at 10,000. Everything is
// counted whole where no edit leads from the list counted to the new one (a re-read after a
// gap, an import, a reincarnation, the catalog), and XP alone where its bonuses changed.
// Pure: a tally is never changed, the next one shares what did not change.

import { mostSkulls, type Setting } from '../../rules/quests/completion'
import { type FavorTotals, type NameFavor, nameFavor, sumFavor } from '../../rules/quests/favor'
import { completionsFor, indexCompletions } from '../../rules/quests/tracker'
import { completionXp, type XpTotal } from '../../rules/quests/xp'
import type { Completion } from '../api'
import { type Edit, editsSince } from './changes'
import type { Row } from './row'

/** What each row shows of the logged settings: its own tier's, and those logged with tier Unknown. */
export interface RowLog {
  own: ReadonlySet<Setting>
  viaUnknown: ReadonlySet<Setting>
  /** The most skulls its reaper completions were logged with (its own tier's or Unknown's); null: none said. */
  skulls: number | null
}

type Bonuses = Readonly<Record<string, unknown>>

/** What a tally is counted from: the catalog, the life's completions and the XP bonuses. */
export interface TallyInputs {
  rows: readonly Row[]
  /** The catalog's remakes of each quest name (rowsByName of `rows`). */
  byName: ReadonlyMap<string, readonly Row[]>
  completions: readonly Completion[]
  xpBoosts: Bonuses
  optionalPursuit: Bonuses
}

export interface Tally {
  inputs: TallyInputs
  /** The completions by quest name (each name's most recent first, when followed by ticks). */
  index: ReadonlyMap<string, readonly Completion[]>
  /** Per remake key with anything logged; a remake whose settings did not change keeps its object. */
  logs: ReadonlyMap<string, RowLog>
  /** Per quest name of the catalog, in catalog order. */
  favorByName: ReadonlyMap<string, NameFavor>
  favor: FavorTotals
  xp: XpTotal
  /** Counted whole, or followed from the tally before (tests count the recounts). */
  made: 'counted' | 'followed'
}

const sameSettings = (a: ReadonlySet<Setting>, b: ReadonlySet<Setting>) =>
  a.size === b.size && [...a].every((setting) => b.has(setting))

/** The same bonuses switched on: compared by value, as a head event brings new objects each time. */
function sameBonuses(a: Bonuses, b: Bonuses): boolean {
  if (a === b) return true
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key])
}

/** Sets the logs of one quest name's remakes in `logs`, keeping the object of a remake whose settings did not change. */
function logName(
  logs: Map<string, RowLog>,
  name: string,
  inputs: TallyInputs,
  index: ReadonlyMap<string, readonly Completion[]>,
  before: ReadonlyMap<string, RowLog> | undefined,
): void {
  for (const remake of inputs.byName.get(name) ?? []) {
    const own = new Set<Setting>()
    const viaUnknown = new Set<Setting>()
    let skulls: number | null = null
    for (const c of completionsFor(remake, index)) {
      ;(c.difficulty === 'Unknown' ? viaUnknown : own).add(c.setting)
      if (c.setting === 'reaper') skulls = mostSkulls(skulls, c.reaperSkulls)
    }
    if (own.size + viaUnknown.size === 0) {
      logs.delete(remake.key)
      continue
    }
    const previous = before?.get(remake.key)
    const same =
      previous &&
      previous.skulls === skulls &&
      sameSettings(previous.own, own) &&
      sameSettings(previous.viaUnknown, viaUnknown)
    logs.set(remake.key, same ? previous : { own, viaUnknown, skulls })
  }
}

/** Adds (`sign` 1) or takes away (-1) one completion's XP. */
function countXp(xp: XpTotal, c: Completion, inputs: TallyInputs, sign: 1 | -1): void {
  const { xp: earned, source } = completionXp(c, inputs.byName, inputs.xpBoosts, inputs.optionalPursuit)
  xp[source] += sign
  xp.total += sign * (earned ?? 0)
}

function xpOf(inputs: TallyInputs): XpTotal {
  const xp: XpTotal = { total: 0, reported: 0, estimated: 0, unknown: 0 }
  for (const c of inputs.completions) countXp(xp, c, inputs, 1)
  return xp
}

/** Counts everything from the completions; `before`'s row logs are kept where they did not change. */
export function countTally(inputs: TallyInputs, before?: Tally): Tally {
  const index = indexCompletions(inputs.completions)
  const logs = new Map<string, RowLog>()
  for (const name of index.keys()) logName(logs, name, inputs, index, before?.logs)
  const favorByName = new Map<string, NameFavor>()
  for (const [name, remakes] of inputs.byName) favorByName.set(name, nameFavor(remakes, index))
  const favor = sumFavor(favorByName.values())
  return { inputs, index, logs, favorByName, favor, xp: xpOf(inputs), made: 'counted' }
}

/**
 * `before` after `edits`: the groups of the names they touched are replaced (each added
 * completion first, as the list has the most recent first), and those names' logs and favor
 * counted again. Null when an edit removes a completion `before` did not count.
 */
function follow(before: Tally, inputs: TallyInputs, edits: readonly Edit[]): Tally | null {
  const xpFollows =
    sameBonuses(before.inputs.xpBoosts, inputs.xpBoosts) &&
    sameBonuses(before.inputs.optionalPursuit, inputs.optionalPursuit)
  const index = new Map(before.index)
  const xp = { ...before.xp }
  const touched = new Set<string>()
  for (const edit of edits) {
    for (const c of edit.removed) {
      const group = index.get(c.name) ?? []
      const at = group.indexOf(c)
      if (at < 0) return null
      if (group.length === 1) index.delete(c.name)
      else
        index.set(
          c.name,
          group.filter((_, i) => i !== at),
        )
      if (xpFollows) countXp(xp, c, before.inputs, -1)
      touched.add(c.name)
    }
    for (const c of edit.added) {
      index.set(c.name, [c, ...(index.get(c.name) ?? [])])
      if (xpFollows) countXp(xp, c, inputs, 1)
      touched.add(c.name)
    }
  }
  if (touched.size === 0) return { ...before, inputs, xp: xpFollows ? before.xp : xpOf(inputs), made: 'followed' }
  const logs = new Map(before.logs)
  const favorByName = new Map(before.favorByName)
  for (const name of touched) {
    logName(logs, name, inputs, index, before.logs)
    const remakes = inputs.byName.get(name)
    if (remakes) favorByName.set(name, nameFavor(remakes, index))
  }
  return {
    inputs,
    index,
    logs,
    favorByName,
    favor: sumFavor(favorByName.values()),
    xp: xpFollows ? xp : xpOf(inputs),
    made: 'followed',
  }
}

/**
 * The tally of `inputs`: `before` itself when nothing it counts changed, followed from it when
 * edits lead from its completions to these, else counted whole.
 */
export function nextTally(before: Tally | null, inputs: TallyInputs): Tally {
  if (!before || before.inputs.rows !== inputs.rows || before.inputs.byName !== inputs.byName) {
    return countTally(inputs, before ?? undefined)
  }
  const edits =
    before.inputs.completions === inputs.completions ? [] : editsSince(before.inputs.completions, inputs.completions)
  if (
    edits?.length === 0 &&
    sameBonuses(before.inputs.xpBoosts, inputs.xpBoosts) &&
    sameBonuses(before.inputs.optionalPursuit, inputs.optionalPursuit)
  ) {
    return before
  }
  return (edits && follow(before, inputs, edits)) ?? countTally(inputs, before)
}
