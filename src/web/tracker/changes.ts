// An event's change applied to the progress a tracker holds, so an open page follows a write
// without re-reading the character's whole history (src/modules/events/feed.ts says what each
// write sends). Pure: the result equals what a progress read would answer after the write
// (test/liveChanges.test.ts compares the two for every kind of change).
import type { ChangeDelta, CompletionKey } from '../../modules/events/feed'
import type { Progress } from '../api'

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
  if (delta.kind === 'upsert') {
    const rest = progress.completions.filter((c) => !sameKey(c, delta.completion))
    return {
      ...progress,
      completions: [...rest.slice(0, delta.position), delta.completion, ...rest.slice(delta.position)],
      completedQuests: withName(progress.completedQuests, delta.completion.name),
    }
  }
  const completions = progress.completions.filter((c) => !delta.removed.some((key) => sameKey(c, key)))
  const gone = new Set(delta.removed.map((key) => key.name))
  for (const c of completions) gone.delete(c.name)
  return {
    ...progress,
    completions,
    completedQuests: gone.size === 0 ? progress.completedQuests : progress.completedQuests.filter((n) => !gone.has(n)),
  }
}
