// The kinds of reincarnation (GAME-RULES.md "Past lives and reincarnation"): what each grants,
// the level it needs, what it resets, and how a kind is told from what a reincarnation granted.
// Sources, the DDO wiki:
// - "Reincarnation" (https://ddowiki.com/page/Reincarnation): heroic (HR), racial (RR) and iconic
//   (IR) reincarnations are true reincarnations, "resetting all quest completions, favor and class
//   advancement"; lesser (LR) and epic (ER) ones "retain a character's progression in heroic
//   levels, quest completions and favor". HR grants the dominant class's past life, RR the race's,
//   IR the iconic race's and the class's, ER one epic past life of the player's choice.
// - "Heroic True Reincarnation" (https://ddowiki.com/page/Heroic_True_Reincarnation): characters
//   that are not iconic heroes, from level 20; back to level 1 (15 into an iconic); "Loss of all
//   Favor and character-level favor rewards", "Loss of all quest completions".
// - "Racial Reincarnation" (https://ddowiki.com/page/Racial_Reincarnation): the same, "after level
//   20, to all characters who are not currently Iconic Heroes"; "A reincarnation cannot be
//   combined with any other reincarnation option - it's one or the other, never two".
// - "Iconic True Reincarnation" (https://ddowiki.com/page/Iconic_True_Reincarnation): out of an
//   iconic life only, "at Level 30".
// - "Epic Reincarnation" (https://ddowiki.com/page/Epic_Reincarnation): "Character is Level 30",
//   level 30 back to 20; "Quest progress is not reset, even for epic quests" (no first-time or
//   bravery bonus again).
// - "Lesser Reincarnation" (https://ddowiki.com/page/Lesser_Reincarnation): at any level; the
//   character keeps race, alignment, class selections, "all favor and experience"; no past life.

import { MAX_PAST_LIFE_STACKS } from './gameData'
import { isPastLife } from './pastLives'
import type { ClassLevels } from './shapes'

export const REINCARNATION_KINDS = ['heroic', 'racial', 'iconic', 'epic', 'lesser'] as const
export type ReincarnationKind = (typeof REINCARNATION_KINDS)[number]

/** The true reincarnations: back to level 1 (15 as an iconic), quests and favor start over. */
export const TRUE_REINCARNATIONS: readonly ReincarnationKind[] = ['heroic', 'racial', 'iconic']

/**
 * Whether a reincarnation starts a new quest life (completions, favor, first-time bonuses over).
 * A reincarnation that said no kind and granted nothing (`null`) is taken as a true one: what the
 * server did with every reincarnation before kinds were kept.
 */
export const startsQuestLife = (kind: ReincarnationKind | null): boolean =>
  kind === null || TRUE_REINCARNATIONS.includes(kind)

/** The character level each kind needs (the wiki pages above); lesser: any level. */
export const REINCARNATION_LEVEL: Readonly<Record<ReincarnationKind, number>> = {
  heroic: 20,
  racial: 20,
  iconic: 30,
  epic: 30,
  lesser: 1,
}

/** One line per kind: what it grants and what it resets (the website's form, the docs). */
export const REINCARNATION_RESETS: Readonly<Record<ReincarnationKind, string>> = {
  heroic: "Grants the dominant class's past life. Back to level 1: quests, favor and first-time bonuses start over.",
  racial: "Grants the race's past life. Back to level 1: quests, favor and first-time bonuses start over.",
  iconic:
    "Grants the iconic race's past life and the dominant class's. Back to level 1 (15 as an iconic): quests, favor and first-time bonuses start over.",
  epic: 'Grants one epic past life of your choice. Level 30 back to 20; quests, favor and class levels are kept.',
  lesser: 'Grants nothing (a respec). Level, quests, favor and class levels are kept.',
}

/** The past-life types each kind grants: its own, and an iconic one the class's too. */
const GRANTED_TYPES: Readonly<Record<ReincarnationKind, readonly string[]>> = {
  heroic: ['HeroicPastLife'],
  racial: ['RacialPastLife'],
  iconic: ['IconicPastLife', 'HeroicPastLife'],
  epic: ['EpicPastLife'],
  lesser: [],
}

const GRANTS_WORDS: Readonly<Record<ReincarnationKind, string>> = {
  heroic: "grants the dominant class's heroic past life only",
  racial: "grants the race's racial past life only",
  iconic: "grants the iconic race's past life and the dominant class's only",
  epic: 'grants one epic past life only',
  lesser: 'grants no past life',
}

const KIND_WORD: Readonly<Record<ReincarnationKind, string>> = {
  heroic: 'A heroic reincarnation',
  racial: 'A racial reincarnation',
  iconic: 'An iconic reincarnation',
  epic: 'An epic reincarnation',
  lesser: 'A lesser reincarnation',
}

interface Grant {
  name: string
  type: string
}

const quoted = (grants: readonly Grant[]) => grants.map((g) => `"${g.name}" (${g.type})`).join(', ')

/**
 * The kind a reincarnation's grants say, or the sentence saying why they cannot be one
 * reincarnation (the game grants one past life per kind; an iconic reincarnation grants the
 * iconic race's and the class's): an iconic past life → iconic, a racial one → racial, a heroic
 * one → heroic, an epic one → epic; nothing granted → null. Feats of other types are no grant.
 */
