// An event's change applied to the progress a tracker holds, so an open page follows a write
// without re-reading the character's whole history (src/modules/events/feed.ts says what each
// write sends). Pure: the result equals what a progress read would answer after the write
// (test/webLogic/tracker/liveChanges.test.ts compares the two for every kind of change). Each list of completions
// made here remembers the edit that made it (`edited`), so the tracker's model (model.ts) follows
// a change in time independent of the history instead of counting every completion again.
import type { ChangeDelta, CompletionKey } from '../../modules/events/feed'
import type { Completion, Progress } from '../api'

/** One edit of a completions list: the list it was made from, what left it and what joined it (the objects). */
export interface Edit {
  from: readonly Completion[]
  removed: readonly Completion[]
  added: readonly Completion[]
}

/**
 * Each list made by an edit, with that edit. Beside the list rather than in the progress, which
 * stays what a read answers. Weak: an edit lives no longer than its list; and `editsSince`
 * forgets the edits it walks, so the lists the model has counted past are not held by a chain.
 */
const edits = new WeakMap<readonly Completion[], Edit>()

/** The progress with `completions`, noted as `from` less `removed` plus `added`. */
export function edited(
  progress: Progress,
  completions: Completion[],
  removed: readonly Completion[],
  added: readonly Completion[],
): Progress {
  edits.set(completions, { from: progress.completions, removed, added })
  return { ...progress, completions }
}

/**
 * The edits that made `to` from `from`, oldest first; null when `to` was not made from `from`
 * by edits (a read, an import, a list made anywhere else). The edits walked are forgotten: the
 * one model following a store's progress reads each once.
 */
export function editsSince(from: readonly Completion[], to: readonly Completion[]): Edit[] | null {
  const path: Edit[] = []
  let list = to
  while (list !== from) {
    const edit = edits.get(list)
    if (!edit) return null
    edits.delete(list)
    path.push(edit)
    list = edit.from
  }
  return path.reverse()
}

/** A character's tag taken apart (src/modules/events/feed.ts makes them): tags of one prefix are comparable. */
export interface TagParts {
  prefix: string
  version: number
}

/** The parts of a character tag, or null for any other string (a list's tag, a stranger's). */
export function tagParts(tag: string | null | undefined): TagParts | null {
  const match = /^"([\w-]+\.\d+)\.(\d+)"$/.exec(tag ?? '')
  return match ? { prefix: match[1] as string, version: Number(match[2]) } : null
}

const sameKey = (a: CompletionKey, b: CompletionKey) =>
  a.name === b.name && a.difficulty === b.difficulty && a.setting === b.setting

/** `names` (sorted as Array.prototype.sort sorts strings) with `name` in its place, once. */
function withName(names: readonly string[], name: string): string[] {
  let low = 0
  let high = names.length
  while (low < high) {
    const mid = (low + high) >> 1
    if ((names[mid] as string) < name) low = mid + 1
    else high = mid
  }
  if (names[low] === name) return names as string[]
  return [...names.slice(0, low), name, ...names.slice(low)]
}

/** The list less `removed` (the objects), by the array's own copy and search: no comparison of fields. */
function without(list: readonly Completion[], removed: ReadonlySet<Completion>): Completion[] {
  const rest = list.slice()
  for (const c of removed) {
    const at = rest.indexOf(c)
    if (at >= 0) rest.splice(at, 1)
  }
  return rest
}

/** The progress with `added` first (the most recent), noted as an edit. */
export function withAdded(progress: Progress, added: readonly Completion[]): Progress {
  return edited(progress, [...added].concat(progress.completions), [], added)
}

/** The progress less `removed` (objects of its list), noted as an edit. */
export function withRemoved(progress: Progress, removed: readonly Completion[]): Progress {
  return edited(progress, without(progress.completions, new Set(removed)), removed, [])
}

/**
 * The progress after `delta`; the same object when the change is to a life it does not show.
 * `byName`, when the caller holds it (the model's index of these completions), finds the
 * completions a change replaces or removes among the name's few instead of the whole history.
 */
export function applyChange(
  progress: Progress,
  delta: ChangeDelta,
  byName?: ReadonlyMap<string, readonly Completion[]>,
): Progress {
  if (delta.kind === 'head') return { ...progress, ...delta.head }
  if (delta.life !== progress.life.questLife) return progress
  const named = (name: string): readonly Completion[] =>
    byName ? (byName.get(name) ?? []) : progress.completions.filter((c) => c.name === name)
  if (delta.kind === 'upsert') {
    const { completion, position } = delta
    const replaced = new Set(named(completion.name).filter((c) => sameKey(c, completion)))
    const completions = replaced.size === 0 ? progress.completions.slice() : without(progress.completions, replaced)
    // At `position` among the completions kept: before the one that was there.
    completions.splice(position, 0, completion)
    return {
      ...edited(progress, completions, [...replaced], [completion]),
      completedQuests: withName(progress.completedQuests, completion.name),
    }
  }
  const removed = new Set<Completion>()
  for (const key of delta.removed) for (const c of named(key.name)) if (sameKey(c, key)) removed.add(c)
  // A name stays done while a completion of it is left.
  const gone = new Set(delta.removed.map((key) => key.name).filter((name) => named(name).every((c) => removed.has(c))))
  return {
    ...edited(progress, without(progress.completions, removed), [...removed], []),
    completedQuests: gone.size === 0 ? progress.completedQuests : progress.completedQuests.filter((n) => !gone.has(n)),
  }
}
