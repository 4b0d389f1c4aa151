// An event's change applied to the progress a tracker holds, so an open page follows a write
// without re-reading the character's whole history (src/modules/events/feed.ts says what each
// write sends). Pure: the result equals what a progress read would answer after the write
// (test/liveChanges.test.ts compares the two for every kind of change). Each list of completions
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

/** The progress after `delta`; the same object when the change is to a life it does not show. */
export function applyChange(progress: Progress, delta: ChangeDelta): Progress {
  if (delta.kind === 'head') return { ...progress, ...delta.head }
  if (delta.life !== progress.life.index) return progress
  // One pass over the list for either kind: it is the whole history, and this runs on every event.
  const removed: Completion[] = []
  const completions: Completion[] = []
  if (delta.kind === 'upsert') {
    const { completion, position } = delta
    let placed = false
    for (const c of progress.completions) {
      if (sameKey(c, completion)) {
        removed.push(c)
        continue
      }
      // At `position` among the completions kept: before the one that would be there.
      if (!placed && completions.length === position) {
        completions.push(completion)
        placed = true
      }
      completions.push(c)
    }
    if (!placed) completions.push(completion)
    return {
      ...edited(progress, completions, removed, [completion]),
      completedQuests: withName(progress.completedQuests, completion.name),
    }
  }
  const gone = new Set(delta.removed.map((key) => key.name))
  const left = new Set<string>()
  for (const c of progress.completions) {
    if (!gone.has(c.name)) completions.push(c)
    else if (delta.removed.some((key) => sameKey(c, key))) removed.push(c)
    else {
      // A name stays done while a completion of it is left.
      left.add(c.name)
      completions.push(c)
    }
  }
  for (const name of left) gone.delete(name)
  return {
    ...edited(progress, completions, removed, []),
    completedQuests: gone.size === 0 ? progress.completedQuests : progress.completedQuests.filter((n) => !gone.has(n)),
  }
}
