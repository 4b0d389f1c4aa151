// Past lives and reincarnation (GAME-RULES.md "Past lives and reincarnation"): which feats a
// finished life grants, the 3-stack cap, and what carries into the next life.

import { findClass, findRace, MAX_PAST_LIFE_STACKS, PAST_LIFE_TYPES } from './gameData'
import type { ClassLevels, SpecialFeat } from './shapes'

export const isPastLife = (type: string) => (PAST_LIFE_TYPES as readonly string[]).includes(type)

/** Feats as stored: every entry named and typed, stacks default 1, one entry per (name, type). */
export function normalizeFeats(feats: { name?: string; type?: string; stacks?: number }[]): SpecialFeat[] {
  const merged = new Map<string, SpecialFeat>()
  for (const feat of feats) {
    const name = feat.name?.trim() ?? ''
    if (name === '') continue
    const type = feat.type?.trim() ?? ''
    const key = `${type}\u0000${name}`
    const stacks = feat.stacks ?? 1
    const found = merged.get(key)
    if (found) found.stacks += stacks
    else merged.set(key, { name, type, stacks })
  }
  return [...merged.values()]
}

/** Adds feats to a list, past lives capped at 3 stacks each. */
export function addFeats(list: SpecialFeat[], added: SpecialFeat[]): SpecialFeat[] {
  return normalizeFeats([...list, ...added]).map((feat) =>
    isPastLife(feat.type) ? { ...feat, stacks: Math.min(feat.stacks, MAX_PAST_LIFE_STACKS) } : feat,
  )
}

/** The class with the most levels; on a tie the first one. */
export function dominantClass(classes: ClassLevels[]): string | undefined {
  let best: ClassLevels | undefined
  for (const c of classes) if (c.levels > 0 && (!best || c.levels > best.levels)) best = c
  return best?.name
}

/**
 * The class's past life from the game data table ("Past Life: Monk"; an archetype names its
 * class first: "Past Life: Paladin - Sacred Fist"); a class the table does not know gets
 * "Past Life: <class>".
 */
export function heroicPastLife(className: string): SpecialFeat {
  const name = findClass(className)?.pastLife ?? `Past Life: ${className.trim()}`
  return { name, type: 'HeroicPastLife', stacks: 1 }
}

/**
 * The race's past life from the game data table: an IconicPastLife for an iconic race
 * ("Past Life: Dark Bargainer"), else a RacialPastLife ("Past Life: Drow" for a Drow Elf, the Elf
 * one for a Wood Elf); a race the table does not know gets a RacialPastLife "Past Life: <race>".
 */
export function racialPastLife(race: string): SpecialFeat {
  const found = findRace(race)
  if (!found) return { name: `Past Life: ${race.trim()}`, type: 'RacialPastLife', stacks: 1 }
  return { name: found.pastLife, type: found.iconicClass ? 'IconicPastLife' : 'RacialPastLife', stacks: 1 }
}

/**
 * The special feats of the next life: everything of the finished life except favor rewards
 * (favor resets on reincarnation), plus the grants, past lives capped at 3 stacks.
 */
export function nextLifeFeats(previous: SpecialFeat[], grants: SpecialFeat[]): SpecialFeat[] {
  return addFeats(
    previous.filter((feat) => feat.type !== 'Favor'),
    grants,
  )
}

/**
 * Replaces the past lives of a feat list with `pastLives` (the complete list), keeping the
 * other special feats; entries of other types in `pastLives` replace the same (name, type).
 * Entries are kept as sent (with any extra keys).
 */
export function replacePastLives<F extends { name?: string; type?: string }>(feats: F[], pastLives: F[]): F[] {
  const key = (f: F) => `${f.type ?? ''}\u0000${f.name ?? ''}`
  const replaced = new Set(pastLives.map(key))
  const kept = feats.filter((f) => !isPastLife(f.type ?? '') && !replaced.has(key(f)))
  return [...kept, ...pastLives]
}

/**
 * The past lives a finished life granted: the stacks its next life has beyond its own (past-life
 * types only, so a favor reward dropped on reincarnation is no "grant"). For the lives timeline.
 * A grant that hit the 3-stack cap left nothing to see, so it is not listed.
 */
export function grantedPastLives(finished: readonly SpecialFeat[], next: readonly SpecialFeat[]): SpecialFeat[] {
  const key = (f: SpecialFeat) => `${f.type}\u0000${f.name}`
  const before = new Map(normalizeFeats([...finished]).map((f) => [key(f), f.stacks]))
  return normalizeFeats([...next])
    .filter((f) => isPastLife(f.type))
    .map((f) => ({ ...f, stacks: f.stacks - (before.get(key(f)) ?? 0) }))
    .filter((f) => f.stacks > 0)
}

/** What a finished life granted on a true reincarnation: its dominant class's and its race's past lives. */
export function grantsOf(life: { race: string; classes: ClassLevels[] }): SpecialFeat[] {
  const cls = dominantClass(life.classes)
  return [...(cls ? [heroicPastLife(cls)] : []), ...(life.race.trim() ? [racialPastLife(life.race)] : [])]
}

/**
 * The past lives each life of a history had, from those the character has now (`now`, in its
 * current life) and its finished lives, oldest first: each finished life granted its dominant
 * class's and its race's past life (grantsOf), so the life before had that much less (never below
 * none; epic past lives, which no finished life grants here, were there all along). Answers one
 * list per finished life, then `now` for the current life.
 */
export function pastLivesByLife(
  now: readonly SpecialFeat[],
  finished: readonly { race: string; classes: ClassLevels[] }[],
): SpecialFeat[][] {
  const key = (f: SpecialFeat) => `${f.type}\u0000${f.name}`
  const result: SpecialFeat[][] = [normalizeFeats(now.filter((f) => isPastLife(f.type)))]
  for (let i = finished.length - 1; i >= 0; i--) {
    const taken = new Map<string, number>()
    for (const grant of grantsOf(finished[i] as { race: string; classes: ClassLevels[] })) {
      taken.set(key(grant), (taken.get(key(grant)) ?? 0) + grant.stacks)
    }
    const after = result[0] as SpecialFeat[]
    result.unshift(
      after.map((f) => ({ ...f, stacks: f.stacks - (taken.get(key(f)) ?? 0) })).filter((f) => f.stacks > 0),
    )
  }
  return result
}
