// Past lives at a glance (GAME-RULES.md "Past lives and reincarnation"), for completionists: per
// character, its heroic past lives per class, racial per race, iconic per race and epic per
// sphere (every one the game data knows, 0 included), totals, and what its next reincarnation
// would grant; per account, the same summed over its characters.
//
// Where the numbers come from: the lives history and the live snapshot each say which past lives
// the character has. The history's figure for a past life is the most stacks any of its lives
// had (they carry forward, so that is usually the newest life's; what a finished life recorded
// stays, even when a later snapshot leaves a past life out); the snapshot's is its
// `life.specialFeats`, which
// may hold lives this server never saw (earned before the plugin was installed). The glance takes
// the larger of the two per past life, capped at 3. A finished life's classes and race are not
// counted as past lives by themselves: a reincarnation records what it granted in the next life's
// feats, and one that granted nothing (an epic or a lesser one, or grants not asked for) granted
// nothing.

import {
  CLASSES,
  type ClassData,
  EPIC_PAST_LIVES,
  EPIC_SPHERES,
  findClass,
  findRace,
  gameNameKey,
  MAX_PAST_LIFE_STACKS,
  RACES,
  type RaceData,
} from './gameData'
import { dominantClass, heroicPastLife, racialPastLife } from './pastLives'
import { REINCARNATION_LEVEL } from './reincarnation'
import type { ClassLevels } from './shapes'

export type PastLifeKind = 'heroic' | 'racial' | 'iconic' | 'epic'

export const PAST_LIFE_KINDS: readonly PastLifeKind[] = ['heroic', 'racial', 'iconic', 'epic']

const KIND_OF_TYPE: Readonly<Record<string, PastLifeKind>> = {
  HeroicPastLife: 'heroic',
  RacialPastLife: 'racial',
  IconicPastLife: 'iconic',
  EpicPastLife: 'epic',
}

/**
 * Past-life feats the game data does not know (a class or race newer than the table, a
 * misspelling) are listed under their own names, at most this many per character (and per
 * account); the rest are left out of the lists and totals and counted in `unlisted`. Real
 * characters have none or a few; without a cap, a history of 200 lives of 500 made-up feats each
 * would make a glance of 100,000 rows.
 */
export const MAX_OTHER_PAST_LIVES = 50

/** A feat as stored or sent (the live snapshot keeps what the client sent): any field may be missing. */
export interface FeatInput {
  name?: string
  type?: string
  stacks?: number
}

export interface HeroicPastLives {
  /** The class (an archetype is a class of its own, with its own past life). */
  class: string
  /** The class an archetype belongs to; null for a base class or a class the table does not know. */
  baseClass: string | null
  feat: string
  count: number
}

export interface RacialPastLives {
  race: string
  feat: string
  count: number
}

export interface IconicPastLives {
  race: string
  /** The class an iconic starts in; null for a race the table does not know. */
  class: string | null
  feat: string
  count: number
}

export interface EpicFeatPastLives {
  name: string
  feat: string
  count: number
}

export interface EpicSpherePastLives {
  /** Arcane, Divine, Martial, Primal; "Other" for epic past lives of no known sphere. */
  sphere: string
  /** Stacks of all the sphere's past lives together. */
  count: number
  /** The most the sphere can hold: 3 per past life. */
  max: number
  feats: EpicFeatPastLives[]
}

export interface PastLifeTotals {
  heroic: number
  racial: number
  iconic: number
  epic: number
  all: number
}

/** One past life a reincarnation would grant: its stacks now (`from`) and after (`to`, at most 3). */
export interface PastLifeGrant {
  kind: PastLifeKind
  /** The class, race or epic past life's own name. */
  name: string
  /** Epic past lives: their sphere; null for the others. */
  sphere: string | null
  feat: string
  from: number
  /** `from` + 1, but never above 3: at 3 the reincarnation adds nothing to this past life. */
  to: number
}

export interface ReincarnationOption {
  /** heroic, racial and iconic are true reincarnations (back to level 1); epic keeps the levels. */
  kind: PastLifeKind
  /** True when the player picks one of `grants` (epic); false when it grants all of them. */
  choice: boolean
  /** The character level this kind needs (rules/character/reincarnation.ts). */
  requiredLevel: number
  /** Whether the character's level reaches it. */
  allowed: boolean
  grants: PastLifeGrant[]
}

