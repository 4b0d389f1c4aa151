// The tracker's progress as the player left it: what the server (or the service worker's kept
// answer) says, with the changes still waiting in the write queue (offline/outbox.ts) made on top,
// in order, so a tick made offline stays ticked across reloads and polls until the server has it.
import { minLevel, type PlayOn } from '../../rules/character/levels'
import type { Completion, Progress, ProgressPatch } from '../api'
import type { QueuedChange } from '../offline/queue'

/** A partial change of the saved fields, made on a progress: what the server will make of it. */
export function patchProgress(current: Progress, patch: ProgressPatch): Progress {
  const next: Progress = { ...current, ...(patch as Partial<Progress>) }
  if (patch.targetDifficulty !== undefined) {
    next.minLevel = minLevel(current.characterLevel, patch.targetDifficulty as PlayOn)
    next.character = { ...current.character, targetDifficulty: patch.targetDifficulty }
  }
  return next
}

const sameKey = (c: Completion, change: { name: string; difficulty: string; setting: string }) =>
  c.name === change.name && c.difficulty === change.difficulty && c.setting === change.setting

/**
 * An undo sent and not yet seen in what the server says: the completions it puts back, exactly
 * (their runs, XP and times). An event the server sent before the restore (the untick's own
 * delete, arriving late) must not take them off the page again.
 */
export interface PendingRestore {
  kind: 'restore'
  completions: readonly Completion[]
}

/** The same completion: its key and its time. */
export const sameCompletion = (a: Completion, b: Completion) => sameKey(a, b) && a.completedAt === b.completedAt

/** The progress with the waiting changes made on it; only the current life takes them. */
export function withQueued(progress: Progress, changes: readonly (QueuedChange | PendingRestore)[]): Progress {
  if (changes.length === 0 || !progress.life.current) return progress
  let next = progress
  for (const change of changes) {
    if (change.kind === 'progress') {
      next = patchProgress(next, change.patch)
    } else if (change.kind === 'restore') {
      const missing = change.completions.filter((c) => !next.completions.some((held) => sameCompletion(held, c)))
      if (missing.length > 0) next = { ...next, completions: [...missing, ...next.completions] }
    } else if (change.kind === 'tick') {
      if (next.completions.some((c) => sameKey(c, change))) continue
      const { kind: _, ...key } = change
      const added: Completion = {
        ...key,
        durationSeconds: null,
        xpEarned: null,
        reaperXpEarned: null,
        reaperSkulls: null,
      }
      next = { ...next, completions: [added, ...next.completions] }
    } else {
      next = { ...next, completions: next.completions.filter((c) => !sameKey(c, change)) }
    }
  }
  return next
}
