// What the write queue holds and how the server's answer to a queued write is read: plain data
// and pure rules (outbox.ts stores and sends them; test/web/offlineRules.test.ts tests them).
import type { Difficulty, Setting } from '../../rules/quests/completion'
import type { ProgressPatch } from '../api'

/**
 * A change made on the tracker. A tick carries the time it was made: sent again (a retry after an
 * answer that never arrived), the server finds the same run and stores nothing twice, as it does
 * for the game plugin's posts.
 */
export type QueuedChange =
  | { kind: 'tick'; name: string; difficulty: Difficulty; setting: Setting; completedAt: string }
  | { kind: 'untick'; name: string; difficulty: Difficulty; setting: Setting }
  | { kind: 'progress'; patch: ProgressPatch }

export interface QueuedWrite {
  /** The queue's order: the key IndexedDB gave it. */
  id: number
  /** The account whose session queued it: sent only while that account is signed in. */
  account: number
  characterId: number
  /** For showing it, even after the character is gone. */
  characterName: string
  queuedAt: string
  change: QueuedChange
  /** The server's sentence when it refused the write: shown until dismissed, never sent again. */
  refused?: string
}

export type NewQueuedWrite = Omit<QueuedWrite, 'id' | 'refused'>

/**
 * What an answer to a queued write means: `sent` (drop it), `retry` (the server is away, busy or
 * throttling: keep it, and everything after it, for later), `signed-out` (the session ended: keep
 * it until its account signs in again), `refused` (the server will never take it: show why).
 * Status 0 is no answer at all.
 */
export type Delivery = 'sent' | 'retry' | 'signed-out' | 'refused'

export function deliveryOf(status: number): Delivery {
  if (status >= 200 && status < 300) return 'sent'
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry'
  if (status === 401) return 'signed-out'
  return 'refused'
}

/** Waiting to be sent: not refused. */
export const isWaiting = (write: QueuedWrite) => write.refused === undefined

/** "The Pit (Heroic), elite: ticked", for the lists of waiting and refused writes. */
export function describeChange(change: QueuedChange): string {
  if (change.kind === 'progress') return `filters and bonuses changed (${Object.keys(change.patch).join(', ')})`
  const what = `${change.name} (${change.difficulty}), ${change.setting}`
  return change.kind === 'tick' ? `${what}: ticked` : `${what}: unticked`
}