export interface NextReincarnation {
  race: string
  dominantClass: string | null
  /** The character's level, which decides the options it has now. */
  level: number
  options: ReincarnationOption[]
}

/** Past lives per kind, with totals: what a character and an account have in common. */
export interface PastLifeSummary {
  heroic: HeroicPastLives[]
  racial: RacialPastLives[]
  iconic: IconicPastLives[]
  epic: EpicSpherePastLives[]
  totals: PastLifeTotals
  /** The most the lists above can hold (3 per past life). */
  max: PastLifeTotals
  /** Past lives the game data does not know, left out beyond MAX_OTHER_PAST_LIVES. */
  unlisted: number
}

export interface PastLifeGlance extends PastLifeSummary {
  nextReincarnation: NextReincarnation
}

export interface GlanceInput {
  /** Every life's past lives (each life's `specialFeats`; other feats are skipped), oldest first. */
  history: readonly (readonly FeatInput[])[]
  /** The live snapshot's `life.specialFeats`, or null when the character has no snapshot. */
  snapshot: readonly FeatInput[] | null
  /** The current life: the one a reincarnation would finish. */
  current: { race: string; classes: readonly ClassLevels[] }
  /** The character's level (its profile's): each kind of reincarnation needs one. */
  level: number
}

// ---------------------------------------------------------------------------------------------
// Recognising a feat: the table's spelling first, then the class or race its name says.

/** One past life as the glance counts it: which line it is, and how that line is labelled. */
interface Line {
  kind: PastLifeKind
  /** The past-life feat's name: the table's spelling, or as sent for one it does not know. */
  feat: string
  known: boolean
  /** heroic: the class row; racial and iconic: the race row; epic: the sphere and name. */
  classRow?: ClassData
  raceRow?: RaceData
  sphere?: string
  name: string
}

const lineKey = (kind: PastLifeKind, feat: string) => `${kind}\u0000${gameNameKey(feat)}`
const afterPrefix = (feat: string) => feat.replace(/^past life:\s*/i, '').trim()

const classLine = (row: ClassData): Line => ({
  kind: 'heroic',
  feat: row.pastLife,
  known: true,
  classRow: row,
  name: row.name,
})
const raceLine = (row: RaceData): Line => ({
  kind: row.iconicClass ? 'iconic' : 'racial',
  feat: row.pastLife,
  known: true,
  raceRow: row,
  name: row.name,
})
const epicLine = (row: (typeof EPIC_PAST_LIVES)[number]): Line => ({
  kind: 'epic',
  feat: row.pastLife,
  known: true,
  sphere: row.sphere,
  name: row.name,
})

const byFeat = new Map<string, Line>()
for (const row of CLASSES) byFeat.set(lineKey('heroic', row.pastLife), classLine(row))
for (const row of EPIC_PAST_LIVES) byFeat.set(lineKey('epic', row.pastLife), epicLine(row))
// A race's past life is racial or iconic by the race, whichever type a client sent it as; a
// Wood Elf grants the Elf one, so the first row of a past life names it.
const raceByFeat = new Map<string, RaceData>()
for (const row of RACES) if (!raceByFeat.has(gameNameKey(row.pastLife))) raceByFeat.set(gameNameKey(row.pastLife), row)

const epicByName = new Map(EPIC_PAST_LIVES.map((row) => [gameNameKey(`${row.sphere} Sphere: ${row.name}`), row]))
const sphereOf = (name: string) => EPIC_SPHERES.find((s) => gameNameKey(s) === gameNameKey(name))

/**
 * The line a past-life feat counts on: the table's row whose feat it is, else the class or race
 * its name says ("Past Life: Blightcaster" is the Blightcaster's; "Past Life: Drow Elf" the
 * Drow's), else a line of its own under the name sent.
 */