export function kindOfGrants(grants: readonly Grant[]): { kind: ReincarnationKind | null } | { error: string } {
  const pastLives = grants.filter((g) => isPastLife(g.type))
  const ofType = (type: string) => pastLives.filter((g) => g.type === type)
  const heroic = ofType('HeroicPastLife')
  const racial = ofType('RacialPastLife')
  const iconic = ofType('IconicPastLife')
  const epic = ofType('EpicPastLife')
  for (const [list, word] of [
    [heroic, 'heroic'],
    [racial, 'racial'],
    [iconic, 'iconic'],
    [epic, 'epic'],
  ] as const) {
    if (list.length > 1) {
      return {
        error: `A reincarnation grants one ${word} past life; this one would grant ${list.length}: ${quoted(list)}.`,
      }
    }
  }
  const trueGrants = [...heroic, ...racial, ...iconic]
  if (epic.length > 0 && trueGrants.length > 0) {
    return {
      error: `An epic reincarnation grants an epic past life only, and a heroic, racial or iconic one grants no epic past life; this one would grant ${quoted([...trueGrants, ...epic])}.`,
    }
  }
  if (racial.length > 0 && (heroic.length > 0 || iconic.length > 0)) {
    return {
      error: `A reincarnation is one kind, never two at once: a heroic one grants the class's past life, a racial one the race's (only an iconic one grants two, the iconic race's and the class's); this one would grant ${quoted(trueGrants)}.`,
    }
  }
  if (iconic.length > 0) return { kind: 'iconic' }
  if (racial.length > 0) return { kind: 'racial' }
  if (heroic.length > 0) return { kind: 'heroic' }
  if (epic.length > 0) return { kind: 'epic' }
  return { kind: null }
}

/**
 * The sentence saying why `grants` do not fit a reincarnation of `kind`, or null when they do: a
 * kind grants its own past life (at most one), an iconic one the class's too, a lesser one nothing.
 */
export function grantsProblem(kind: ReincarnationKind, grants: readonly Grant[]): string | null {
  const said = kindOfGrants(grants)
  if ('error' in said) return said.error
  const foreign = grants.filter((g) => isPastLife(g.type) && !GRANTED_TYPES[kind].includes(g.type))
  if (foreign.length === 0) return null
  return `${KIND_WORD[kind]} ${GRANTS_WORDS[kind]}; this one would grant ${quoted(foreign)}.`
}

/**
 * The kind of a reincarnation recorded before kinds were kept (the upgrade's repair, an imported
 * history), from the past lives its next life has beyond the finished one's: an epic one when
 * that is one more stack of one epic past life and nothing else; otherwise null (taken as a true
 * reincarnation, as it was). Only the epic kind can be told this way: a lesser reincarnation
 * granted nothing, like a true one that granted nothing (at 3 stacks, or not asked for), and a
 * live snapshot synced after a reincarnation may add past lives earned before the server knew the
 * character; the rule asks for exactly what an epic reincarnation adds.
 */
export function recordedKind(
  finished: readonly { name: string; type: string; stacks: number }[],
  next: readonly { name: string; type: string; stacks: number }[],
): 'epic' | null {
  const key = (f: Grant) => `${f.type}\u0000${f.name}`
  const before = new Map<string, number>()
  for (const f of finished) if (isPastLife(f.type)) before.set(key(f), (before.get(key(f)) ?? 0) + f.stacks)
  const after = new Map<string, number>()
  for (const f of next) if (isPastLife(f.type)) after.set(key(f), (after.get(key(f)) ?? 0) + f.stacks)
  const gained = [...after].filter(([k, stacks]) => Math.min(stacks, MAX_PAST_LIFE_STACKS) > (before.get(k) ?? 0))
  if (gained.length !== 1) return null
  const [k, stacks] = gained[0] as [string, number]
  return k.startsWith('EpicPastLife\u0000') && Math.min(stacks, MAX_PAST_LIFE_STACKS) - (before.get(k) ?? 0) === 1
    ? 'epic'
    : null
}

/** The quest life of the next life: its own for a true reincarnation, else the finished life's. */
export const nextQuestLife = (kind: ReincarnationKind | null, finished: { lifeIndex: number; questLife: number }) =>
  startsQuestLife(kind) ? finished.lifeIndex + 1 : finished.questLife

/**
 * The class levels of the new life, and the character's epic levels after: a true reincarnation
 * starts with none (the class of level 1 is chosen in game); an epic one keeps the heroic levels
 * and drops the epic ones (level 30 back to 20); a lesser one keeps everything.
 */
export function levelsAfter(
  kind: ReincarnationKind | null,
  classes: readonly ClassLevels[],
  epicLevels: number,
): { classes: ClassLevels[]; epicLevels: number } {
  if (startsQuestLife(kind)) return { classes: [], epicLevels: 0 }
  if (kind === 'epic') return { classes: classes.map((c) => ({ ...c })), epicLevels: 0 }
  return { classes: classes.map((c) => ({ ...c })), epicLevels }
}
