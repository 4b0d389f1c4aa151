// The undo of an untick. Unticking deletes the completion at once (the plugin and other pages see
// it go); the delete answers what it removed, whole, and the tracker keeps that for UNDO_MS,
// saying what went (its runs, and what the game reported for it) beside an Undo button that
// sends it back to POST completions/restore. After that the bar goes, and so does the data.
// Ticking the same box again while its offer stands is that undo (the completion comes back as it
// was, not as a new run beside the restored ones); before the delete has answered, it closes the
// offer, and the tick is a new run.
import { signal } from '@preact/signals'
import type { RemovedCompletion } from '../api'
import { formatNumber, minutes } from '../format'

/** How long an untick can be undone: long enough to notice a stray tap, short enough not to linger. */
export const UNDO_MS = 10_000

export interface UndoOffer {
  id: number
  /** The box: the row's key and the setting (`boxKey`). */
  box: string
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

/** One box of the tracker: a remake's row key and a setting. */
export const boxKey = (rowKey: string, setting: string) => `${rowKey}\u0000${setting}`

/** The offers a tracker shows, and how an untick opens one. `restore` sends removed completions back. */
export function createUndo(restore: (removed: RemovedCompletion[]) => void) {
  const offers = signal<UndoOffer[]>([])
  let nextId = 1
  /** Unticks whose delete has not answered yet, by box: a re-tick meanwhile closes them. */
  const unanswered = new Map<string, { closed: boolean }>()
  /** Offers undone: a delete answering after its undo (a box of two tiers) is put back too. */
  const undone = new Set<number>()
  const drop = (id: number) => {
    offers.value = offers.value.filter((o) => o.id !== id)
  }

  /**
   * An untick's offer, shown from the first delete answer that removed something, for UNDO_MS.
   * `add` takes each delete's `removed` as it arrives (a box can stand for two tiers).
   */
  function open(quest: string, setting: string, box: string) {
    const id = nextId++
    let removed: RemovedCompletion[] = []
    const state = { closed: false }
    unanswered.set(box, state)
    return {
      add(more: readonly RemovedCompletion[]) {
        if (unanswered.get(box) === state) unanswered.delete(box)
        if (more.length === 0 || state.closed) return
        if (undone.has(id)) {
          restore([...more])
          return
        }
        const shown = removed.length > 0
        removed = [...removed, ...more]
        const offer: UndoOffer = { id, box, quest, setting, removed }
        if (shown) offers.value = offers.value.map((o) => (o.id === id ? offer : o))
        else {
          offers.value = [...offers.value, offer]
          setTimeout(() => drop(id), UNDO_MS)
        }
      },
    }
  }

  function undo(offer: UndoOffer): void {
    undone.add(offer.id)
    drop(offer.id)
    restore(offer.removed)
  }

  /**
   * A tick of `box`: undoes the box's standing offer and answers true (the tick is done), or
   * closes an untick of it still waiting for its answer and answers false (tick as usual).
   */
  function retick(box: string): boolean {
    const offer = offers.value.findLast((o) => o.box === box)
    const pending = unanswered.get(box)
    if (pending) {
      pending.closed = true
      unanswered.delete(box)
    }
    if (!offer) return false
    undo(offer)
    return true
  }

  return { offers, open, undo, retick }
}

export type Undo = ReturnType<typeof createUndo>