function lineOf(kind: PastLifeKind, feat: string): Line {
  const rest = afterPrefix(feat)
  if (kind === 'heroic') {
    const known = byFeat.get(lineKey('heroic', feat))
    // "Druid - Blight Caster": an archetype named after its class.
    const row = known?.classRow ?? findClass(rest) ?? findClass(rest.replace(/^[^-]+-\s*/, ''))
    return row ? classLine(row) : { kind, feat, known: false, name: rest || feat }
  }
  if (kind === 'racial' || kind === 'iconic') {
    const row = raceByFeat.get(gameNameKey(feat)) ?? findRace(rest)
    const first = row && raceByFeat.get(gameNameKey(row.pastLife))
    return first ? raceLine(first) : { kind, feat, known: false, name: rest || feat }
  }
  const known = byFeat.get(lineKey('epic', feat))
  if (known) return known
  const named = epicByName.get(gameNameKey(rest))
  if (named) return epicLine(named)
  const sphere = /^(.+?)\s+sphere:\s*(.+)$/i.exec(rest)
  return {
    kind,
    feat,
    known: false,
    sphere: (sphere && sphereOf(sphere[1] as string)) ?? 'Other',
    name: sphere ? (sphere[2] as string).trim() : rest || feat,
  }
}

/**
 * A past-life feat as the pages name it: the class's or race's name as the table spells it (the
 * characters list's and the picklists' spelling: "Past Life: Drow" is "Drow Elf", "Past Life:
 * Shadar-Kai" "Shadar-kai", "Past Life: Druid - Blight Caster" "Blightcaster"), an epic one with
 * its sphere ("Arcane Alacrity (Arcane)"); one the table does not know, its name without the
 * prefix. `type` is the feat's (`RacialPastLife`, ...); any other type leaves the name as sent.
 */
export function pastLifeName(type: string, feat: string): string {
  const kind = KIND_OF_TYPE[type.trim()]
  if (!kind) return feat
  const line = lineOf(kind, feat.trim())
  return line.kind === 'epic' && line.sphere ? `${line.name} (${line.sphere})` : line.name
}

/** Stacks per line of one list of feats: entries of one past life added up, as one life holds them. */
function stacksOf(feats: readonly FeatInput[]): Map<string, { line: Line; stacks: number }> {
  const lines = new Map<string, { line: Line; stacks: number }>()
  for (const feat of feats) {
    const kind = KIND_OF_TYPE[feat.type?.trim() ?? '']
    const name = feat.name?.trim() ?? ''
    if (!kind || name === '') continue
    const line = lineOf(kind, name)
    const key = lineKey(line.kind, line.feat)
    const stacks = Math.max(0, feat.stacks ?? 1)
    const found = lines.get(key)
    if (found) found.stacks += stacks
    else lines.set(key, { line, stacks })
  }
  return lines
}

/** What the lives history says, per past life: the most stacks any one life had (capped at 3). */
function historyCounts(history: readonly (readonly FeatInput[])[]): Map<string, { line: Line; count: number }> {
  const most = new Map<string, { line: Line; count: number }>()
  for (const life of history) {
    for (const [key, { line, stacks }] of stacksOf(life)) {
      const count = Math.min(stacks, MAX_PAST_LIFE_STACKS)
      const found = most.get(key)
      if (!found) most.set(key, { line, count })
      else if (count > found.count) found.count = count
    }
  }
  return most
}

// ---------------------------------------------------------------------------------------------
// The lists: every past life of the game data in a fixed order, then the others.

/** Base classes in the table's order, each followed by its archetypes. */
const HEROIC_ORDER: readonly ClassData[] = CLASSES.filter((c) => !c.baseClass).flatMap((base) => [
  base,
  ...CLASSES.filter((c) => c.baseClass === base.name),
])
const RACE_ORDER: readonly RaceData[] = [...raceByFeat.values()]

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)

/**
 * The lists of a summary from a count per line. Lines the game data does not know come after
 * its own, by kind and name, at most MAX_OTHER_PAST_LIVES of them (the rest counted in `unlisted`).
 * `unlisted` adds those already left out upstream (an account's characters).
 */
