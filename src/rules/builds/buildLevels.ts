// Which classes a build has and how many levels of each, from `build.levels` (one entry per
// character level) or, without it, from `build.classes` when there is one class. Used by the
// breakdown, the validation and the profile sync.

import { MAX_EPIC_LEVELS, MAX_HEROIC_LEVEL, NON_CLASS_LABELS } from '../character/gameData'
import type { ClassLevels } from '../character/shapes'
import type { BuildDocument } from './buildDocument'

export interface LevelSummary {
  /** The level the build reaches: `build.level`, else the number of `build.levels` entries. */
  level: number | null
  /** Class levels among the levels reached, in class-slot order. */
  classes: ClassLevels[]
  /** Levels above 20. */
  epicLevels: number
  /** False when the split between classes cannot be told (no `build.levels`, several classes). */
  classesKnown: boolean
}

/** A class name as written, or undefined for a level label that is no class ("Epic", "Unknown"). */
export function classLabel(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const name = value.trim()
  return NON_CLASS_LABELS.includes(name.toLowerCase()) ? undefined : name
}

export function summarizeLevels(build: BuildDocument['build']): LevelSummary {
  const slots = (build?.classes ?? []).map(classLabel).filter((c): c is string => c !== undefined)
  const declared = typeof build?.level === 'number' ? build.level : null
  const levels = build?.levels
  if (levels && levels.length > 0) {
    const level = declared ?? levels.length
    const counts = new Map<string, number>()
    for (const slot of slots) counts.set(slot, 0)
    for (const entry of levels.slice(0, Math.max(0, level))) {
      const name = classLabel(entry.class)
      if (name) counts.set(name, (counts.get(name) ?? 0) + 1)
    }
    const classes = [...counts].filter(([, n]) => n > 0).map(([name, n]) => ({ name, levels: n }))
    return { level, classes, epicLevels: epicLevelsOf(level), classesKnown: true }
  }
  if (declared !== null && slots.length === 1) {
    const classes = declared > 0 ? [{ name: slots[0], levels: Math.min(declared, MAX_HEROIC_LEVEL) }] : []
    return { level: declared, classes, epicLevels: epicLevelsOf(declared), classesKnown: true }
  }
  return { level: declared, classes: [], epicLevels: epicLevelsOf(declared ?? 0), classesKnown: false }
}

function epicLevelsOf(level: number): number {
  return Math.min(MAX_EPIC_LEVELS, Math.max(0, level - MAX_HEROIC_LEVEL))
}
