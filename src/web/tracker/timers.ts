// The character's loot timers on the tracker (GET …/timers): the raids on lockout, by name (a raid's
// timer covers every tier), and the runs this week of each remake, by row key. Read after each
// stored change, and again when the soonest of them ends, so a page left open drops a mark on time.
import { useSignal, useSignalEffect } from '@preact/signals'
import { api, type CharacterTimers } from '../api'
import { type Row, rowKey } from './row'
import type { TrackerStore } from './store'

export type RaidLockout = CharacterTimers['raids'][number]
export type QuestWeek = CharacterTimers['quests'][number]

export interface TrackerTimers {
  raids: ReadonlyMap<string, RaidLockout>
  weeks: ReadonlyMap<string, QuestWeek>
}

const NONE: TrackerTimers = { raids: new Map(), weeks: new Map() }

/** The longest wait a browser timer takes (about 24.8 days); the timers end far sooner. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1

export function toTrackerTimers(answer: CharacterTimers): TrackerTimers {
  return {
    raids: new Map(answer.raids.map((r) => [r.name, r])),
    weeks: new Map(answer.quests.map((q) => [rowKey(q as Pick<Row, 'name' | 'difficulty'>), q])),
  }
}

/** When the soonest lockout or window of an answer ends (ms from the answer's own time), or null. */
export function soonestEnd(answer: CharacterTimers): number | null {
  const ends = [...answer.raids.map((r) => r.readyAt), ...answer.quests.map((q) => q.resetsAt)].map(Date.parse)
  if (ends.length === 0) return null
  return Math.max(0, Math.min(...ends) - Date.parse(answer.at))
}

export function useTimers(store: TrackerStore): TrackerTimers {
  const timers = useSignal<TrackerTimers>(NONE)
  const again = useSignal(0)
  useSignalEffect(() => {
    void store.stored.value
    void again.value
    if (store.readOnly) return
    let current = true
    let wake: ReturnType<typeof setTimeout> | undefined
    api
      .timers(store.characterId)
      .then((answer) => {
        if (!current) return
        timers.value = toTrackerTimers(answer)
        const end = soonestEnd(answer)
        // A second after it ends, so the server's clock has passed it too.
        if (end !== null) wake = setTimeout(() => again.value++, Math.min(end + 1000, MAX_TIMEOUT_MS))
      })
      .catch(() => {})
    return () => {
      current = false
      if (wake !== undefined) clearTimeout(wake)
    }
  })
  return timers.value
}