function summaryOf(counts: ReadonlyMap<string, { line: Line; count: number }>, unlistedBefore = 0): PastLifeSummary {
  const countOf = (kind: PastLifeKind, feat: string) => counts.get(lineKey(kind, feat))?.count ?? 0
  const others = [...counts.values()]
    .filter(({ line }) => !line.known)
    .sort(
      (a, b) =>
        PAST_LIFE_KINDS.indexOf(a.line.kind) - PAST_LIFE_KINDS.indexOf(b.line.kind) ||
        a.line.feat.localeCompare(b.line.feat),
    )
  const listed = others.slice(0, MAX_OTHER_PAST_LIVES)
  const otherOf = (kind: PastLifeKind) => listed.filter(({ line }) => line.kind === kind)

  const heroic: HeroicPastLives[] = [
    ...HEROIC_ORDER.map((row) => ({
      class: row.name,
      baseClass: row.baseClass ?? null,
      feat: row.pastLife,
      count: countOf('heroic', row.pastLife),
    })),
    ...otherOf('heroic').map(({ line, count }) => ({ class: line.name, baseClass: null, feat: line.feat, count })),
  ]
  const racial: RacialPastLives[] = [
    ...RACE_ORDER.filter((row) => !row.iconicClass).map((row) => ({
      race: row.name,
      feat: row.pastLife,
      count: countOf('racial', row.pastLife),
    })),
    ...otherOf('racial').map(({ line, count }) => ({ race: line.name, feat: line.feat, count })),
  ]
  const iconic: IconicPastLives[] = [
    ...RACE_ORDER.filter((row) => row.iconicClass).map((row) => ({
      race: row.name,
      class: row.iconicClass ?? null,
      feat: row.pastLife,
      count: countOf('iconic', row.pastLife),
    })),
    ...otherOf('iconic').map(({ line, count }) => ({ race: line.name, class: null, feat: line.feat, count })),
  ]
  const otherEpic = otherOf('epic')
  const spheres = [...EPIC_SPHERES, ...(otherEpic.some(({ line }) => line.sphere === 'Other') ? ['Other'] : [])]
  const epic: EpicSpherePastLives[] = spheres.map((sphere) => {
    const feats = [
      ...EPIC_PAST_LIVES.filter((row) => row.sphere === sphere).map((row) => ({
        name: row.name,
        feat: row.pastLife,
        count: countOf('epic', row.pastLife),
      })),
      ...otherEpic
        .filter(({ line }) => line.sphere === sphere)
        .map(({ line, count }) => ({ name: line.name, feat: line.feat, count })),
    ]
    return {
      sphere,
      count: sum(feats.map((f) => f.count)),
      max: feats.length * MAX_PAST_LIFE_STACKS,
      feats,
    }
  })

  const totalsOf = (pick: (entry: { count: number }) => number): PastLifeTotals => {
    const totals = {
      heroic: sum(heroic.map(pick)),
      racial: sum(racial.map(pick)),
      iconic: sum(iconic.map(pick)),
      epic: sum(epic.flatMap((s) => s.feats).map(pick)),
    }
    return { ...totals, all: totals.heroic + totals.racial + totals.iconic + totals.epic }
  }
  return {
    heroic,
    racial,
    iconic,
    epic,
    totals: totalsOf((e) => e.count),
    max: totalsOf(() => MAX_PAST_LIFE_STACKS),
    unlisted: unlistedBefore + others.length - listed.length,
  }
}

// ---------------------------------------------------------------------------------------------
// One character

/**
 * What reincarnating out of the current life would grant (the DDO wiki's "Reincarnation"): a
 * heroic one the past life of its dominant class; a racial one its race's; an iconic one (out of
 * an iconic race) the iconic past life and the dominant class's; an epic one a past life of the
 * player's choice among the epic ones. Each goes up by one, but not above 3: a past life at 3
 * gains nothing more (the wiki's "Racial Past Life Feats": more than 3 adds no further bonuses).
 * Each kind needs a level (REINCARNATION_LEVEL, from the wiki's page of each kind): heroic and
 * racial 20, iconic and epic 30; an option the character's level does not reach is not `allowed`.
 */
