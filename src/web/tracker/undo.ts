// The undo of an untick. Unticking deletes the completion at once (the plugin and other pages see
// it go); the delete answers what it removed, whole, and the tracker keeps that for UNDO_MS,
// saying what went (its runs, and what the game reported for it) beside an Undo button that
// sends it back to POST completions/restore. After that the bar goes, and so does the data.
import { signal } from '@preact/signals'
import type { RemovedCompletion } from '../api'
import { formatNumber, minutes } from '../format'

/** How long an untick can be undone: long enough to notice a stray tap, short enough not to linger. */
export const UNDO_MS = 10_000

export interface UndoOffer {
  id: number
  /** What was unticked: the row's quest and the box's setting. */
  quest: string
  setting: string
  /** What the deletes answered (one per tier the box stood for). */
  removed: RemovedCompletion[]
}

/**
 * The sentence of an offer: what was unticked, and what goes with it unless undone: its runs
 * beyond the first, and the XP and time the game reported (a tick on the website reports none).
 */
export function undoSentence({ quest, setting, removed }: UndoOffer): string {
  const runs = removed.reduce((sum, c) => sum + c.runs, 0)
  const latest = removed.find((c) => c.xpEarned !== null || c.durationSeconds !== null || c.reaperXpEarned !== null)
  const reported = latest
    ? [
        latest.xpEarned === null ? null : `${formatNumber(latest.xpEarned)} XP`,
        latest.reaperXpEarned === null ? null : `${formatNumber(latest.reaperXpEarned)} reaper XP`,
        latest.durationSeconds === null ? null : minutes(latest.durationSeconds),
      ].filter((part) => part !== null)
    : removed.some((c) => c.runList.some((r) => r.xpEarned !== null || r.durationSeconds !== null))
      ? ['XP and times']
      : []
  const going = [
    runs > 1 ? `${runs} runs` : null,
    reported.length > 0 ? `the ${reported.join(' and ')} the game reported` : null,
  ].filter((part) => part !== null)
  return going.length === 0
    ? `Unticked ${quest} (${setting}).`
    : `Unticked ${quest} (${setting}): ${going.join(', and ')}, gone unless you undo.`
}

/** The offers a tracker shows, and how an untick opens one. `restore` sends removed completions back. */
export function createUndo(restore: (removed: RemovedCompletion[]) => void) {
  const offers = signal<UndoOffer[]>([])
  let nextId = 1
  const drop = (id: number) => {
    offers.value = offers.value.filter((o) => o.id !== id)
  }

  /**
   * An untick's offer, shown from the first delete answer that removed something, for UNDO_MS.
   * `add` takes each delete's `removed` as it arrives (a box can stand for two tiers).
   */
  function open(quest: string, setting: string) {
    const id = nextId++
    let removed: RemovedCompletion[] = []
    return {
      add(more: readonly RemovedCompletion[]) {
        if (more.length === 0) return
        const shown = removed.length > 0
        removed = [...removed, ...more]
        const offer: UndoOffer = { id, quest, setting, removed }
        if (shown) offers.value = offers.value.map((o) => (o.id === id ? offer : o))
        else {
          offers.value = [...offers.value, offer]
          setTimeout(() => drop(id), UNDO_MS)
        }
      },
    }
  }

  function undo(offer: UndoOffer): void {
    drop(offer.id)
    restore(offer.removed)
  }

  return { offers, open, undo }
}

export type Undo = ReturnType<typeof createUndo>