function nextReincarnation(
  current: GlanceInput['current'],
  level: number,
  summary: PastLifeSummary,
): NextReincarnation {
  const countOf = (kind: PastLifeKind, feat: string): number => {
    const key = lineKey(kind, feat)
    const lists: { feat: string; count: number }[][] = [
      summary.heroic,
      summary.racial,
      summary.iconic,
      summary.epic.flatMap((s) => s.feats),
    ]
    return lists[PAST_LIFE_KINDS.indexOf(kind)]?.find((e) => lineKey(kind, e.feat) === key)?.count ?? 0
  }
  const grant = (kind: PastLifeKind, name: string, feat: string, sphere: string | null = null): PastLifeGrant => {
    const from = countOf(kind, feat)
    return { kind, name, sphere, feat, from, to: Math.min(from + 1, MAX_PAST_LIFE_STACKS) }
  }
  const dominant = dominantClass([...current.classes]) ?? null
  const race = current.race.trim()
  const heroicGrants = dominant ? [grant('heroic', dominant, lineOf('heroic', heroicPastLife(dominant).name).feat)] : []
  const option = (kind: PastLifeKind, choice: boolean, grants: PastLifeGrant[]): ReincarnationOption => ({
    kind,
    choice,
    requiredLevel: REINCARNATION_LEVEL[kind],
    allowed: level >= REINCARNATION_LEVEL[kind],
    grants,
  })
  const epic = option(
    'epic',
    true,
    summary.epic.flatMap((s) =>
      s.feats.filter((f) => f.count < MAX_PAST_LIFE_STACKS).map((f) => grant('epic', f.name, f.feat, s.sphere)),
    ),
  )
  const raceFeat = race === '' ? undefined : racialPastLife(race)
  const raceLineOf = raceFeat && lineOf(raceFeat.type === 'IconicPastLife' ? 'iconic' : 'racial', raceFeat.name)
  const options: ReincarnationOption[] =
    raceLineOf?.kind === 'iconic'
      ? [option('iconic', false, [grant('iconic', raceLineOf.name, raceLineOf.feat), ...heroicGrants]), epic]
      : [
          option('heroic', false, heroicGrants),
          option('racial', false, raceLineOf ? [grant('racial', raceLineOf.name, raceLineOf.feat)] : []),
          epic,
        ]
  return { race, dominantClass: dominant, level, options }
}

/** A character's past lives at a glance: history and snapshot together, per past life the larger. */
export function pastLifeGlance(input: GlanceInput): PastLifeGlance {
  const counts = historyCounts(input.history)
  for (const [key, { line, stacks }] of stacksOf(input.snapshot ?? [])) {
    const count = Math.min(stacks, MAX_PAST_LIFE_STACKS)
    const found = counts.get(key)
    if (!found) counts.set(key, { line, count })
    else if (count > found.count) found.count = count
  }
  const summary = summaryOf(counts)
  return { ...summary, nextReincarnation: nextReincarnation(input.current, input.level, summary) }
}

// ---------------------------------------------------------------------------------------------
// An account

/**
 * An account's past lives: each past life's count summed over its characters (so a sum may pass
 * 3), totals and maxima summed too; past lives the game data does not know merged by name.
 */
export function accountPastLives(glances: readonly PastLifeSummary[]): PastLifeSummary {
  const counts = new Map<string, { line: Line; count: number }>()
  const add = (kind: PastLifeKind, feat: string, count: number) => {
    const line = lineOf(kind, feat)
    const key = lineKey(line.kind, line.feat)
    const found = counts.get(key)
    if (found) found.count += count
    else counts.set(key, { line, count })
  }
  for (const glance of glances) {
    for (const e of glance.heroic) add('heroic', e.feat, e.count)
    for (const e of glance.racial) add('racial', e.feat, e.count)
    for (const e of glance.iconic) add('iconic', e.feat, e.count)
    for (const e of glance.epic.flatMap((s) => s.feats)) add('epic', e.feat, e.count)
  }
  const summary = summaryOf(counts, sum(glances.map((g) => g.unlisted)))
  // The most an account can hold: what each of its characters can.
  const maxOf = (kind: keyof PastLifeTotals) => sum(glances.map((g) => g.max[kind]))
  const max = {
    heroic: maxOf('heroic'),
    racial: maxOf('racial'),
    iconic: maxOf('iconic'),
    epic: maxOf('epic'),
    all: maxOf('all'),
  }
  const epic = summary.epic.map((sphere) => ({
    ...sphere,
    max: sum(glances.map((g) => g.epic.find((s) => s.sphere === sphere.sphere)?.max ?? 0)),
  }))
  return { ...summary, epic, max }
}
